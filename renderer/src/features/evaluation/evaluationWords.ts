// How the evaluation screen says its figures: a share with its interval and n, a benchmark figure with n,
// and the names of measures, references and export shapes.
import type { BenchmarkShape, Figure, Measure, ProportionFigure, SubjectEvaluation } from '../../../../shared/api';

export const MEASURE_WORDS: Record<Measure, string> = {
  pairwise: 'Pair choice',
  ranking: 'Best of a ranking',
  first_error: 'First error',
  verdict: 'Verdict',
  rubric: 'Rubric rating',
  outcome: 'Outcome',
};

export const SHAPE_WORDS: Record<BenchmarkShape, string> = {
  rewardbench: 'RewardBench rows',
  rewardbench2: 'RewardBench 2 best-of-N rows',
  'rm-bench': 'RM-Bench style rows',
  processbench: 'ProcessBench results',
  videoalign: 'VideoAlign pairs (ties)',
};

export const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/** The shapes a subject's stored results can be exported in. */
export function shapesOf(s: SubjectEvaluation): BenchmarkShape[] {
  const b = s.benchmarks;
  const out: BenchmarkShape[] = [];
  if (b.rewardBench) out.push('rewardbench');
  if (b.bestOfN) out.push('rewardbench2');
  if (b.rmBench) out.push('rm-bench');
  if (b.processBench) out.push('processbench');
  if (b.accuracyWithTies) out.push('videoalign');
  return out;
}

/** "75.0% [30.1–95.4]" and n, or why there is none. */
export function shareText(p: ProportionFigure | undefined): { main: string; interval: string | null; n: number | null; why: string | null } {
  if (!p) return { main: '—', interval: null, n: null, why: null };
  if (p.value === null) return { main: 'n/a', interval: null, n: p.n, why: p.reason };
  return { main: pct(p.value), interval: p.low !== null && p.high !== null ? `${pct(p.low)}–${pct(p.high)}` : null, n: p.n, why: null };
}

export function figureText(f: Figure | undefined, digits = 3): { main: string; n: number | null; why: string | null } {
  if (!f) return { main: '—', n: null, why: null };
  if (f.value === null) return { main: 'n/a', n: f.n, why: f.reason };
  return { main: f.value.toFixed(digits), n: f.n, why: null };
}
