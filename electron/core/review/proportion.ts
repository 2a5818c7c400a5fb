// Shares with 95% intervals. Wilson's score interval (Wilson 1927) rather than the textbook p ± z·√(p(1−p)/n):
// it stays inside [0, 1] and keeps its coverage for small n and shares near 0 or 1 (Newcombe 1998,
// "Two-sided confidence intervals for the single proportion", method 3), which per-annotator counts are.
import { REASONS, type Estimate, type Proportion } from './estimate';

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

export function wilsonInterval(hits: number, n: number, z = Z95): { low: number; high: number } {
  const p = hits / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** hits / n with its Wilson interval; undefined (null) when n is 0. */
export function proportion(hits: number, n: number, reason: string = REASONS.noData): Proportion {
  if (!(n > 0)) return { value: null, n: 0, reason, low: null, high: null };
  return { value: hits / n, n, reason: null, ...wilsonInterval(hits, n) };
}

export interface Difference extends Estimate {
  low: number | null;
  high: number | null;
}

/**
 * p1 − p2 for two independent shares with Newcombe's hybrid score interval (Newcombe 1998, "Interval
 * estimation for the difference between independent proportions", method 10), built from the two Wilson
 * intervals. n is n1 + n2; undefined when either group is empty.
 */
export function differenceOfProportions(hits1: number, n1: number, hits2: number, n2: number): Difference {
  if (!(n1 > 0) || !(n2 > 0)) return { value: null, n: Math.max(0, n1) + Math.max(0, n2), reason: REASONS.noData, low: null, high: null };
  const p1 = hits1 / n1;
  const p2 = hits2 / n2;
  const a = wilsonInterval(hits1, n1);
  const b = wilsonInterval(hits2, n2);
  const d = p1 - p2;
  return {
    value: d,
    n: n1 + n2,
    reason: null,
    low: d - Math.sqrt((p1 - a.low) ** 2 + (b.high - p2) ** 2),
    high: d + Math.sqrt((a.high - p1) ** 2 + (p2 - b.low) ** 2),
  };
}
