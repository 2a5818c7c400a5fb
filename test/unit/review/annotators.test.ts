import { describe, expect, it } from 'vitest';
import {
  agreementWithConsensus, agreementWithOthers, differenceOfProportions, lengthBias, majorityVote, positionBias, proportion,
  ratingsFromMatrix, REASONS, throughput, wilsonInterval,
} from '../../../electron/core/review';
import { medianInPlace, selectInPlace } from '../../../electron/core/review/annotators';

const _ = null;

describe('Wilson and Newcombe intervals', () => {
  // Newcombe, R. G. (1998). "Two-sided confidence intervals for the single proportion: comparison of seven
  // methods", Statistics in Medicine 17, 857–872, Table I, method 3 (Wilson score, no continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i/%i gives (%f, %f) as in Newcombe (1998), Table I', (k, n, low, high) => {
    const interval = wilsonInterval(k, n);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  // Newcombe, R. G. (1998). "Interval estimation for the difference between independent proportions:
  // comparison of eleven methods", Statistics in Medicine 17, 873–890, Table II, method 10 (score, no CC).
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [5, 56, 0, 29, -0.0381, 0.1926],
  ])('%i/%i − %i/%i gives (%f, %f) as in Newcombe (1998), Table II', (k1, n1, k2, n2, low, high) => {
    const d = differenceOfProportions(k1, n1, k2, n2);
    expect(d.value).toBeCloseTo(k1 / n1 - k2 / n2, 12);
    expect(d.low).toBeCloseTo(low, 4);
    expect(d.high).toBeCloseTo(high, 4);
  });

  it('is undefined, with null bounds, for an empty group', () => {
    expect(proportion(0, 0)).toMatchObject({ value: null, low: null, high: null, n: 0, reason: REASONS.noData });
    expect(differenceOfProportions(1, 2, 0, 0)).toMatchObject({ value: null, n: 2 });
  });
});

describe('per-annotator agreement', () => {
  const ratings = ratingsFromMatrix([
    [0, 0, 1],
    [1, 1, 1],
    [0, _, 1],
    [_, _, 0],
  ]);

  it('with the others: mean share of the other raters on a unit who agree', () => {
    const [r0, r1, r2] = agreementWithOthers(ratings);
    // Rater 0: unit 0 → 1/2, unit 1 → 1, unit 2 → 0: mean 1/2 over 3 units.
    expect(r0).toMatchObject({ value: 0.5, n: 3 });
    // Rater 1: unit 0 → 1/2, unit 1 → 1.
    expect(r1).toMatchObject({ value: 0.75, n: 2 });
    // Rater 2: unit 0 → 0, unit 1 → 1, unit 2 → 0; unit 3 has nobody else.
    expect(r2!.value).toBeCloseTo(1 / 3, 12);
    expect(r2!.n).toBe(3);
  });

  it('with the consensus: ties and empty units left out', () => {
    const vote = majorityVote(ratings, 2); // labels: 0, 1, TIE, 0
    const [r0, r1, r2] = agreementWithConsensus(ratings, vote.label);
    expect(r0).toMatchObject({ value: 1, n: 2 });
    expect(r1).toMatchObject({ value: 1, n: 2 });
    expect(r2).toMatchObject({ value: 2 / 3, n: 3 });
    expect(r2!.low).toBeLessThan(2 / 3);
  });

  it('is undefined for a rater who shares no unit', () => {
    expect(agreementWithOthers(ratingsFromMatrix([[1, _], [_, 1]]))[0]).toMatchObject({ value: null, n: 0, reason: REASONS.noPairs });
  });
});

describe('position and length bias', () => {
  it('is the share of decisive picks on the left, with a Wilson interval around it', () => {
    // Rater 0: 81 left of 263 decisive picks plus 10 ties (−1); rater 1: no picks.
    const rater = [...Array(273).fill(0)];
    const left = [...Array(81).fill(1), ...Array(182).fill(0), ...Array(10).fill(-1)];
    const [r0, r1] = positionBias(rater, left, 2);
    expect(r0!.value).toBeCloseTo(81 / 263, 12);
    expect(r0!.n).toBe(263);
    expect(r0!.low).toBeCloseTo(0.2553, 4);
    expect(r0!.high).toBeCloseTo(0.3662, 4);
    expect(r1).toMatchObject({ value: null, n: 0 });
  });

  it('is the share of picks of the longer response, equal lengths left out', () => {
    // Longer picked twice (120 > 100, 300 > 20), shorter once (80 < 90); equal and missing lengths left out.
    const [r0] = lengthBias([0, 0, 0, 0, 0], [120, 80, 50, 10, 300], [100, 90, 50, Number.NaN, 20], 1);
    expect(r0).toMatchObject({ value: 2 / 3, n: 3 });
  });
});

describe('throughput', () => {
  const minute = 60_000;
  it('is per hour of time actually spent: the sum of the labels’ recorded times, not the clock between saves', () => {
    // Rater 0: saves at 0, 1, 3, 60 and 62 min, having spent 30, 50, 70, 45 and 100 s on the labels: 295 s for 5.
    const savedAt = [0, 1, 3, 60, 62].map((m) => m * minute);
    const timeMs = [30_000, 50_000, 70_000, 45_000, 100_000];
    const [r0, r1] = throughput([0, 0, 0, 0, 0], savedAt, timeMs, 2);
    expect(r0!.labels).toBe(5);
    expect(r0!.labelsPerHour.value).toBeCloseTo(5 / (295 / 3600), 9);
    expect(r0!.labelsPerHour.n).toBe(5);
    expect(r0!.medianTimeMs).toMatchObject({ value: 50_000, n: 5 });
    expect(r1).toMatchObject({ labels: 0, labelsPerHour: { value: null }, medianTimeMs: { value: null } });
  });

  it('two saves a second apart, 20 s spent on each, are 180 an hour, not the 343 the clock between them made it', () => {
    const [r0] = throughput([0, 0], [0, 1000], [20_000, 20_000], 1);
    expect(r0!.labelsPerHour.value).toBeCloseTo(180, 9);
  });

  it('caps a label left open over a break, and leaves labels without a time out of the rate', () => {
    const [r0] = throughput([0, 0, 0], [0, minute, 2 * minute], [3 * 3_600_000, 0, 60_000], 1);
    expect(r0!.labelsPerHour.value).toBeCloseTo(2 / (11 / 60), 9);
    expect(r0!.labelsPerHour.n).toBe(2);
    expect(r0!.medianTimeMs.n).toBe(2);
  });

  it('takes labels in any order, and an even count has the middle mean', () => {
    const [r0] = throughput([0, 0, 0, 0], [3 * minute, 0, 2 * minute, minute], [40, 10, 30, 20], 1);
    expect(r0!.labelsPerHour.value).toBeCloseTo(4 / (100 / 3_600_000), 9);
    expect(r0!.medianTimeMs.value).toBe(25);
  });

  it('is undefined when no time was recorded', () => {
    const [r0] = throughput([0], [1000], [0], 1);
    expect(r0).toMatchObject({ labels: 1, labelsPerHour: { value: null, reason: REASONS.noTime }, medianTimeMs: { value: null, reason: REASONS.noTime } });
  });
});

describe('the median by selection (throughput’s median time)', () => {
  const sortedMedian = (values: Float64Array) => {
    const s = Float64Array.from(values).sort();
    const mid = s.length >> 1;
    return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  };
  let seed = 7;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const shapes: Record<string, (n: number) => Float64Array> = {
    random: (n) => Float64Array.from({ length: n }, () => next() * 1e6),
    'few values': (n) => Float64Array.from({ length: n }, () => 1000 * Math.floor(next() * 4)),
    ascending: (n) => Float64Array.from({ length: n }, (_v, i) => i),
    descending: (n) => Float64Array.from({ length: n }, (_v, i) => n - i),
    'organ pipe': (n) => Float64Array.from({ length: n }, (_v, i) => Math.min(i, n - i)),
    'all equal': (n) => new Float64Array(n).fill(4321.5),
  };
  for (const [shape, make] of Object.entries(shapes))
    it(`equals the sorted middle (or the mean of the two), ${shape}`, () => {
      for (const n of [1, 2, 3, 4, 5, 8, 13, 64, 99, 100, 1000, 4097, 100_000]) {
        const values = make(n);
        const want = sortedMedian(values);
        const got = medianInPlace(values);
        expect(got, `${shape}, ${n} values`).toBe(want);
        // Selecting the k-th smallest leaves it at k with no larger value before it.
        const k = Math.floor(next() * n);
        const copy = make(n);
        const kth = selectInPlace(copy, k);
        expect(kth).toBe(Float64Array.from(copy).sort()[k]);
        expect(copy.subarray(0, k).every((v) => v <= kth)).toBe(true);
      }
    });
});
