import { describe, expect, it } from 'vitest';
import { ensemble, firstError, logit, pairProbability, sigmoid } from '../../electron/core/scorer/prelabel';
import { aggregateSteps } from '../../electron/core/scorer/readout';
import { cutToBudget } from '../../electron/core/scorer/inputs';
import { lengthSortedBatches } from '../../electron/core/scorer/batching';
import { batchTokenBudget } from '../../electron/core/scorer/scoreJob';

describe('pre-label arithmetic', () => {
  it('sigmoid is stable at the extremes and inverts logit', () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(logit(0.3))).toBeCloseTo(0.3, 12);
    expect(Number.isFinite(logit(0))).toBe(true);
  });

  it('P(A better) = sigmoid(rA − rB)', () => {
    expect(pairProbability(2, 1)).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
    expect(pairProbability(1, 2)).toBeCloseTo(1 - pairProbability(2, 1), 12);
  });

  it('first error is the first step under 0.5, skipping unscored steps', () => {
    expect(firstError([0.9, 0.7, 0.2, 0.1])).toBe(2);
    expect(firstError([0.9, null, 0.4])).toBe(2);
    expect(firstError([0.9, 0.6])).toBeNull();
    expect(firstError([])).toBeNull();
  });

  it('ensemble: mean, population std, votes and majority', () => {
    const e = ensemble([0.9, 0.7, 0.2])!;
    expect(e.mean).toBeCloseTo(0.6, 12);
    expect(e.spread).toBeCloseTo(Math.sqrt(((0.3) ** 2 + (0.1) ** 2 + (0.4) ** 2) / 3), 12);
    expect(e.votes).toEqual({ A: 2, B: 1, tie: 0 });
    expect(e.vote).toBe('A');
    expect(ensemble([0.9, 0.1])!.vote).toBe('tie');
    expect(ensemble([])).toBeNull();
  });

  it('step aggregates', () => {
    expect(aggregateSteps([0.9, null, 0.5], 'min')).toBe(0.5);
    expect(aggregateSteps([0.9, 0.5, null], 'last')).toBe(0.5);
    expect(aggregateSteps([0.5, 0.5], 'product')).toBe(0.25);
    expect(aggregateSteps([null], 'mean')).toBeNull();
  });
});

describe('truncation and batching', () => {
  it('cuts the side it is told to', () => {
    const a = ['a1', 'a2', 'a3'];
    const b = ['b1', 'b2'];
    expect(cutToBudget(a, b, 4, 'left')).toEqual([['a2', 'a3'], ['b1', 'b2']]);
    expect(cutToBudget(a, b, 2, 'left')).toEqual([[], ['b1', 'b2']]);
    expect(cutToBudget(a, b, 1, 'left')).toEqual([[], ['b2']]);
    expect(cutToBudget(a, b, 4, 'right')).toEqual([['a1', 'a2', 'a3'], ['b1']]);
    expect(cutToBudget(a, b, 2, 'right')).toEqual([['a1', 'a2'], []]);
    expect(cutToBudget(a, b, 9, 'right')).toEqual([a, b]);
  });

  it('batches by length, within the row and token limits', () => {
    const lengths = [5, 100, 7, 98, 6, 99];
    expect(lengthSortedBatches(lengths, 3)).toEqual([[0, 4, 2], [3, 5, 1]]);
    expect(lengthSortedBatches(lengths, 3, 200)).toEqual([[0, 4, 2], [3, 5], [1]]);
  });

  it('caps padded tokens per batch on CPU only; a row longer than the cap still gets a batch', () => {
    expect(batchTokenBudget(16, 512, 'cpu')).toBe(2048);
    expect(batchTokenBudget(4, 128, 'cpu')).toBe(512);
    expect(batchTokenBudget(16, 512, 'cuda')).toBe(16 * 512);
    expect(lengthSortedBatches([4000, 10], 16, batchTokenBudget(16, 4096, 'cpu'))).toEqual([[1], [0]]);
  });
});
