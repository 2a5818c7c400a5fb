import { describe, expect, it } from 'vitest';
import { kendallW, kendallWByUnit, rankingsFromUnits, REASONS, scoresFromGroups, UNDEFINED_W } from '../../../electron/core/review';

describe("Kendall's W", () => {
  // ProofWiki, "Kendall's Coefficient of Concordance/Examples/Arbitrary Example 1": judges A–D rank
  // competitors X, Y, Z; rank sums 7, 9, 8, S = 2, W = 12·2 / (4²·3·(3² − 1)) = 1/16.
  it('reproduces the ProofWiki example (W = 1/16, no ties)', () => {
    const judges = [
      [1, 3, 2], // A ranks X, Y, Z
      [1, 2, 3], // B
      [2, 3, 1], // C
      [3, 1, 2], // D
    ];
    expect(kendallW(judges)).toMatchObject({ n: 3, raters: 4, reason: null });
    expect(kendallW(judges).value).toBeCloseTo(1 / 16, 12);
  });

  // R package irr (Gamer, Lemon, Fellows & Singh), dataset `anxiety`: 3 raters score the anxiety of 20
  // subjects from 1 to 6, with many ties; its documentation runs kendall(anxiety, correct = TRUE) and gets
  // Wt = 0.54, χ²(19) = 30.8 (χ² = m(n − 1)·W). pyirr's port asserts the same two figures. Each rater's
  // scores become mid-ranks over the 20 subjects, so this exercises the tie correction.
  const anxiety = [
    [3, 3, 2], [3, 6, 1], [3, 4, 4], [4, 6, 4], [5, 2, 3], [5, 4, 2], [2, 2, 1], [3, 4, 6], [5, 3, 1], [2, 3, 1],
    [2, 2, 1], [6, 3, 2], [1, 3, 3], [5, 3, 3], [2, 2, 1], [2, 2, 1], [1, 1, 3], [2, 3, 3], [4, 3, 2], [3, 4, 2],
  ];
  it("reproduces irr's anxiety example with the tie correction (W = 0.54, χ² = 30.8)", () => {
    const raters = [0, 1, 2].map((r) => anxiety.map((subject) => subject[r]!));
    const w = kendallW(raters);
    expect(w).toMatchObject({ n: 20, raters: 3 });
    expect(w.value).toBeCloseTo(0.54, 2);
    expect(3 * 19 * w.value!).toBeCloseTo(30.8, 1);
  });

  it('takes the sorting route for long rows and still matches the formula worked by hand', () => {
    // 40 objects (over the short-row limit): rater a ranks 1…40, b the reverse, c in tiers of three
    // (13 tiers of 3 and a last one of 1), so c's mid-ranks are 3·tier + 2 and the last object's is 40.
    const a = Array.from({ length: 40 }, (_, i) => i);
    const b = a.map((i) => 39 - i);
    const c = a.map((i) => Math.floor(i / 3));
    const rankSums = a.map((i) => i + 1 + (40 - i) + (i === 39 ? 40 : 3 * Math.floor(i / 3) + 2));
    const mean = (3 * 41) / 2;
    const s = rankSums.reduce((sum, r) => sum + (r - mean) ** 2, 0);
    // Σ(t³ − t) over c's tiers: 13·(27 − 3).
    expect(kendallW([a, b, c]).value).toBeCloseTo((12 * s) / (9 * (40 ** 3 - 40) - 3 * 13 * 24), 12);
  });

  it('averages W over units with two or more rankings, from tie groups', () => {
    const rankings = rankingsFromUnits([
      // Three annotators rank an item's three responses the same way: W = 1.
      [scoresFromGroups([[0], [1], [2]], 3), scoresFromGroups([[0], [1], [2]], 3), scoresFromGroups([[0], [1], [2]], 3)],
      // Two annotators, exactly opposite on two responses: W = 0.
      [scoresFromGroups([[0], [1]], 2), scoresFromGroups([[1], [0]], 2)],
      // One annotator: undefined, left out of the mean.
      [scoresFromGroups([[1], [0]], 2)],
    ]);
    const w = kendallWByUnit(rankings);
    expect(w).toMatchObject({ value: 0.5, n: 2 });
    expect(Array.from(w.perUnit)).toEqual([1, 0, UNDEFINED_W]);
  });

  it('reads tie groups as tiers', () => {
    expect(scoresFromGroups([[0, 2], [1]], 3)).toEqual([1, 2, 1]);
  });

  it('is undefined with a reason for one rater, one object, every object tied, and no units', () => {
    expect(kendallW([[1, 2, 3]])).toMatchObject({ value: null, reason: REASONS.oneRater });
    expect(kendallW([[1], [1]])).toMatchObject({ value: null, reason: REASONS.fewObjects });
    expect(kendallW([[1, 1, 1], [2, 2, 2]])).toMatchObject({ value: null, reason: REASONS.allTied });
    expect(kendallWByUnit(rankingsFromUnits([]))).toMatchObject({ value: null, n: 0, reason: REASONS.noUnits });
  });

  it('leaves out a row that does not rank the same objects', () => {
    const w = kendallW([[1, 2, 3], [1, 2, 3], [1, 2]]);
    expect(w).toMatchObject({ value: 1, raters: 2 });
  });
});
