// Weighted rubric totals (docs/formats.md "Which label decides"), the deciding ratings and the
// Prometheus score: what pairs from ratings, binarized scores and Prometheus lines are made of.
import { describe, expect, it } from 'vitest';
import { prometheusScore, scoreRubric } from '../../../electron/core/formats/ratings/prometheus';
import { decideRatings } from '../../../electron/core/formats/base/resolveRatings';
import { normalizedTotal, rubricScore, totalsRanking, weightedTotal } from '../../../electron/core/formats/base/rubricTotals';
import type { HeadLabel } from '../../../electron/core/store/labels';
import type { Criterion } from '../../../shared/rubric';

const c = (key: string, scale: Criterion['scale'], weight = 1): Criterion => ({ key, description: '', scale, weight, required: false });
const likert = (key: string, weight = 1) => c(key, { type: 'likert', min: 1, max: 5 }, weight);
const binary = (key: string, weight = 1) => c(key, { type: 'binary' }, weight);

describe('weightedTotal', () => {
  const criteria = [binary('correct', 2), likert('clear'), binary('rambles', -3), c('tone', { type: 'categories', values: ['formal', 'casual'] })];

  it('adds weight × normalized value: yes 1, no 0, Likert on 0..1; a pitfall met subtracts', () => {
    expect(weightedTotal(criteria, { correct: 1, clear: 3, rambles: 0 })).toEqual({ total: 2.5, low: -3, high: 3, rated: 3 });
    expect(weightedTotal(criteria, { correct: 1, clear: 5, rambles: 1 }).total).toBe(0);
  });

  it('skips null (not applicable), categories and values off the scale, rather than counting them as 0', () => {
    expect(weightedTotal(criteria, { correct: null, clear: 5, tone: 'formal' })).toEqual({ total: 1, low: 0, high: 1, rated: 1 });
    expect(weightedTotal(criteria, { clear: 9, correct: 2 }).rated).toBe(0);
    expect(normalizedTotal(weightedTotal(criteria, {}))).toBeNull();
  });

  it('normalizes between the lowest and highest total the rated criteria allow', () => {
    expect(normalizedTotal(weightedTotal(criteria, { correct: 1, clear: 3, rambles: 0 }))).toBeCloseTo(5.5 / 6);
    expect(normalizedTotal(weightedTotal(criteria, { rambles: 1 }))).toBe(0);
  });
});

describe('totalsRanking', () => {
  it('groups equal totals (float noise aside), best first, and leaves unrated responses out', () => {
    expect(totalsRanking([0.1 + 0.2, 0.3, 1, null])).toEqual([[2], [0, 1]]);
    expect(totalsRanking([2, 2])).toEqual([[0, 1]]);
    expect(totalsRanking([2, null])).toBeNull();
  });
});

describe('rubricScore', () => {
  it('is the weighted mean on a Likert range the rated criteria share, else the normalized total', () => {
    const uf = ['a', 'b', 'c', 'd'].map((k) => likert(k));
    expect(rubricScore(uf, { a: 5, b: 5, c: 5, d: 4 })).toBe(4.75);
    expect(rubricScore(uf, { a: 3, b: null, c: 1, d: 1 })).toBe(1.666667);
    expect(rubricScore([likert('a'), binary('b')], { a: 5, b: 0 })).toBe(0.5);
    expect(rubricScore(uf, {})).toBeNull();
  });
});

describe('the Prometheus score', () => {
  it('keeps a single 1–5 criterion as it is, and bands a rubric’s normalized total otherwise', () => {
    for (const v of [1, 2, 3, 4, 5]) expect(prometheusScore([likert('q')], { q: v })).toBe(v);
    expect(prometheusScore([binary('a', 5), binary('b', 3), binary('pit', -2)], { a: 1, b: 0, pit: 0 })).toBe(1 + Math.round((4 * 7) / 10));
    const single = scoreRubric('r', 1, [{ ...likert('q'), description: 'Is it right?' }], { q: 2 });
    expect(single.criteria).toBe('Is it right?');
    expect(single.scores[0]).toBe('Rated 1 on "q" (1–5).');
    expect(scoreRubric('r', 2, [likert('a'), likert('b')], { a: 1, b: 2 }).criteria).toBe('How well does the response meet the rubric "r" (version 2)? a; b');
  });
});

describe('decideRatings', () => {
  const label = (annotator: string, kind: HeadLabel['kind'], ratings: unknown, createdAt = '2026-01-01T00:00:00.000Z', version = 1): HeadLabel => ({
    annotator,
    kind,
    choice: null,
    ranking: null,
    strength: null,
    body: { ratings, rubric: 'r', rubric_version: version } as never,
    createdAt,
  });

  it('takes the humans over the file, and per criterion the most common value; null is a value, not a gap', () => {
    const d = decideRatings([
      label('source', 'source', { A: { q: 5 } }),
      label('alice', 'human', { A: { q: null, w: 2 } }),
      label('bob', 'human', { A: { q: null, w: 2 } }),
      label('carol', 'human', { A: { q: 3 } }),
    ]);
    expect(d).toMatchObject({ rubric: 'r', version: 1, ratings: { A: { q: null, w: 2 } } });
  });

  it('calls an even split a conflict, and goes by the version most deciding labels used', () => {
    expect(decideRatings([label('alice', 'human', { A: { q: 1 } }), label('bob', 'human', { A: { q: 2 } })])).toEqual({ skip: 'conflict' });
    const d = decideRatings([label('alice', 'human', { A: { q: 1 } }, undefined, 1), label('bob', 'human', { A: { q: 4 } }, undefined, 2), label('carol', 'human', { A: { q: 4 } }, undefined, 2)]);
    expect(d).toMatchObject({ version: 2, ratings: { A: { q: 4 } } });
  });

  it('reads only the keys asked for (a format’s own aspects)', () => {
    expect(decideRatings([label('source', 'source', { A: { other: 1 } })], undefined, new Set(['q']))).toEqual({ skip: 'unlabeled' });
  });
});
