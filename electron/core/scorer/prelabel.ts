// Pure pre-label arithmetic: pairwise probabilities (Bradley–Terry), first error of a chain, and
// the agreement of several models.
import type { Vote } from './types';

export function sigmoid(x: number): number {
  // Split by sign so that exp never overflows.
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

/** Inverse of sigmoid, clamped so a probability of exactly 0 or 1 stays finite. */
export function logit(p: number): number {
  const q = Math.min(Math.max(p, 1e-7), 1 - 1e-7);
  return Math.log(q / (1 - q));
}

/** P(A better than B) = sigmoid(reward A − reward B). */
export function pairProbability(rewardA: number, rewardB: number): number {
  return sigmoid(rewardA - rewardB);
}

export function voteOf(pAB: number): Vote {
  return pAB > 0.5 ? 'A' : pAB < 0.5 ? 'B' : 'tie';
}

/** Index of the first step scoring below the threshold; null when every scored step passes. */
export function firstError(stepScores: (number | null)[], threshold = 0.5): number | null {
  const index = stepScores.findIndex((s) => s !== null && s < threshold);
  return index < 0 ? null : index;
}

export interface EnsembleStats {
  mean: number;
  /** Population standard deviation of the models' P(A better). */
  spread: number;
  vote: Vote;
  votes: Record<Vote, number>;
  models: number;
}

/** Mean and spread of the models' P(A better), each model's vote counted, majority (tie if split). */
export function ensemble(pABs: number[]): EnsembleStats | null {
  if (!pABs.length) return null;
  const mean = pABs.reduce((a, b) => a + b, 0) / pABs.length;
  const spread = Math.sqrt(pABs.reduce((a, p) => a + (p - mean) ** 2, 0) / pABs.length);
  const votes: Record<Vote, number> = { A: 0, B: 0, tie: 0 };
  for (const p of pABs) votes[voteOf(p)]++;
  const vote: Vote = votes.A > votes.B ? 'A' : votes.B > votes.A ? 'B' : 'tie';
  return { mean, spread, vote, votes, models: pABs.length };
}
