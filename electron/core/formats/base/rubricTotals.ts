// Weighted rubric totals (docs/formats.md "Which label decides"): what a response's ratings add
// up to, for the pairs an export derives from ratings (--from-ratings), the scores ultrafeedback-binarized
// writes and the 1–5 score of a Prometheus line.
//   total = Σ weight × normalized value, over the criteria the response was rated on
// where a binary yes is 1 and no is 0, a Likert value is placed on 0..1 (min → 0, max → 1), and a
// negative weight (a pitfall) subtracts. null ("not applicable") is skipped, and so is a category: named
// categories have no order to add up.
import type { Criterion, RatingValue } from '../../../../shared/rubric';

export interface Total {
  total: number;
  /** The lowest and highest total the rated criteria allow (every pitfall met / every good criterion met). */
  low: number;
  high: number;
  /** How many criteria added to it. */
  rated: number;
}

/** A value on 0..1, or null when it adds nothing (not applicable, a category, off the scale). */
export function normalizedValue(criterion: Criterion, value: RatingValue | undefined): number | null {
  if (typeof value !== 'number') return null;
  const scale = criterion.scale;
  if (scale.type === 'binary') return value === 1 ? 1 : value === 0 ? 0 : null;
  if (scale.type === 'likert') return value < scale.min || value > scale.max ? null : (value - scale.min) / (scale.max - scale.min);
  return null;
}

export function weightedTotal(criteria: readonly Criterion[], values: Readonly<Record<string, RatingValue>>): Total {
  let total = 0;
  let low = 0;
  let high = 0;
  let rated = 0;
  for (const criterion of criteria) {
    const v = normalizedValue(criterion, values[criterion.key]);
    if (v === null) continue;
    total += criterion.weight * v;
    if (criterion.weight < 0) low += criterion.weight;
    else high += criterion.weight;
    rated++;
  }
  return { total, low, high, rated };
}

/** The total placed on 0..1 between its lowest and highest; null when nothing was rated or nothing weighs. */
export function normalizedTotal(t: Total): number | null {
  if (t.rated === 0 || t.high === t.low) return null;
  return (t.total - t.low) / (t.high - t.low);
}

/** Totals are sums of fractions: equal ones may differ in the last bits, so they are compared rounded. */
const key = (total: number) => Math.round(total * 1e9);

/**
 * Response indexes grouped by equal totals, best first; responses without a total (nothing rated) are
 * left out. Null when fewer than two responses have one: nothing to compare.
 */
export function totalsRanking(totals: readonly (number | null)[]): number[][] | null {
  const rated = totals.map((t, index) => ({ t, index })).filter((e): e is { t: number; index: number } => e.t !== null);
  if (rated.length < 2) return null;
  rated.sort((a, b) => key(b.t) - key(a.t) || a.index - b.index);
  const groups: number[][] = [];
  let last: number | null = null;
  for (const { t, index } of rated) {
    if (last !== null && key(t) === last) groups[groups.length - 1]!.push(index);
    else groups.push([index]);
    last = key(t);
  }
  return groups;
}

/**
 * A score on the rubric's own scale where every rated criterion shares one Likert range (the mean of
 * UltraFeedback's 1–5 aspects, weighted): min + normalized total × (max − min). Otherwise the normalized
 * total (0..1). Null when nothing was rated.
 */
export function rubricScore(criteria: readonly Criterion[], values: Readonly<Record<string, RatingValue>>): number | null {
  const t = normalizedTotal(weightedTotal(criteria, values));
  if (t === null) return null;
  let range: { min: number; max: number } | null = null;
  for (const c of criteria) {
    if (normalizedValue(c, values[c.key]) === null) continue;
    if (c.scale.type !== 'likert' || (range && (range.min !== c.scale.min || range.max !== c.scale.max))) return round(t);
    range = { min: c.scale.min, max: c.scale.max };
  }
  return range ? round(range.min + t * (range.max - range.min)) : round(t);
}

/** Six decimals: enough for any score, and free of float noise in the file. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;
