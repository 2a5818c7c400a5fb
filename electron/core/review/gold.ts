// The project's gold, per item and task: the newest adjudication where there is one (it outranks the
// file), else the file's own label (the `source` annotator's) where a lead's mark is in force for that
// task (store/gold.ts goldMarksInForce). Given in the shared label-body types (shared/api/gold.ts).
import type { GoldJudgement } from '../../../shared/api/gold';
import type { Task } from '../../../shared/domain';
import { readLabelBody } from '../../../shared/labelBodies';
import type { Db } from '../store/db';
import { adjudicationRows, goldMarksInForce, markedSourceRows, type GoldLabelRow } from '../store/gold';

function judgement(row: GoldLabelRow): GoldJudgement {
  let ranking: number[][] | null = null;
  if (row.ranking) {
    try {
      const parsed = JSON.parse(row.ranking) as unknown;
      if (Array.isArray(parsed)) ranking = parsed as number[][];
    } catch {
      ranking = null;
    }
  }
  return { itemId: row.itemId, seq: row.seq, externalId: row.externalId, task: row.task, origin: row.origin, choice: row.choice, strength: row.strength, ranking, body: readLabelBody(row.body) };
}

/** Gold per task (one task when given): item id → its gold judgement. */
export function goldOf(db: Db, projectId: number, task?: Task): Map<Task, Map<number, GoldJudgement>> {
  const out = new Map<Task, Map<number, GoldJudgement>>();
  const put = (g: GoldJudgement) => {
    const perTask = out.get(g.task) ?? new Map<number, GoldJudgement>();
    if (!perTask.has(g.itemId)) perTask.set(g.itemId, g);
    out.set(g.task, perTask);
  };
  for (const row of adjudicationRows(db, projectId, task)) put(judgement(row));
  const marks = goldMarksInForce(db, projectId);
  for (const row of markedSourceRows(db, projectId, task)) {
    const inForce = marks.get(row.itemId);
    if (inForce?.get(row.task) ?? inForce?.get('*')) put(judgement(row));
  }
  return out;
}

/** One task's gold as a list in item order. */
export function goldList(db: Db, projectId: number, task: Task): GoldJudgement[] {
  return [...(goldOf(db, projectId, task).get(task)?.values() ?? [])].sort((a, b) => a.seq - b.seq);
}
