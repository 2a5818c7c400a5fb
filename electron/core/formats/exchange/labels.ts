// Arbiter's lossless labels format: one label revision per line (docs/formats.md, "Labels").
// {"id","item","item_uid","annotator","annotator_uuid","annotator_kind","task","choice"|"ranking","strength",
//  "shown_order","ratings","steps","first_error","rationale","rubric_version","time_ms","prelabel_visible",…,
//  "created_at"}
// `item` is the item's external id, or its uid when it has none; `item_uid` is always written too, so a
// labels file finds its items even where external ids repeat; `annotator_uuid` keeps who labeled apart
// across machines. Importing is all-or-nothing (the whole file is checked before anything is written;
// with skipInvalid the valid lines merge and the rest go to FILE.rejects.jsonl), idempotent (a revision
// id already stored adds nothing; one stored for a different label is reported), and atomic by
// visibility: the writing goes in short batches under a pending merge record (store/labelImports.ts).
import { writeFile } from 'node:fs/promises';
import type { AnnotatorKind, LabelBody, LabelRevision, LineError, Task } from '../../../../shared/domain';
import { canonicalJson } from '../../../../shared/rubric';
import { cancelledError, InvalidFileError } from '../../base/errors';
import { ensureAnnotator, ensureAnnotatorByUuid, findAnnotator, SOURCE_ANNOTATOR } from '../../store/annotators';
import type { Db } from '../../store/db';
import { itemResolver, responseCounter } from '../../store/items';
import { beginLabelImport, completeLabelImport, labelImportStager, recoverLabelImports, removeLabelImport, writeMergeBatch, type StagedHead } from '../../store/labelImports';
import { normalizeTimestamp, type RevisionDraft } from '../../store/labels';
import { mergedRevisionsWriter, storedRevision, type StoredRevision } from '../../store/labelMerge';
import { requireProject } from '../../store/projects';
import { stepAsideForWaitingWriters, writeNow } from '../../store/write';
import { readLines } from '../jsonl';
import { itemRules, type LabelLine } from './labelLine';
import { checkLabelLine } from './labelLineQuick';
import { RecordError } from '../types';
import { isPlainObject } from '../validate';

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
  /**
   * Lines whose revision id is stored already for a different label (another item, annotator, task, time
   * or judgement): nothing of them is merged, and the stored revision stays as it is.
   */
  reusedIds: number;
  /** The first of them, by line. */
  reusedIdLines: { line: number; id: string }[];
  /** With skipInvalid: the invalid lines left out, and where they were written (`FILE.rejects.jsonl`). */
  skipped: number;
  rejectsFile: string | null;
  /** With skipInvalid: the first 100 invalid lines and why. */
  errors: LineError[];
}

/** How many unmatched or reused-id lines are listed by line; the rest are counted. */
const LISTED = 20;

/** A revision for an item this project does not have: skipped and reported, never an error. */
class UnmatchedItem extends Error {}

type Draft = Omit<RevisionDraft, 'annotatorId' | 'id'> & { id: string; who: Who };
interface Who {
  uuid?: string;
  name: string;
  kind?: AnnotatorKind;
}

export async function importLabelsLines(
  db: Db,
  opts: {
    project: string;
    fileName: string;
    /** The lines; or a function that reads them afresh (a file), which lets the merge run in two passes. */
    lines: AsyncIterable<string> | Iterable<string> | (() => AsyncIterable<string> | Iterable<string>);
    onProgress?: (linesRead: number) => void;
    /** Merge the valid lines and leave out the invalid ones (their text goes to `rejects`); else all or nothing. */
    skipInvalid?: boolean;
    /** Asked between batches: true removes what the merge wrote and rejects with a 'cancelled' error. */
    isCancelled?: () => boolean;
    /** Finds a line's item (store/items.ts itemResolver); one the caller keeps across merges (a sync's slices), or one made here. */
    resolveItem?: (ref: string) => number | null;
    /**
     * Commit the pending batches without waiting for the disk (store/labelImports.ts writeMergeBatch), as
     * a file merge does. Not where saves share the connection between batches (a sync in the app): a
     * save's own sync would then carry the merge's unsynced batches.
     */
    relaxedBatches?: boolean;
    /** How many checked revisions of a file the first reading keeps for the writing (HELD_MAX; tests set fewer). */
    heldMax?: number;
  },
): Promise<LabelsImportResult & { rejects: string[] }> {
  const errors: LineError[] = [];
  const rejects: string[] = [];
  let errorCount = 0;
  let lineNo = 0;
  let records = 0;
  let added = 0;
  let duplicates = 0;
  let unmatched = 0;
  const unmatchedItems: LabelsImportResult['unmatchedItems'] = [];
  let reusedIds = 0;
  const reusedIdLines: LabelsImportResult['reusedIdLines'] = [];
  const project = requireProject(db, opts.project);
  // A merge left half-applied (a failure after it counted as done) is finished first.
  recoverLabelImports(db);
  const resolveItem = opts.resolveItem ?? itemResolver(db, project.id);
  const responsesOf = responseCounter(db, project.id, resolveItem);
  // Who labeled: checked against this database while reading (read-only), made when writing, so an
  // invalid file leaves nothing behind, not even an annotator.
  const whoKey = (w: Who) => `${w.uuid ?? ''}\u0000${w.name}\u0000${w.kind ?? ''}`;
  const checkWho = (w: Who) => {
    if (w.uuid || !w.kind) return;
    const existing = findAnnotator(db, w.name);
    if (existing && existing.kind !== w.kind) throw new RecordError(`annotator_kind: "${w.name}" is already an annotator of kind ${existing.kind}, not ${w.kind}.`);
  };
  // The few people and shown orders of a file, one object each for all its lines (the first reading
  // keeps up to HELD_MAX revisions: ~0.35 KB each instead of ~0.55).
  const whos = new Map<string, Who>();
  const sameWho = (w: Who): Who => {
    const key = whoKey(w);
    const known = whos.get(key);
    if (known) return known;
    if (whos.size < 10_000) whos.set(key, w);
    return w;
  };
  const orders = new Map<string, number[]>();
  const sameOrder = (order: number[]): number[] => {
    const key = order.join(',');
    const known = orders.get(key);
    if (known) return known;
    if (orders.size < 1000) orders.set(key, order);
    return order;
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

  const check = (text: string): Draft => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new RecordError(`invalid JSON: ${(error as Error).message}`);
    }
    if (!isPlainObject(value)) throw new RecordError('not a JSON object');
    const line: LabelLine = checkLabelLine(value);
    let itemId: number | null = line.item_uid !== undefined ? resolveItem(line.item_uid) : null;
    if (itemId === null) itemId = resolveItem(String(line.item));
    if (itemId === null) throw new UnmatchedItem(String(line.item));
    const count = responsesOf(itemId);
    const ranking = line.ranking ? line.ranking.map((entry) => (Array.isArray(entry) ? entry : [entry])) : null;
    const { rubricVersionId, ratings } = itemRules(db, project.id, line, itemId, count, ranking);
    const choice = line.choice ?? null;
    const who = sameWho({ uuid: line.annotator_uuid, name: line.annotator, kind: line.annotator_kind });
    checkWho(who);
    const body: LabelBody = {};
    for (const key of BODY_KEYS) if (line[key] !== undefined) (body as Record<string, unknown>)[key] = line[key];
    for (const key in line) if (!TOP_KEYS.has(key)) body[key] = (line as Record<string, unknown>)[key];
    if (ratings) (body as Record<string, unknown>).ratings = ratings;
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
      shownOrder: line.shown_order ? sameOrder(line.shown_order) : null,
      rubricVersionId,
      body,
      done: choice !== null || (ranking?.length ?? 0) > 0 || Object.keys(body).some((k) => JUDGEMENT_KEYS.has(k)),
    };
  };

  /** Reads every line once: valid revisions go to `take`, bad lines and unknown items are noted. */
  const readAll = async (lines: AsyncIterable<string> | Iterable<string>, take: (draft: Draft, line: number) => Promise<void> | void, noteErrors: boolean, from = 1) => {
    lineNo = 0;
    records = 0;
    for await (const raw of lines) {
      lineNo++;
      let text = raw;
      if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.trim() === '') continue;
      records++;
      // Lines before `from` were checked, and their revisions held, by the first reading.
      if (lineNo < from) continue;
      let draft: Draft;
      try {
        draft = check(text);
      } catch (error) {
        if (error instanceof UnmatchedItem) {
          if (noteErrors) {
            if (unmatchedItems.length < LISTED) unmatchedItems.push({ line: lineNo, item: error.message });
            unmatched++;
          }
          continue;
        }
        if (!(error instanceof RecordError)) throw error;
        if (noteErrors) {
          errorCount++;
          errors.push({ line: lineNo, reason: error.message });
          if (opts.skipInvalid) rejects.push(text);
        } else if (!opts.skipInvalid) {
          // It passed the first reading: the file changed while it was merged.
          throw new InvalidFileError(opts.fileName, [{ line: lineNo, reason: `${error.message} (the file changed while it was being merged)` }]);
        }
        continue;
      }
      await take(draft, lineNo);
      if (opts.onProgress && lineNo % 1000 === 0) opts.onProgress(lineNo);
      // Checking a line takes tens of microseconds: a pause every few hundred lets a save in, where the
      // merge runs on the thread that saves (the app's service, a hub sync in the background).
      if (lineNo % CHECK_SLICE === 0) await new Promise(setImmediate);
    }
  };

  const refuse = () => {
    if (errorCount && !opts.skipInvalid) throw new InvalidFileError(opts.fileName, errors);
  };
  // A file: checked whole first, then written a batch at a time. The first reading keeps the revisions
  // of its first HELD_MAX valid lines as checked; the lines after them are read and checked again as they
  // are written, so a merge of millions of revisions runs in bounded memory, and a file of up to HELD_MAX
  // revisions is parsed and checked once. Lines given as a list are held.
  const twoPass = typeof opts.lines === 'function';
  const held: { draft: Draft; line: number }[] = [];
  /** The first line the first reading did not hold (read again when writing); null when it held all. */
  let rereadFrom: number | null = null;
  await readAll(
    twoPass ? (opts.lines as () => AsyncIterable<string>)() : (opts.lines as Iterable<string>),
    (draft, line) => {
      if (rereadFrom !== null) return;
      if (!twoPass || held.length < (opts.heldMax ?? HELD_MAX)) held.push({ draft, line });
      else rereadFrom = line;
    },
    true,
  );
  refuse();

  // Written under a pending merge record: nothing shows until the whole file is in (store/labelImports.ts).
  const pending = writeNow(db, () => beginLabelImport(db, project.id, opts.fileName));
  try {
    const append = mergedRevisionsWriter(db, pending.id);
    const stager = labelImportStager(db, pending);
    const stored = storedRevision(db);
    const batch: { draft: Draft; line: number }[] = [];
    const write = async () => {
      if (opts.isCancelled?.()) throw cancelledError('The labels merge was cancelled; nothing of it was kept.');
      stepAsideForWaitingWriters(db);
      (opts.relaxedBatches ? writeMergeBatch : writeNow)(db, () => {
        const revisions = batch.map(({ draft }) => ({ draft, annotatorId: annotatorId(draft.who) }));
        const written = append(revisions);
        const staged: StagedHead[] = [];
        for (const [i, { draft, line }] of batch.entries()) {
          const saved = written[i]!;
          const annotator = revisions[i]!.annotatorId;
          if (saved.inserted) {
            added++;
            // A lead's resolution from another machine is an adjudication here too, never one more vote.
            if (draft.body?.adjudicated === true) stager.resolve(saved.id, typeof draft.body.rationale === 'string' ? draft.body.rationale : '');
            else staged.push({ itemId: draft.itemId, annotatorId: annotator, task: draft.task ?? 'pairwise', seq: saved.seq, createdAt: saved.createdAt, id: saved.id, done: saved.done, choice: draft.choice });
            continue;
          }
          // The id is stored: a true duplicate adds nothing; the same id for a different label is said.
          if (sameRevision(stored(saved.id), draft, annotator)) duplicates++;
          else {
            reusedIds++;
            if (reusedIdLines.length < LISTED) reusedIdLines.push({ line, id: saved.id });
          }
        }
        stager.stageAll(staged);
      });
      batch.length = 0;
      await new Promise(setImmediate);
    };
    const take = async (draft: Draft, line: number) => {
      batch.push({ draft, line });
      if (batch.length >= WRITE_BATCH) await write();
    };
    for (const { draft, line } of held) {
      await take(draft, line);
      if (opts.onProgress && line % 1000 === 0) opts.onProgress(line);
    }
    held.length = 0;
    if (rereadFrom !== null) await readAll((opts.lines as () => AsyncIterable<string>)(), take, false, rereadFrom);
    if (batch.length) await write();
    await completeLabelImport(db, pending, added);
  } catch (error) {
    await removeLabelImport(db, pending);
    throw error;
  }
  opts.onProgress?.(lineNo);
  return { added, duplicates, lines: records, unmatched, unmatchedItems, reusedIds, reusedIdLines, skipped: rejects.length, rejectsFile: null, errors: opts.skipInvalid ? errors.slice(0, MAX_ERRORS) : [], rejects };
}

/** Invalid lines a --skip-invalid summary lists with their reasons (all are counted, and all are in the rejects file). */
const MAX_ERRORS = 100;

/** Whether a stored revision is the one a line describes (its id reused for nothing else). */
function sameRevision(stored: StoredRevision | null, draft: Omit<RevisionDraft, 'id' | 'annotatorId'>, annotatorId: number): boolean {
  if (!stored) return false;
  return (
    stored.itemId === draft.itemId &&
    stored.annotatorId === annotatorId &&
    stored.task === (draft.task ?? 'pairwise') &&
    stored.createdAt === normalizeTimestamp(draft.createdAt ?? '') &&
    stored.choice === draft.choice &&
    canonicalJson(stored.ranking) === canonicalJson(draft.ranking ?? null) &&
    stored.strength === (draft.strength ?? null) &&
    canonicalJson(stored.shownOrder) === canonicalJson(draft.shownOrder ?? null) &&
    canonicalJson(stored.body) === canonicalJson(draft.body ?? {})
  );
}

/**
 * Checked revisions a file's first reading keeps for the writing (~0.35 KB each, its people and shown
 * orders shared: the bench's 300k took the merge's heap from 36 to 136 MiB at most); the lines after them
 * are read and checked again as they are written.
 */
const HELD_MAX = 300_000;
/** Lines checked between two pauses of the merge's reading. */
const CHECK_SLICE = 200;
/**
 * Revisions written per transaction while merging a labels file: a multiple of the 64 rows a statement
 * stores (store/labelMerge.ts mergedRevisionsWriter, store/labelImports.ts stageAll), so no batch but the
 * file's last stores and stages a tail one row a statement (1,000 left 40 of each batch to that: ~0.15 s
 * of CPU over 300k revisions).
 */
const WRITE_BATCH = 1024;
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

/**
 * Merges a labels file. All or nothing by default (every line is checked before anything is written);
 * with skipInvalid the valid lines merge and the invalid ones are written to `FILE.rejects.jsonl`.
 */
export async function importLabelsFile(
  db: Db,
  opts: { path: string; project: string; onProgress?: (linesRead: number) => void; skipInvalid?: boolean; isCancelled?: () => boolean; heldMax?: number },
): Promise<LabelsImportResult> {
  const { rejects, ...result } = await importLabelsLines(db, { ...opts, fileName: opts.path, lines: () => readLines(opts.path), relaxedBatches: true });
  if (!rejects.length) return result;
  // Beside the input, as an item import writes its rejects.
  const rejectsFile = `${opts.path}.rejects.jsonl`;
  await writeFile(rejectsFile, `${rejects.join('\n')}\n`, 'utf8');
  return { ...result, rejectsFile };
}
