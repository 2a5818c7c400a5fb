// Export filters over a page of items: `--adjudicated-only` keeps the items a lead resolved, and
// `--min-agreement X` keeps the items whose people agree at least that much (an adjudicated item always
// passes: the lead settled it). An item left out is counted under its reason in the export's summary.
import type { Task } from '../../../shared/domain';
import type { Db } from './db';
import { VISIBLE } from './items';

export interface ExportFilter {
  adjudicatedOnly?: boolean;
  /** 0 … 1: the share of an item's people who gave its most common judgement. */
  minAgreement?: number;
  /** Only these item ids (a saved view's items, a selection): the others are not exported, nor counted as left out. */
  items?: ReadonlySet<number>;
}

export type GateReason = 'not_adjudicated' | 'low_agreement';

/**
 * For the items of seq [from, to]: which are left out, and why. Agreement is the share of the current
 * human judgements of the item (in the first of `tasks` that two or more people judged) that equal the
 * most common one; an item fewer than two people judged has no agreement and is left out under it.
 */
export function exportGate(db: Db, projectId: number, filter: ExportFilter, tasks: readonly Task[]) {
  const needed = filter.adjudicatedOnly || filter.minAgreement !== undefined;
  const taskList = JSON.stringify(tasks);
  const adjudicated = db.prepare(
    `SELECT DISTINCT d.item_id FROM adjudication d JOIN item i ON i.id = d.item_id
     WHERE i.project_id = @project AND ${VISIBLE} AND i.seq BETWEEN @from AND @to AND d.task IN (SELECT value FROM json_each(@tasks))`,
  );
  const judgements = db.prepare(
    `SELECT h.item_id AS itemId, h.task, COALESCE(l.choice, l.ranking, json_extract(l.body, '$.first_error'), json_extract(l.body, '$.ratings'), '') AS judgement
     FROM label_head h JOIN item i ON i.id = h.item_id JOIN label l ON l.seq = h.label_seq JOIN annotator a ON a.id = h.annotator_id
     WHERE i.project_id = @project AND ${VISIBLE} AND i.seq BETWEEN @from AND @to AND h.done = 1 AND a.kind = 'human'
       AND h.task IN (SELECT value FROM json_each(@tasks))`,
  );
  const pageItems = db.prepare(`SELECT i.id FROM item i WHERE i.project_id = @project AND ${VISIBLE} AND i.seq BETWEEN @from AND @to`).pluck();
  adjudicated.pluck();
  return (from: number, to: number): Map<number, GateReason> => {
    const out = new Map<number, GateReason>();
    if (!needed) return out;
    const params = { project: projectId, from, to, tasks: taskList };
    const resolved = new Set(adjudicated.all(params) as number[]);
    const byItem = new Map<number, Map<string, string[]>>();
    if (filter.minAgreement !== undefined) {
      for (const row of judgements.all(params) as { itemId: number; task: string; judgement: string }[]) {
        let tasksOf = byItem.get(row.itemId);
        if (!tasksOf) byItem.set(row.itemId, (tasksOf = new Map()));
        const list = tasksOf.get(row.task) ?? [];
        list.push(row.judgement);
        tasksOf.set(row.task, list);
      }
    }
    const ids = pageItems.all(params) as number[];
    for (const id of ids) {
      if (resolved.has(id)) continue;
      if (filter.adjudicatedOnly) {
        out.set(id, 'not_adjudicated');
        continue;
      }
      const agreement = agreementOf(byItem.get(id), tasks);
      if (agreement === null || agreement < filter.minAgreement!) out.set(id, 'low_agreement');
    }
    return out;
  };
}

/** The share of the most common judgement, in the first task two or more people judged; null if none. */
function agreementOf(byTask: Map<string, string[]> | undefined, tasks: readonly Task[]): number | null {
  for (const task of tasks) {
    const list = byTask?.get(task);
    if (!list || list.length < 2) continue;
    const counts = new Map<string, number>();
    for (const j of list) counts.set(j, (counts.get(j) ?? 0) + 1);
    return Math.max(...counts.values()) / list.length;
  }
  return null;
}
