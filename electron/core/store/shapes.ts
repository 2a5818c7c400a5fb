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

/** The response-count condition of each screen's shape: pairs, three or more, single responses. */
export type Shape = 'pairs' | 'ranked' | 'single';
const SHAPE_CONDITION: Record<Shape, string> = { pairs: 'i.response_count = 2', ranked: 'i.response_count >= 3', single: 'i.response_count = 1' };
/** Seqs per block of the position index: a position counts at most this many rows past its block's start. */
export const POSITION_BLOCK = 4096;

/**
 * Items of each shape before each block of POSITION_BLOCK seqs (one pass over the project, grouped in
 * SQL): with it an item's place among the items of its shape counts only the rows of its own block.
 */
export function shapeBlocks(db: Db, projectId: number): Record<Shape, Int32Array> {
  const rows = db
    .prepare(
      `SELECT i.seq / ${POSITION_BLOCK} AS block, SUM(i.response_count = 1) AS single, SUM(i.response_count = 2) AS pairs, SUM(i.response_count >= 3) AS ranked
       FROM item i WHERE i.project_id = @project AND ${VISIBLE} GROUP BY block ORDER BY block`,
    )
    .all({ project: projectId }) as ({ block: number } & Record<Shape, number>)[];
  const blocks = (rows[rows.length - 1]?.block ?? -1) + 1;
  const before = { pairs: new Int32Array(blocks + 1), ranked: new Int32Array(blocks + 1), single: new Int32Array(blocks + 1) };
  for (const row of rows) for (const shape of ['pairs', 'ranked', 'single'] as const) before[shape][row.block + 1] = row[shape];
  for (const shape of ['pairs', 'ranked', 'single'] as const) for (let b = 1; b <= blocks; b++) before[shape][b] = before[shape][b]! + before[shape][b - 1]!;
  return before;
}

/** Items of a shape from `fromSeq` up to, not including, `seq` (a walk of the (project, seq) index). */
export function shapeCountBetween(db: Db, projectId: number, shape: Shape, fromSeq: number, seq: number): number {
  return db
    .prepare(`SELECT COUNT(*) FROM item i WHERE i.project_id = @project AND i.seq >= @from AND i.seq < @seq AND ${SHAPE_CONDITION[shape]}`)
    .pluck()
    .get({ project: projectId, from: fromSeq, seq }) as number;
}
