// What the trajectory exports to trainers share (./turnExport.ts lists them): the pass, the tally the
// summary reports, messages as TRL reads them, and the steps a judgement refers to.
import type { ChatMessage, Content, ItemRecord } from '../../../../shared/domain';
import { TURN_EXPORT_FORMATS, type RankingPairs, type TurnExportFormat } from '../../../../shared/formatNames';
import { plural } from '../../../../shared/plural';
import type { SegmentationMethod } from '../../../../shared/segment';
import { canonical, isTrajectory, parseArguments, plainMessage, trajectoryTurns, type ToolCall, type TrajectoryMessage, type Turn } from '../../../../shared/trajectory';
import type { Db } from '../../store/db';
import { headLoader, type HeadLabel } from '../../store/labels';
import { segmentationKey, segmentationsBetween } from '../../store/segmentations';
import { forEachPage, type ItemPass } from '../base/itemPass';
import { isPlainObject } from '../validate';
import { trajectoryTools } from './common';

export const isTurnExportFormat = (format: string): format is TurnExportFormat => (TURN_EXPORT_FORMATS as readonly string[]).includes(format);

export interface TurnPass extends ItemPass {
  format: TurnExportFormat;
  /** trl-stepwise-turns: neutral (0) turns are true. */
  neutral: boolean;
  /** trl-tools: which pairs a ranking gives. */
  rankingPairs: RankingPairs;
  /** How the project cuts a response with no stored steps (the scorer's reading needs it). */
  segmentation: SegmentationMethod;
}

/** What the summary says beyond the skipped counts. */
export class TurnTally {
  /** Items none of whose responses is a trajectory (no agent turn). */
  notTrajectory = 0;
  /** Judgements made on steps that are no longer the turns (an annotator split or merged them). */
  notTurns = 0;
  /** Tool call arguments that were JSON strings, written as JSON objects (TRL's shape). */
  parsedArguments = 0;
  /** Tool call arguments that are strings but not JSON objects: kept as they were. */
  badArguments = 0;
  /** Lines whose trajectories' files gave no tool schemas (`tools: []`). */
  noTools = 0;

  notes(): string[] {
    const notes: string[] = [];
    if (this.notTrajectory) notes.push(`${plural(this.notTrajectory, 'item has', 'items have')} no agent turn (not a trajectory) and ${this.notTrajectory === 1 ? 'was' : 'were'} left out`);
    if (this.notTurns)
      notes.push(`${plural(this.notTurns, 'judgement was', 'judgements were')} made on steps that are no longer the trajectory's turns (split or merged) and left out; trl-stepwise writes them as steps`);
    if (this.parsedArguments) notes.push(`${plural(this.parsedArguments, 'tool call', 'tool calls')} had JSON-string arguments, written as JSON objects (as TRL writes them)`);
    if (this.badArguments) notes.push(`${plural(this.badArguments, 'tool call has', 'tool calls have')} string arguments that are not a JSON object, kept as they were: a chat template may render them as a quoted string`);
    if (this.noTools) notes.push(`${plural(this.noTools, 'line has', 'lines have')} "tools": [] because the file gave no tool schemas for ${this.noTools === 1 ? 'its trajectory' : 'their trajectories'}`);
    return notes;
  }
}

/** A response's agent turns, or null when it is not a trajectory. */
export function turnsOf(content: Content): { messages: TrajectoryMessage[]; turns: Turn[] } | null {
  if (!isTrajectory(content)) return null;
  const turns = trajectoryTurns(content);
  return turns.length ? { messages: content, turns } : null;
}

export const isTrajectoryItem = (item: ItemRecord) => item.responses.some((r) => turnsOf(r.content) !== null);

/** A message as TRL reads it: Arbiter's own fields dropped, tool call arguments as JSON objects. */
export function trainerMessage(message: ChatMessage, tally: TurnTally): ChatMessage {
  const plain = plainMessage(message) as TrajectoryMessage;
  if (!Array.isArray(plain.tool_calls)) return plain;
  const calls = plain.tool_calls.map((call: ToolCall) => {
    const args = call?.function?.arguments;
    if (typeof args !== 'string') return call;
    const parsed = parseArguments(args);
    if (!isPlainObject(parsed)) {
      tally.badArguments++;
      return call;
    }
    tally.parsedArguments++;
    return { ...call, function: { ...call.function, arguments: parsed } };
  });
  return { ...plain, tool_calls: calls } as ChatMessage;
}

/** The task as messages (a text prompt is one user message), as TRL reads them. */
export function taskMessages(prompt: Content, tally: TurnTally): ChatMessage[] {
  return typeof prompt === 'string' ? [{ role: 'user', content: prompt }] : prompt.map((m) => trainerMessage(m, tally));
}

/** A response as TRL's assistant side: its messages, or a text response as one assistant message. */
export function responseMessages(content: Content, tally: TurnTally): ChatMessage[] {
  return typeof content === 'string' ? [{ role: 'assistant', content }] : content.map((m) => trainerMessage(m, tally));
}

/** The tool schemas the file gave the item's responses (the union, first seen first); [] when none, counted. */
export function toolsOf(item: ItemRecord, indexes: readonly number[], tally: TurnTally): unknown[] {
  const seen = new Set<string>();
  const tools: unknown[] = [];
  for (const i of indexes)
    for (const tool of trajectoryTools(item, i) ?? []) {
      const key = canonical(tool);
      if (seen.has(key)) continue;
      seen.add(key);
      tools.push(tool);
    }
  if (!tools.length) tally.noTools++;
  return tools;
}

/** The steps a judgement rated: its segmentation version's, else the response's stored steps. */
export function judgedSteps(segmentations: Map<string, string[]>, item: ItemRecord, index: number, version: number | null): string[] | null {
  if (version === null) return item.responses[index]!.steps ?? null;
  return segmentations.get(segmentationKey(item.id, index, version)) ?? null;
}

/** The steps are the turns' texts (the trajectory's own segmentation, not a split or merge of it). */
export function stepsAreTurns(steps: readonly string[] | null, turns: readonly Turn[]): boolean {
  return steps !== null && steps.length === turns.length && turns.every((t, k) => t.text === steps[k]);
}

/** The lowest and highest item id of a page (segmentations are read by id range). */
export function idRange(items: readonly ItemRecord[]): [number, number] {
  let low = Infinity;
  let high = -Infinity;
  for (const item of items) {
    low = Math.min(low, item.id);
    high = Math.max(high, item.id);
  }
  return [low, high];
}

/**
 * Each item of a per-turn export that holds a trajectory, a page at a time, with its current step labels
 * and the page's stored cuts (steps only: the labels a turn export reads). An item with no trajectory is
 * counted in the tally and not visited.
 */
export async function forEachTrajectoryItem(
  db: Db,
  pass: TurnPass,
  tally: TurnTally,
  visit: (item: ItemRecord, labels: HeadLabel[], segmentations: ReturnType<typeof segmentationsBetween>['steps']) => Promise<void> | void,
): Promise<void> {
  const loadHeads = headLoader(db, pass.projectId, pass.annotator, 'steps', true);
  await forEachPage(db, pass, ['steps'], async (items, from, to) => {
    if (!items.length) return;
    const heads = loadHeads(from, to);
    const segmentations = segmentationsBetween(db, ...idRange(items)).steps;
    for (const item of items) {
      if (!item.responses.some((r) => turnsOf(r.content))) {
        tally.notTrajectory++;
        continue;
      }
      await visit(item, heads.get(item.id) ?? [], segmentations);
    }
  });
}
