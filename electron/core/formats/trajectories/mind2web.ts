// Mind2Web and Multimodal-Mind2Web (`mind2web`, import only): web-agent demonstrations, one task a trajectory.
// Multimodal-Mind2Web (osunlp/Multimodal-Mind2Web on the Hugging Face Hub, Parquet) has one row per action
// step: {"action_uid", "raw_html", "cleaned_html", "operation" (a JSON string {"op": "CLICK" | "TYPE" |
// "SELECT", "original_op" (HOVER and ENTER mapped to CLICK), "value"}), "pos_candidates" / "neg_candidates"
// (JSON strings {"tag", "attributes": JSON string with "bounding_box_rect": "x,y,width,height",
// "backend_node_id"…}), "website", "domain", "subdomain", "annotation_id" (the task), "confirmed_task",
// "screenshot" (an Image feature {bytes, path}: the page before the action), "action_reprs" (the task's
// actions as text), "target_action_index", "target_action_reprs" ("[button]  Search -> CLICK")}.
// The original Mind2Web JSON has one record per task with its steps in "actions" (each step as above, the
// operation an object, a "screenshot" path where the raw dump's screenshots were added); read too.
//
// Import: the rows of one annotation_id (one after another, as the dataset lists them) are one item: the
// prompt is confirmed_task; the one trajectory has per step a user message holding the step's screenshot
// (the page the action is taken on, so the action is drawn on it: shared/guiActions.ts turnScreens) and
// an assistant message whose content is target_action_reprs and whose one tool call (id action_uid, name
// the operation in lower case) has {"op", "value", "original_op" where it differs, "target": the element
// as the repr names it, "bounding_box_rect": the first positive candidate's box}. The screenshot is a raw
// image part for images/resolve.ts (an Image feature's bytes → stored, origin the `screenshot` column; a
// path → read beside the file or from the images folder). Each step's other fields (operation and
// pos_candidates as the file had them, target_action_index…) stay on its assistant message (arbiter.rest);
// the task's (website, domain, subdomain, action_reprs) with the run. raw_html, cleaned_html and
// neg_candidates are not kept (hundreds of kB a step, and nothing an annotator reads); the item's
// metadata names them (mind2web.dropped).
import type { ChatMessage, ContentPart } from '../../../../shared/domain';
import { candidateBox } from '../../../../shared/guiActions';
import { parseArguments, type TrajectoryMessage } from '../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../types';
import { isPlainObject } from '../validate';
import { describe, itemOfRuns, without, type Json, type TrajectoryMetadata } from './common';

export const MIND2WEB = 'mind2web';
/** Row fields Arbiter does not keep (see the head of the file). */
export const MIND2WEB_DROPPED = ['raw_html', 'cleaned_html', 'neg_candidates'] as const;
/** The task's own fields: the same in every row of a task; kept with the run. */
const TASK_FIELDS = ['annotation_id', 'confirmed_task', 'website', 'domain', 'subdomain', 'action_reprs'] as const;

/** The operation as an object (Multimodal-Mind2Web writes it as a JSON string). */
function operationOf(value: unknown, where: string): Json {
  const op = typeof value === 'string' ? parseArguments(value) : value;
  if (!isPlainObject(op) || typeof op.op !== 'string' || !op.op) throw new RecordError(`${where}: ${value === undefined ? 'missing' : `expected {"op": "CLICK" | "TYPE" | "SELECT", "value": …}, got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 60)) : describe(value)}`}`);
  return op;
}

/** The screenshot as a raw image part (an Image feature's {bytes, path}, a path, or a data URI), or null. */
export function screenshotPart(value: unknown, column: string, where: string): ContentPart | null {
  if (value === undefined || value === null) return null;
  if (isPlainObject(value)) {
    if (value.bytes === null || value.bytes === undefined) {
      if (typeof value.path === 'string' && value.path) return { type: 'image', path: value.path };
      return null;
    }
    return { type: 'image', image: { bytes: value.bytes, path: value.path ?? null }, column, index: 0 };
  }
  if (typeof value === 'string' && value) return { type: 'image', image: value };
  throw new RecordError(`${where}: expected an image ({"bytes", "path"} or a path), got ${describe(value)}`);
}

/** The element the repr names: "[button]  Search -> CLICK" → "[button] Search". */
function reprTarget(repr: unknown): string | null {
  if (typeof repr !== 'string') return null;
  const arrow = repr.lastIndexOf('->');
  const target = (arrow >= 0 ? repr.slice(0, arrow) : repr).replace(/\s+/g, ' ').trim();
  return target || null;
}

/** One step's two messages: the page before it (when there is a screenshot), then the action. */
function stepMessages(step: Json, where: string): ChatMessage[] {
  const uid = step.action_uid;
  if (!(typeof uid === 'string' || typeof uid === 'number')) throw new RecordError(`${where}action_uid: ${uid === undefined ? 'missing' : `expected text, got ${describe(uid)}`}`);
  const op = operationOf(step.operation, `${where}operation`);
  const repr = step.target_action_reprs;
  if (!(repr === undefined || repr === null || typeof repr === 'string')) throw new RecordError(`${where}target_action_reprs: expected text, got ${describe(repr)}`);
  const messages: ChatMessage[] = [];
  const shot = screenshotPart(step.screenshot, 'screenshot', `${where}screenshot`);
  if (shot) messages.push({ role: 'user', content: [shot], arbiter: { kind: 'observation', from: 'screenshot' } } as TrajectoryMessage);
  const args: Json = { op: op.op, value: typeof op.value === 'string' ? op.value : '' };
  if (typeof op.original_op === 'string' && op.original_op !== op.op) args.original_op = op.original_op;
  const target = reprTarget(repr);
  if (target) args.target = target;
  const box = candidateBox(step.pos_candidates);
  if (box) {
    const [x0, y0, x1, y1] = box.box;
    args.bounding_box_rect = [x0, y0, x1 - x0, y1 - y0].join(',');
  }
  const taken = ['screenshot', ...MIND2WEB_DROPPED, ...TASK_FIELDS];
  const action: TrajectoryMessage = {
    role: 'assistant',
    content: typeof repr === 'string' ? repr : '',
    tool_calls: [{ id: String(uid), type: 'function', function: { name: String(op.op).toLowerCase(), arguments: args } }],
    arbiter: { id: String(uid), rest: without(step, taken), from: 'target_action_reprs' },
  };
  messages.push(action);
  return messages;
}

const stepIndex = (step: Json) => {
  // Only a number or its text: Number() of an object calls the file's own valueOf / toString (a hostile
  // {"valueOf": "v"} threw a TypeError that stopped the whole import).
  const index = step.target_action_index;
  const n = typeof index === 'number' || typeof index === 'string' ? Number(index) : NaN;
  return Number.isFinite(n) ? n : Infinity;
};

function task(record: Json, prefix = ''): { text: string; id: string } {
  const { confirmed_task: text, annotation_id: id } = record;
  if (typeof text !== 'string' || !text.trim()) throw new RecordError(`${prefix}confirmed_task: ${text === undefined ? 'missing' : 'expected the task as text'}`);
  if (!(typeof id === 'string' || typeof id === 'number')) throw new RecordError(`${prefix}annotation_id: ${id === undefined ? 'missing' : `expected text, got ${describe(id)}`}`);
  return { text, id: String(id) };
}

/** The item of one task from its steps (rows, or a task record's actions), in target_action_index order. */
function taskItem(record: Json, steps: { step: Json; where: string }[], row: boolean): ParsedRecord {
  const { text, id } = task(record);
  const ordered = steps.every((s) => Number.isFinite(stepIndex(s.step))) ? [...steps].sort((a, b) => stepIndex(a.step) - stepIndex(b.step)) : steps;
  const content = ordered.flatMap((s) => stepMessages(s.step, s.where));
  const run: Json = {};
  for (const k of TASK_FIELDS) if (k in record && k !== 'confirmed_task' && k !== 'annotation_id') run[k] = record[k];
  if (!row) Object.assign(run, without(record, [...TASK_FIELDS, 'actions']));
  return itemOfRuns({
    format: MIND2WEB,
    externalId: id,
    prompt: [{ role: 'user', content: text }],
    reference: null,
    runs: [{ content, model: null, run, outcome: null }],
    metadata: { mind2web: { rows: row, dropped: MIND2WEB_DROPPED.filter((k) => steps.some((s) => k in s.step)) } },
  });
}

/** One row of Multimodal-Mind2Web (a step), or one task of the original Mind2Web JSON (its `actions`). */
export function parseMind2web(record: Json): ParsedRecord {
  if (Array.isArray(record.actions)) {
    if (!record.actions.length) throw new RecordError('actions: no steps, so there is nothing to judge');
    const steps = record.actions.map((step, k) => {
      if (!isPlainObject(step)) throw new RecordError(`actions[${k}]: expected a step object, got ${describe(step)}`);
      return { step, where: `actions[${k}].` };
    });
    return taskItem(record, steps, false);
  }
  task(record);
  return taskItem(record, [{ step: record, where: '' }], true);
}

/** The steps of one task are the rows with its annotation_id, one after another. */
export function mind2webKey(record: Json): string {
  return `task ${String(record.annotation_id)}`;
}

/** A task's rows, each parsed on its own already, as one item: their steps in target_action_index order. */
export function mergeMind2web(rows: ParsedRecord[]): ParsedRecord {
  const first = rows[0]!;
  if (rows.length === 1) return first;
  const withIndex = rows.map((row) => {
    const content = row.draft.responses[0]!.content as ChatMessage[];
    const action = content[content.length - 1] as TrajectoryMessage;
    return { row, content, index: stepIndex(action.arbiter?.rest ?? {}) };
  });
  const ordered = withIndex.every((r) => Number.isFinite(r.index)) ? [...withIndex].sort((a, b) => a.index - b.index) : withIndex;
  const meta = first.draft.metadata.trajectory as TrajectoryMetadata;
  return itemOfRuns({
    format: MIND2WEB,
    externalId: first.draft.externalId,
    prompt: first.draft.prompt,
    reference: null,
    runs: [{ content: ordered.flatMap((r) => r.content), model: null, run: meta.runs[0] ?? {}, outcome: null }],
    metadata: without(first.draft.metadata, ['trajectory']),
  });
}
