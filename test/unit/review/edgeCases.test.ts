// Every metric on the data that breaks naive formulas: no units, every value missing, one rater, one
// category only. Each must return (never throw), hold no NaN, and say why a figure is undefined.
import { describe, expect, it } from 'vitest';
import {
  agreementWithConsensus, agreementWithOthers, cohenKappa, dawidSkene, firstErrorAgreement, fleissKappa, kendallWByUnit,
  krippendorffAlpha, majorityVote, percentAgreement, rankingsFromUnits, ratingsFromMatrix, ratingsFromTriples, REASONS,
  type Ratings,
} from '../../../electron/core/review';
import { nanPaths } from './helpers';

const _ = null;

function everything(ratings: Ratings) {
  const vote = majorityVote(ratings);
  return {
    percent: percentAgreement(ratings),
    cohen: cohenKappa(ratings, 0, 1),
    fleiss: fleissKappa(ratings),
    nominal: krippendorffAlpha(ratings, 'nominal'),
    ordinal: krippendorffAlpha(ratings, 'ordinal'),
    interval: krippendorffAlpha(ratings, 'interval'),
    firstError: firstErrorAgreement(ratings),
    vote,
    ds: dawidSkene(ratings),
    others: agreementWithOthers(ratings),
    consensus: agreementWithConsensus(ratings, vote.label),
  };
}

const cases: [string, Ratings][] = [
  ['zero units', ratingsFromMatrix([])],
  ['every value missing', ratingsFromMatrix([[_, _], [_, _, _], [Number.NaN, _]])],
  ['one rater', ratingsFromMatrix([[0], [1], [2], [1]])],
  ['one category only', ratingsFromMatrix([[1, 1, 1], [1, 1], [1, _, 1]])],
];

describe('edge cases', () => {
  it.each(cases)('%s: every metric returns, without NaN', (_name, ratings) => {
    expect(nanPaths(everything(ratings))).toEqual([]);
  });

  it('zero units and all missing: every coefficient is null with a reason', () => {
    for (const [, ratings] of cases.slice(0, 2)) {
      const r = everything(ratings);
      for (const figure of [r.percent, r.cohen, r.fleiss, r.nominal, r.ordinal, r.interval, r.firstError.exact, r.firstError.withinOne]) {
        expect(figure.value).toBeNull();
        expect(figure.n).toBe(0);
        expect(figure.reason).toBeTruthy();
      }
      expect(r.vote.n).toBe(0);
    }
    expect(everything(cases[0]![1]).fleiss.reason).toBe(REASONS.noUnits);
    expect(everything(cases[1]![1]).fleiss.reason).toBe(REASONS.noPairs);
  });

  it('one rater: nothing pairs, so agreement is undefined; consensus is that rater', () => {
    const r = everything(cases[2]![1]);
    expect(r.percent).toMatchObject({ value: null, reason: REASONS.noPairs });
    expect(r.nominal).toMatchObject({ value: null, reason: REASONS.noPairs });
    expect(r.cohen).toMatchObject({ value: null, reason: REASONS.noCommonUnits });
    // Dawid–Skene learns nothing about annotators without a unit two of them labelled: majority vote.
    expect(Array.from(r.ds.label)).toEqual([0, 1, 2, 1]);
    expect(r.ds.iterations).toBe(0);
    expect(r.ds.reliability[0]).toMatchObject({ value: null, reason: REASONS.noPairs });
    expect(r.consensus[0]).toMatchObject({ value: 1, n: 4 });
  });

  it('one category only: agreement is 1, chance-corrected coefficients are undefined', () => {
    const r = everything(cases[3]![1]);
    expect(r.percent).toMatchObject({ value: 1, n: 3 });
    expect(r.fleiss).toMatchObject({ value: null, n: 3, reason: REASONS.oneCategory });
    expect(r.cohen).toMatchObject({ value: null, n: 2, reason: REASONS.oneCategory });
    for (const alpha of [r.nominal, r.ordinal, r.interval]) expect(alpha).toMatchObject({ value: null, n: 3, reason: REASONS.noVariation });
    expect(Array.from(r.vote.label)).toEqual([1, 1, 1]);
  });

  it('rankings with no units or a single ranker are undefined with a reason', () => {
    expect(kendallWByUnit(rankingsFromUnits([[[1, 2]]]))).toMatchObject({ value: null, n: 0, reason: REASONS.oneRater });
    expect(nanPaths(kendallWByUnit(rankingsFromUnits([[], [[1, 1], [1, 1]]])))).toEqual([]);
  });
});

describe('building ratings', () => {
  it('drops missing values and out-of-range units or raters, and keeps the later of two ratings by one rater', () => {
    const ratings = ratingsFromTriples(2, 2, [0, 0, 1, 1, 5, 0], [0, 1, 0, 0, 0, 9], [1, Number.POSITIVE_INFINITY, 2, 3, 4, 4]);
    expect(Array.from(ratings.start)).toEqual([0, 1, 2]);
    expect(Array.from(ratings.value)).toEqual([1, 3]);
    expect(Array.from(ratings.rater)).toEqual([0, 0]);
  });
});
