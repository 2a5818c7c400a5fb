// Kendall's coefficient of concordance W with the correction for ties (Kendall & Babington Smith 1939;
// Siegel & Castellan 1988, §9.4):
//   W = 12·S / (m²(n³ − n) − m·Σ_j T_j),  S = Σ_i (R_i − m(n + 1)/2)²,  T_j = Σ_groups (t³ − t),
// for m raters ranking n objects, R_i the sum of object i's (mid-)ranks. Raters give scores, lower =
// better, ties as equal scores (a ranking's tier numbers will do); mid-ranks are derived here.
import { estimate, REASONS, undefinedEstimate, type Estimate } from './estimate';

/**
 * Many small ranking tasks (an item's responses ranked by each annotator who ranked it), flat: unit u has
 * size[u] objects and rows rowStart[u] … rowStart[u + 1] − 1, one per rater; row r of unit u holds its
 * size[u] scores at score[valueStart[u] + (r − rowStart[u])·size[u] …].
 */
export interface Rankings {
  readonly units: number;
  readonly size: Int32Array;
  readonly rowStart: Int32Array;
  readonly valueStart: Int32Array;
  readonly score: Float64Array;
}

/**
 * From unit → rater rows → scores. A unit's object count is its first row's length; a row of another
 * length, or with a non-finite score, is not a ranking of the same objects and is left out.
 */
export function rankingsFromUnits(units: ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>): Rankings {
  const size = new Int32Array(units.length);
  const rowStart = new Int32Array(units.length + 1);
  const valueStart = new Int32Array(units.length + 1);
  const kept: (readonly number[])[] = [];
  units.forEach((rows, u) => {
    const n = rows[0]?.length ?? 0;
    size[u] = n;
    for (const row of rows) if (row.length === n && row.every(Number.isFinite)) kept.push(row);
    rowStart[u + 1] = kept.length;
    valueStart[u + 1] = valueStart[u]! + (rowStart[u + 1]! - rowStart[u]!) * n;
  });
  const score = new Float64Array(valueStart[units.length]!);
  let at = 0;
  for (const row of kept) for (const v of row) score[at++] = v;
  return { units: units.length, size, rowStart, valueStart, score };
}

/** Scores per response from a ranking given as groups of tied responses, best first: [[0, 2], [1]] → [1, 2, 1]. */
export function scoresFromGroups(groups: ReadonlyArray<ReadonlyArray<number>>, responses: number): number[] {
  const scores = new Array<number>(responses).fill(Number.NaN);
  groups.forEach((group, tier) => {
    for (const response of group) if (response >= 0 && response < responses) scores[response] = tier + 1;
  });
  return scores;
}

export interface Concordance extends Estimate {
  /** m, the raters (rows) that W rests on. */
  raters: number;
}

/**
 * W for one block: m rows (raters), each n scores (objects); n in the result is the number of objects.
 * Rows of a different length than the first are left out.
 */
export function kendallW(rows: ReadonlyArray<ReadonlyArray<number>>): Concordance {
  const rankings = rankingsFromUnits([rows]);
  const n = rankings.size[0]!;
  const m = rankings.rowStart[1]!;
  const w = blockW(rankings.score, 0, m, n, new Float64Array(n));
  if (w >= 0) return { ...estimate(w, n), raters: m };
  return { ...undefinedEstimate(n, blockReason(m, n, w)), raters: m };
}

/** Per-unit W is this where a unit's W is undefined (one rater, one object, everything tied). */
export const UNDEFINED_W = -1;

export interface UnitConcordance extends Estimate {
  /** W of each unit, or UNDEFINED_W. */
  perUnit: Float64Array;
}

/** W per unit, and their mean over the units where W is defined (n). */
export function kendallWByUnit(rankings: Rankings): UnitConcordance {
  const perUnit = new Float64Array(rankings.units).fill(UNDEFINED_W);
  let sum = 0;
  let defined = 0;
  let lastReason: string = REASONS.noUnits;
  const scratch = new Float64Array(rankings.size.reduce((a, b) => Math.max(a, b), 0));
  for (let u = 0; u < rankings.units; u++) {
    const m = rankings.rowStart[u + 1]! - rankings.rowStart[u]!;
    const n = rankings.size[u]!;
    const w = blockW(rankings.score, rankings.valueStart[u]!, m, n, scratch);
    if (w < 0) {
      lastReason = blockReason(m, n, w);
      continue;
    }
    perUnit[u] = w;
    sum += w;
    defined++;
  }
  if (defined === 0) return { ...undefinedEstimate(0, lastReason), perUnit };
  return { ...estimate(sum / defined, defined), perUnit };
}

const ALL_TIED = -2;

function blockReason(m: number, n: number, w: number): string {
  if (m < 2) return REASONS.oneRater;
  if (n < 2) return REASONS.fewObjects;
  return w === ALL_TIED ? REASONS.allTied : REASONS.noData;
}

/**
 * W of m rows × n scores at score[offset …], or a negative code when undefined. A score's mid-rank is
 * (number of smaller scores) + (number of equal scores + 1)/2. Rankings of an item's few responses take
 * the O(n²) count, which needs no sort and no allocation; long rows are sorted. rankSum is scratch (≥ n).
 */
function blockW(score: Float64Array, offset: number, m: number, n: number, rankSum: Float64Array): number {
  if (m < 2 || n < 2) return UNDEFINED_W;
  rankSum.fill(0, 0, n);
  let ties = 0;
  for (let r = 0; r < m; r++) ties += n <= SHORT_ROW ? addShortRow(score, offset + r * n, n, rankSum) : addLongRow(score, offset + r * n, n, rankSum);
  const mean = (m * (n + 1)) / 2;
  let s = 0;
  for (let i = 0; i < n; i++) s += (rankSum[i]! - mean) ** 2;
  const denominator = m * m * (n * n * n - n) - m * ties;
  if (denominator <= 0) return ALL_TIED;
  return (12 * s) / denominator;
}

const SHORT_ROW = 32;

/** Adds a row's mid-ranks to rankSum and returns its Σ(t³ − t) (= Σ over members of a tie group of t² − 1). */
function addShortRow(score: Float64Array, row: number, n: number, rankSum: Float64Array): number {
  let ties = 0;
  for (let i = 0; i < n; i++) {
    const x = score[row + i]!;
    let below = 0;
    let equal = 0;
    for (let j = 0; j < n; j++) {
      const y = score[row + j]!;
      if (y < x) below++;
      else if (y === x) equal++;
    }
    rankSum[i] = rankSum[i]! + below + (equal + 1) / 2;
    ties += equal * equal - 1;
  }
  return ties;
}

function addLongRow(score: Float64Array, row: number, n: number, rankSum: Float64Array): number {
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => score[row + a]! - score[row + b]!);
  let ties = 0;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && score[row + order[j]!] === score[row + order[i]!]) j++;
    const t = j - i;
    for (let k = i; k < j; k++) rankSum[order[k]!] = rankSum[order[k]!]! + i + (t + 1) / 2;
    ties += t * t * t - t;
    i = j;
  }
  return ties;
}
