// The public benchmarks' formulas against hand-made inputs (test/fixtures/evaluation/), each expected
// figure worked out by hand from the benchmark script's own code at the commit named, and checked once by
// running that function of the script on the same file (RM-Bench's easy figure caught a slip in the hand
// working that way: row 3 of its matrix is [1, 1, 0] / 2, not [2, 1, 0] / 2).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accuracyWithoutTies, accuracyWithTies } from '../../../electron/core/review/evaluation/accuracyWithTies';
import { processBenchF1 } from '../../../electron/core/review/evaluation/processBench';
import { bestOfNResult, pairResult, REWARDBENCH_EXAMPLE_COUNTS, REWARDBENCH_SECTIONS, scoresPerSection, subsetAccuracy } from '../../../electron/core/review/evaluation/rewardBench';
import { styleByDomain, styleMatrix } from '../../../electron/core/review/evaluation/rmBench';

const lines = <T>(name: string) =>
  readFileSync(join(__dirname, '../../fixtures/evaluation', name), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);

describe('RewardBench v1 (allenai/reward-bench 05a9005efb607249822c193590c8ecab87c77052: rewardbench/rewardbench.py results, rewardbench/utils.py calculate_scores_per_section)', () => {
  const rows = lines<{ subset: string; scores_chosen: number; scores_rejected: number }>('rewardbench-v1.jsonl');
  const results = rows.map((r) => ({ subset: r.subset, result: pairResult(r.scores_chosen, r.scores_rejected) }));

  it('scores an item 1 only when chosen is strictly above rejected (a tie is 0)', () => {
    expect(results.map((r) => r.result)).toEqual([1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1]);
    // The script's "accuracy": sum(results) / len(results) = 8 / 12.
    expect(results.reduce((s, r) => s + r.result, 0) / results.length).toBeCloseTo(8 / 12, 12);
  });

  it('weighs subsets by their example counts within each section; a section with none present scores 0', () => {
    const { accuracy } = subsetAccuracy(results);
    expect(accuracy).toEqual({ 'alpacaeval-easy': 0.5, 'mt-bench-easy': 1, 'mt-bench-hard': 0.5, 'llmbar-natural': 1, 'math-prm': 0.5, 'hep-python': 1 });
    const sections = scoresPerSection(REWARDBENCH_EXAMPLE_COUNTS, REWARDBENCH_SECTIONS, accuracy);
    // Chat: (0.5·100 + 1·28) / (100 + 28) = 78 / 128.
    expect(sections.Chat).toBeCloseTo(78 / 128, 12);
    // Chat Hard: (0.5·37 + 1·100) / 137 = 118.5 / 137.
    expect(sections['Chat Hard']).toBeCloseTo(118.5 / 137, 12);
    expect(sections.Safety).toBe(0);
    // Reasoning: (0.5·984 + 1·164) / (984 + 164) = 656 / 1148 = 4 / 7 (math-prm is upweighted to 984).
    expect(sections.Reasoning).toBeCloseTo(4 / 7, 12);
  });
});

describe('RewardBench 2 best-of-N (allenai/reward-bench 05a9005efb607249822c193590c8ecab87c77052: rewardbench/utils.py reroll_and_score_dataset; scripts/run_v2.py)', () => {
  const rows = lines<{ subset: string; scores: number[] }>('rewardbench-2.jsonl');
  it('scores 1 / (number tied at the top) when the chosen (first) score is top, else 0', () => {
    expect(rows.map((r) => bestOfNResult(r.scores))).toEqual([1, 0.5, 0, 0.25, 0]);
    const { accuracy } = subsetAccuracy(rows.map((r) => ({ subset: r.subset, result: bestOfNResult(r.scores) })));
    // Math: (1 + 0.5 + 0) / 3; Focus: (0.25 + 0) / 2.
    expect(accuracy.Math).toBeCloseTo(0.5, 12);
    expect(accuracy.Focus).toBeCloseTo(0.125, 12);
  });
});

describe('RM-Bench (THU-KEG/RM-Bench 73c52d7b27b361621361ec959ac6c0eb9bb7a689: scripts/utils.py compute_accuracy)', () => {
  const rows = lines<{ domain: string; score_chosen: number[]; score_rejected: number[] }>('rm-bench.jsonl').map((r) => ({ domain: r.domain, chosen: r.score_chosen, rejected: r.score_rejected }));
  it('builds the 3×3 matrix of chosen style i > rejected style j, and hard / normal / easy from its triangles', () => {
    const chat = styleMatrix(rows.slice(0, 2));
    // c1: rows [1,0,0] [1,0,0] [1,1,0]; c2: [1,1,0] [0,0,0] [0,0,0]; summed and divided by 2 items.
    expect(chat.matrix).toEqual([
      [1, 0.5, 0],
      [0.5, 0, 0],
      [0.5, 0.5, 0],
    ]);
    expect(chat.hard).toBeCloseTo(0.5 / 3, 12);
    expect(chat.normal).toBeCloseTo(1 / 3, 12);
    expect(chat.easy).toBeCloseTo(1.5 / 3, 12);
  });
  it('averages per domain (by prefix), then over domains', () => {
    const all = styleByDomain(rows);
    expect(Object.keys(all.domains)).toEqual(['chat', 'math']);
    // chat's average (1/6 + 1/3 + 1/2) / 3 = 1/3; math scores 1 everywhere.
    expect(all.domains.chat!.average).toBeCloseTo(1 / 3, 12);
    expect(all.hard).toBeCloseTo((1 / 6 + 1) / 2, 12);
    expect(all.normal).toBeCloseTo((1 / 3 + 1) / 2, 12);
    expect(all.easy).toBeCloseTo((1 / 2 + 1) / 2, 12);
    expect(all.total).toBeCloseTo((1 / 3 + 1) / 2, 12);
  });
});

describe('ProcessBench (QwenLM/ProcessBench e8024636bcabdf8bd514440551b531d3f90dd18b: code/run_eval.py main)', () => {
  it('F1 is the harmonic mean of exact-match accuracy on erroneous chains and on correct chains', () => {
    const f = processBenchF1(lines<{ label: number; prediction: number | null }>('processbench.jsonl'));
    // Erroneous: e1 and e3 match of 4 → 50; correct: k1 and k3 of 3 → 66.67; F1 = 2·50·(200/3) / (50 + 200/3) = 400/7.
    expect(f.errorAccuracy).toBe(50);
    expect(f.correctAccuracy).toBeCloseTo(200 / 3, 12);
    expect(f.f1).toBeCloseTo(400 / 7, 12);
    expect([f.errorN, f.correctN]).toEqual([4, 3]);
  });
  it('has no F1 without chains of both kinds', () => {
    expect(processBenchF1([{ label: -1, prediction: -1 }]).f1).toBeNull();
  });
});

describe('accuracy with ties (KwaiVGI/VideoAlign 219ab9db64c045e5181a2202d11f686439351292: calc_accuracy.py calc_accuracy_with_ties)', () => {
  it('tunes the tie threshold over the pairs in ascending |margin| and keeps the best accuracy', () => {
    const rows = lines<{ human: number; reward_A: number; reward_B: number }>('videoalign-ties.jsonl');
    const h = rows.map((r) => r.human);
    const m = rows.map((r) => r.reward_A - r.reward_B);
    // ε = −1: C 3, D 1, Th 2. Ascending |m|: 0.05 (tie → Thm) 4/6; 0.1 (C → Tm) 3/6; 0.2 (Th → Thm) 4/6, not
    // above the best; 0.3 3/6; 0.4 (D → Tm) 3/6; 0.5 2/6. Best 2/3 at ε = 0.05.
    expect(accuracyWithTies(h, m)).toEqual({ accuracy: 4 / 6, epsilon: 0.05, n: 6 });
    // Without ties: C / (C + D + Tm) at ε = −1 = 3 / 4.
    expect(accuracyWithoutTies(h, m)).toBe(0.75);
  });
  it('reproduces the script’s own example (its __main__: with ties 0.6667, without 0.8333)', () => {
    const h = [1, -1, 0, 1, -1, 0, 1, -1, 0];
    const a = [0.9, -0.7, 0.1, 0.8, -0.6, 0.2, 0.7, -0.5, 0.3];
    const b = [0.1, -0.8, 0.5, 0.5, -0.3, 0.3, 0.4, -0.4, 0.4];
    const m = a.map((x, i) => x - b[i]!);
    expect(accuracyWithTies(h, m).accuracy).toBeCloseTo(2 / 3, 12);
    expect(accuracyWithoutTies(h, m)).toBeCloseTo(5 / 6, 12);
  });
});
