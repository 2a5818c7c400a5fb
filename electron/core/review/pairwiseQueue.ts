// The pairwise disagreement queue: which items people (or the models) split on, with its counts by reason
// worked out at once and its rows (one object per item, with its votes) made only when something asks for
// them: the review's screen and `arbiter review` do, `arbiter stats` prints the counts alone (100k rows
// and their votes were a tenth of its time, their garbage more).
import type { QueueReason, QueueRow } from '../../../shared/api/review';
import { CHOICE_CODES } from '../store/reviewHeads';
import type { Ratings } from './ratings';

const CHOICES = CHOICE_CODES;
/** The models' mean P(A better) counts as unsure within this distance of ½. */
const UNSURE = 0.1;
/** Reason bits of a unit. */
const ANNOTATORS = 1;
const MODEL = 2;
const UNCERTAIN = 4;

/** A queue whose rows are made on first ask; `counts` says what they will hold without making them. */
export interface LazyQueue {
  counts: { total: number; byReason: Partial<Record<QueueReason, number>>; adjudicated: number };
  /** The rows, made once (later asks get the same array, with whatever was added to it since). */
  rows(): QueueRow[];
  /** Whether rows() was asked (from then on the rows, not `counts`, say what the queue holds). */
  made(): boolean;
}

export interface PairwiseQueueInput {
  /** The choices as ratings: codes 0–3, −1 for none. */
  choice: Ratings;
  /** Per unit: the models' mean P(A better) (NaN: not scored); whether the models split; the consensus A (0) / B (1) / neither (−1). */
  ensemble: Float64Array;
  split: Uint8Array;
  consensusAB: Int32Array;
  /** Per unit: the majority's choice code, or below 0 (none, an even split). */
  majority: Int32Array;
  unitItem: ArrayLike<number>;
  unitSeq: ArrayLike<number>;
  adjudicated: Set<number>;
}

export function pairwiseQueue(input: PairwiseQueueInput): LazyQueue {
  const { choice, ensemble, split, consensusAB, unitItem, adjudicated } = input;
  const { start, value, units } = choice;
  const reasonsOf = new Uint8Array(units);
  const counts = { total: 0, byReason: { annotators: 0, model: 0, uncertain: 0 }, adjudicated: 0 };
  const votes = new Int32Array(CHOICES.length + 1);
  for (let u = 0; u < units; u++) {
    votes.fill(0);
    let total = 0;
    let top = 0;
    for (let i = start[u]!; i < start[u + 1]!; i++) {
      const slot = value[i]! + 1; // −1 (no choice) counts as its own vote, as the rows' "undefined" key does
      top = Math.max(top, ++votes[slot]!);
      total++;
    }
    const pA = ensemble[u]!;
    const hasModel = Number.isFinite(pA);
    let bits = 0;
    if ((total >= 2 ? 1 - top / total : 0) > 0) bits |= ANNOTATORS;
    if (hasModel && consensusAB[u]! >= 0 && (pA > 0.5 ? 0 : pA < 0.5 ? 1 : -1) !== consensusAB[u]) bits |= MODEL;
    if (hasModel && (Math.abs(pA - 0.5) <= UNSURE || split[u] === 1)) bits |= UNCERTAIN;
    if (!bits) continue;
    reasonsOf[u] = bits;
    counts.total++;
    if (bits & ANNOTATORS) counts.byReason.annotators++;
    if (bits & MODEL) counts.byReason.model++;
    if (bits & UNCERTAIN) counts.byReason.uncertain++;
    if (adjudicated.has(unitItem[u]!)) counts.adjudicated++;
  }
  let rows: QueueRow[] | null = null;
  return { counts, rows: () => (rows ??= queueRows(input, reasonsOf)), made: () => rows !== null };
}

/** The queue's rows: the units with a reason, in unit order. */
function queueRows(input: PairwiseQueueInput, reasonsOf: Uint8Array): QueueRow[] {
  const { choice, ensemble, majority, unitItem, unitSeq, adjudicated } = input;
  const { start, value } = choice;
  const queue: QueueRow[] = [];
  for (let u = 0; u < choice.units; u++) {
    const bits = reasonsOf[u]!;
    if (!bits) continue;
    const votes: Record<string, number> = {};
    let total = 0;
    let top = 0;
    for (let i = start[u]!; i < start[u + 1]!; i++) {
      const key = CHOICES[value[i]!]!;
      votes[key] = (votes[key] ?? 0) + 1;
      total++;
      top = Math.max(top, votes[key]);
    }
    const reasons: QueueReason[] = [];
    if (bits & ANNOTATORS) reasons.push('annotators');
    if (bits & MODEL) reasons.push('model');
    if (bits & UNCERTAIN) reasons.push('uncertain');
    const pA = ensemble[u]!;
    const hasModel = Number.isFinite(pA);
    const unsure = hasModel ? 1 - Math.abs(2 * pA - 1) : 0;
    // An item's consensus: the majority of the votes (the items table's and the exports' rule); none (said
    // as an even split) where the votes split evenly.
    const m = majority[u]!;
    const itemId = unitItem[u]!;
    queue.push({
      itemId,
      seq: unitSeq[u]!,
      externalId: null,
      task: 'pairwise',
      reasons,
      dispute: (total >= 2 ? 1 - top / total : 0) + (bits & MODEL ? 0.5 : 0) + (bits & UNCERTAIN ? 0.25 * unsure : 0),
      votes,
      labels: total,
      modelPA: hasModel ? pA : null,
      consensus: m >= 0 ? CHOICES[m]! : null,
      consensusMethod: m >= 0 ? 'majority' : null,
      adjudicated: adjudicated.has(itemId),
    });
  }
  return queue;
}
