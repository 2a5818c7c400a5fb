// How criteria are grouped and walked on screen. The safety axis: criteria whose key starts with
// "safety" (safety, safety_harm, safety-severity…) are rated apart from the rest, in their own group
// under each response and with their own per-criterion winners, so a pair's helpfulness and safety
// preferences may disagree (see the "helpfulness + safety" template).
import type { Criterion } from '../../../../shared/rubric';

/** A pitfall: a negative weight (rating it yes, or high, counts against the response). */
export const isPitfall = (c: Criterion) => c.weight < 0;

export const isSafety = (c: { key: string }) => /^safety(?:[_-]|$)/.test(c.key);

export function groupsOf<C extends { key: string }>(criteria: C[]): { title: string | null; criteria: C[] }[] {
  const safety = criteria.filter(isSafety);
  if (!safety.length || safety.length === criteria.length) return [{ title: null, criteria }];
  return [
    { title: 'Helpfulness', criteria: criteria.filter((c) => !isSafety(c)) },
    { title: 'Safety', criteria: safety },
  ];
}

/** The criteria in the order the screen shows them and Tab walks them. */
export const walkOrder = <C extends { key: string }>(criteria: C[]) => groupsOf(criteria).flatMap((g) => g.criteria);
