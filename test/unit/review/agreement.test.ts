import { describe, expect, it } from 'vitest';
import { cohenKappa, firstErrorAgreement, fleissKappa, percentAgreement, ratingsFromMatrix, ratingsFromUnits, REASONS } from '../../../electron/core/review';
import { ratingsFromContingency, ratingsFromCounts } from './helpers';

const _ = null;

describe("Cohen's kappa", () => {
  // Wikipedia, "Cohen's kappa", section "Simple example": 50 grant proposals read by readers A and B;
  // both yes 20, A yes / B no 5, A no / B yes 10, both no 15: p_o = 0.7, p_e = 0.5, κ = 0.4.
  it('reproduces the 50-proposal example of Wikipedia (κ = 0.4)', () => {
    const kappa = cohenKappa(ratingsFromContingency([[20, 5], [10, 15]]), 0, 1);
    expect(kappa.value).toBeCloseTo(0.4, 12);
    expect(kappa).toMatchObject({ n: 50, observed: 0.7, chance: 0.5 });
  });

  // The same article, "Same percentages but different numbers": two tables with p_o = 0.60 whose κ are
  // 0.1304 and 0.2593, because chance agreement differs.
  it('reproduces the two same-agreement, different-κ tables of Wikipedia', () => {
    expect(cohenKappa(ratingsFromContingency([[45, 15], [25, 15]]), 0, 1).value).toBeCloseTo(0.1304, 4);
    expect(cohenKappa(ratingsFromContingency([[25, 35], [5, 35]]), 0, 1).value).toBeCloseTo(0.2593, 4);
  });

  it('uses only the units both raters rated, and any pair of raters', () => {
    const ratings = ratingsFromMatrix([
      [1, 1, 0],
      [0, 0, _],
      [1, _, 1],
      [0, 1, 0],
    ]);
    // Raters 0 and 1 share units 0, 1, 3: agree 2 of 3; p_e = (2/3·1/3 + 1/3·2/3) = 4/9; κ = (2/3 − 4/9)/(5/9) = 0.4.
    expect(cohenKappa(ratings, 0, 1)).toMatchObject({ n: 3 });
    expect(cohenKappa(ratings, 0, 1).value).toBeCloseTo(0.4, 12);
    expect(cohenKappa(ratings, 2, 0)).toMatchObject({ n: 3 });
  });

  it('is undefined with a reason for one category only, no common units and a rater against themself', () => {
    expect(cohenKappa(ratingsFromMatrix([[2, 2], [2, 2]]), 0, 1)).toMatchObject({ value: null, n: 2, reason: REASONS.oneCategory });
    expect(cohenKappa(ratingsFromMatrix([[1, _], [_, 1]]), 0, 1)).toMatchObject({ value: null, n: 0, reason: REASONS.noCommonUnits });
    expect(cohenKappa(ratingsFromMatrix([[1, 1]]), 1, 1)).toMatchObject({ value: null, reason: REASONS.oneRater });
    expect(cohenKappa(ratingsFromMatrix([[1, 1]]), 0, 7)).toMatchObject({ value: null, n: 0, reason: REASONS.noCommonUnits });
  });
});

// Wikipedia, "Fleiss' kappa", section "Worked example": 14 raters put 10 subjects into 5 categories;
// P̄ = 0.378, P̄_e = 0.213, κ = 0.210.
const fleissWikipedia = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

describe("Fleiss' kappa", () => {
  it('reproduces the worked example of Wikipedia (κ = 0.210)', () => {
    const kappa = fleissKappa(ratingsFromCounts(fleissWikipedia));
    expect(kappa.value).toBeCloseTo(0.20993, 5);
    expect(kappa.observed).toBeCloseTo(0.378, 3);
    expect(kappa.chance).toBeCloseTo(0.213, 3);
    expect(kappa.n).toBe(10);
  });

  // Fleiss, J. L. (1971). "Measuring nominal scale agreement among many raters", Psychological Bulletin
  // 76(5), 378–382, Table 1: 6 psychiatrists diagnose 30 patients into depression, personality disorder,
  // schizophrenia, neurosis, other; κ = 0.430 (P̄ = 0.556, P̄_e = 0.220). The counts per patient are those of
  // the `diagnoses` data of R's irr package, whose kappam.fleiss documents Kappa = 0.430.
  const fleiss1971 = [
    [0, 0, 0, 6, 0], [0, 3, 0, 0, 3], [0, 1, 4, 0, 1], [0, 0, 0, 0, 6], [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0], [0, 0, 4, 0, 2], [2, 0, 3, 1, 0], [2, 0, 0, 4, 0], [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0], [1, 1, 0, 4, 0], [0, 3, 3, 0, 0], [1, 0, 0, 5, 0], [0, 2, 0, 3, 1],
    [0, 0, 5, 0, 1], [3, 0, 0, 1, 2], [5, 1, 0, 0, 0], [0, 2, 0, 4, 0], [1, 0, 2, 0, 3],
    [0, 0, 0, 0, 6], [0, 1, 0, 5, 0], [0, 2, 0, 1, 3], [2, 0, 0, 4, 0], [1, 0, 0, 4, 1],
    [0, 5, 0, 1, 0], [4, 0, 0, 0, 2], [0, 2, 0, 4, 0], [1, 0, 5, 0, 0], [0, 0, 0, 0, 6],
  ];

  it('reproduces Table 1 of Fleiss (1971) (κ = 0.430)', () => {
    const kappa = fleissKappa(ratingsFromCounts(fleiss1971));
    expect(kappa.value).toBeCloseTo(0.430, 3);
    expect(kappa.observed).toBeCloseTo(0.556, 3);
    expect(kappa.chance).toBeCloseTo(0.220, 3);
    expect(kappa.n).toBe(30);
  });

  it('takes units with different numbers of raters, each P_i over its own m_i, and skips single ratings', () => {
    // Unit 0: 3 raters, 2 agree → P = 2/6; unit 1: 2 raters agree → P = 1; unit 2: one rating, left out.
    // Pooled: category 0 ×3, category 1 ×2 of 5 → P_e = 9/25 + 4/25 = 13/25. P̄ = 2/3. κ = (2/3 − 13/25)/(12/25).
    const ratings = ratingsFromMatrix([[0, 0, 1], [1, 1, _], [_, _, 0]]);
    const kappa = fleissKappa(ratings);
    expect(kappa.n).toBe(2);
    expect(kappa.value).toBeCloseTo((2 / 3 - 13 / 25) / (12 / 25), 12);
  });

  it('is undefined with a reason for one category only and for no unit with two ratings', () => {
    expect(fleissKappa(ratingsFromMatrix([[1, 1, 1], [1, 1]]))).toMatchObject({ value: null, n: 2, reason: REASONS.oneCategory });
    expect(fleissKappa(ratingsFromMatrix([[1], [_, 2]]))).toMatchObject({ value: null, n: 0, reason: REASONS.noPairs });
  });
});

describe('percent agreement', () => {
  it('is the mean over units of the share of agreeing rater pairs', () => {
    // Unit 0: pairs (a,a) (a,b) (a,b) → 1/3; unit 1: 1; unit 2: one rating, left out.
    const ratings = ratingsFromUnits([
      [{ rater: 0, value: 1 }, { rater: 1, value: 1 }, { rater: 2, value: 2 }],
      [{ rater: 0, value: 3 }, { rater: 2, value: 3 }],
      [{ rater: 1, value: 2 }],
    ]);
    expect(percentAgreement(ratings).value).toBeCloseTo(2 / 3, 12);
    expect(percentAgreement(ratings).n).toBe(2);
  });

  it("equals P̄ of the Wikipedia Fleiss' κ worked example (0.378)", () => {
    expect(percentAgreement(ratingsFromCounts(fleissWikipedia))).toMatchObject({ n: 10 });
    expect(percentAgreement(ratingsFromCounts(fleissWikipedia)).value).toBeCloseTo(0.378, 3);
  });

  it('is 1 for one category only and undefined when no unit has two ratings', () => {
    expect(percentAgreement(ratingsFromMatrix([[4, 4], [4, 4, 4]]))).toMatchObject({ value: 1, n: 2 });
    expect(percentAgreement(ratingsFromMatrix([[4], [_, 4]]))).toMatchObject({ value: null, reason: REASONS.noPairs });
  });
});

describe('first-error agreement', () => {
  it('counts exact and ±1 agreement on the first wrong step, −1 (no error) agreeing only with −1', () => {
    const ratings = ratingsFromMatrix([
      [2, 2], // exact
      [3, 4], // within one
      [-1, -1], // both "no error": exact
      [-1, 0], // "no error" against "step 0": not within one
      [1, 5], // far apart
    ]);
    const { exact, withinOne } = firstErrorAgreement(ratings);
    expect(exact).toMatchObject({ value: 2 / 5, n: 5 });
    expect(withinOne).toMatchObject({ value: 3 / 5, n: 5 });
  });

  it('is undefined when no chain has two ratings', () => {
    expect(firstErrorAgreement(ratingsFromMatrix([[2, _]])).exact).toMatchObject({ value: null, reason: REASONS.noPairs });
  });
});
