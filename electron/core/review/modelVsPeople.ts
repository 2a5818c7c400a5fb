// The model against the people: how often its pre-label matches the consensus, how well calibrated its
// P(A better) is, and whether showing its pre-label pulls annotators towards it (anchoring).
import { estimate, REASONS, undefinedEstimate, type Estimate, type Proportion } from './estimate';
import { differenceOfProportions, proportion, type Difference } from './proportion';

/**
 * Share of units where the model's label equals the consensus label, over units where both exist
 * (codes ≥ 0: NO_LABEL and TIE on either side leave the unit out). n = those units.
 */
export function modelAccuracy(consensus: ArrayLike<number>, model: ArrayLike<number>): Proportion {
  let hits = 0;
  let n = 0;
  for (let u = 0; u < Math.min(consensus.length, model.length); u++) {
    const c = consensus[u]!;
    const m = model[u]!;
    if (!(c >= 0) || !(m >= 0)) continue;
    n++;
    if (c === m) hits++;
  }
  return proportion(hits, n);
}

export interface ReliabilityBin {
  /** The bin covers predictions in [low, high) (the last bin includes 1). */
  low: number;
  high: number;
  n: number;
  /** Mean prediction and mean outcome of the bin; null for an empty bin. */
  meanPredicted: number | null;
  meanObserved: number | null;
}

export interface Calibration {
  /** Mean of (p − outcome)² (Brier 1950); 0 is perfect, 0.25 is always saying 0.5. */
  brier: Estimate;
  /** Σ_b (n_b / n)·|mean outcome_b − mean prediction_b| over equal-width bins (Guo et al. 2017). */
  ece: Estimate;
  bins: ReliabilityBin[];
}

/**
 * Calibration of predictions p (P(A better)) against outcomes (1 = A better, 0 = B better; a fraction
 * such as the consensus's vote share for A is allowed). Pairs where either is missing (non-finite) or
 * out of [0, 1] are left out; n = pairs used.
 */
export function calibration(p: ArrayLike<number>, outcome: ArrayLike<number>, binCount = 10): Calibration {
  const bins = Math.max(1, Math.floor(binCount));
  const count = new Int32Array(bins);
  const sumP = new Float64Array(bins);
  const sumY = new Float64Array(bins);
  let squared = 0;
  let n = 0;
  for (let i = 0; i < Math.min(p.length, outcome.length); i++) {
    const x = p[i]!;
    const y = outcome[i]!;
    if (!(x >= 0 && x <= 1) || !(y >= 0 && y <= 1)) continue;
    const b = Math.min(bins - 1, Math.floor(x * bins));
    count[b] = count[b]! + 1;
    sumP[b] = sumP[b]! + x;
    sumY[b] = sumY[b]! + y;
    squared += (x - y) ** 2;
    n++;
  }
  let ece = 0;
  const diagram: ReliabilityBin[] = [];
  for (let b = 0; b < bins; b++) {
    const k = count[b]!;
    if (k > 0) ece += (k / Math.max(n, 1)) * Math.abs(sumY[b]! / k - sumP[b]! / k);
    diagram.push({ low: b / bins, high: (b + 1) / bins, n: k, meanPredicted: k > 0 ? sumP[b]! / k : null, meanObserved: k > 0 ? sumY[b]! / k : null });
  }
  if (n === 0) return { brier: undefinedEstimate(0, REASONS.noData), ece: undefinedEstimate(0, REASONS.noData), bins: diagram };
  return { brier: estimate(squared / n, n), ece: estimate(ece, n), bins: diagram };
}

export interface Anchoring {
  /** Agreement with the model's pre-label on labels made while it was shown. */
  visible: Proportion;
  /** The same on labels made without it. */
  hidden: Proportion;
  /** visible − hidden, with Newcombe's interval: above 0 (interval clear of 0) suggests anchoring. */
  difference: Difference;
}

/**
 * Per label: the annotator's choice, the model's pre-label for the item, and whether the pre-label was
 * visible (1) or not (0). Labels where either choice is missing (< 0) or visibility is unknown are left out.
 */
export function anchoring(human: ArrayLike<number>, model: ArrayLike<number>, visible: ArrayLike<number>): Anchoring {
  const hits = new Int32Array(2);
  const totals = new Int32Array(2);
  for (let i = 0; i < Math.min(human.length, model.length, visible.length); i++) {
    const h = human[i]!;
    const m = model[i]!;
    const v = visible[i];
    if (!(h >= 0) || !(m >= 0) || (v !== 0 && v !== 1)) continue;
    totals[v] = totals[v]! + 1;
    if (h === m) hits[v] = hits[v]! + 1;
  }
  return {
    visible: proportion(hits[1]!, totals[1]!),
    hidden: proportion(hits[0]!, totals[0]!),
    difference: differenceOfProportions(hits[1]!, totals[1]!, hits[0]!, totals[0]!),
  };
}
