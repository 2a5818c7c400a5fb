// What the trajectory formats share: one run of a task becomes a ParsedRecord whose prompt is the task
// (the leading system and user messages) and whose one response is the rest of the messages; runs of one
// task (consecutive records with the same task key, or any records for formats that group in any order)
// merge into one item, the task being the messages every run begins with. Everything a run had beyond its
// messages is kept in item.metadata.trajectory.runs[i] (response i), so that each exporter gives it back.
// See shared/trajectory.ts for the model.
import type { ChatMessage, Content, ItemRecord, LabelBody } from '../../../../shared/domain';
import { responseLetter } from '../../../../shared/letters';
import { canonical, trajectoryTurns, turnSteps, type TrajectoryMessage } from '../../../../shared/trajectory';
import { RecordError, type ParsedRecord, type SourceJudgement } from '../types';
import { isPlainObject, setOwn } from '../validate';

export type Json = Record<string, unknown>;

/** An item back as a trajectory format's records (the outcome of each run, by response, where the file gave one). */
export type TrajectoryEncoder = (item: ItemRecord, outcomes: (string | null)[]) => Json[];
/** A trajectory's task outcome (shared/stepJudgement.ts TRAJECTORY_OUTCOMES); a chain's are correct / incorrect / unsure. */
export type Outcome = 'success' | 'partial' | 'failure';

/** What item.metadata.trajectory holds. */
export interface TrajectoryMetadata {
  /** The format the item came from. */
  format: string;
  /** Per response (in order): the run's fields beyond its messages. */
  runs: Json[];
  /** No message was common to every run: the prompt is a name made up for the task, not in the file. */
  madePrompt?: true;
  /** The record's own fields beyond its runs (formats whose one record holds several runs). */
  record?: Json;
}

export const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

/** `object` without `keys` (own keys only, "__proto__" kept as data). */
export function without(object: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(object)) if (!keys.includes(k)) setOwn(out, k, v);
  return out;
}

/** The leading system and user messages: how many. */
export function leadingTask(messages: readonly ChatMessage[]): number {
  let n = 0;
  while (n < messages.length && (messages[n]!.role === 'system' || messages[n]!.role === 'user')) n++;
  return n;
}

/** Checks a message's content: text, a list of typed parts, or null / missing. */
export function checkContent(c: unknown, where: string): void {
  if (!(c === null || c === undefined || typeof c === 'string' || (Array.isArray(c) && c.every((p) => isPlainObject(p) && typeof p.type === 'string'))))
    throw new RecordError(`${where}: expected text, a list of typed parts or null, got ${describe(c)}`);
}

/** Checks a message list's shape (roles, content, tool calls) and names the first thing wrong. */
export function checkMessages(value: unknown, where: string): TrajectoryMessage[] {
  if (!Array.isArray(value)) throw new RecordError(`${where}: ${value === undefined ? 'missing' : `expected a list of messages, got ${describe(value)}`}`);
  value.forEach((m, i) => {
    const at = `${where}[${i}]`;
    if (!isPlainObject(m)) throw new RecordError(`${at}: expected a message object, got ${describe(m)}`);
    if (typeof m.role !== 'string' || !m.role) throw new RecordError(`${at}.role: ${m.role === undefined ? 'missing' : `expected a role (system, user, assistant, tool), got ${JSON.stringify(m.role)}`}`);
    checkContent(m.content, `${at}.content`);
    const calls = m.tool_calls;
    if (calls !== undefined && calls !== null) {
      if (!Array.isArray(calls)) throw new RecordError(`${at}.tool_calls: expected a list, got ${describe(calls)}`);
      calls.forEach((call, j) => {
        const fn = isPlainObject(call) ? call.function : undefined;
        if (!isPlainObject(fn) || typeof fn.name !== 'string') throw new RecordError(`${at}.tool_calls[${j}].function.name: expected the tool's name`);
        if (!(typeof fn.arguments === 'string' || isPlainObject(fn.arguments))) throw new RecordError(`${at}.tool_calls[${j}].function.arguments: expected a JSON object or a JSON string, got ${describe(fn.arguments)}`);
      });
    }
  });
  return value as TrajectoryMessage[];
}

/**
 * Whether a value is a trajectory's message list that the plain chat schema refuses: well-formed messages
 * (checkMessages) with an assistant message, where some message has null or no content beside its tool calls.
 */
export function isTrajectoryMessages(value: unknown): value is TrajectoryMessage[] {
  try {
    const messages = checkMessages(value, 'messages');
    return messages.some((m) => m.role === 'assistant') && messages.some((m) => m.content === null || m.content === undefined);
  } catch (error) {
    if (error instanceof RecordError) return false;
    throw error;
  }
}

export interface RunInput {
  format: string;
  /** The task's key: runs with the same key become one item (also the item's external id). */
  externalId: string | null;
  /** Every message of the run, the task included. */
  messages: ChatMessage[];
  /** A prompt to use when the run begins with no system or user message (e.g. a task name). */
  fallbackPrompt: string;
  model: string | null;
  reference: string | null;
  /** The run's fields beyond its messages (kept for the exporter). */
  run: Json;
  outcome: Outcome | null;
  /** Where the messages are in the record, for messages. */
  where: string;
}

/** One run as an item of one response (merged with the other runs of its task by mergeRuns). */
export function runRecord(input: RunInput): ParsedRecord {
  if (!input.messages.some((m) => m.role === 'assistant')) throw new RecordError(`${input.where}: no agent turn (no assistant message), so there is nothing to judge`);
  return build([{ messages: input.messages, model: input.model, run: input.run, outcome: input.outcome }], input.format, input.externalId, input.fallbackPrompt, input.reference);
}

interface Run {
  messages: ChatMessage[];
  model: string | null;
  run: Json;
  outcome: Outcome | null;
}

/** Recovers the runs of a ParsedRecord made by runRecord (or mergeRuns). */
function runsOf(row: ParsedRecord): Run[] {
  const meta = row.draft.metadata.trajectory as TrajectoryMetadata;
  const prompt = meta.madePrompt ? [] : (row.draft.prompt as ChatMessage[]);
  const outcomes = (row.judgement?.body.outcome ?? {}) as Record<string, Outcome>;
  return row.draft.responses.map((r, i) => ({ messages: [...prompt, ...(r.content as ChatMessage[])], model: r.model, run: meta.runs[i] ?? {}, outcome: outcomes[responseLetter(i)] ?? null }));
}

/** The runs of one task, each parsed on its own, as one item. */
export function mergeRuns(rows: ParsedRecord[]): ParsedRecord {
  const first = rows[0]!;
  if (rows.length === 1) return first;
  const meta = first.draft.metadata.trajectory as TrajectoryMetadata;
  const fallback = typeof first.draft.prompt === 'string' ? first.draft.prompt : (first.draft.externalId ?? 'task');
  return build(rows.flatMap(runsOf), meta.format, first.draft.externalId, fallback, first.draft.reference);
}

function build(runs: Run[], format: string, externalId: string | null, fallbackPrompt: string, reference: string | null): ParsedRecord {
  // The task: the leading system / user messages every run begins with.
  let common = Math.min(...runs.map((r) => leadingTask(r.messages)));
  for (let i = 0; i < common; i++) {
    const key = canonical(runs[0]!.messages[i]);
    if (runs.some((r) => canonical(r.messages[i]) !== key)) {
      common = i;
      break;
    }
  }
  const madePrompt = common === 0;
  return itemOfRuns({
    format,
    externalId,
    prompt: madePrompt ? fallbackPrompt : runs[0]!.messages.slice(0, common),
    madePrompt,
    reference,
    runs: runs.map((r) => ({ ...r, content: r.messages.slice(common) })),
  });
}

export interface ItemOfRuns {
  format: string;
  externalId: string | null;
  /** The task, exactly as the item keeps it. */
  prompt: Content;
  /** The prompt is not in the file (a made-up name): exporters leave it out. */
  madePrompt?: boolean;
  reference: string | null;
  runs: { content: ChatMessage[]; model: string | null; run: Json; outcome: Outcome | null }[];
  /** The record's fields beyond its runs (kept as metadata.trajectory.record). */
  record?: Json;
  /** More item metadata (the file's own). */
  metadata?: Json;
}

/** An item whose responses are the given runs (each's content already without the task). */
export function itemOfRuns(input: ItemOfRuns): ParsedRecord {
  const outcome: Record<string, Outcome> = {};
  input.runs.forEach((r, i) => {
    if (r.outcome) outcome[responseLetter(i)] = r.outcome;
  });
  const body: LabelBody = Object.keys(outcome).length ? { outcome } : {};
  const judgement: SourceJudgement | null = Object.keys(body).length ? { task: 'steps', body } : null;
  const trajectory: TrajectoryMetadata = { format: input.format, runs: input.runs.map((r) => r.run), ...(input.madePrompt ? { madePrompt: true as const } : {}), ...(input.record ? { record: input.record } : {}) };
  input.runs.forEach((r, i) => {
    if (!r.content.some((m) => m.role === 'assistant')) throw new RecordError(`run ${i + 1}: no agent turn (no assistant message after the task), so there is nothing to judge`);
  });
  return {
    draft: {
      externalId: input.externalId,
      prompt: input.prompt,
      responses: input.runs.map((r) => ({ content: r.content, model: r.model, steps: turnSteps(r.content) })),
      reference: input.reference,
      metadata: { ...(input.metadata ?? {}), trajectory },
    },
    preference: null,
    judgement,
  };
}

/** Reads metadata.trajectory of an item (null when the item is not a trajectory item). */
export function trajectoryMetadata(item: ItemRecord): TrajectoryMetadata | null {
  const meta = item.metadata.trajectory;
  if (!isPlainObject(meta) || typeof meta.format !== 'string' || !Array.isArray(meta.runs)) return null;
  return meta as unknown as TrajectoryMetadata;
}

/** Response i of an item as its whole run: the task's messages (unless made up) then the response's. */
export function runMessages(item: ItemRecord, index: number): ChatMessage[] {
  const meta = trajectoryMetadata(item);
  const response = item.responses[index]!;
  const content: ChatMessage[] = typeof response.content === 'string' ? [{ role: 'assistant', content: response.content }] : response.content;
  if (meta?.madePrompt) return content;
  const prompt: ChatMessage[] = typeof item.prompt === 'string' ? [{ role: 'user', content: item.prompt }] : item.prompt;
  return [...prompt, ...content];
}

/** The run fields response i was imported with, when the item came from `format`; else {}. */
export function runFields(item: ItemRecord, index: number, format: string): Json {
  const meta = trajectoryMetadata(item);
  if (!meta || meta.format !== format) return {};
  const run = meta.runs[index];
  return isPlainObject(run) ? run : {};
}

/**
 * The tool schemas a run was given, where its file listed them (`tools` of an openai-tools line or pair, the
 * OpenHands system action's `args.tools`); null when the file had none. TRL's tool-calling exports write them.
 */
export function trajectoryTools(item: ItemRecord, index: number): unknown[] | null {
  const meta = trajectoryMetadata(item);
  if (!meta) return null;
  const run = meta.runs[index];
  if (isPlainObject(run) && Array.isArray(run.tools)) return run.tools;
  if (isPlainObject(meta.record) && Array.isArray(meta.record.tools)) return meta.record.tools;
  for (const m of runMessages(item, index)) {
    const rest = (m as TrajectoryMessage).arbiter?.rest;
    if (m.role === 'system' && isPlainObject(rest) && isPlainObject(rest.args) && Array.isArray(rest.args.tools)) return rest.args.tools;
  }
  return null;
}

/** The item has at least one agent turn in some response (what the trajectory exporters write). */
export function hasTurns(item: ItemRecord): boolean {
  return item.responses.some((r) => Array.isArray(r.content) && trajectoryTurns(r.content).length > 0);
}
