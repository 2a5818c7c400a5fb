// Chance-uncorrected and chance-corrected agreement on categorical data: pairwise percent agreement,
// Cohen's κ (two raters), Fleiss' κ (many raters), and agreement on the index of a chain's first wrong
// step. All walk the CSR arrays of a Ratings once; none allocates per unit.
import { estimate, REASONS, undefinedEstimate, type Estimate } from './estimate';
import { codeValues, type Ratings } from './ratings';

/**
 * Pairwise percent agreement: per unit with two or more ratings, the share of rater pairs that agree;
 * then the mean over those units (each unit weighs the same, as P̄ in Fleiss 1971). n = those units.
 * One category only gives 1: agreement is perfect, whatever chance would say.
 */
export function percentAgreement(ratings: Ratings): Estimate {
  return pairAgreement(ratings, 0, Number.NaN);
}

/**
 * Agreement on the first wrong step, where −1 means "no wrong step": exact (same index) and within ±1
 * (indices at most one step apart). −1 is within one only of −1: "no error" and "step 0" are different
 * verdicts, not neighbours.
 */
export function firstErrorAgreement(ratings: Ratings): { exact: Estimate; withinOne: Estimate } {
  return { exact: pairAgreement(ratings, 0, -1), withinOne: pairAgreement(ratings, 1, -1) };
}

/** Two values agree when equal, or when neither is `none` and they differ by at most `tolerance`. */
function pairAgreement(ratings: Ratings, tolerance: number, none: number): Estimate {
  const { start, value, units } = ratings;
  let sum = 0;
  let pairable = 0;
  for (let u = 0; u < units; u++) {
    const from = start[u]!;
    const to = start[u + 1]!;
    const m = to - from;
    if (m < 2) continue;
    let agree = 0;
    for (let i = from; i < to; i++) {
      const a = value[i]!;
      for (let j = i + 1; j < to; j++) {
        const b = value[j]!;
        if (a === b || (tolerance > 0 && a !== none && b !== none && Math.abs(a - b) <= tolerance)) agree++;
      }
    }
    sum += (2 * agree) / (m * (m - 1));
    pairable++;
  }
  if (units === 0) return undefinedEstimate(0, REASONS.noUnits);
  if (pairable === 0) return undefinedEstimate(0, REASONS.noPairs);
  return estimate(sum / pairable, pairable);
}

export interface Kappa extends Estimate {
  /** Observed agreement (p_o, or P̄ for Fleiss); null when no unit counts. */
  observed: number | null;
  /** Agreement expected by chance (p_e, or P̄_e for Fleiss); null when no unit counts. */
  chance: number | null;
}

function kappa(observed: number, chance: number, n: number): Kappa {
  // Both raters (or all) used one category: p_o = p_e = 1 and κ = 0/0.
  if (chance >= 1 - 1e-12) return { value: null, n, reason: REASONS.oneCategory, observed, chance };
  return { value: (observed - chance) / (1 - chance), n, reason: null, observed, chance };
}

/**
 * Cohen's κ (Cohen 1960) between raters a and b over the units both rated (n). Values are categories
 * (compared for equality); chance agreement comes from each rater's own marginal distribution.
 */
export function cohenKappa(ratings: Ratings, a: number, b: number): Kappa {
  if (a === b) {
    // A rater against themself is not agreement between raters; a rater index out of range rated nothing
    // and falls through to "no unit in common" below.
    return { value: null, n: 0, reason: REASONS.oneRater, observed: null, chance: null };
  }
  const { start, rater, units } = ratings;
  const { levels, code } = codeValues(ratings);
  const rowTotals = new Float64Array(levels.length);
  const columnTotals = new Float64Array(levels.length);
  let n = 0;
  let diagonal = 0;
  for (let u = 0; u < units; u++) {
    let ca = -1;
    let cb = -1;
    for (let i = start[u]!; i < start[u + 1]!; i++) {
      if (rater[i] === a) ca = code[i]!;
      else if (rater[i] === b) cb = code[i]!;
    }
    if (ca < 0 || cb < 0) continue;
    n++;
    if (ca === cb) diagonal++;
    rowTotals[ca] = rowTotals[ca]! + 1;
    columnTotals[cb] = columnTotals[cb]! + 1;
  }
  if (n === 0) return { value: null, n: 0, reason: units === 0 ? REASONS.noUnits : REASONS.noCommonUnits, observed: null, chance: null };
  let chance = 0;
  for (let k = 0; k < levels.length; k++) chance += (rowTotals[k]! / n) * (columnTotals[k]! / n);
  return kappa(diagonal / n, chance, n);
}

/**
 * Fleiss' κ (Fleiss 1971) over the units with two or more ratings (n). Units may have different numbers
 * of raters: each unit's P_i uses its own m_i, P_i = Σ_j n_ij(n_ij − 1) / (m_i(m_i − 1)), and the
 * category proportions p_j pool every rating of those units. With the same m for every unit this is
 * Fleiss' formula exactly.
 */
export function fleissKappa(ratings: Ratings): Kappa {
  const { start, units } = ratings;
  const { levels, code } = codeValues(ratings);
  const inUnit = new Int32Array(levels.length);
  const pooled = new Float64Array(levels.length);
  let sumP = 0;
  let pairable = 0;
  let total = 0;
  for (let u = 0; u < units; u++) {
    const from = start[u]!;
    const to = start[u + 1]!;
    const m = to - from;
    if (m < 2) continue;
    // Σ_j n_ij² grows by 2c + 1 each time a category's count goes from c to c + 1.
    let sumSquares = 0;
    for (let i = from; i < to; i++) {
      const c = code[i]!;
      sumSquares += 2 * inUnit[c]! + 1;
      inUnit[c] = inUnit[c]! + 1;
      pooled[c] = pooled[c]! + 1;
    }
    for (let i = from; i < to; i++) inUnit[code[i]!] = 0;
    sumP += (sumSquares - m) / (m * (m - 1));
    pairable++;
    total += m;
  }
  if (pairable === 0) return { value: null, n: 0, reason: units === 0 ? REASONS.noUnits : REASONS.noPairs, observed: null, chance: null };
  let chance = 0;
  for (let k = 0; k < levels.length; k++) chance += (pooled[k]! / total) ** 2;
  return kappa(sumP / pairable, chance, pairable);
}
