// What gold for people reads (shared/goldRules.ts): people's current judgements on the gold items, the
// items' uids (the walk skips gold by uid), a person's count of judgements (their queue slot), and a
// watermark that changes when the gold might have (a mark, an adjudication, an import made visible).
import type { Task } from '../../../shared/domain';
import type { Db } from './db';
import { statement } from './statements';

/** A person's current judgement of one gold item. */
export interface PersonGoldLabel {
  itemId: number;
  annotatorId: number;
  annotator: string;
  createdAt: string;
  choice: string | null;
  ranking: string | null;
  body: string;
}

/** Every person's current judgement (done) of a task on these items. */
export function humanLabelsOnItems(db: Db, task: Task, itemIds: number[], annotatorId?: number): PersonGoldLabel[] {
  if (!itemIds.length) return [];
  return db
    .prepare(
      `SELECT h.item_id AS itemId, h.annotator_id AS annotatorId, a.name AS annotator, l.created_at AS createdAt, l.choice, l.ranking, l.body
       FROM label_head h JOIN annotator a ON a.id = h.annotator_id JOIN label l ON l.seq = h.label_seq
       WHERE h.task = @task AND h.done = 1 AND a.kind = 'human' AND (@who IS NULL OR h.annotator_id = @who)
         AND h.item_id IN (SELECT value FROM json_each(@ids))
       ORDER BY a.name, h.item_id`,
    )
    .all({ task, ids: JSON.stringify(itemIds), who: annotatorId ?? null }) as PersonGoldLabel[];
}

/** item id → uid, for these items. */
export function itemUids(db: Db, itemIds: number[]): Map<number, string> {
  if (!itemIds.length) return new Map();
  const rows = db.prepare('SELECT id, uid FROM item WHERE id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(itemIds)) as [number, string][];
  return new Map(rows);
}

/** How many items of the task a person has a current judgement on in the project (the progress counter). */
export function judgedCount(db: Db, projectId: number, task: Task, annotatorId: number): number {
  return (statement(db, 'SELECT done FROM progress WHERE project_id = ? AND task = ? AND annotator_id = ?', true).get(projectId, task, annotatorId) as number | undefined) ?? 0;
}

/** Changes when the project's gold may have: a mark, an adjudication, items made visible. Key lookups only. */
export function goldWatermark(db: Db, projectId: number): string {
  const row = statement(
    db,
    `SELECT (SELECT MAX(seq) FROM gold_mark) AS marks, (SELECT MAX(seq) FROM adjudication) AS adjudications,
            (SELECT visible_seq FROM project WHERE id = ?) AS visible`,
  ).get(projectId) as { marks: number | null; adjudications: number | null; visible: number | null };
  return `${row.marks ?? 0}:${row.adjudications ?? 0}:${row.visible ?? 0}`;
}

/** Whether the project has any gold at all (a mark or an adjudication): reading none costs two index probes. */
export function mayHaveGold(db: Db, projectId: number): boolean {
  return (
    statement(
      db,
      `SELECT EXISTS (SELECT 1 FROM gold_mark g JOIN item i ON i.id = g.item_id WHERE i.project_id = @project AND g.gold = 1)
           OR EXISTS (SELECT 1 FROM adjudication d JOIN item i ON i.id = d.item_id WHERE i.project_id = @project)`,
      true,
    ).get({ project: projectId }) === 1
  );
}
