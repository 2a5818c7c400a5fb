// Label revisions: append-only, per task. The current label of (item, annotator, task) is its latest
// revision by insertion order (label.seq), so a clock stepping back never hides a newer label; undo
// appends a revision that restores the one before. Nothing is updated in place except label_head (a
// derived pointer) and the progress counters, both kept in the same write transaction as the revision.
import { uuidv7 } from '../../../shared/ids';
import type { AnnotatorKind, Choice, LabelBody, LabelRevision, Strength, Task, Verdict } from '../../../shared/domain';
import { hydrateBody, serializeBody } from '../../../shared/labelBodies';
import type { Db } from './sqlite';
import { VISIBLE } from './items';
import { statement } from './statements';
import { HEAD_COLUMNS, HEAD_UPDATES, HEAD_VALUES } from './headColumns';

export interface RevisionDraft {
  id?: string;
  projectId: number;
  itemId: number;
  annotatorId: number;
  task?: Task;
  createdAt?: string;
  choice: Choice | Verdict | null;
  ranking?: number[][] | null;
  strength?: Strength | null;
  shownOrder?: number[] | null;
  rubricVersionId?: number | null;
  segmentationId?: number | null;
  body?: LabelBody;
  /** Whether the revision holds a judgement; by default, whether it has a choice or a ranking. */
  done?: boolean;
}

export interface LabelRow {
  id: string;
  item_id: number;
  annotator: string;
  annotator_uuid: string;
  kind: AnnotatorKind;
  task: Task;
  created_at: string;
  choice: Choice | Verdict | null;
  ranking: string | null;
  strength: Strength | null;
  shown_order: string | null;
  body: string;
}

export const LABEL_COLUMNS = `l.id, l.item_id, a.name AS annotator, a.uuid AS annotator_uuid, a.kind, l.task, l.created_at, l.choice,
  l.ranking, l.strength, l.shown_order, l.body`;
const LABEL_SELECT = `SELECT ${LABEL_COLUMNS} FROM label l JOIN annotator a ON a.id = l.annotator_id`;

export function toRevision(row: LabelRow): LabelRevision {
  return {
    id: row.id,
    itemId: row.item_id,
    annotator: row.annotator,
    annotatorUuid: row.annotator_uuid,
    annotatorKind: row.kind,
    task: row.task,
    createdAt: row.created_at,
    choice: row.choice,
    ranking: row.ranking ? (JSON.parse(row.ranking) as number[][]) : null,
    strength: row.strength,
    shownOrder: row.shown_order ? (JSON.parse(row.shown_order) as number[]) : null,
    body: hydrateBody(row.body),
  };
}

/** ISO 8601 in UTC with milliseconds. */
const CANONICAL_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * A revision's values for a label row, in the order of its columns (id, item_id, annotator_id, task,
 * created_at, choice, ranking, strength, shown_order, rubric_version_id, segmentation_id, body): one place
 * for a save (labelAppender) and a labels merge (labelMerge.ts, which adds the import's id).
 */
export function labelRowValues(id: string, draft: Omit<RevisionDraft, 'annotatorId'>, annotatorId: number, createdAt: string): unknown[] {
  return [
    id,
    draft.itemId,
    annotatorId,
    draft.task ?? 'pairwise',
    createdAt,
    draft.choice,
    draft.ranking ? JSON.stringify(draft.ranking) : null,
    draft.strength ?? null,
    draft.shownOrder ? JSON.stringify(draft.shownOrder) : null,
    draft.rubricVersionId ?? null,
    draft.segmentationId ?? null,
    serializeBody(draft.body ?? {}),
  ];
}

export function normalizeTimestamp(value: string | Date): string {
  if (typeof value === 'string' && CANONICAL_TIMESTAMP.test(value)) return value;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`not a timestamp: ${String(value)}`);
  return date.toISOString();
}

/**
 * A prepared appender, for use inside a write transaction. Returns the revision's id and whether it was
 * new: a revision whose id is already stored is not stored again (a retried save, a re-imported labels
 * file), and the head and counters stay as they are.
 */
export function labelAppender(db: Db, options: { counters?: boolean; merge?: boolean; head?: boolean } = {}) {
  // An adjudication's resolved revision is nobody's current label: stored, never a head or a count.
  const moveHead = options.head ?? true;
  // An import's own rows are not visible yet: it moves the counters when it completes.
  const counters = options.counters ?? true;
  // Merging a teammate's file: the same annotator's revisions from two machines have no shared insertion
  // order, so a merged revision becomes current only when it is later by (created_at, id) than the
  // current one. Files merged in any order then end with the same current labels.
  const merge = options.merge ?? false;
  const headRevision = db.prepare(
    'SELECT l.created_at AS createdAt, l.id FROM label_head h JOIN label l ON l.seq = h.label_seq WHERE h.item_id = ? AND h.annotator_id = ? AND h.task = ?',
  );
  const insert = db.prepare(
    `INSERT OR IGNORE INTO label (id, item_id, annotator_id, task, created_at, choice, ranking, strength, shown_order, rubric_version_id, segmentation_id, body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const headOf = db.prepare('SELECT done FROM label_head WHERE item_id = ? AND annotator_id = ? AND task = ?').pluck();
  // The head's other columns come from the revision row just written (a page in cache).
  const upsertHead = db.prepare(
    `INSERT INTO label_head (item_id, annotator_id, task, label_seq, done, choice, ${HEAD_COLUMNS})
     SELECT l.item_id, l.annotator_id, l.task, l.seq, ?, l.choice, ${HEAD_VALUES} FROM label l WHERE l.seq = ?
     ON CONFLICT (item_id, annotator_id, task) DO UPDATE SET label_seq = excluded.label_seq, done = excluded.done, choice = excluded.choice, ${HEAD_UPDATES}`,
  );
  const bumpProgress = db.prepare(
    `INSERT INTO progress (project_id, task, annotator_id, done) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id, task, annotator_id) DO UPDATE SET done = done + excluded.done`,
  );
  const isHuman = db.prepare("SELECT kind = 'human' FROM annotator WHERE id = ?").pluck();
  const humansDone = db.prepare(
    "SELECT COUNT(*) FROM label_head h JOIN annotator a ON a.id = h.annotator_id WHERE h.item_id = ? AND h.task = ? AND h.done = 1 AND a.kind = 'human'",
  ).pluck();
  const bumpLabeled = db.prepare(
    `INSERT INTO task_progress (project_id, task, labeled) VALUES (?, ?, ?)
     ON CONFLICT (project_id, task) DO UPDATE SET labeled = labeled + excluded.labeled`,
  );
  return (draft: RevisionDraft): { id: string; inserted: boolean } => {
    const id = draft.id ?? uuidv7();
    const task = draft.task ?? 'pairwise';
    const createdAt = draft.createdAt ? normalizeTimestamp(draft.createdAt) : new Date().toISOString();
    const result = insert.run(labelRowValues(id, draft, draft.annotatorId, createdAt));
    if (result.changes === 0) return { id, inserted: false };
    if (!moveHead) return { id, inserted: true };
    if (merge) {
      const head = headRevision.get(draft.itemId, draft.annotatorId, task) as { createdAt: string; id: string } | undefined;
      if (head && (head.createdAt > createdAt || (head.createdAt === createdAt && head.id > id))) return { id, inserted: true };
    }
    const done = draft.done ?? (draft.choice !== null || (draft.ranking?.length ?? 0) > 0);
    const wasDone = (headOf.get(draft.itemId, draft.annotatorId, task) as number | undefined) === 1;
    const human = isHuman.get(draft.annotatorId) === 1;
    const humansBefore = human && wasDone !== done ? (humansDone.get(draft.itemId, task) as number) : 0;
    upsertHead.run(done ? 1 : 0, Number(result.lastInsertRowid));
    if (counters && wasDone !== done) {
      bumpProgress.run(draft.projectId, task, draft.annotatorId, done ? 1 : -1);
      // The item counts as labeled while at least one human has a current judgement on it.
      if (human && done && humansBefore === 0) bumpLabeled.run(draft.projectId, task, 1);
      if (human && !done && humansBefore === 1) bumpLabeled.run(draft.projectId, task, -1);
    }
    return { id, inserted: true };
  };
}

/**
 * The condition under which a revision `l` shows: saved here, or merged by a merge no longer pending
 * (store/labelImports.ts). Every query that reads revisions other than through label_head uses it.
 */
export const VISIBLE_LABEL = "(l.import_id IS NULL OR l.import_id NOT IN (SELECT id FROM label_import WHERE state = 'pending'))";

/**
 * Bulk labels for items an import has just inserted (so no head exists yet): one pairwise revision per
 * item, with no strength, ranking, shown order or body, all by one annotator at one time. Revisions are
 * buffered and written 64 per statement; each flush then makes their heads from the rows it wrote, in one
 * INSERT … SELECT (nothing bound per row). Ids are made when added, so their order is the order of the calls. flush() writes what is buffered and says how many revisions
 * that added. The items are not visible yet, so the counters move when the import completes.
 */
export function newItemLabels(db: Db, annotatorId: number, createdAt: string) {
  // The annotator and time are the same for every row: literals in the SQL, fewer values to bind.
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const annotator = String(Math.trunc(annotatorId));
  const at = quote(normalizeTimestamp(createdAt));
  const statements = new Map<number, { label: ReturnType<Db['prepare']> }>();
  const statement = (k: number) => {
    let st = statements.get(k);
    if (!st) {
      const rows = (row: string) => Array.from({ length: k }, () => row).join(', ');
      st = {
        label: db.prepare(`INSERT INTO label (seq, id, item_id, annotator_id, task, created_at, choice, body) VALUES ${rows(`(?, ?, ?, ${annotator}, 'pairwise', ${at}, ?, '{}')`)}`),
      };
      statements.set(k, st);
    }
    return st;
  };
  // Seqs are given explicitly (one past the largest, read at each flush inside the caller's write
  // transaction, where no one else inserts labels), so the heads can name them without a RETURNING.
  const maxSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM label').pluck();
  const heads = db.prepare(
    `INSERT INTO label_head (item_id, annotator_id, task, label_seq, done, choice, ${HEAD_COLUMNS})
     SELECT l.item_id, l.annotator_id, l.task, l.seq, 1, l.choice, ${HEAD_VALUES} FROM label l WHERE l.seq BETWEEN ? AND ?`,
  );
  let labelParams: unknown[] = [];
  let items: number[] = [];
  const flush = (): number => {
    const k = items.length;
    if (!k) return 0;
    const st = statement(k);
    const first = (maxSeq.get() as number) + 1;
    for (let i = 0; i < k; i++) labelParams[i * 4] = first + i;
    st.label.run(labelParams);
    // Each head copies its revision's columns: one statement over the seqs just written, nothing bound per row.
    heads.run(first, first + k - 1);
    labelParams = [];
    items = [];
    return k;
  };
  return {
    /** Buffers one revision; returns how many revisions were written (a full buffer is flushed). */
    add(itemId: number, choice: Choice | null): number {
      labelParams.push(0, uuidv7(), itemId, choice);
      items.push(itemId);
      return items.length === 64 ? flush() : 0;
    },
    flush,
  };
}

export function getRevision(db: Db, id: string): LabelRevision | null {
  const row = db.prepare(`${LABEL_SELECT} WHERE l.id = ? AND ${VISIBLE_LABEL}`).get(id) as LabelRow | undefined;
  return row ? toRevision(row) : null;
}

export function currentLabel(db: Db, itemId: number, annotatorId: number, task: Task = 'pairwise'): LabelRevision | null {
  const row = statement(
    db,
    `SELECT ${LABEL_COLUMNS} FROM label_head h JOIN label l ON l.seq = h.label_seq JOIN annotator a ON a.id = l.annotator_id
              WHERE h.item_id = ? AND h.annotator_id = ? AND h.task = ?`,
  ).get(itemId, annotatorId, task) as LabelRow | undefined;
  return row ? toRevision(row) : null;
}

/** Current labels of every annotator of a kind for one item and task (e.g. the file's own preference). */
export function currentLabelsOfKind(db: Db, itemId: number, kind: AnnotatorKind, task: Task = 'pairwise'): LabelRevision[] {
  const rows = statement(
    db,
    `SELECT ${LABEL_COLUMNS} FROM label_head h JOIN label l ON l.seq = h.label_seq JOIN annotator a ON a.id = l.annotator_id
              WHERE h.item_id = ? AND h.task = ? AND a.kind = ? ORDER BY a.name`,
  ).all(itemId, task, kind) as LabelRow[];
  return rows.map(toRevision);
}

export function currentLabelsForItem(db: Db, itemId: number, task: Task = 'pairwise'): LabelRevision[] {
  const rows = db
    .prepare(`SELECT ${LABEL_COLUMNS} FROM label_head h JOIN label l ON l.seq = h.label_seq JOIN annotator a ON a.id = l.annotator_id
              WHERE h.item_id = ? AND h.task = ? ORDER BY a.name`)
    .all(itemId, task) as LabelRow[];
  return rows.map(toRevision);
}

/** Every revision of an item (of one annotator and task, when given), in insertion order. */
export function history(db: Db, itemId: number, annotatorId?: number, task?: Task): LabelRevision[] {
  const filters = ['l.item_id = @item', VISIBLE_LABEL];
  if (annotatorId !== undefined) filters.push('l.annotator_id = @annotator');
  if (task !== undefined) filters.push('l.task = @task');
  const rows = db.prepare(`${LABEL_SELECT} WHERE ${filters.join(' AND ')} ORDER BY l.seq`).all({ item: itemId, annotator: annotatorId, task }) as LabelRow[];
  return rows.map(toRevision);
}

/** Streams every revision of a project's visible items in insertion order (the lossless labels export). */
export function* iterateRevisions(db: Db, projectId: number, pageSize = 2000): Generator<LabelRevision & { itemExternalId: string | null; itemUid: string }> {
  const page = db.prepare(
    `SELECT l.seq, ${LABEL_COLUMNS}, i.external_id, i.uid
     FROM label l JOIN annotator a ON a.id = l.annotator_id JOIN item i ON i.id = l.item_id
     WHERE i.project_id = @project AND ${VISIBLE} AND ${VISIBLE_LABEL} AND l.seq > @after ORDER BY l.seq LIMIT @limit`,
  );
  let after = -1;
  for (;;) {
    const rows = page.all({ project: projectId, after, limit: pageSize }) as (LabelRow & { seq: number; external_id: string | null; uid: string })[];
    if (rows.length === 0) return;
    for (const row of rows) yield { ...toRevision(row), itemExternalId: row.external_id, itemUid: row.uid };
    after = rows[rows.length - 1]!.seq;
  }
}

/** The header's figures from the counters: one annotator's done count and the items labeled by anyone. */
export function progressCounts(db: Db, projectId: number, annotatorId: number | null, task: Task = 'pairwise'): { mine: number; labeled: number } {
  const mine = annotatorId === null ? 0 : ((db.prepare('SELECT done FROM progress WHERE project_id = ? AND task = ? AND annotator_id = ?').pluck().get(projectId, task, annotatorId) as number | undefined) ?? 0);
  const labeled = (db.prepare('SELECT labeled FROM task_progress WHERE project_id = ? AND task = ?').pluck().get(projectId, task) as number | undefined) ?? 0;
  return { mine, labeled };
}

/** Whether an item has a current judgement of a task from a `source` annotator (a file's own). */
export function hasSourceLabel(db: Db, itemId: number, task: Task = 'pairwise'): boolean {
  return (
    db
      .prepare("SELECT 1 FROM label_head h JOIN annotator a ON a.id = h.annotator_id WHERE h.item_id = ? AND h.task = ? AND h.done = 1 AND a.kind = 'source'")
      .get(itemId, task) !== undefined
  );
}

/**
 * The condition that picks, for adjudication `d`, the newest of its item and task: by time, then id (not by
 * insertion order), so machines that merged the same adjudications in other orders agree on the gold label.
 */
export const NEWEST_ADJUDICATION =
  'd.id = (SELECT e.id FROM adjudication e WHERE e.item_id = d.item_id AND e.task = d.task ORDER BY e.created_at DESC, e.id DESC LIMIT 1)';

/** An item's current label as an export decides with it. */
export interface HeadLabel {
  annotator: string;
  kind: AnnotatorKind;
  choice: Choice | Verdict | null;
  ranking: number[][] | null;
  strength: number | null;
  /** The label an adjudication chose for the item and task: it decides before anyone else's. */
  adjudicated?: boolean;
  /** With `withBody`: the revision's body (step judgements live there), its time and the annotator's uuid. */
  body?: LabelBody;
  createdAt?: string;
  annotatorUuid?: string;
}

/**
 * Loads the current labels of the items whose seq lies in [from, to], one query per page of items, so a
 * streaming export asks the database once per page rather than once per item. The label an item's
 * newest adjudication of the task points at comes too, marked `adjudicated` (whoever the annotator).
 * With `withBody`, each label carries its body, time and annotator uuid (step exports need them).
 */
export function headLoader(db: Db, projectId: number, annotator?: string, task: Task = 'pairwise', withBody = false) {
  const extra = withBody ? ', l.body, l.created_at, a.uuid AS annotator_uuid' : '';
  const statement = db.prepare(
    `SELECT h.item_id, a.name AS annotator, a.kind, l.choice, l.ranking, l.strength, 0 AS adjudicated${extra}
     FROM item i
     JOIN label_head h ON h.item_id = i.id AND h.task = @task
     JOIN label l ON l.seq = h.label_seq
     JOIN annotator a ON a.id = h.annotator_id
     WHERE i.project_id = @project AND i.seq >= @from AND i.seq <= @to${annotator !== undefined ? ' AND a.name = @annotator' : ''}
     UNION ALL
     SELECT d.item_id, a.name AS annotator, a.kind, l.choice, l.ranking, l.strength, 1 AS adjudicated${extra}
     FROM item i
     JOIN adjudication d ON d.item_id = i.id AND d.task = @task
     JOIN label l ON l.seq = d.label_seq
     JOIN annotator a ON a.id = l.annotator_id
     WHERE i.project_id = @project AND i.seq >= @from AND i.seq <= @to
       AND ${NEWEST_ADJUDICATION}`,
  );
  type Row = Omit<HeadLabel, 'ranking' | 'adjudicated' | 'body'> & { item_id: number; ranking: string | null; adjudicated: 0 | 1; body?: string; created_at?: string; annotator_uuid?: string };
  return (fromSeq: number, toSeq: number): Map<number, HeadLabel[]> => {
    const rows = statement.all({ task, project: projectId, from: fromSeq, to: toSeq, annotator }) as Row[];
    const byItem = new Map<number, HeadLabel[]>();
    for (const row of rows) {
      const label: HeadLabel = {
        annotator: row.annotator,
        kind: row.kind,
        choice: row.choice,
        ranking: row.ranking ? (JSON.parse(row.ranking) as number[][]) : null,
        strength: row.strength,
      };
      if (row.adjudicated) label.adjudicated = true;
      if (withBody) {
        label.body = hydrateBody(row.body!);
        label.createdAt = row.created_at;
        label.annotatorUuid = row.annotator_uuid;
      }
      const list = byItem.get(row.item_id);
      if (list) list.push(label);
      else byItem.set(row.item_id, [label]);
    }
    return byItem;
  };
}

/** A prepared reader of an item's current pairwise labels, as exports decide with them. */
export function pairwiseHeads(db: Db): (itemId: number) => HeadLabel[] {
  const statement = db.prepare(
    `SELECT a.name AS annotator, a.kind, l.choice, l.ranking, l.strength FROM label_head h
     JOIN label l ON l.seq = h.label_seq JOIN annotator a ON a.id = h.annotator_id
     WHERE h.item_id = ? AND h.task = 'pairwise'`,
  );
  return (itemId) =>
    (statement.all(itemId) as (Omit<HeadLabel, 'ranking'> & { ranking: string | null })[]).map((h) => ({ ...h, ranking: h.ranking ? (JSON.parse(h.ranking) as number[][]) : null }));
}
