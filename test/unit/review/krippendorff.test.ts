import { describe, expect, it } from 'vitest';
import { alphaFromCoincidences, coincidenceMatrix, krippendorffAlpha, ratingsFromMatrix, REASONS } from '../../../electron/core/review';

const _ = null;

// Krippendorff, K. (2011). "Computing Krippendorff's Alpha-Reliability", Annenberg School for Communication,
// University of Pennsylvania (https://repository.upenn.edu/asc_papers/43), example C: 4 observers × 12 units
// with missing values (also Krippendorff 2019, Content Analysis, 4th ed., ch. 12). Here one row per unit,
// one column per observer. The paper reports nominal α = 0.743, ordinal α = 0.815, interval α = 0.849, from
// n = 40 pairable values (unit 12 has one value and drops out). The same figures are asserted by the
// tests of pyirr (a port of R's irr::kripp.alpha) and of the Python `krippendorff` package.
const paperExample = [
  [1, 1, _, 1],
  [2, 2, 3, 2],
  [3, 3, 3, 3],
  [3, 3, 3, 3],
  [2, 2, 2, 2],
  [1, 2, 3, 4],
  [4, 4, 4, 4],
  [1, 1, 2, 1],
  [2, 2, 2, 2],
  [_, 5, 5, 5],
  [_, _, 1, 1],
  [_, _, 3, _],
];

// Wikipedia, "Krippendorff's alpha", section "A computational example": 3 coders × 15 units, nominal
// α = 0.691 (= 56/81 by hand: o-diagonal 20 of n = 26 pairable values).
const wikipediaExample = [
  [_, 1, _], [_, _, _], [_, 2, 2], [_, 1, 1], [_, 3, 3], [3, 3, 4], [4, 4, 4], [1, 3, _],
  [2, _, 2], [1, _, 1], [1, _, 1], [3, _, 3], [3, _, 3], [_, _, _], [3, _, 4],
];

describe("Krippendorff's alpha", () => {
  const ratings = ratingsFromMatrix(paperExample);

  it('reproduces the nominal, ordinal and interval figures of Krippendorff (2011)', () => {
    const nominal = krippendorffAlpha(ratings, 'nominal');
    expect(nominal.value).toBeCloseTo(0.743, 3);
    // Exactly: 1 − (n − 1)·Σ_{c≠k} o_ck / (n² − Σ n_c²) = 1 − 39·8 / (1600 − 384) = 904/1216.
    expect(nominal.value).toBeCloseTo(904 / 1216, 12);
    expect(krippendorffAlpha(ratings, 'ordinal').value).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(ratings, 'interval').value).toBeCloseTo(0.849, 3);
    expect(nominal).toMatchObject({ n: 11, pairableValues: 40, reason: null });
  });

  it("builds the paper's coincidence matrix, and α from it equals the closed forms", () => {
    const m = coincidenceMatrix(ratings);
    expect(Array.from(m.levels)).toEqual([1, 2, 3, 4, 5]);
    expect(Array.from(m.totals, (t) => Math.round(t))).toEqual([9, 13, 10, 5, 3]);
    expect(m.n).toBe(40);
    const third = 1 / 3;
    const expected = [
      [7, 4 * third, third, third, 0],
      [4 * third, 10, 4 * third, third, 0],
      [third, 4 * third, 8, third, 0],
      [third, third, third, 4, 0],
      [0, 0, 0, 0, 3],
    ];
    expected.flat().forEach((o, i) => expect(m.o[i]).toBeCloseTo(o, 12));
    for (const level of ['nominal', 'ordinal', 'interval'] as const) {
      expect(krippendorffAlpha(ratings, level).value).toBeCloseTo(alphaFromCoincidences(m, level)!, 12);
    }
  });

  it('reproduces the computational example of Wikipedia (nominal α = 0.691)', () => {
    const alpha = krippendorffAlpha(ratingsFromMatrix(wikipediaExample), 'nominal');
    expect(alpha.value).toBeCloseTo(0.691, 3);
    expect(alpha).toMatchObject({ n: 12, pairableValues: 26 });
  });

  it('is unchanged by a shift of the values (interval) and by any monotone recoding (ordinal)', () => {
    const shifted = ratingsFromMatrix(paperExample.map((row) => row.map((v) => (v === null ? null : 1e9 + v))));
    expect(krippendorffAlpha(shifted, 'interval').value).toBeCloseTo(0.849, 3);
    const squared = ratingsFromMatrix(paperExample.map((row) => row.map((v) => (v === null ? null : v * v * 10))));
    expect(krippendorffAlpha(squared, 'ordinal').value).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(squared, 'nominal').value).toBeCloseTo(0.743, 3);
  });

  it('is 1 for perfect agreement and undefined, with a reason, when nothing varies or nothing pairs', () => {
    expect(krippendorffAlpha(ratingsFromMatrix([[1, 1], [2, 2], [3, 3]]), 'interval').value).toBeCloseTo(1, 12);
    const oneValue = krippendorffAlpha(ratingsFromMatrix([[2, 2], [2, 2, 2]]), 'ordinal');
    expect(oneValue).toMatchObject({ value: null, n: 2, reason: REASONS.noVariation });
    expect(krippendorffAlpha(ratingsFromMatrix([[1, _], [_, 2]]), 'nominal')).toMatchObject({ value: null, n: 0, reason: REASONS.noPairs });
    expect(krippendorffAlpha(ratingsFromMatrix([]), 'nominal')).toMatchObject({ value: null, n: 0, reason: REASONS.noUnits });
  });
});
