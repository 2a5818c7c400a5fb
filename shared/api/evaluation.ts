// Evaluation: people, reward models (the ONNX scores), process models and local judges measured on the
// same ground truth, from stored results (nothing is re-run): the project's gold (shared/api/gold.ts),
// or, for a measure without gold, the people's consensus (said as such: `reference: 'consensus'`).
// Each figure has its n and, for a share, its 95% Wilson interval. Beside accuracy: the public
// benchmarks' own formulas on the team's data (electron/core/review/evaluation/, one file per family),
// calibration, and for judges position consistency and κ with people beside people's κ with each other.
import { z } from 'zod';
import type { ProportionFigure, Figure } from './review';
import { projectName } from './common';

/** What is measured: a pair's choice, a ranking's best response, a chain's first error, a verdict, a rubric rating, an outcome. */
export const MEASURES = ['pairwise', 'ranking', 'first_error', 'verdict', 'rubric', 'outcome'] as const;
export type Measure = (typeof MEASURES)[number];
export const SUBJECT_KINDS = ['person', 'reward model', 'process model', 'judge'] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];
export const FACETS_EVALUATED = ['category', 'source', 'length'] as const;
export type EvaluationFacet = (typeof FACETS_EVALUATED)[number];
/** Benchmark shapes `evaluationExport` writes, each as that benchmark's script reads its per-item results. */
export const BENCHMARK_SHAPES = ['rewardbench', 'rewardbench2', 'rm-bench', 'processbench', 'videoalign'] as const;
export type BenchmarkShape = (typeof BENCHMARK_SHAPES)[number];

export const evaluationSchemas = {
  /** Every subject's figures on the project (`arbiter evaluate --json`); `subjects` keeps only those named. */
  evaluate: z.object({ project: projectName, subjects: z.array(z.string().min(1).max(200)).max(50).optional() }).strict(),
  /** One subject's per-item results in a benchmark's own shape (JSON Lines), at most EXPORT_MAX_ROWS rows. */
  evaluationExport: z.object({ project: projectName, subject: z.string().min(1).max(200), shape: z.enum(BENCHMARK_SHAPES) }).strict(),
} as const;

/** The most rows one evaluation export holds. */
export const EXPORT_MAX_ROWS = 200_000;

export interface FacetFigure {
  facet: EvaluationFacet;
  value: string;
  accuracy: ProportionFigure;
}

export interface MeasureFigure {
  measure: Measure;
  /** Against the gold, or the people's consensus where the measure has no gold (a person: the others' consensus). */
  reference: 'gold' | 'consensus';
  accuracy: ProportionFigure;
  facets: FacetFigure[];
}

export interface ReliabilityBinFigure {
  low: number;
  high: number;
  n: number;
  meanPredicted: number | null;
  meanObserved: number | null;
}

export interface BenchmarkFigures {
  /** RewardBench v1: the share of gold pairs whose chosen reward is strictly higher, per subset and per section. */
  rewardBench?: { accuracy: Figure; subsets: Record<string, { value: number; n: number }>; sections: Record<string, number> };
  /** RewardBench 2 best-of-N over items with one gold best: 1 / (tied at the top) when the gold's best is top. */
  bestOfN?: Figure;
  /** RM-Bench hard / normal / easy over items with style variants. */
  rmBench?: { hard: number; normal: number; easy: number; total: number; n: number };
  /** ProcessBench: percent right on erroneous and on correct chains, and their F1. */
  processBench?: { errorAccuracy: number | null; correctAccuracy: number | null; f1: number | null; errorN: number; correctN: number };
  /** VideoAlign's accuracy with ties (tie threshold tuned) and without. */
  accuracyWithTies?: { accuracy: number; epsilon: number; withoutTies: number | null; n: number };
}

export interface SubjectEvaluation {
  subject: string;
  kind: SubjectKind;
  measures: MeasureFigure[];
  benchmarks: BenchmarkFigures;
  /** P(A better) against the gold pairs: ECE over ten equal-width bins, and Brier. */
  calibration?: { ece: Figure; brier: Figure; bins: ReliabilityBinFigure[] };
  /** Judges: the share of pairs judged in both orders where the verdict follows the responses. */
  positionConsistency?: ProportionFigure;
  /** Judges: Cohen's κ with each person on the pairs both judged, averaged (n: pairs). */
  kappaWithPeople?: Figure;
}

export interface Evaluation {
  project: string;
  computedAt: string;
  /** Per measure: items with gold, and whether the figures rest on gold or consensus. */
  references: { measure: Measure; reference: 'gold' | 'consensus'; items: number }[];
  subjects: SubjectEvaluation[];
  /** People's Cohen's κ with each other on pairwise choices, averaged over pairs of people (n: items). */
  humanKappa: Figure;
  /** What was not measured, and why (no judge results stored, no region-mark accuracy). */
  notes: string[];
}

export interface EvaluationExport {
  /** A file name for the download: `<subject>.<shape>.jsonl`, made safe. */
  fileName: string;
  rows: number;
  /** JSON Lines. */
  text: string;
  truncated: boolean;
}

export type EvaluationOutputs = {
  evaluate: Evaluation;
  evaluationExport: EvaluationExport;
};
