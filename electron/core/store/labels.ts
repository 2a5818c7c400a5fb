// Label revisions: append-only. The current label of (item, annotator) is its newest revision by
// (created_at, id); undo appends a revision that restores the one before. Nothing is updated in place
// except label_head, a derived pointer maintained in the same transaction.
import { uuidv7 } from '../uuidv7';
import type { AnnotatorKind, Choice, LabelBody, LabelRevision, Strength } from '../../../shared/domain';
import type { Db } from './db';

export interface RevisionDraft {
  id?: string;
  itemId: number;
  annotatorId: number;
  createdAt?: string;
  choice: Choice | null;
  ranking?: number[] | null;
  strength?: Strength | null;
  shownOrder?: number[] | null;
  body?: LabelBody;
}

interface LabelRow {
  id: string;
  item_id: number;
  annotator: string;
  kind: AnnotatorKind;
  created_at: string;
  choice: Choice | null;
  ranking: string | null;
  strength: Strength | null;
  shown_order: string | null;
  body: string;
}

const LABEL_SELECT = `SELECT l.id, l.item_id, a.name AS annotator, a.kind, l.created_at, l.choice, l.ranking, l.strength,
  l.shown_order, l.body FROM label l JOIN annotator a ON a.id = l.annotator_id`;

function toRevision(row: LabelRow): LabelRevision {
  return {
    id: row.id,
    itemId: row.item_id,
    annotator: row.annotator,
    annotatorKind: row.kind,
    createdAt: row.created_at,
    choice: row.choice,
    ranking: row.ranking ? (JSON.parse(row.ranking) as number[]) : null,
    strength: row.strength,
    shownOrder: row.shown_order ? (JSON.parse(row.shown_order) as number[]) : null,
    body: JSON.parse(row.body) as LabelBody,
  };
}

/** ISO 8601 in UTC with milliseconds, so that text order is time order. */
const CANONICAL_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export function normalizeTimestamp(value: string | Date): string {
  if (typeof value === 'string' && CANONICAL_TIMESTAMP.test(value)) return value;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`not a timestamp: ${String(value)}`);
  return date.toISOString();
}

/** A prepared appender; returns null when a revision with that id already exists (idempotent imports). */
export function labelAppender(db: Db) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO label (id, item_id, annotator_id, created_at, choice, ranking, strength, shown_order, body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Moves the head only forward in (created_at, id) order, so merging older revisions from another
  // machine never hides a newer local one.
  const upsertHead = db.prepare(
    `INSERT INTO label_head (item_id, annotator_id, label_id, created_at, choice) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (item_id, annotator_id) DO UPDATE SET label_id = excluded.label_id, created_at = excluded.created_at, choice = excluded.choice
     WHERE excluded.created_at > label_head.created_at
        OR (excluded.created_at = label_head.created_at AND excluded.label_id > label_head.label_id)`,
  );
  return (draft: RevisionDraft): string | null => {
    const id = draft.id ?? uuidv7();
    const createdAt = draft.createdAt ? normalizeTimestamp(draft.createdAt) : new Date().toISOString();
    const result = insert.run(
      id,
      draft.itemId,
      draft.annotatorId,
      createdAt,
      draft.choice,
      draft.ranking ? JSON.stringify(draft.ranking) : null,
      draft.strength ?? null,
      draft.shownOrder ? JSON.stringify(draft.shownOrder) : null,
      JSON.stringify(draft.body ?? {}),
    );
    if (result.changes === 0) return null;
    upsertHead.run(draft.itemId, draft.annotatorId, id, createdAt, draft.choice);
    return id;
  };
}

/** Rows per multi-row INSERT of newItemLabels. */
const LABEL_BATCH = 64;

/**
 * Bulk labels for items an import has just inserted (so no head exists yet): one revision per item,
 * with no strength, ranking, shown order or body, all by one annotator at one time. Revisions are
 * buffered and written 64 per statement, label rows and head rows alike; ids are made when added, so
 * their order is the order of the calls. flush() writes what is buffered and says how many revisions
 * that added; call it before anything else reads or writes labels.
 */
export function newItemLabels(db: Db, annotatorId: number, createdAt: string) {
  // The annotator and time are the same for every row: literals in the SQL, fewer values to bind.
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const annotator = String(Math.trunc(annotatorId));
  const at = quote(normalizeTimestamp(createdAt));
  const statements = new Map<number, { label: ReturnType<Db['prepare']>; head: ReturnType<Db['prepare']> }>();
  const statement = (k: number) => {
    let st = statements.get(k);
    if (!st) {
      const rows = (row: string) => Array.from({ length: k }, () => row).join(', ');
      st = {
        label: db.prepare(`INSERT INTO label (id, item_id, annotator_id, created_at, choice, body) VALUES ${rows(`(?, ?, ${annotator}, ${at}, ?, '{}')`)}`),
        head: db.prepare(
          `INSERT INTO label_head (item_id, annotator_id, label_id, created_at, choice) VALUES ${rows(`(?, ${annotator}, ?, ${at}, ?)`)}
           ON CONFLICT (item_id, annotator_id) DO UPDATE SET label_id = excluded.label_id, created_at = excluded.created_at, choice = excluded.choice
           WHERE excluded.created_at > label_head.created_at
              OR (excluded.created_at = label_head.created_at AND excluded.label_id > label_head.label_id)`,
        ),
      };
      statements.set(k, st);
    }
    return st;
  };
  let labelParams: unknown[] = [];
  let headParams: unknown[] = [];
  let buffered = 0;
  const flush = (): number => {
    if (!buffered) return 0;
    const st = statement(buffered);
    st.label.run(labelParams);
    st.head.run(headParams);
    const added = buffered;
    labelParams = [];
    headParams = [];
    buffered = 0;
    return added;
  };
  return {
    /** Buffers one revision; returns how many revisions were written (a full buffer is flushed). */
    add(itemId: number, choice: Choice | null): number {
      const id = uuidv7();
      labelParams.push(id, itemId, choice);
      headParams.push(itemId, id, choice);
      return ++buffered === LABEL_BATCH ? flush() : 0;
    },
    flush,
  };
}

export function getRevision(db: Db, id: string): LabelRevision | null {
  const row = db.prepare(`${LABEL_SELECT} WHERE l.id = ?`).get(id) as LabelRow | undefined;
  return row ? toRevision(row) : null;
}

export function currentLabel(db: Db, itemId: number, annotatorId: number): LabelRevision | null {
  const row = db
    .prepare(`${LABEL_SELECT} JOIN label_head h ON h.label_id = l.id WHERE h.item_id = ? AND h.annotator_id = ?`)
    .get(itemId, annotatorId) as LabelRow | undefined;
  return row ? toRevision(row) : null;
}

/** Current labels of every annotator of a kind for one item (e.g. the file's own preference). */
export function currentLabelsOfKind(db: Db, itemId: number, kind: AnnotatorKind): LabelRevision[] {
  const rows = db
    .prepare(`${LABEL_SELECT} JOIN label_head h ON h.label_id = l.id WHERE h.item_id = ? AND a.kind = ? ORDER BY a.name`)
    .all(itemId, kind) as LabelRow[];
  return rows.map(toRevision);
}

export function currentLabelsForItem(db: Db, itemId: number): LabelRevision[] {
  const rows = db
    .prepare(`${LABEL_SELECT} JOIN label_head h ON h.label_id = l.id WHERE h.item_id = ? ORDER BY a.name`)
    .all(itemId) as LabelRow[];
  return rows.map(toRevision);
}

export function history(db: Db, itemId: number, annotatorId?: number): LabelRevision[] {
  const rows = (
    annotatorId
      ? db.prepare(`${LABEL_SELECT} WHERE l.item_id = ? AND l.annotator_id = ? ORDER BY l.created_at, l.id`).all(itemId, annotatorId)
      : db.prepare(`${LABEL_SELECT} WHERE l.item_id = ? ORDER BY l.created_at, l.id`).all(itemId)
  ) as LabelRow[];
  return rows.map(toRevision);
}

/** Streams every revision of a project in time order (the lossless labels export). */
export function* iterateRevisions(db: Db, projectId: number, pageSize = 2000): Generator<LabelRevision & { itemExternalId: string | null; itemUid: string }> {
  const page = db.prepare(
    `SELECT l.seq, l.id, l.item_id, a.name AS annotator, a.kind, l.created_at, l.choice, l.ranking, l.strength, l.shown_order, l.body,
            i.external_id, i.uid
     FROM label l JOIN annotator a ON a.id = l.annotator_id JOIN item i ON i.id = l.item_id
     WHERE i.project_id = ? AND l.seq > ? ORDER BY l.seq LIMIT ?`,
  );
  let after = -1;
  for (;;) {
    const rows = page.all(projectId, after, pageSize) as (LabelRow & { seq: number; external_id: string | null; uid: string })[];
    if (rows.length === 0) return;
    for (const row of rows) yield { ...toRevision(row), itemExternalId: row.external_id, itemUid: row.uid };
    after = rows[rows.length - 1]!.seq;
  }
}
