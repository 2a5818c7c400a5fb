// The evaluation engine on hand-made inputs (no database): a process model's step scores become first
// errors measured by ProcessBench's F1; a reward model's rewards give a ranking's best, best-of-N with
// ties, RewardBench sections when the items carry RewardBench's subset names, and RM-Bench over style
// variants; people's rubric ratings and outcomes are measured per response; facets split by length bucket.
import { describe, expect, it } from 'vitest';
import { buildEvaluation, lengthBucket } from '../../../electron/core/review/evaluation/engine';
import type { ModelScores } from '../../../electron/core/review/evaluation/modelFigures';
import { unitValues, type UnitValue } from '../../../electron/core/review/evaluation/units';
import type { ItemFacts } from '../../../electron/core/store/evaluation';

const fact = (itemId: number, responses: number, extra: Partial<ItemFacts> = {}): ItemFacts => ({
  itemId,
  seq: itemId,
  externalId: `x${itemId}`,
  responses,
  category: null,
  subset: null,
  domain: null,
  source: 'file.jsonl',
  length: 100,
  styleVariants: null,
  ...extra,
});

describe('the evaluation engine', () => {
  it('measures a process model’s first errors with ProcessBench’s F1', () => {
    const facts = new Map([1, 2, 3, 4].map((i) => [i, fact(i, 1)]));
    // Gold first errors: item 1 at step 2, item 2 at step 0, items 3 and 4 none.
    const gold: UnitValue[] = [
      ...unitValues(1, 'steps', { choice: null, ranking: null, body: { first_error: { A: 2 } } }),
      ...unitValues(2, 'steps', { choice: null, ranking: null, body: { first_error: { A: 0 } } }),
      ...unitValues(3, 'steps', { choice: null, ranking: null, body: { first_error: { A: -1 } } }),
      ...unitValues(4, 'steps', { choice: null, ranking: null, body: { first_error: { A: -1 } } }),
    ];
    // Step P(good): the first below 0.5 is the model’s first error (item 1 → 2, item 2 → 1, item 3 → none, item 4 → 0).
    const prm: ModelScores = {
      name: 'prm',
      kind: 'process',
      rewards: new Map(),
      steps: new Map([
        ['1:A', [0.9, 0.8, 0.45, 0.1]],
        ['2:A', [0.7, 0.4]],
        ['3:A', [0.9, 0.9]],
        ['4:A', [0.3, 0.9]],
      ]),
    };
    const e = buildEvaluation({ facts, gold, people: new Map(), models: [prm], judges: [] });
    const s = e.subjects[0]!;
    expect(s.kind).toBe('process model');
    expect(s.measures[0]).toMatchObject({ measure: 'first_error', reference: 'gold', accuracy: { value: 0.5, n: 4 } });
    // Erroneous: 1 of 2 (50); correct: 1 of 2 (50); F1 50.
    expect(s.benchmarks.processBench).toEqual({ errorAccuracy: 50, correctAccuracy: 50, f1: 50, errorN: 2, correctN: 2 });
  });

  it('gives a reward model’s ranking best, best-of-N with ties, RewardBench sections and RM-Bench', () => {
    const facts = new Map<number, ItemFacts>([
      [1, fact(1, 3)],
      [2, fact(2, 3)],
      [3, fact(3, 2, { subset: 'alpacaeval-easy' })],
      [4, fact(4, 2, { subset: 'math-prm' })],
      [5, fact(5, 6, { domain: 'chat', styleVariants: JSON.stringify({ chosen: [0, 1, 2], rejected: [3, 4, 5] }) })],
    ]);
    const gold: UnitValue[] = [
      ...unitValues(1, 'ranking', { choice: null, ranking: [[1], [0, 2]], body: {} }),
      ...unitValues(2, 'ranking', { choice: null, ranking: [[0], [1], [2]], body: {} }),
      ...unitValues(3, 'pairwise', { choice: 'A', ranking: null, body: {} }),
      ...unitValues(4, 'pairwise', { choice: 'B', ranking: null, body: {} }),
    ];
    const rm: ModelScores = {
      name: 'rm',
      kind: 'outcome',
      rewards: new Map([
        [1, [0, 5, 1]], // best B: right; best-of-N 1
        [2, [2, 2, 0]], // A and B tie at the top: the pick is a tie (wrong); best-of-N 1/2
        [3, [1, 0]], // A: right
        [4, [1, 0]], // A against gold B: wrong
        [5, [3, 2, 1, 0, 2.5, 4]],
      ]),
      steps: new Map(),
    };
    const e = buildEvaluation({ facts, gold, people: new Map(), models: [rm], judges: [] });
    const s = e.subjects[0]!;
    expect(s.measures.find((m) => m.measure === 'ranking')).toMatchObject({ accuracy: { value: 0.5, n: 2 } });
    expect(s.measures.find((m) => m.measure === 'pairwise')).toMatchObject({ accuracy: { value: 0.5, n: 2 } });
    // Best-of-N over the four items with a gold best: 1, 1/2, 1, 0.
    expect(s.benchmarks.bestOfN).toMatchObject({ value: 2.5 / 4, n: 4 });
    // RewardBench: alpacaeval-easy 1 (Chat), math-prm 0 (Reasoning).
    expect(s.benchmarks.rewardBench?.sections).toEqual({ Chat: 1, 'Chat Hard': 0, Safety: 0, Reasoning: 0 });
    // Chosen [3, 2, 1] against rejected [0, 2.5, 4]: rows [1, 1, 0], [1, 0, 0], [1, 0, 0] → hard 1/3, normal 1/3, easy 2/3.
    expect(s.benchmarks.rmBench?.hard).toBeCloseTo(1 / 3, 12);
    expect(s.benchmarks.rmBench?.normal).toBeCloseTo(1 / 3, 12);
    expect(s.benchmarks.rmBench?.easy).toBeCloseTo(2 / 3, 12);
    expect(s.benchmarks.rmBench?.n).toBe(1);
  });

  it('measures people’s rubric ratings and outcomes per response, and splits facets by length', () => {
    const facts = new Map([fact(1, 2, { length: 500 }), fact(2, 2, { length: 5000 })].map((f) => [f.itemId, f]));
    const gold: UnitValue[] = [
      ...unitValues(1, 'rubric', { choice: null, ranking: null, body: { ratings: { A: { helpful: 4, safe: 1 }, B: { helpful: 2 } } } }),
      ...unitValues(2, 'steps', { choice: null, ranking: null, body: { outcome: { A: 'success', B: 'failure' } } }),
    ];
    const ana: UnitValue[] = [
      ...unitValues(1, 'rubric', { choice: null, ranking: null, body: { ratings: { A: { helpful: 4, safe: 0 }, B: { helpful: 2 } } } }),
      ...unitValues(2, 'steps', { choice: null, ranking: null, body: { outcome: { A: 'success', B: 'partial' } } }),
    ];
    const e = buildEvaluation({ facts, gold, people: new Map([['ana', ana]]), models: [], judges: [] });
    const measures = e.subjects[0]!.measures;
    expect(measures.find((m) => m.measure === 'rubric')).toMatchObject({ accuracy: { value: 2 / 3, n: 3 }, facets: expect.arrayContaining([expect.objectContaining({ facet: 'length', value: 'under 1k' })]) });
    expect(measures.find((m) => m.measure === 'outcome')).toMatchObject({ accuracy: { value: 0.5, n: 2 }, facets: expect.arrayContaining([expect.objectContaining({ facet: 'length', value: '4k–16k' })]) });
    expect([lengthBucket(999), lengthBucket(1000), lengthBucket(16000)]).toEqual(['under 1k', '1k–4k', '16k and over']);
  });
});
