// A judgement as the values evaluation compares: per measure, a unit (the item, or one response of it, or
// one rubric criterion of one response) and its value as text. The gold, people's labels, models' scores
// and judges' verdicts all become these, so one comparison serves every kind of subject.
import type { Measure } from '../../../../shared/api/evaluation';
import type { Task } from '../../../../shared/domain';
import type { LabelBody } from '../../../../shared/labelBodies';

export interface UnitValue {
  measure: Measure;
  /** `item` or `item:letter` or `item:letter:criterion`. */
  unit: string;
  itemId: number;
  value: string;
}

const letter = (i: number) => String.fromCharCode(65 + i);

/** The single best response of a ranking (its letter), or null when the top is tied. */
export function rankingBest(ranking: number[][] | null): string | null {
  const top = ranking?.[0];
  return top && top.length === 1 ? letter(top[0]!) : null;
}

/** The values one stored judgement gives (a task's label, a gold judgement). */
export function unitValues(itemId: number, task: Task, j: { choice: string | null; ranking: number[][] | null; body: LabelBody }): UnitValue[] {
  const out: UnitValue[] = [];
  if (task === 'pairwise' && j.choice) out.push({ measure: 'pairwise', unit: `${itemId}`, itemId, value: j.choice });
  if (task === 'verdict' && (j.choice === 'good' || j.choice === 'bad')) out.push({ measure: 'verdict', unit: `${itemId}`, itemId, value: j.choice });
  if (task === 'ranking') {
    const best = rankingBest(j.ranking);
    if (best) out.push({ measure: 'ranking', unit: `${itemId}`, itemId, value: best });
  }
  if (task === 'steps') {
    for (const [l, first] of Object.entries(j.body.first_error ?? {})) if (typeof first === 'number') out.push({ measure: 'first_error', unit: `${itemId}:${l}`, itemId, value: String(first) });
    for (const [l, outcome] of Object.entries(j.body.outcome ?? {})) if (typeof outcome === 'string') out.push({ measure: 'outcome', unit: `${itemId}:${l}`, itemId, value: outcome });
  }
  if (task === 'rubric')
    for (const [l, ratings] of Object.entries(j.body.ratings ?? {}))
      for (const [criterion, rating] of Object.entries(ratings ?? {})) if (rating !== null && rating !== undefined) out.push({ measure: 'rubric', unit: `${itemId}:${l}:${criterion}`, itemId, value: String(rating) });
  return out;
}

/** Which task a measure's judgements are saved under. */
export const TASK_OF: Record<Measure, Task> = { pairwise: 'pairwise', ranking: 'ranking', first_error: 'steps', verdict: 'verdict', rubric: 'rubric', outcome: 'steps' };
