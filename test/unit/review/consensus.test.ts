import { describe, expect, it } from 'vitest';
import { dawidSkene, majorityVote, NO_LABEL, ratingsFromMatrix, ratingsFromTriples, TIE } from '../../../electron/core/review';
import { nanPaths, random } from './helpers';

const _ = null;

describe('majority vote', () => {
  it('gives the winning category, vote fractions as soft labels, and reports ties and empty units', () => {
    const vote = majorityVote(ratingsFromMatrix([[0, 0, 1], [1, 0, _], [_, _, _], [2, 2, 2]]), 3);
    expect(Array.from(vote.label)).toEqual([0, TIE, NO_LABEL, 2]);
    expect(Array.from(vote.soft.subarray(0, 3))).toEqual([2 / 3, 1 / 3, 0]);
    expect(Array.from(vote.soft.subarray(3, 6))).toEqual([0.5, 0.5, 0]);
    expect(Array.from(vote.soft.subarray(6, 9))).toEqual([0, 0, 0]);
    expect(vote).toMatchObject({ categories: 3, n: 3, ties: 1, ignored: 0 });
  });

  it('counts values that are not category codes as ignored, not as votes', () => {
    const vote = majorityVote(ratingsFromMatrix([[0, 7, 0.5, -1]]), 2);
    expect(vote).toMatchObject({ n: 1, ignored: 3 });
    expect(vote.label[0]).toBe(0);
  });
});

/**
 * Synthetic labels: each unit has a true class, and annotator j reports it correctly with probability
 * accuracy[j], otherwise (adversary) a fixed wrong class, or (noise) a uniformly random other class.
 */
function simulate(units: number, K: number, annotators: { accuracy: number; wrong: 'flip' | 'random' }[], seed: number) {
  const next = random(seed);
  const truth = Int32Array.from({ length: units }, () => Math.floor(next() * K));
  const unit: number[] = [];
  const rater: number[] = [];
  const value: number[] = [];
  truth.forEach((t, u) =>
    annotators.forEach((a, j) => {
      let v = t;
      if (next() >= a.accuracy) v = a.wrong === 'flip' ? (t + 1) % K : (t + 1 + Math.floor(next() * (K - 1))) % K;
      unit.push(u);
      rater.push(j);
      value.push(v);
    }),
  );
  return { truth, ratings: ratingsFromTriples(units, annotators.length, unit, rater, value) };
}

function accuracy(label: Int32Array, truth: Int32Array): number {
  let hits = 0;
  label.forEach((l, u) => (hits += l === truth[u] ? 1 : 0));
  return hits / truth.length;
}

describe('Dawid–Skene', () => {
  // Issue 20, item 12: on the demo's two annotators, "A vs tie" came out "both bad" (a label nobody gave)
  // and "tie vs B" came out B with 0.98. A hard label is one of the labels given on its unit, and an even
  // split of the votes is said as a split (TIE), whatever the posterior leans to.
  it('gives as a hard label only a label someone gave on the unit, and leaves an even split a tie', () => {
    // Rater 0 says A on everything; rater 1 says tie, B or both_bad where rater 0 says A.
    const rows: (number | null)[][] = [[0, 0], [0, 0], [0, 0], [0, 2], [2, 1], [0, 3], [0, 0], [0, 3], [0, 3], [0, 3]];
    const ratings = ratingsFromMatrix(rows);
    const ds = dawidSkene(ratings, { categories: 4 });
    const majority = majorityVote(ratings, 4);
    rows.forEach((row, u) => {
      const given = new Set(row.filter((v) => v !== null));
      const label = ds.label[u]!;
      if (majority.label[u] === TIE) expect(label, `unit ${u}: an even split`).toBe(TIE);
      else expect(given.has(label), `unit ${u}: ${label} is one of ${[...given].join(', ')}`).toBe(true);
    });
    expect(ds.ties).toBe(majority.ties);
  });

  it('never labels a unit with a category nobody chose there, even where the posterior leans to it', () => {
    // Three raters: 1 and 2 always agree with each other; rater 0 says A where they say both_bad. On the
    // last unit only rater 0 and rater 1 labelled (A, tie): the posterior leans to both_bad, nobody's label.
    const rows: (number | null)[][] = [...Array.from({ length: 8 }, () => [0, 3, 3]), [0, 0, 0], [1, 1, 1], [0, 2, null], [0, 2, null], [0, 0, 2]];
    const ds = dawidSkene(ratingsFromMatrix(rows), { categories: 4 });
    rows.forEach((row, u) => {
      const label = ds.label[u]!;
      if (label >= 0) expect(row.includes(label), `unit ${u}: ${label} among ${row.join(',')}`).toBe(true);
    });
    // The last unit, A ×2 · tie ×1: one of those two.
    expect([0, 2]).toContain(ds.label[12]);
  });

  // Dawid & Skene (1979), "Maximum likelihood estimation of observer error-rates using the EM algorithm",
  // Applied Statistics 28(1). No published table is reproduced here; the property the method exists for is:
  // two honest annotators (85%) and an adversary who is right 10% of the time and otherwise says the other
  // class. Majority vote follows the adversary whenever the honest two split (accuracy ≈ 0.75); DS learns
  // the adversary's confusion matrix, reads their labels inverted, and so has three good voters (≈ 0.94).
  it('beats majority vote when one annotator is adversarial, and says who is reliable', () => {
    const { truth, ratings } = simulate(2000, 2, [
      { accuracy: 0.85, wrong: 'flip' },
      { accuracy: 0.85, wrong: 'flip' },
      { accuracy: 0.1, wrong: 'flip' },
    ], 7);
    const majority = majorityVote(ratings, 2);
    const ds = dawidSkene(ratings, { categories: 2 });
    const majorityAccuracy = accuracy(majority.label, truth);
    const dsAccuracy = accuracy(ds.label, truth);
    expect(majorityAccuracy).toBeGreaterThan(0.7);
    expect(majorityAccuracy).toBeLessThan(0.8);
    expect(dsAccuracy).toBeGreaterThan(0.9);
    expect(dsAccuracy - majorityAccuracy).toBeGreaterThan(0.1);
    expect(ds.converged).toBe(true);
    expect(ds.reliability[0]!.value).toBeCloseTo(0.85, 1);
    expect(ds.reliability[1]!.value).toBeCloseTo(0.85, 1);
    expect(ds.reliability[2]!.value).toBeLessThan(0.2);
    expect(ds.reliability[2]!.n).toBe(2000);
    // The adversary's confusion matrix: truth 0 → says 1 about 90% of the time.
    expect(ds.confusion[(2 * 2 + 0) * 2 + 1]).toBeGreaterThan(0.8);
    expect(ds.prior[0]! + ds.prior[1]!).toBeCloseTo(1, 12);
  });

  it('down-weights a noisy annotator among five on three classes', () => {
    const { truth, ratings } = simulate(3000, 3, [
      { accuracy: 0.7, wrong: 'random' },
      { accuracy: 0.7, wrong: 'random' },
      { accuracy: 0.9, wrong: 'random' },
      { accuracy: 0.34, wrong: 'random' },
      { accuracy: 0.34, wrong: 'random' },
    ], 11);
    const majority = majorityVote(ratings, 3);
    const ds = dawidSkene(ratings, { categories: 3 });
    expect(accuracy(ds.label, truth)).toBeGreaterThan(accuracy(majority.label, truth) + 0.03);
    expect(ds.reliability[2]!.value!).toBeGreaterThan(ds.reliability[0]!.value!);
    expect(ds.reliability[3]!.value!).toBeLessThan(0.45);
    expect(nanPaths(ds)).toEqual([]);
  });

  it('gives the same result from the majority vote the caller has already (the pairwise review passes its own)', () => {
    const { ratings } = simulate(2000, 4, [
      { accuracy: 0.8, wrong: 'random' },
      { accuracy: 0.6, wrong: 'random' },
      { accuracy: 0.4, wrong: 'random' },
    ], 3);
    const majority = majorityVote(ratings, 4);
    const given = dawidSkene(ratings, { categories: 4, majority });
    expect(given).toEqual(dawidSkene(ratings, { categories: 4 }));
    expect(given.iterations).toBeGreaterThan(1);
    // The majority it was given is left as it was.
    expect(majority).toEqual(majorityVote(ratings, 4));
    // The labels alone (the disagreement queue's): the same labels, ties and parameters, no posterior kept.
    const labels = dawidSkene(ratings, { categories: 4, majority, perUnit: false });
    const { soft, reliability: _r, ...rest } = given;
    const { soft: none, reliability: _n, ...same } = labels;
    expect(same).toEqual(rest);
    expect(soft.length).toBe(2000 * 4);
    expect(none.length).toBe(0);
    expect(labels.ties).toBeGreaterThan(0);
  });

  it('gives posteriors that sum to 1, the prior to unlabelled units, and no NaN for unseen categories', () => {
    // Category 2 is never used by anyone; rater 1 never says 1; unit 2 has no label at all.
    const ratings = ratingsFromMatrix([[0, 0], [1, 0], [_, _], [1, _], [0, 0]]);
    const ds = dawidSkene(ratings, { categories: 3 });
    expect(nanPaths(ds)).toEqual([]);
    for (let u = 0; u < 5; u++) expect(ds.soft[u * 3]! + ds.soft[u * 3 + 1]! + ds.soft[u * 3 + 2]!).toBeCloseTo(1, 12);
    expect(ds.label[2]).toBe(NO_LABEL);
    expect(Array.from(ds.soft.subarray(6, 9))).toEqual(Array.from(ds.prior));
    expect(ds.soft[2]).toBeLessThan(0.01);
  });

  // The implementation runs EM on response patterns (units with the same labels from the same annotators)
  // rather than on units. A plain per-unit EM, written out here as in Dawid & Skene (1979), must give the
  // same posteriors: many annotators (pattern keys too long for a number), ratings in shuffled order,
  // units with different annotator sets and some with no label.
  it('matches a plain per-unit EM exactly', () => {
    const next = random(5);
    const J = 30;
    const K = 3;
    const units: { rater: number; label: number }[][] = Array.from({ length: 400 }, (_, u) => {
      const truth = u % K;
      const raters = Array.from({ length: J }, (_, j) => j).filter(() => next() < (u % 10 === 0 ? 0 : 0.4));
      return raters.map((rater) => ({ rater, label: next() < 0.4 + rater / (2 * J) ? truth : Math.floor(next() * K) })).sort(() => next() - 0.5);
    });
    const ratings = ratingsFromTriples(units.length, J, units.flatMap((list, u) => list.map(() => u)), units.flatMap((list) => list.map((r) => r.rater)), units.flatMap((list) => list.map((r) => r.label)));
    const ds = dawidSkene(ratings, { categories: K, maxIterations: 20, tolerance: 0 });
    const reference = plainDawidSkene(units, J, K, 20, 0.01);
    expect(ds.iterations).toBe(20);
    reference.forEach((row, u) => {
      if (units[u]!.length === 0) return;
      row.forEach((p, k) => expect(ds.soft[u * K + k]).toBeCloseTo(p, 10));
    });
  });

  it('stops at the iteration cap and reports that it did not converge', () => {
    const { ratings } = simulate(500, 2, [{ accuracy: 0.8, wrong: 'flip' }, { accuracy: 0.6, wrong: 'flip' }, { accuracy: 0.7, wrong: 'flip' }], 3);
    const ds = dawidSkene(ratings, { maxIterations: 1, tolerance: 0 });
    expect(ds).toMatchObject({ iterations: 1, converged: false });
  });

  it('handles no ratings at all without NaN', () => {
    const ds = dawidSkene(ratingsFromMatrix([[_, _], [_]]));
    expect(ds).toMatchObject({ categories: 0, n: 0, iterations: 0 });
    expect(Array.from(ds.label)).toEqual([NO_LABEL, NO_LABEL]);
    expect(ds.reliability.every((r) => r.value === null && r.reason !== null)).toBe(true);
    expect(nanPaths(ds)).toEqual([]);
  });
});

/** Dawid–Skene per unit, with the module's pseudo-count and start (vote fractions), for the cross-check. */
function plainDawidSkene(units: { rater: number; label: number }[][], J: number, K: number, iterations: number, smoothing: number): number[][] {
  let T = units.map((list) => {
    const votes = new Array<number>(K).fill(0);
    for (const { label } of list) votes[label]! += 1;
    return votes.map((v) => v / Math.max(list.length, 1));
  });
  for (let it = 0; it < iterations; it++) {
    const prior = new Array<number>(K).fill(smoothing);
    const confusion = Array.from({ length: J }, () => Array.from({ length: K }, () => new Array<number>(K).fill(smoothing)));
    units.forEach((list, u) => {
      if (list.length === 0) return;
      for (let k = 0; k < K; k++) prior[k]! += T[u]![k]!;
      for (const { rater, label } of list) for (let k = 0; k < K; k++) confusion[rater]![k]![label]! += T[u]![k]!;
    });
    const priorSum = prior.reduce((a, b) => a + b, 0);
    for (const matrix of confusion) for (const row of matrix) {
      const sum = row.reduce((a, b) => a + b, 0);
      row.forEach((v, l) => (row[l] = v / sum));
    }
    T = units.map((list, u) => {
      if (list.length === 0) return T[u]!;
      const log = prior.map((p) => Math.log(p / priorSum));
      for (const { rater, label } of list) for (let k = 0; k < K; k++) log[k]! += Math.log(confusion[rater]![k]![label]!);
      const top = Math.max(...log);
      const e = log.map((v) => Math.exp(v - top));
      const sum = e.reduce((a, b) => a + b, 0);
      return e.map((v) => v / sum);
    });
  }
  return T;
}
