// What a project's items are, by shape (pairs, three or more responses, single responses and the single
// responses that have steps), and how far each task is: the counts behind the project list, `arbiter
// projects` / `stats`, each screen's header and the screen a project opens on.
import type { Task } from '../../../shared/domain';
import type { Db } from './db';
import { VISIBLE } from './items';

export interface ProjectShapes {
  single: number;
  pairs: number;
  ranked: number;
  /** Single-response items with stored steps (the file's, or a cut someone rated). */
  chains: number;
}

/** Reads every visible item of the project once (a few ms per 10k items; a task worker counts large ones). */
export function projectShapes(db: Db, projectId: number): ProjectShapes {
  const rows = db
    .prepare(
      `SELECT MIN(i.response_count, 3) AS shape, COUNT(*) AS n,
         SUM(i.response_count = 1 AND EXISTS (SELECT 1 FROM segmentation s WHERE s.item_id = i.id)) AS chains
       FROM item i WHERE i.project_id = @project AND ${VISIBLE} GROUP BY shape`,
    )
    .all({ project: projectId }) as { shape: number; n: number; chains: number }[];
  const n = (shape: number) => rows.find((r) => r.shape === shape)?.n ?? 0;
  return { single: n(1), pairs: n(2), ranked: n(3), chains: rows.find((r) => r.shape === 1)?.chains ?? 0 };
}

/**
 * Items of two or more responses with a current human step judgement: the step screen rates a pair's
 * responses too (opened from the compare screen), so its total counts them beside the single responses.
 */
export function stepsOnMultiResponseItems(db: Db, projectId: number): number {
  return db
    .prepare(
      `SELECT COUNT(DISTINCT h.item_id) FROM label_head h JOIN item i ON i.id = h.item_id JOIN annotator a ON a.id = h.annotator_id
       WHERE h.task = 'steps' AND h.done = 1 AND a.kind = 'human' AND i.project_id = @project AND i.response_count >= 2 AND ${VISIBLE}`,
    )
    .pluck()
    .get({ project: projectId }) as number;
}

/** Items with a current human judgement, per task (the counters kept with every save). */
export function labeledByTask(db: Db, projectId: number): Partial<Record<Task, number>> {
  const rows = db.prepare('SELECT task, labeled FROM task_progress WHERE project_id = ?').all(projectId) as { task: Task; labeled: number }[];
  return Object.fromEntries(rows.map((r) => [r.task, r.labeled]));
}

/** Who has judged items of a project, per task, and how many: from the progress counters, without a scan. */
export function annotatorsByTask(db: Db, projectId: number): { name: string; kind: string; task: Task; labeled: number }[] {
  return db
    .prepare(
      `SELECT a.name, a.kind, p.task, p.done AS labeled FROM progress p JOIN annotator a ON a.id = p.annotator_id
       WHERE p.project_id = ? AND p.done > 0 ORDER BY a.kind, a.name, p.task`,
    )
    .all(projectId) as { name: string; kind: string; task: Task; labeled: number }[];
}

/** The shapes of a project's first thousand visible items: where a large project opens while it is counted. */
export function leadingShapes(db: Db, projectId: number): ProjectShapes {
  const rows = db
    .prepare(
      `SELECT MIN(f.response_count, 3) AS shape, COUNT(*) AS n,
         SUM(f.response_count = 1 AND EXISTS (SELECT 1 FROM segmentation s WHERE s.item_id = f.id)) AS chains
       FROM (SELECT i.id, i.response_count FROM item i WHERE i.project_id = @project AND ${VISIBLE} ORDER BY i.seq LIMIT 1000) f GROUP BY shape`,
    )
    .all({ project: projectId }) as { shape: number; n: number; chains: number }[];
  const n = (shape: number) => rows.find((r) => r.shape === shape)?.n ?? 0;
  return { single: n(1), pairs: n(2), ranked: n(3), chains: rows.find((r) => r.shape === 1)?.chains ?? 0 };
}
