// Per-annotator figures. Inputs are parallel arrays, one entry per label (the rows a stats query yields),
// and results are arrays indexed by rater (0 … raters − 1).
import { estimate, REASONS, undefinedEstimate, type Estimate, type Proportion } from './estimate';
import { proportion } from './proportion';
import type { Ratings } from './ratings';

/**
 * Per rater: over the units they share with at least one other rater, the mean share of the others on
 * the unit who gave the same value (n = those units).
 */
export function agreementWithOthers(ratings: Ratings): Estimate[] {
  const { start, rater, value, units } = ratings;
  const sum = new Float64Array(ratings.raters);
  const shared = new Int32Array(ratings.raters);
  for (let u = 0; u < units; u++) {
    const from = start[u]!;
    const to = start[u + 1]!;
    if (to - from < 2) continue;
    for (let i = from; i < to; i++) {
      let same = 0;
      for (let j = from; j < to; j++) if (j !== i && value[j] === value[i]) same++;
      const r = rater[i]!;
      sum[r] = sum[r]! + same / (to - from - 1);
      shared[r] = shared[r]! + 1;
    }
  }
  return Array.from(shared, (n, r) => (n === 0 ? undefinedEstimate(0, REASONS.noPairs) : estimate(sum[r]! / n, n)));
}

/**
 * Per rater: the share of their labels equal to the consensus label, over units with a consensus (label
 * ≥ 0: ties and unlabelled units are left out). The consensus counts the rater's own vote, so with few
 * raters per unit this is higher than agreement with the others.
 */
export function agreementWithConsensus(ratings: Ratings, consensus: Int32Array): Proportion[] {
  const hits = new Int32Array(ratings.raters);
  const labelled = new Int32Array(ratings.raters);
  for (let u = 0; u < ratings.units; u++) {
    const label = consensus[u] ?? -1;
    if (label < 0) continue;
    for (let i = ratings.start[u]!; i < ratings.start[u + 1]!; i++) {
      const r = ratings.rater[i]!;
      labelled[r] = labelled[r]! + 1;
      if (ratings.value[i] === label) hits[r] = hits[r]! + 1;
    }
  }
  return Array.from(labelled, (n, r) => proportion(hits[r]!, n));
}

/**
 * Position bias: per rater, the share of decisive picks that went to the response shown on the left
 * (pickedLeft 1 = left, 0 = right; anything else, e.g. −1 for a tie or "both bad", is not a pick). An
 * unbiased annotator is near 0.5; an interval that excludes 0.5 is a bias the data support.
 */
export function positionBias(rater: ArrayLike<number>, pickedLeft: ArrayLike<number>, raters: number): Proportion[] {
  const hits = new Int32Array(raters);
  const picks = new Int32Array(raters);
  for (let i = 0; i < Math.min(rater.length, pickedLeft.length); i++) {
    const r = rater[i]!;
    const side = pickedLeft[i];
    if (!(r >= 0 && r < raters) || (side !== 0 && side !== 1)) continue;
    picks[r] = picks[r]! + 1;
    hits[r] = hits[r]! + side;
  }
  return Array.from(picks, (n, r) => proportion(hits[r]!, n));
}

/**
 * Length bias: per rater, the share of decisive picks that went to the longer response. Picks between
 * responses of equal length (or with a length missing) say nothing about length and are left out.
 */
export function lengthBias(rater: ArrayLike<number>, chosenLength: ArrayLike<number>, otherLength: ArrayLike<number>, raters: number): Proportion[] {
  const hits = new Int32Array(raters);
  const picks = new Int32Array(raters);
  for (let i = 0; i < Math.min(rater.length, chosenLength.length, otherLength.length); i++) {
    const r = rater[i]!;
    const chosen = chosenLength[i]!;
    const other = otherLength[i]!;
    if (!(r >= 0 && r < raters) || !Number.isFinite(chosen) || !Number.isFinite(other) || chosen === other) continue;
    picks[r] = picks[r]! + 1;
    if (chosen > other) hits[r] = hits[r]! + 1;
  }
  return Array.from(picks, (n, r) => proportion(hits[r]!, n));
}

export interface Throughput {
  labels: number;
  /** Labels per hour of time actually spent on them (n = labels with a recorded time). */
  labelsPerHour: Estimate;
  /** Median time spent per label, ms (n = labels with a recorded time). */
  medianTimeMs: Estimate;
}

/** A label's recorded time past this is a label left open over a break: it counts this much. */
export const IDLE_CAP_MS = 10 * 60 * 1000;

/**
 * Per rater, from each label's save time (ms since the epoch) and time spent (ms; ≤ 0 or non-finite =
 * not recorded). The rate is per active hour: labels with a recorded time over the sum of those times
 * (each capped at idleCapMs), never the wall clock between saves, which two saves a second apart (an
 * import, a script, a quick undo and redo) would make 3,600 an hour.
 */
export function throughput(rater: ArrayLike<number>, savedAt: ArrayLike<number>, timeMs: ArrayLike<number>, raters: number, idleCapMs = IDLE_CAP_MS): Throughput[] {
  const { offsets, order } = groupByRater(rater, savedAt, Math.min(rater.length, savedAt.length, timeMs.length), raters);
  const recorded = (i: number): boolean => timeMs[i]! > 0 && Number.isFinite(timeMs[i]!);
  return Array.from({ length: raters }, (_, r) => {
    const rows = order.subarray(offsets[r]!, offsets[r + 1]!);
    let active = 0;
    const times = new Float64Array(rows.length);
    let timed = 0;
    for (const row of rows) {
      if (!recorded(row)) continue;
      active += Math.min(timeMs[row]!, idleCapMs);
      times[timed++] = timeMs[row]!;
    }
    const labels = rows.length;
    return {
      labels,
      labelsPerHour: labels === 0 ? undefinedEstimate(0, REASONS.noData) : timed > 0 ? estimate((timed * 3_600_000) / active, timed) : undefinedEstimate(0, REASONS.noTime),
      medianTimeMs: timed === 0 ? undefinedEstimate(0, REASONS.noTime) : estimate(medianInPlace(times.subarray(0, timed)), timed),
    };
  });
}

/** Label indices grouped by rater (a counting sort, input order kept): rater r's are order[offsets[r] … offsets[r + 1] − 1]. */
function groupByRater(rater: ArrayLike<number>, savedAt: ArrayLike<number>, count: number, raters: number): { offsets: Int32Array; order: Int32Array } {
  const usable = (i: number): boolean => rater[i]! >= 0 && rater[i]! < raters && Number.isInteger(rater[i]!) && Number.isFinite(savedAt[i]!);
  const offsets = new Int32Array(raters + 1);
  for (let i = 0; i < count; i++) if (usable(i)) offsets[rater[i]! + 1] = offsets[rater[i]! + 1]! + 1;
  for (let r = 0; r < raters; r++) offsets[r + 1] = offsets[r + 1]! + offsets[r]!;
  const fill = offsets.slice(0, raters);
  const order = new Int32Array(offsets[raters]!);
  for (let i = 0; i < count; i++) {
    if (!usable(i)) continue;
    order[fill[rater[i]!]!] = i;
    fill[rater[i]!] = fill[rater[i]!]! + 1;
  }
  return { offsets, order };
}

/**
 * The median of a non-empty array, whose order it changes: the middle value (or the mean of the two middle
 * values) a sort gives, found by selection in O(n) rather than sorting 100k times for one value.
 */
export function medianInPlace(values: Float64Array): number {
  const mid = values.length >> 1;
  const upper = selectInPlace(values, mid);
  if (values.length % 2 === 1) return upper;
  // values[0 … mid − 1] now hold the mid smallest: the largest of them is the lower middle value.
  let lower = values[0]!;
  for (let i = 1; i < mid; i++) if (values[i]! > lower) lower = values[i]!;
  return (lower + upper) / 2;
}

/** Rounds of partitioning before the rest is sorted instead (a bad pivot every round cannot go quadratic). */
const SELECT_ROUNDS = 64;

/**
 * Puts the k-th smallest value (0-based) at index k, the smaller ones before it and the larger after it
 * (Hoare partitions around a median of three); returns it. Values are finite.
 */
export function selectInPlace(values: Float64Array, k: number): number {
  let left = 0;
  let right = values.length - 1;
  for (let round = 0; right > left; round++) {
    if (round === SELECT_ROUNDS) {
      values.subarray(left, right + 1).sort();
      break;
    }
    const a = values[left]!;
    const b = values[(left + right) >> 1]!;
    const c = values[right]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break; // between j and i: every value there equals the pivot
  }
  return values[k]!;
}
