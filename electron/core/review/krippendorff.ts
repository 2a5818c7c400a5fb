// Krippendorff's α (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability") for nominal, ordinal
// and interval data with missing values: α = 1 − D_o / D_e, over the pairable values (those of units with
// two or more ratings).
//
// The textbook route builds the coincidence matrix o_ck and sums o_ck·δ²_ck; that costs K² memory, and
// interval data can have as many distinct values as ratings. The sums have closed forms instead, exact
// rearrangements of the same formula, O(ratings) each:
//   Σ o_ck δ²  = Σ_u 1/(m_u − 1) · Σ_{i≠j in u} δ²(v_i, v_j)      Σ n_c n_k δ² = Σ_{i≠j over all} δ²(v_i, v_j)
//   nominal:  Σ_{i≠j in u} δ² = m_u² − Σ_c n_uc²                   Σ_{i≠j} δ² = N² − Σ_c n_c²
//   interval: Σ_{i≠j in u} δ² = 2m_u·Σv² − 2(Σv)²                  Σ_{i≠j} δ² = 2N·Σv² − 2(Σv)²
//   ordinal:  δ_ck = Σ_{g=c..k} n_g − (n_c + n_k)/2 = M(k) − M(c) with M(g) = Σ_{h<g} n_h + n_g/2, so
//             ordinal α is interval α on the values mapped to M (mid-ranks of the pairable values).
// coincidenceMatrix and alphaFromCoincidences keep the textbook route for small K; the tests check the
// two routes against each other and against the paper's figures.
import { REASONS, type Estimate } from './estimate';
import { codeValues, type Ratings, type ValueCodes } from './ratings';

export type AlphaLevel = 'nominal' | 'ordinal' | 'interval';

export interface Alpha extends Estimate {
  level: AlphaLevel;
  /** N: the number of pairable values (n is the number of pairable units). */
  pairableValues: number;
  /** Observed disagreement D_o and expected disagreement D_e; null when no unit is pairable. */
  observed: number | null;
  expected: number | null;
}

export function krippendorffAlpha(ratings: Ratings, level: AlphaLevel): Alpha {
  const codes = codeValues(ratings);
  const pairable = pairableCounts(ratings, codes);
  const undefinedAlpha = (reason: string, observed: number | null = null, expected: number | null = null): Alpha => ({
    value: null, n: pairable.units, reason, level, pairableValues: pairable.values, observed, expected,
  });
  if (ratings.units === 0) return undefinedAlpha(REASONS.noUnits);
  if (pairable.units === 0) return undefinedAlpha(REASONS.noPairs);
  const sums = level === 'nominal' ? nominalSums(ratings, codes, pairable.counts) : distanceSums(ratings, codes.code, positions(level, codes, pairable.counts));
  const N = pairable.values;
  const observed = sums.observed / N;
  const expected = sums.expected / (N * (N - 1));
  if (!(sums.expected > 0)) return undefinedAlpha(REASONS.noVariation, observed, 0);
  return { value: 1 - observed / expected, n: pairable.units, reason: null, level, pairableValues: N, observed, expected };
}

interface Pairable {
  units: number;
  values: number;
  /** n_c: how often each level occurs among the pairable values. */
  counts: Float64Array;
}

function pairableCounts(ratings: Ratings, { levels, code }: ValueCodes): Pairable {
  const counts = new Float64Array(levels.length);
  let units = 0;
  let values = 0;
  for (let u = 0; u < ratings.units; u++) {
    const from = ratings.start[u]!;
    const to = ratings.start[u + 1]!;
    if (to - from < 2) continue;
    units++;
    values += to - from;
    for (let i = from; i < to; i++) counts[code[i]!] = counts[code[i]!]! + 1;
  }
  return { units, values, counts };
}

interface Sums {
  /** Σ o_ck δ²_ck */
  observed: number;
  /** Σ n_c n_k δ²_ck; exactly 0 when every pairable value is the same. */
  expected: number;
}

function nominalSums(ratings: Ratings, { code }: ValueCodes, counts: Float64Array): Sums {
  const inUnit = new Int32Array(counts.length);
  let observed = 0;
  let N = 0;
  for (let u = 0; u < ratings.units; u++) {
    const from = ratings.start[u]!;
    const to = ratings.start[u + 1]!;
    const m = to - from;
    if (m < 2) continue;
    let sumSquares = 0;
    for (let i = from; i < to; i++) {
      sumSquares += 2 * inUnit[code[i]!]! + 1;
      inUnit[code[i]!] = inUnit[code[i]!]! + 1;
    }
    for (let i = from; i < to; i++) inUnit[code[i]!] = 0;
    observed += (m * m - sumSquares) / (m - 1);
    N += m;
  }
  let sumSquares = 0;
  for (let c = 0; c < counts.length; c++) sumSquares += counts[c]! * counts[c]!;
  return { observed, expected: N * N - sumSquares };
}

/** Where each level sits on the line the interval distance is measured along. */
function positions(level: 'ordinal' | 'interval', { levels }: ValueCodes, counts: Float64Array): Float64Array {
  if (level === 'interval') return levels;
  const mid = new Float64Array(levels.length);
  let below = 0;
  for (let g = 0; g < levels.length; g++) {
    mid[g] = below + counts[g]! / 2;
    below += counts[g]!;
  }
  return mid;
}

function distanceSums(ratings: Ratings, code: Int32Array, at: Float64Array): Sums {
  const { start, units } = ratings;
  // Centre first: 2N·Σv² − 2(Σv)² cancels badly when the values sit far from 0.
  // Equal values can centre to a few ulps instead of 0, so "no variation" is decided on the values.
  let N = 0;
  let total = 0;
  let lowest = Infinity;
  let highest = -Infinity;
  for (let u = 0; u < units; u++) {
    if (start[u + 1]! - start[u]! < 2) continue;
    for (let i = start[u]!; i < start[u + 1]!; i++) {
      const x = at[code[i]!]!;
      total += x;
      lowest = Math.min(lowest, x);
      highest = Math.max(highest, x);
      N++;
    }
  }
  const mean = total / N;
  let observed = 0;
  let sum = 0;
  let sumSquares = 0;
  for (let u = 0; u < units; u++) {
    const from = start[u]!;
    const to = start[u + 1]!;
    const m = to - from;
    if (m < 2) continue;
    let s = 0;
    let ss = 0;
    for (let i = from; i < to; i++) {
      const y = at[code[i]!]! - mean;
      s += y;
      ss += y * y;
    }
    observed += (2 * m * ss - 2 * s * s) / (m - 1);
    sum += s;
    sumSquares += ss;
  }
  return { observed, expected: lowest === highest ? 0 : 2 * N * sumSquares - 2 * sum * sum };
}

export interface Coincidences {
  levels: Float64Array;
  /** K × K, row-major: o[c·K + k] = o_ck. */
  o: Float64Array;
  /** n_c, the row sums. */
  totals: Float64Array;
  /** N = Σ n_c, the pairable values. */
  n: number;
}

/** The coincidence matrix of Krippendorff (2011): K² memory, for display and checks on small K. */
export function coincidenceMatrix(ratings: Ratings): Coincidences {
  const { levels, code } = codeValues(ratings);
  const K = levels.length;
  const o = new Float64Array(K * K);
  const { start, units } = ratings;
  for (let u = 0; u < units; u++) {
    const from = start[u]!;
    const to = start[u + 1]!;
    const m = to - from;
    if (m < 2) continue;
    for (let i = from; i < to; i++) {
      for (let j = from; j < to; j++) {
        if (i === j) continue;
        const at = code[i]! * K + code[j]!;
        o[at] = o[at]! + 1 / (m - 1);
      }
    }
  }
  const totals = new Float64Array(K);
  let n = 0;
  for (let c = 0; c < K; c++) {
    for (let k = 0; k < K; k++) totals[c] = totals[c]! + o[c * K + k]!;
    n += totals[c]!;
  }
  return { levels, o, totals, n: Math.round(n) };
}

/** α straight from a coincidence matrix with the textbook δ² of each level; null when D_e is 0 or N < 2. */
export function alphaFromCoincidences({ levels, o, totals, n }: Coincidences, level: AlphaLevel): number | null {
  const K = levels.length;
  const delta2 = (c: number, k: number): number => {
    if (level === 'nominal') return c === k ? 0 : 1;
    if (level === 'interval') return (levels[c]! - levels[k]!) ** 2;
    const [lo, hi] = c < k ? [c, k] : [k, c];
    let between = 0;
    for (let g = lo; g <= hi; g++) between += totals[g]!;
    return (between - (totals[c]! + totals[k]!) / 2) ** 2;
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < K; c++) {
    for (let k = 0; k < K; k++) {
      observed += o[c * K + k]! * delta2(c, k);
      expected += totals[c]! * totals[k]! * delta2(c, k);
    }
  }
  if (n < 2 || expected <= 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}
