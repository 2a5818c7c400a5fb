// A scoring model's stored rewards as evaluation values and as the benchmarks' inputs: a pair's pick (the
// higher reward; equal rewards a tie), a ranking's best, a process model's first error (the first step
// with P(good) below 0.5, −1 when none), and RewardBench, best-of-N, RM-Bench, accuracy with ties and
// calibration against the gold's picks.
import type { BenchmarkFigures, SubjectEvaluation } from '../../../../shared/api/evaluation';
import type { ItemFacts } from '../../store/evaluation';
import { calibration } from '../modelVsPeople';
import { accuracyWithoutTies, accuracyWithTies } from './accuracyWithTies';
import type { UnitMap } from './reference';
import { bestOfNResult, pairResult, REWARDBENCH_EXAMPLE_COUNTS, REWARDBENCH_SECTIONS, scoresPerSection, subsetAccuracy } from './rewardBench';
import { styleByDomain, type StyleItem } from './rmBench';
import type { UnitValue } from './units';

export interface ModelScores {
  name: string;
  kind: 'outcome' | 'process';
  /** Reward per response index, by item. */
  rewards: Map<number, (number | null)[]>;
  /** P(step good) per step, by `item:letter`. */
  steps: Map<string, (number | null)[]>;
}

const letter = (i: number) => String.fromCharCode(65 + i);
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const complete = (r: (number | null)[] | undefined, n: number): r is number[] => !!r && r.length >= n && r.slice(0, n).every((x) => typeof x === 'number');

/** The model's values: pairwise and ranking from rewards, first_error from step scores. */
export function modelValues(model: ModelScores, facts: ReadonlyMap<number, ItemFacts>): UnitValue[] {
  const out: UnitValue[] = [];
  for (const [itemId, rewards] of model.rewards) {
    const n = facts.get(itemId)?.responses ?? 0;
    if (n < 2 || !complete(rewards, n)) continue;
    const scores = rewards.slice(0, n);
    const top = Math.max(...scores);
    const best = scores.filter((s) => s === top).length > 1 ? 'tie' : letter(scores.indexOf(top));
    out.push({ measure: n === 2 ? 'pairwise' : 'ranking', unit: `${itemId}`, itemId, value: best });
  }
  for (const [unit, steps] of model.steps) {
    const first = steps.findIndex((p) => typeof p === 'number' && p < 0.5);
    out.push({ measure: 'first_error', unit, itemId: Number(unit.split(':')[0]), value: String(first) });
  }
  return out;
}

interface StyleVariants {
  chosen: number[];
  rejected: number[];
}

/** metadata.style_variants read back: response indexes of the chosen and the rejected per style, or null. */
export function styleVariants(text: string | null): StyleVariants | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as Partial<StyleVariants>;
    const ok = (a: unknown): a is number[] => Array.isArray(a) && a.length > 0 && a.length <= 8 && a.every((x) => Number.isInteger(x) && x >= 0);
    return ok(v.chosen) && ok(v.rejected) && v.chosen.length === v.rejected.length ? { chosen: v.chosen, rejected: v.rejected } : null;
  } catch {
    return null;
  }
}

/** The benchmarks' figures and calibration of a scoring model against the gold (pairwise and ranking picks). */
export function modelBenchmarks(model: ModelScores, facts: ReadonlyMap<number, ItemFacts>, pairGold: UnitMap, rankGold: UnitMap): Pick<SubjectEvaluation, 'benchmarks' | 'calibration'> {
  const benchmarks: BenchmarkFigures = {};
  const rb: { subset: string; result: number }[] = [];
  const bon: number[] = [];
  const h: number[] = [];
  const m: number[] = [];
  const p: number[] = [];
  const y: number[] = [];
  for (const [itemId, rewards] of model.rewards) {
    const f = facts.get(itemId);
    if (!f) continue;
    const gold = (f.responses === 2 ? pairGold : rankGold).get(`${itemId}`)?.value;
    if (!gold || !complete(rewards, f.responses)) continue;
    const chosen = gold.length === 1 ? gold.charCodeAt(0) - 65 : -1;
    if (f.responses === 2) {
      if (gold === 'A' || gold === 'B' || gold === 'tie') {
        h.push(gold === 'A' ? 1 : gold === 'B' ? -1 : 0);
        m.push(rewards[0]! - rewards[1]!);
      }
      if (chosen >= 0) {
        rb.push({ subset: f.subset ?? f.category ?? 'all', result: pairResult(rewards[chosen]!, rewards[1 - chosen]!) });
        p.push(sigmoid(rewards[0]! - rewards[1]!));
        y.push(chosen === 0 ? 1 : 0);
      }
    }
    if (chosen >= 0 && chosen < f.responses) bon.push(bestOfNResult([rewards[chosen]!, ...rewards.slice(0, f.responses).filter((_, i) => i !== chosen)]));
  }
  if (rb.length) {
    const { accuracy, counts } = subsetAccuracy(rb);
    const official = Object.keys(accuracy).some((s) => s in REWARDBENCH_EXAMPLE_COUNTS);
    benchmarks.rewardBench = {
      accuracy: { value: rb.reduce((s, r) => s + r.result, 0) / rb.length, n: rb.length, reason: null },
      subsets: Object.fromEntries(Object.entries(accuracy).map(([s, v]) => [s, { value: v, n: counts[s]! }])),
      sections: official ? scoresPerSection(REWARDBENCH_EXAMPLE_COUNTS, REWARDBENCH_SECTIONS, accuracy) : {},
    };
  }
  if (bon.length) benchmarks.bestOfN = { value: bon.reduce((s, x) => s + x, 0) / bon.length, n: bon.length, reason: null };
  const styled: StyleItem[] = [];
  for (const [itemId, rewards] of model.rewards) {
    const f = facts.get(itemId);
    const v = styleVariants(f?.styleVariants ?? null);
    if (!f || !v || !complete(rewards, f.responses) || [...v.chosen, ...v.rejected].some((i) => i >= f.responses)) continue;
    styled.push({ chosen: v.chosen.map((i) => rewards[i]!), rejected: v.rejected.map((i) => rewards[i]!), domain: f.domain ?? 'chat' });
  }
  if (styled.length) {
    const s = styleByDomain(styled);
    benchmarks.rmBench = { hard: s.hard, normal: s.normal, easy: s.easy, total: s.total, n: styled.length };
  }
  if (h.length) {
    const t = accuracyWithTies(h, m);
    const decided = h.filter((x) => x !== 0).length;
    benchmarks.accuracyWithTies = { ...t, withoutTies: decided ? accuracyWithoutTies(h, m) : null };
  }
  if (!p.length) return { benchmarks };
  const c = calibration(p, y);
  return { benchmarks, calibration: { ece: c.ece, brier: c.brier, bins: c.bins } };
}
