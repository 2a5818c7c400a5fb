// The shape every figure in review/ comes back in. A figure that cannot be computed from the data (no
// units, one rater, one category only) is `value: null` with a reason, never NaN and never a throw, so a
// dashboard can print the reason and a JSON consumer never meets NaN (which JSON cannot carry).

/** A figure and the number of units it rests on. `value` is null exactly when `reason` says why. */
export interface Estimate {
  value: number | null;
  /** The units (items, labels, pairs: each function says which) the figure rests on. */
  n: number;
  reason: string | null;
}

/** A share with its 95% interval (Wilson score); the bounds are null whenever the value is. */
export interface Proportion extends Estimate {
  low: number | null;
  high: number | null;
}

/** Why a figure is undefined. Tests and callers compare against these, so the wording lives in one place. */
export const REASONS = {
  noUnits: 'no units',
  noPairs: 'no unit has two ratings',
  oneRater: 'fewer than two raters',
  noCommonUnits: 'the two raters rated no unit in common',
  oneCategory: 'one category only: chance agreement is 1, so the coefficient is 0/0',
  noVariation: 'every pairable value is the same: expected disagreement is 0, so alpha is 0/0',
  fewObjects: 'fewer than two objects ranked',
  allTied: 'every rater tied every object: the tie-corrected denominator is 0',
  noTime: 'no time recorded',
  noData: 'no usable rows',
  /** A figure below its minimum n (./minimums.ts): the start of its reason, the counts follow. */
  notEnough: 'not enough data',
} as const;

export function estimate(value: number, n: number): Estimate {
  return { value, n, reason: null };
}

export function undefinedEstimate(n: number, reason: string): Estimate {
  return { value: null, n, reason };
}
