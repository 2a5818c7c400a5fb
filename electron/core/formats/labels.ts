// Arbiter's lossless labels format: one label revision per line (FORMATS.md, "Labels").
// {"id","item","item_uid","annotator","annotator_uuid","annotator_kind","task","choice"|"ranking","strength",
//  "shown_order","ratings","steps","first_error","rationale","rubric_version","time_ms","prelabel_visible",…,
//  "created_at"}
// `item` is the item's external id, or its uid when it has none; `item_uid` is always written too, so a
// labels file finds its items even where external ids repeat; `annotator_uuid` keeps who labeled apart
// across machines. Importing is all-or-nothing (the whole file is checked before anything is written)
// and idempotent (a revision id already stored adds nothing); the writing goes in short batches.
import { z } from 'zod';
import { TASKS, type AnnotatorKind, type LabelBody, type LabelRevision, type LineError, type Task } from '../../../shared/domain';
import { InvalidFileError } from '../errors';
import { ensureAnnotator, ensureAnnotatorByUuid, findAnnotator, SOURCE_ANNOTATOR } from '../store/annotators';
import type { Db } from '../store/db';
import { itemResolver, responseCounter } from '../store/items';
import { labelAppender, type RevisionDraft } from '../store/labels';
import { linkAdjudication } from '../store/review';
import { requireProject } from '../store/projects';
import { writeNow } from '../store/write';
import { readLines } from './jsonl';
import { RecordError } from './types';
import { check as checkSchema, isPlainObject } from './validate';

/** Body fields, in the order they are written. */
const BODY_KEYS = ['ratings', 'steps', 'first_error', 'rationale', 'rubric_version', 'time_ms', 'prelabel_visible'] as const;
const TOP_KEYS = new Set([
  'id',
  'item',
  'item_uid',
  'annotator',
  'annotator_uuid',
  'annotator_kind',
  'task',
  'choice',
  'ranking',
  'strength',
  'shown_order',
  'created_at',
  ...BODY_KEYS,
]);

export type RevisionWithItem = LabelRevision & { itemExternalId: string | null; itemUid: string };

export function encodeLabel(rev: RevisionWithItem): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: rev.id,
    item: rev.itemExternalId ?? rev.itemUid,
    item_uid: rev.itemUid,
    annotator: rev.annotator,
    annotator_uuid: rev.annotatorUuid,
    annotator_kind: rev.annotatorKind,
    task: rev.task,
  };
  if (rev.choice !== null || rev.ranking === null) out.choice = rev.choice;
  if (rev.ranking !== null) out.ranking = rev.ranking;
  if (rev.strength !== null) out.strength = rev.strength;
  if (rev.shownOrder !== null) out.shown_order = rev.shownOrder;
  const body = rev.body;
  for (const key of BODY_KEYS) if (body[key] !== undefined) out[key] = body[key];
  for (const key in body) if (!TOP_KEYS.has(key) && body[key] !== undefined) out[key] = body[key];
  out.created_at = rev.createdAt;
  return out;
}

const index = z.number().int().min(0);
const labelSchema = z.looseObject({
  id: z.string().min(1, 'empty').max(200, 'longer than 200 characters'),
  item: z.union([z.string().min(1, 'empty'), z.number()]),
  item_uid: z.string().min(1, 'empty').optional(),
  annotator: z.string().min(1, 'empty').max(80, 'longer than 80 characters'),
  annotator_uuid: z.uuid('not a UUID').optional(),
  annotator_kind: z.enum(['human', 'model', 'source']).optional(),
  task: z.enum(TASKS).optional(),
  choice: z.union([z.string().regex(/^[A-Z]$/, 'not a response letter'), z.enum(['tie', 'both_bad', 'good', 'bad'])]).nullable().optional(),
  // Best first: response indexes, or groups of tied ones ([[3], [0, 2], [1]]).
  ranking: z.union([z.array(index).min(2, 'fewer than 2 entries'), z.array(z.array(index).min(1, 'an empty group')).min(1, 'empty')]).nullable().optional(),
  strength: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'must be 1, 2 or 3' }).nullable().optional(),
  shown_order: z.array(index).nullable().optional(),
  // Per response, criterion key → a number, a category's name, or null (not applicable).
  ratings: z.record(z.string(), z.record(z.string(), z.union([z.number(), z.string(), z.null()]))).optional(),
  // Per response: the critique's text, and "right verdict, wrong reasoning".
  critique: z.record(z.string(), z.string()).optional(),
  wrong_reasoning: z.record(z.string(), z.boolean()).optional(),
  // One per step: −1 / 0 / +1, or null (not rated, as after the first error).
  steps: z.record(z.string(), z.array(z.number().nullable())).optional(),
  first_error: z.record(z.string(), z.number().int().nullable()).optional(),
  rationale: z.string().optional(),
  rubric_version: z.number().int().optional(),
  time_ms: z.number().min(0).optional(),
  prelabel_visible: z.boolean().optional(),
  created_at: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a timestamp'),
});
type LabelLine = z.infer<typeof labelSchema>;

export interface LabelsImportResult {
  added: number;
  duplicates: number;
  lines: number;
  /**
   * Revisions whose item is not in this project (a teammate labeled items this machine never imported):
   * reported, not merged, and the rest of the file merges. Importing those items and the same file
   * again adds them then.
   */
  unmatched: number;
  /** The first of them, by line, with the item as the file named it. */
  unmatchedItems: { line: number; item: string }[];
}

/** How many unmatched revisions are listed by line; the rest are counted. */
const UNMATCHED_LISTED = 20;

/** A revision for an item this project does not have: skipped and reported, never an error. */
class UnmatchedItem extends Error {}

export async function importLabelsLines(
  db: Db,
  opts: {
    project: string;
    fileName: string;
    /** The lines; or a function that reads them afresh (a file), which lets the merge run in two passes. */
    lines: AsyncIterable<string> | Iterable<string> | (() => AsyncIterable<string> | Iterable<string>);
    onProgress?: (linesRead: number) => void;
  },
): Promise<LabelsImportResult> {
  const errors: LineError[] = [];
  let lineNo = 0;
  let records = 0;
  let added = 0;
  let duplicates = 0;
  let unmatched = 0;
  const unmatchedItems: LabelsImportResult['unmatchedItems'] = [];
  const project = requireProject(db, opts.project);
  const resolveItem = itemResolver(db, project.id);
  const responsesOf = responseCounter(db, project.id);
  // Who labeled: checked against this database while reading (read-only), made when writing, so an
  // invalid file leaves nothing behind, not even an annotator.
  interface Who {
    uuid?: string;
    name: string;
    kind?: AnnotatorKind;
  }
  const whoKey = (w: Who) => `${w.uuid ?? ''}\u0000${w.name}\u0000${w.kind ?? ''}`;
  const checkWho = (w: Who) => {
    if (w.uuid || !w.kind) return;
    const existing = findAnnotator(db, w.name);
    if (existing && existing.kind !== w.kind) throw new RecordError(`annotator_kind: "${w.name}" is already an annotator of kind ${existing.kind}, not ${w.kind}.`);
  };
  const resolved = new Map<string, number>();
  const annotatorId = (w: Who): number => {
    const key = whoKey(w);
    let id = resolved.get(key);
    if (id === undefined) {
      const kind = w.kind ?? (w.name === SOURCE_ANNOTATOR ? 'source' : 'human');
      const row = w.uuid ? ensureAnnotatorByUuid(db, w.uuid, w.name, kind) : w.kind ? ensureAnnotator(db, w.name, w.kind) : (findAnnotator(db, w.name) ?? ensureAnnotator(db, w.name, kind));
      resolved.set(key, (id = row.id));
    }
    return id;
  };
  const drafts: (Omit<RevisionDraft, 'annotatorId'> & { who: Who })[] = [];

  const check = (text: string): (typeof drafts)[number] => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new RecordError(`invalid JSON: ${(error as Error).message}`);
    }
    if (!isPlainObject(value)) throw new RecordError('not a JSON object');
    const line: LabelLine = checkSchema(labelSchema, value);
    let itemId: number | null = line.item_uid !== undefined ? resolveItem(line.item_uid) : null;
    if (itemId === null) itemId = resolveItem(String(line.item));
    if (itemId === null) throw new UnmatchedItem(String(line.item));
    const count = responsesOf(itemId);
    const ranking = line.ranking ? line.ranking.map((entry) => (Array.isArray(entry) ? entry : [entry])) : null;
    const checkIndexes = (field: string, list: number[] | null | undefined) => {
      if (!list) return;
      const bad = list.find((i) => i >= count);
      if (bad !== undefined) throw new RecordError(`${field}: index ${bad} but the item has ${count} responses`);
      if (new Set(list).size !== list.length) throw new RecordError(`${field}: an index appears twice`);
    };
    checkIndexes('ranking', ranking?.flat());
    checkIndexes('shown_order', line.shown_order);
    const choice = line.choice ?? null;
    if (choice && /^[A-Z]$/.test(choice) && choice.charCodeAt(0) - 65 >= count) throw new RecordError(`choice: "${choice}" but the item has ${count} responses`);
    const who: Who = { uuid: line.annotator_uuid, name: line.annotator, kind: line.annotator_kind };
    checkWho(who);
    const body: LabelBody = {};
    for (const key of BODY_KEYS) if (line[key] !== undefined) (body as Record<string, unknown>)[key] = line[key];
    for (const key in line) if (!TOP_KEYS.has(key)) body[key] = (line as Record<string, unknown>)[key];
    return {
      id: line.id,
      projectId: project.id,
      itemId,
      who,
      task: line.task ?? inferTask(line),
      createdAt: line.created_at,
      choice: choice as RevisionDraft['choice'],
      ranking,
      strength: line.strength ?? null,
      shownOrder: line.shown_order ?? null,
      body,
      done: choice !== null || (ranking?.length ?? 0) > 0 || Object.keys(body).some((k) => JUDGEMENT_KEYS.has(k)),
    };
  };

  /** Reads every line once: valid revisions go to `take`, bad lines and unknown items are noted. */
  const readAll = async (lines: AsyncIterable<string> | Iterable<string>, take: (draft: (typeof drafts)[number]) => Promise<void> | void) => {
    lineNo = 0;
    records = 0;
    for await (const raw of lines) {
      lineNo++;
      let text = raw;
      if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.trim() === '') continue;
      records++;
      let draft: (typeof drafts)[number];
      try {
        draft = check(text);
      } catch (error) {
        if (error instanceof UnmatchedItem) {
          if (unmatchedItems.length < UNMATCHED_LISTED) unmatchedItems.push({ line: lineNo, item: error.message });
          unmatched++;
          continue;
        }
        if (!(error instanceof RecordError)) throw error;
        errors.push({ line: lineNo, reason: error.message });
        continue;
      }
      await take(draft);
      if (opts.onProgress && lineNo % 1000 === 0) opts.onProgress(lineNo);
    }
  };
  // Bounded batches: a teammate's 300k revisions never hold the write lock for long.
  const append = labelAppender(db, { merge: true });
  // A lead's resolution from another machine is an adjudication here too, never one more vote.
  const appendResolution = labelAppender(db, { head: false });
  const write = async (batch: typeof drafts) => {
    writeNow(db, () => {
      for (const { who, ...draft } of batch) {
        const resolution = draft.body?.adjudicated === true;
        const saved = (resolution ? appendResolution : append)({ ...draft, annotatorId: annotatorId(who) });
        if (saved.inserted && resolution) linkAdjudication(db, saved.id, typeof draft.body?.rationale === 'string' ? draft.body.rationale : '');
        if (saved.inserted) added++;
        else duplicates++;
      }
    });
    await new Promise(setImmediate);
  };

  if (typeof opts.lines === 'function') {
    // A file: checked whole first, holding nothing, then read again and written a batch at a time, so a
    // merge of millions of revisions runs in constant memory.
    await readAll(opts.lines(), () => undefined);
    if (errors.length) throw new InvalidFileError(opts.fileName, errors);
    unmatched = 0;
    unmatchedItems.length = 0;
    await readAll(opts.lines(), async (draft) => {
      drafts.push(draft);
      if (drafts.length >= WRITE_BATCH) await write(drafts.splice(0));
    });
    if (errors.length) throw new InvalidFileError(opts.fileName, errors);
    if (drafts.length) await write(drafts.splice(0));
  } else {
    await readAll(opts.lines, (draft) => void drafts.push(draft));
    if (errors.length) throw new InvalidFileError(opts.fileName, errors);
    for (let from = 0; from < drafts.length; from += WRITE_BATCH) await write(drafts.slice(from, from + WRITE_BATCH));
  }
  opts.onProgress?.(lineNo);
  return { added, duplicates, lines: records, unmatched, unmatchedItems };
}

/** Revisions written per transaction while merging a labels file. */
const WRITE_BATCH = 1000;
/** Body fields that make a revision a judgement even without a choice or ranking. */
const JUDGEMENT_KEYS = new Set(['ratings', 'steps', 'first_error', 'critique', 'verdict']);

function inferTask(line: LabelLine): Task {
  if (line.ranking) return 'ranking';
  if (line.choice === 'good' || line.choice === 'bad') return 'verdict';
  if (line.choice === undefined && line.steps) return 'steps';
  if (line.choice === undefined && line.ratings) return 'rubric';
  if (line.choice === undefined && line.critique) return 'critique';
  return 'pairwise';
}

export function importLabelsFile(db: Db, opts: { path: string; project: string; onProgress?: (linesRead: number) => void }): Promise<LabelsImportResult> {
  return importLabelsLines(db, { project: opts.project, fileName: opts.path, lines: () => readLines(opts.path), onProgress: opts.onProgress });
}
