// Dawid & Skene (1979), "Maximum likelihood estimation of observer error-rates using the EM algorithm":
// each annotator j has a confusion matrix π_j[k][l] = P(j says l | truth k); EM alternates the posterior
// over each unit's true class (E) with the priors and confusion matrices (M). Started from majority-vote
// soft labels, so the classes keep their meaning (no label switching).
// Counts get a small pseudo-count (a symmetric Dirichlet prior): a category an annotator never used, or a
// class nobody saw, then has a small probability instead of log(0) = −∞ and a NaN posterior.
// Annotators' error rates are learnt only where two or more of them labelled a unit. With no such unit the
// model cannot be identified (EM with the pseudo-count then drifts to "everyone is noise"), so EM does
// not run: the labels are the majority vote and reliability is undefined.
// EM runs on response patterns (patterns.ts), not units: exact, and independent of the number of units.
import { estimate, REASONS, undefinedEstimate, type Estimate } from './estimate';
import { argmaxOrTie, categoryCount, isCode, majorityVote, NO_LABEL, TIE, type Consensus } from './majority';
import { groupPatterns, type Patterns } from './patterns';
import type { Ratings } from './ratings';

export interface DawidSkeneOptions {
  /** K; defaults to the highest code + 1. */
  categories?: number;
  /** EM stops after this many iterations even if not converged. */
  maxIterations?: number;
  /** EM stops when no posterior moves by more than this. */
  tolerance?: number;
  /** The pseudo-count added to every cell of every confusion matrix and to the class counts. */
  smoothing?: number;
  /** majorityVote(ratings, categories), when the caller has it already (at 2M units ~72 MB not made twice). */
  majority?: Consensus;
  /**
   * false: the hard labels alone (the disagreement queue's): no posterior kept per unit (`soft` empty, at 2M
   * units 64 MB not made) and no reliability worked out (each undefined).
   */
  perUnit?: boolean;
}

export interface DawidSkene extends Consensus {
  /** Estimated class frequencies, K entries. */
  prior: Float64Array;
  /** raters × K × K, row-major: confusion[(j·K + k)·K + l] = P(j says l | truth k). */
  confusion: Float64Array;
  /**
   * Per annotator: expected share of their labels that are correct under the posterior,
   * Σ_u P(truth = their label on u) / (units they labelled); n = units they labelled.
   */
  reliability: Estimate[];
  /** EM iterations run: 0 when no unit has two labels (the result is then majority vote). */
  iterations: number;
  converged: boolean;
}

const DEFAULTS = { maxIterations: 100, tolerance: 1e-6, smoothing: 0.01 };
// Posteriors closer than this count as equal, so a truly symmetric unit is reported as a tie.
const TIE_SLACK = 1e-9;

export function dawidSkene(ratings: Ratings, options: DawidSkeneOptions = {}): DawidSkene {
  const K = Math.max(0, options.categories ?? categoryCount(ratings));
  const maxIterations = options.maxIterations ?? DEFAULTS.maxIterations;
  const tolerance = options.tolerance ?? DEFAULTS.tolerance;
  const smoothing = Math.max(options.smoothing ?? DEFAULTS.smoothing, 1e-12);
  const J = ratings.raters;
  const start = options.majority ?? majorityVote(ratings, K);
  const cell = confusionCells(ratings, K);
  const patterns = groupPatterns(ratings, cell, J * K * K);
  const P = patterns.count.length;
  const posterior = new Float64Array(P * K);
  for (let p = 0; p < P; p++) posterior.set(start.soft.subarray(patterns.example[p]! * K, (patterns.example[p]! + 1) * K), p * K);
  const prior = new Float64Array(K);
  const confusion = new Float64Array(J * K * K);
  const logPrior = new Float64Array(K);
  const logConfusion = new Float64Array(J * K * K);
  const row = new Float64Array(K);
  let iterations = 0;
  let converged = false;
  const identifiable = hasPairableUnit(ratings);
  while (K > 0 && identifiable && iterations < maxIterations) {
    iterations++;
    estimateParameters(patterns, K, posterior, smoothing, prior, confusion);
    for (let k = 0; k < K; k++) logPrior[k] = Math.log(prior[k]!);
    for (let c = 0; c < confusion.length; c++) logConfusion[c] = Math.log(confusion[c]!);
    if (updatePosterior(patterns, K, logPrior, logConfusion, posterior, row) < tolerance) {
      converged = true;
      break;
    }
  }
  // Parameters that match the final posterior (and, without iterations, the smoothed empty estimate).
  estimateParameters(patterns, K, posterior, smoothing, prior, confusion);
  if (options.perUnit === false) {
    const { ofUnit } = patterns;
    const at = (u: number, k: number) => (ofUnit[u]! < 0 ? prior[k]! : posterior[ofUnit[u]! * K + k]!);
    const labels = labelsFrom(ratings.units, K, at, start);
    const reliability = Array.from({ length: J }, () => undefinedEstimate(0, REASONS.noData));
    return { ...labels, soft: new Float64Array(0), prior, confusion, reliability, iterations, converged };
  }
  const soft = perUnit(patterns, K, posterior, prior);
  const reliability = identifiable ? reliabilityOf(ratings, K, soft) : Array.from({ length: J }, () => undefinedEstimate(0, REASONS.noPairs));
  return { ...labelsFrom(ratings.units, K, (u, k) => soft[u * K + k]!, start), soft, prior, confusion, reliability, iterations, converged };
}

/** Per rating, where its label sits in the confusion array (add k·K for truth k), or −1: not a code. */
function confusionCells(ratings: Ratings, K: number): Int32Array {
  const cell = new Int32Array(ratings.value.length);
  for (let i = 0; i < cell.length; i++) {
    const l = ratings.value[i]!;
    cell[i] = isCode(l, K) ? ratings.rater[i]! * K * K + l : -1;
  }
  return cell;
}

function hasPairableUnit(ratings: Ratings): boolean {
  for (let u = 0; u < ratings.units; u++) if (ratings.start[u + 1]! - ratings.start[u]! >= 2) return true;
  return false;
}

/** M step: priors and confusion matrices from the current posterior, with the pseudo-count. */
function estimateParameters(patterns: Patterns, K: number, posterior: Float64Array, smoothing: number, prior: Float64Array, confusion: Float64Array): void {
  const { start, cells, count } = patterns;
  prior.fill(smoothing);
  confusion.fill(smoothing);
  for (let p = 0; p < count.length; p++) {
    const row = p * K;
    const units = count[p]!;
    for (let k = 0; k < K; k++) prior[k] = prior[k]! + units * posterior[row + k]!;
    for (let i = start[p]!; i < start[p + 1]!; i++) {
      const at = cells[i]!;
      for (let k = 0; k < K; k++) confusion[at + k * K] = confusion[at + k * K]! + units * posterior[row + k]!;
    }
  }
  normaliseRows(prior, 1, K);
  normaliseRows(confusion, confusion.length / Math.max(K, 1), K);
}

function normaliseRows(values: Float64Array, rows: number, K: number): void {
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let k = 0; k < K; k++) sum += values[r * K + k]!;
    for (let k = 0; k < K; k++) values[r * K + k] = values[r * K + k]! / sum;
  }
}

/** E step: the posterior of every pattern, in log space; returns the largest change of any entry. */
function updatePosterior(patterns: Patterns, K: number, logPrior: Float64Array, logConfusion: Float64Array, posterior: Float64Array, row: Float64Array): number {
  const { start, cells, count } = patterns;
  let moved = 0;
  for (let p = 0; p < count.length; p++) {
    for (let k = 0; k < K; k++) row[k] = logPrior[k]!;
    for (let i = start[p]!; i < start[p + 1]!; i++) {
      const at = cells[i]!;
      for (let k = 0; k < K; k++) row[k] = row[k]! + logConfusion[at + k * K]!;
    }
    let top = -Infinity;
    for (let k = 0; k < K; k++) if (row[k]! > top) top = row[k]!;
    let sum = 0;
    for (let k = 0; k < K; k++) {
      row[k] = Math.exp(row[k]! - top);
      sum += row[k]!;
    }
    for (let k = 0; k < K; k++) {
      const next = row[k]! / sum;
      moved = Math.max(moved, Math.abs(next - posterior[p * K + k]!));
      posterior[p * K + k] = next;
    }
  }
  return moved;
}

/** The posterior of each unit: its pattern's, or the prior for a unit nobody labelled. */
function perUnit(patterns: Patterns, K: number, posterior: Float64Array, prior: Float64Array): Float64Array {
  const soft = new Float64Array(patterns.ofUnit.length * K);
  for (let u = 0; u < patterns.ofUnit.length; u++) {
    const p = patterns.ofUnit[u]!;
    if (p < 0) soft.set(prior, u * K);
    else for (let k = 0; k < K; k++) soft[u * K + k] = posterior[p * K + k]!;
  }
  return soft;
}

/**
 * Hard labels from the posterior, each one of the labels given on its unit: the posterior's highest among
 * the categories someone chose there (the posterior itself may put mass on a category nobody chose, as
 * "both bad" on an A-or-tie item, and that is no consensus). An even split of the votes stays a tie: with
 * as many votes each way, the reliabilities that would break it are learnt mostly from the very items in
 * question (two people, a handful of shared items), and a confident pick there is invented. A unit
 * nobody labelled keeps NO_LABEL.
 */
function labelsFrom(units: number, K: number, soft: (u: number, k: number) => number, start: Consensus): Omit<Consensus, 'soft'> {
  const label = new Int32Array(units).fill(NO_LABEL);
  const given = new Float64Array(K);
  let ties = 0;
  for (let u = 0; u < units; u++) {
    if (start.label[u] === NO_LABEL) continue;
    if (start.label[u] === TIE) label[u] = TIE;
    else {
      for (let k = 0; k < K; k++) given[k] = start.soft[u * K + k]! > 0 ? soft(u, k) : -1;
      label[u] = argmaxOrTie(given, 0, K, TIE_SLACK);
    }
    if (label[u]! < 0) ties++;
  }
  return { categories: K, label, n: start.n, ties, ignored: start.ignored };
}

function reliabilityOf(ratings: Ratings, K: number, posterior: Float64Array): Estimate[] {
  const correct = new Float64Array(ratings.raters);
  const labelled = new Int32Array(ratings.raters);
  for (let u = 0; u < ratings.units; u++) {
    for (let i = ratings.start[u]!; i < ratings.start[u + 1]!; i++) {
      const l = ratings.value[i]!;
      if (!isCode(l, K)) continue;
      const j = ratings.rater[i]!;
      correct[j] = correct[j]! + posterior[u * K + l]!;
      labelled[j] = labelled[j]! + 1;
    }
  }
  return Array.from(labelled, (n, j) => (n === 0 ? undefinedEstimate(0, REASONS.noData) : estimate(correct[j]! / n, n)));
}
