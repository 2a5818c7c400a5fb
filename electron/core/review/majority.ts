// Majority vote with soft labels. Values must be category codes 0 … K − 1 (the caller's coding of choices
// or scale points); any other value is not a vote and is counted in `ignored`.
import type { Ratings } from './ratings';

/** A unit's hard label when nobody labelled it. */
export const NO_LABEL = -1;
/** A unit's hard label when two or more categories share the most votes: a tie is reported, not broken. */
export const TIE = -2;

export interface Consensus {
  categories: number;
  /** Per unit: the winning category, NO_LABEL or TIE. */
  label: Int32Array;
  /** Per unit, K entries (row-major): the vote fractions (majority) or posterior (Dawid–Skene). */
  soft: Float64Array;
  /** Units with at least one vote. */
  n: number;
  /** Units whose label is TIE. */
  ties: number;
  /** Ratings that were not a category code in range. */
  ignored: number;
}

/** The number of categories the codes imply: the highest valid code + 1. */
export function categoryCount(ratings: Ratings): number {
  let highest = -1;
  for (let i = 0; i < ratings.value.length; i++) {
    const v = ratings.value[i]!;
    if (Number.isInteger(v) && v > highest) highest = v;
  }
  return highest + 1;
}

export function isCode(v: number, categories: number): boolean {
  return Number.isInteger(v) && v >= 0 && v < categories;
}

export function majorityVote(ratings: Ratings, categories = categoryCount(ratings)): Consensus {
  const K = Math.max(0, categories);
  const { start, value, units } = ratings;
  const soft = new Float64Array(units * K);
  const label = new Int32Array(units).fill(NO_LABEL);
  let n = 0;
  let ties = 0;
  let ignored = 0;
  for (let u = 0; u < units; u++) {
    const row = u * K;
    let votes = 0;
    for (let i = start[u]!; i < start[u + 1]!; i++) {
      const v = value[i]!;
      if (!isCode(v, K)) {
        ignored++;
        continue;
      }
      soft[row + v] = soft[row + v]! + 1;
      votes++;
    }
    if (votes === 0) continue;
    n++;
    for (let k = 0; k < K; k++) soft[row + k] = soft[row + k]! / votes;
    label[u] = argmaxOrTie(soft, row, K, 0);
    if (label[u] === TIE) ties++;
  }
  return { categories: K, label, soft, n, ties, ignored };
}

/** The index of the largest of K entries at row, or TIE when another is within `slack` of it. */
export function argmaxOrTie(values: Float64Array, row: number, K: number, slack: number): number {
  let best = 0;
  for (let k = 1; k < K; k++) if (values[row + k]! > values[row + best]!) best = k;
  for (let k = 0; k < K; k++) if (k !== best && values[row + k]! >= values[row + best]! - slack) return TIE;
  return best;
}

/**
 * The consensus of one item's votes (value → count), the rule the items table and every export use: the
 * value with the most votes; null when the top values have as many votes each (an even split).
 */
export function majorityOfVotes(votes: Record<string, number>): string | null {
  let best: string | null = null;
  let most = 0;
  let tied = false;
  for (const [value, n] of Object.entries(votes)) {
    if (n > most) [best, most, tied] = [value, n, false];
    else if (n === most) tied = true;
  }
  return tied ? null : best;
}
