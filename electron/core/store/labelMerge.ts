// The rows of a labels merge (store/labelImports.ts keeps its record, staged heads and visibility): its
// revisions written under the pending merge, and a stored revision read back as its row holds it, shown
// or not, to tell a retried or re-merged revision from an id reused for a different label.
import type { Task } from '../../../shared/domain';
import { hydrateBody } from '../../../shared/labelBodies';
import { labelRowValues, normalizeTimestamp, type RevisionDraft } from './labels';
import type { Db } from './sqlite';

/**
 * Writes a labels merge's revisions under its pending record (inside the caller's write transaction):
 * the revision only, never a head or a counter (the merge stages those and applies them when it
 * completes). An id already stored adds nothing.
 */
export function mergedRevisionWriter(db: Db, importId: number) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO label (id, item_id, annotator_id, task, created_at, choice, ranking, strength, shown_order, rubric_version_id, segmentation_id, body, import_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // The annotator apart from the draft: a merge's drafts say who labeled by name and uuid, resolved as written.
  return (draft: Omit<RevisionDraft, 'annotatorId'> & { id: string }, annotatorId: number): { id: string; inserted: boolean; seq: number; createdAt: string; done: boolean } => {
    const createdAt = draft.createdAt ? normalizeTimestamp(draft.createdAt) : new Date().toISOString();
    const result = insert.run(...labelRowValues(draft.id, draft, annotatorId, createdAt), importId);
    const done = draft.done ?? (draft.choice !== null || (draft.ranking?.length ?? 0) > 0);
    return { id: draft.id, inserted: result.changes > 0, seq: Number(result.lastInsertRowid), createdAt, done };
  };
}

/** Revisions a statement of mergedRevisionsWriter writes: fewer statements run, each binding more values. */
const ROWS_PER_STATEMENT = 64;

/**
 * mergedRevisionWriter for many revisions at a time, in their order: ROWS_PER_STATEMENT rows a statement
 * (a quarter less CPU than one a statement). A revision whose id is stored already, or came earlier in the
 * same call, adds nothing, as one at a time. Which rows a statement stored, and their seqs, follow from its
 * changes and last rowid: label.seq is a rowid without AUTOINCREMENT, so inside the write transaction each
 * stored row takes the greatest seq + 1, and a statement's stored rows hold the consecutive seqs
 * (last - changes, last]. All stored (the usual case), they are the rows in order; none, none of them;
 * some, a row's id is looked up and it was stored here when its seq is in that range (the first row of an
 * id in the statement, as rows are inserted in order). RETURNING cost more (an ephemeral table a statement,
 * an object a row).
 */
export function mergedRevisionsWriter(db: Db, importId: number) {
  const one = mergedRevisionWriter(db, importId);
  const row = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
  const many = db.prepare(
    `INSERT OR IGNORE INTO label (id, item_id, annotator_id, task, created_at, choice, ranking, strength, shown_order, rubric_version_id, segmentation_id, body, import_id)
     VALUES ${Array.from({ length: ROWS_PER_STATEMENT }, () => row).join(', ')}`,
  );
  const seqOf = db.prepare('SELECT seq FROM label WHERE id = ?').pluck();
  type Written = ReturnType<typeof one>;
  return (revisions: readonly { draft: Omit<RevisionDraft, 'annotatorId'> & { id: string }; annotatorId: number }[]): Written[] => {
    const out: Written[] = [];
    let at = 0;
    for (; at + ROWS_PER_STATEMENT <= revisions.length; at += ROWS_PER_STATEMENT) {
      const params: unknown[] = [];
      const chunk = revisions.slice(at, at + ROWS_PER_STATEMENT);
      const times: string[] = [];
      for (const { draft, annotatorId } of chunk) {
        const createdAt = draft.createdAt ? normalizeTimestamp(draft.createdAt) : new Date().toISOString();
        times.push(createdAt);
        params.push(...labelRowValues(draft.id, draft, annotatorId, createdAt), importId);
      }
      const result = many.run(params);
      const last = Number(result.lastInsertRowid);
      const first = last - result.changes + 1;
      const some = result.changes > 0 && result.changes < ROWS_PER_STATEMENT;
      const seen = new Set<string>();
      chunk.forEach(({ draft }, i) => {
        let seq: number | undefined;
        if (result.changes === ROWS_PER_STATEMENT) seq = first + i;
        else if (some && !seen.has(draft.id)) {
          const found = seqOf.get(draft.id) as number | undefined;
          if (found !== undefined && found >= first && found <= last) seq = found;
        }
        seen.add(draft.id);
        const done = draft.done ?? (draft.choice !== null || (draft.ranking?.length ?? 0) > 0);
        out.push({ id: draft.id, inserted: seq !== undefined, seq: seq ?? 0, createdAt: times[i]!, done });
      });
    }
    for (; at < revisions.length; at++) out.push(one(revisions[at]!.draft, revisions[at]!.annotatorId));
    return out;
  };
}

/** A stored revision as its row holds it, shown or not (a merge compares a reused id's revision with it). */
export interface StoredRevision {
  itemId: number;
  annotatorId: number;
  task: Task;
  createdAt: string;
  choice: string | null;
  ranking: unknown;
  strength: number | null;
  shownOrder: unknown;
  body: unknown;
}

export function storedRevision(db: Db): (id: string) => StoredRevision | null {
  const statement = db.prepare('SELECT item_id, annotator_id, task, created_at, choice, ranking, strength, shown_order, body FROM label WHERE id = ?');
  return (id) => {
    const row = statement.get(id) as
      | { item_id: number; annotator_id: number; task: Task; created_at: string; choice: string | null; ranking: string | null; strength: number | null; shown_order: string | null; body: string }
      | undefined;
    if (!row) return null;
    return {
      itemId: row.item_id,
      annotatorId: row.annotator_id,
      task: row.task,
      createdAt: row.created_at,
      choice: row.choice,
      ranking: row.ranking ? JSON.parse(row.ranking) : null,
      strength: row.strength,
      shownOrder: row.shown_order ? JSON.parse(row.shown_order) : null,
      body: hydrateBody(row.body),
    };
  };
}
