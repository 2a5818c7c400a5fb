// The current human judgements of the items where someone's body holds marks in time (shared/moments.ts)
// or a first failure, for the review's agreement on them (core/review/moments.ts): every person's on such
// an item and task, those who marked nothing too (marking nothing disagrees with a mark). Read only in a
// project that holds videos (the screens make marks in time on videos only); bodies are looked into with
// instr on the text, never parsed here.
import type { Db } from './db';
import { VISIBLE } from './items';
import { projectVideoCount } from './videos';

export interface MomentBodyRow {
  itemId: number;
  seq: number;
  annotatorId: number;
  task: 'pairwise' | 'ranking' | 'verdict';
  /** The revision's body, JSON text. */
  body: string;
}

export function* momentBodies(db: Db, projectId: number): Generator<MomentBodyRow> {
  if (projectVideoCount(db, projectId) === 0) return;
  const rows = db
    .prepare(
      `WITH marked AS (
         SELECT DISTINCT h.item_id, h.task
         FROM label_head h
         JOIN item i ON i.id = h.item_id
         JOIN label l ON l.seq = h.label_seq
         JOIN annotator a ON a.id = h.annotator_id AND a.kind = 'human'
         WHERE i.project_id = @project AND ${VISIBLE} AND h.done = 1 AND h.task IN ('pairwise', 'ranking', 'verdict')
           AND (instr(l.body, '"moments"') > 0 OR instr(l.body, '"first_failure"') > 0)
       )
       SELECT h.item_id, i.seq, h.annotator_id, h.task, l.body
       FROM marked m
       JOIN label_head h ON h.item_id = m.item_id AND h.task = m.task AND h.done = 1
       JOIN item i ON i.id = h.item_id
       JOIN label l ON l.seq = h.label_seq
       JOIN annotator a ON a.id = h.annotator_id AND a.kind = 'human'
       ORDER BY h.item_id, h.task, h.annotator_id`,
    )
    .raw()
    .iterate({ project: projectId }) as IterableIterator<[number, number, number, MomentBodyRow['task'], string]>;
  for (const [itemId, seq, annotatorId, task, body] of rows) yield { itemId, seq, annotatorId, task, body };
}
