import { describe, expect, it } from 'vitest';
import { anchoring, calibration, modelAccuracy, NO_LABEL, REASONS, TIE } from '../../../electron/core/review';

describe('model accuracy against the consensus', () => {
  it('counts units where both have a label, ties and missing labels left out', () => {
    const accuracy = modelAccuracy([0, 1, 1, TIE, NO_LABEL, 0], [0, 1, 0, 1, 1, NO_LABEL]);
    expect(accuracy).toMatchObject({ value: 2 / 3, n: 3 });
    expect(accuracy.low).toBeGreaterThan(0);
    expect(modelAccuracy([TIE], [0])).toMatchObject({ value: null, n: 0 });
  });
});

describe('calibration', () => {
  // Wikipedia, "Brier score", section "Example": a 70% forecast of rain scores (0.70 − 1)² = 0.09 when it
  // rains and 0.49 when it does not; 30% with rain scores 0.49; 50% scores 0.25 either way.
  it('gives the Brier scores of the Wikipedia examples', () => {
    expect(calibration([0.7], [1]).brier.value).toBeCloseTo(0.09, 12);
    expect(calibration([0.7], [0]).brier.value).toBeCloseTo(0.49, 12);
    expect(calibration([0.3], [1]).brier.value).toBeCloseTo(0.49, 12);
    expect(calibration([0.5, 0.5], [1, 0]).brier).toMatchObject({ value: 0.25, n: 2 });
  });

  // Expected calibration error as defined by Guo, Pleiss, Sun & Weinberger (2017), "On Calibration of Modern
  // Neural Networks", eq. (3): Σ_b (|B_b|/n)·|acc(B_b) − conf(B_b)|, worked by hand on two bins.
  it('gives the ECE and the reliability diagram bins', () => {
    // Bin [0.2, 0.3): predictions 0.2, 0.2 with outcomes 0, 1 → observed 0.5, predicted 0.2.
    // Bin [0.9, 1]: predictions 0.9, 1, 0.95 with outcomes 1, 1, 1 → observed 1, predicted 0.95.
    const result = calibration([0.2, 0.2, 0.9, 1, 0.95], [0, 1, 1, 1, 1], 10);
    expect(result.ece.value).toBeCloseTo((2 / 5) * 0.3 + (3 / 5) * 0.05, 12);
    expect(result.ece.n).toBe(5);
    expect(result.bins).toHaveLength(10);
    expect(result.bins[2]).toMatchObject({ low: 0.2, high: 0.3, n: 2, meanPredicted: 0.2, meanObserved: 0.5 });
    expect(result.bins[9]!.n).toBe(3);
    expect(result.bins[9]!.meanPredicted).toBeCloseTo(0.95, 12);
    expect(result.bins[5]).toMatchObject({ n: 0, meanPredicted: null, meanObserved: null });
  });

  it('leaves out missing and out-of-range pairs, and is undefined when none is left', () => {
    const result = calibration([0.5, Number.NaN, 1.5, 0.8], [1, 1, 0, Number.NaN]);
    expect(result.brier).toMatchObject({ value: 0.25, n: 1 });
    expect(calibration([], []).brier).toMatchObject({ value: null, reason: REASONS.noData });
    expect(calibration([], []).ece).toMatchObject({ value: null, n: 0 });
  });
});

describe('anchoring', () => {
  it('compares agreement with the model when its pre-label was shown and when it was not', () => {
    // Shown: 9 of 10 labels match the model; hidden: 3 of 10 (Newcombe's 9/10 − 3/10 example).
    const human = [...Array(9).fill(1), 0, ...Array(3).fill(1), ...Array(7).fill(0)];
    const model = Array(20).fill(1);
    const visible = [...Array(10).fill(1), ...Array(10).fill(0)];
    const result = anchoring([...human, NO_LABEL, 1], [...model, 1, NO_LABEL], [...visible, 1, 0]);
    expect(result.visible).toMatchObject({ value: 0.9, n: 10 });
    expect(result.hidden).toMatchObject({ value: 0.3, n: 10 });
    expect(result.difference.value).toBeCloseTo(0.6, 12);
    expect(result.difference.low).toBeCloseTo(0.1705, 4);
    expect(result.difference.high).toBeCloseTo(0.809, 4);
  });

  it('is undefined when every pre-label was hidden', () => {
    const result = anchoring([1, 0], [1, 1], [0, 0]);
    expect(result.visible).toMatchObject({ value: null, n: 0 });
    expect(result.difference).toMatchObject({ value: null, low: null, high: null });
  });
});
