// Own revisions a sync could not push (migration 0009 hub_held): another local person's, or an
// adjudication sent by a login role that is not a lead. The push watermark passes them with the rest of
// their batch, in the same transaction that holds them here, so none is lost between the two; each sync
// offers the held ones first, and one goes once the hub committed it.
import type { Db } from './db';
import { OWN_REVISION_COLUMNS, toOwnRevision, type OwnRevision, type OwnRevisionRow } from './hub';
import { writeNow } from './write';

/**
 * After the hub committed a batch: the push watermark moves to `seq` (never back) and the batch's
 * revisions that could not go up are held, in one transaction.
 */
export function advancePushMark(db: Db, projectId: number, seq: number, held: number[]): void {
  writeNow(db, () => {
    if (held.length) db.prepare('INSERT OR IGNORE INTO hub_held (project_id, seq) SELECT ?, value FROM json_each(?)').run(projectId, JSON.stringify(held));
    db.prepare('UPDATE hub_link SET pushed_label_seq = ? WHERE project_id = ? AND pushed_label_seq < ?').run(seq, projectId, seq);
  });
}

/** Held revisions with label.seq > `after`, in seq order, at most `limit`. */
export function heldRevisions(db: Db, projectId: number, after: number, limit: number): OwnRevision[] {
  const rows = db
    .prepare(
      `SELECT ${OWN_REVISION_COLUMNS}
       FROM hub_held h CROSS JOIN label l ON l.seq = h.seq CROSS JOIN item i ON i.id = l.item_id CROSS JOIN annotator a ON a.id = l.annotator_id
       WHERE h.project_id = ? AND h.seq > ? ORDER BY h.seq LIMIT ?`,
    )
    .all(projectId, after, limit) as OwnRevisionRow[];
  return rows.map(toOwnRevision);
}

/** Held revisions the hub has now committed: no longer owed. */
export function releaseHeld(db: Db, projectId: number, seqs: number[]): void {
  if (seqs.length === 0) return;
  writeNow(db, () => db.prepare('DELETE FROM hub_held WHERE project_id = ? AND seq IN (SELECT value FROM json_each(?))').run(projectId, JSON.stringify(seqs)));
}

/** How many revisions are held, by the name of the annotator who saved them. */
export function heldByAnnotator(db: Db, projectId: number): Map<string, number> {
  const rows = db
    .prepare(
      `SELECT a.name, COUNT(*) AS n FROM hub_held h JOIN label l ON l.seq = h.seq JOIN annotator a ON a.id = l.annotator_id
       WHERE h.project_id = ? GROUP BY a.name`,
    )
    .all(projectId) as { name: string; n: number }[];
  return new Map(rows.map((r) => [r.name, r.n]));
}
