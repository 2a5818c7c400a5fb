// "Most uncertain first": the labeling order that puts the items the reward models are least sure about
// first (their mean P(A better) nearest ½, or models that disagree), then every other item in source
// order. Computed on a task worker from one read; the labeling loop walks the list it returns.
import type { ModelPairRow } from '../store/review';

/** Item ids: scored pairs by falling uncertainty (1 − |2·P(A) − 1|, averaged over models), then the rest as given. */
export function uncertaintyOrder(itemIds: Int32Array, pairs: readonly ModelPairRow[]): Int32Array {
  const sum = new Map<number, { total: number; n: number }>();
  for (const pair of pairs) {
    const p = 1 / (1 + Math.exp(-(pair.rewardA - pair.rewardB)));
    const entry = sum.get(pair.itemId) ?? { total: 0, n: 0 };
    entry.total += 1 - Math.abs(2 * p - 1);
    entry.n++;
    sum.set(pair.itemId, entry);
  }
  const position = new Map(Array.from(itemIds, (id, i) => [id, i]));
  const scored = [...sum.keys()].filter((id) => position.has(id));
  const uncertainty = (id: number) => sum.get(id)!.total / sum.get(id)!.n;
  scored.sort((a, b) => uncertainty(b) - uncertainty(a) || position.get(a)! - position.get(b)!);
  const first = new Set(scored);
  const order = new Int32Array(itemIds.length);
  let at = 0;
  for (const id of scored) order[at++] = id;
  for (const id of itemIds) if (!first.has(id)) order[at++] = id;
  return order;
}
