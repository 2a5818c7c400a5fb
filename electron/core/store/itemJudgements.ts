// The items table's view of an item's judgements beyond the pairwise choice (which itemList.ts reads with
// the row): every current ranking, step judgement and verdict, whose it is (this annotator, people, the
// file), and whether a single response has steps of its own (a chain or a trajectory: the step screen's).
import type { AnnotatorKind, Task } from '../../../shared/domain';
import type { Db } from './db';

export interface JudgementHead {
  task: Extract<Task, 'ranking' | 'steps' | 'verdict'>;
  kind: AnnotatorKind;
  /** 1 when the annotator the table is for holds it. */
  mine: number;
  choice: string | null;
  /** JSON: groups of tied response indexes, best first (rankings). */
  ranking: string | null;
  /** JSON: per response letter, the first wrong step's index, −1 for none (steps). */
  firstError: string | null;
}

/** Prepared once per page: an item's current judgements of the tasks other than the pairwise choice. */
export function judgementHeads(db: Db): (itemId: number, me: number | null) => JudgementHead[] {
  const statement = db.prepare(
    `SELECT h.task, a.kind, h.annotator_id IS @me AS mine, l.choice, l.ranking,
       CASE WHEN h.task = 'steps' THEN json_extract(l.body, '$.first_error') END AS firstError
     FROM label_head h JOIN label l ON l.seq = h.label_seq JOIN annotator a ON a.id = h.annotator_id
     WHERE h.item_id = @item AND h.done = 1 AND h.task IN ('ranking', 'steps', 'verdict') AND a.kind IN ('human', 'source')
     ORDER BY h.task, a.name`,
  );
  return (itemId, me) => statement.all({ item: itemId, me }) as JudgementHead[];
}

/** Whether an item has steps stored for a response (the file's, or a cut someone rated). */
export function stepsStored(db: Db): (itemId: number) => boolean {
  const statement = db.prepare('SELECT 1 FROM segmentation WHERE item_id = ? LIMIT 1').pluck();
  return (itemId) => statement.get(itemId) !== undefined;
}
