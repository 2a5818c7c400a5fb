// The judges' pure parts: what a pairwise answer in both orders means (the flip), steps kept up to the
// first error, the JSON schema and the zod rules agreeing, the template's fields, the edit distance.
import { describe, expect, it } from 'vitest';
import { fillTemplate } from '../../electron/core/judge/prompts';
import { resultOf } from '../../electron/core/judge/requests';
import { editDistance } from '../../shared/editDistance';
import { answerJsonSchema, readAnswer } from '../../shared/judgeAnswers';

describe('pairwise in both orders', () => {
  it('A then A (the swapped A is the item\'s B) is a flip; A then B is consistent', () => {
    const a = { critique: 'x', verdict: 'A' as const, strength: 2 as const };
    const b = { critique: 'y', verdict: 'B' as const, strength: 1 as const };
    expect(resultOf('pairwise', [a, a])).toMatchObject({ verdict: 'A', flipped: true, strength: 2, critique: 'x' });
    expect(resultOf('pairwise', [a, b])).toMatchObject({ verdict: 'A', flipped: false });
    expect(resultOf('pairwise', [{ ...a, verdict: 'tie' }, { ...b, verdict: 'tie' }])).toMatchObject({ verdict: 'tie', flipped: false });
    expect(resultOf('pairwise', [])).toMatchObject({ verdict: null, flipped: null, answer: null });
  });
});

describe('steps up to the first error', () => {
  it('keeps the steps up to and including the first wrong one, with its reason as the critique', () => {
    const answer = { steps: [{ correct: true, reason: 'ok' }, { correct: false, reason: 'adds wrong' }, { correct: true, reason: 'later' }] };
    expect(resultOf('steps', [answer])).toMatchObject({ firstError: 1, critique: 'adds wrong', answer: { steps: answer.steps.slice(0, 2) } });
    expect(resultOf('steps', [{ steps: [{ correct: true, reason: 'ok' }] }])).toMatchObject({ firstError: null, critique: null });
  });
});

describe('the answer schema and its zod rules', () => {
  const criteria = [{ key: 'helpful', description: '', scale: { type: 'likert' as const, min: 1, max: 5 }, weight: 1, required: true }];
  it('names the same fields and bounds', () => {
    const schema = answerJsonSchema({ kind: 'rubric', textMax: 10, criteria }) as { properties: { criteria: { required: string[] } } };
    expect(schema.properties.criteria.required).toEqual(['helpful']);
    expect(readAnswer({ kind: 'rubric', textMax: 10, criteria }, '{"criteria":{"helpful":{"feedback":"fine","score":4}}}')).toMatchObject({ ok: true });
    expect(readAnswer({ kind: 'rubric', textMax: 10, criteria }, '{"criteria":{"helpful":{"feedback":"fine","score":9}}}')).toMatchObject({ ok: false });
    expect(readAnswer({ kind: 'steps', textMax: 10, steps: 2 }, '{"steps":[{"reason":"a","correct":true}]}')).toMatchObject({ ok: false });
    expect(readAnswer({ kind: 'pairwise', textMax: 10 }, 'not json')).toEqual({ ok: false, error: 'the answer is not JSON (8 characters)' });
    expect(readAnswer({ kind: 'pairwise', textMax: 10 }, '{"critique":"c","verdict":"A","strength":2,"url":"http://x"}')).toMatchObject({ ok: false });
  });
});

describe('templates and edits', () => {
  it('fills known fields, leaves unknown ones, runs no code', () => {
    expect(fillTemplate('{{prompt}} | {{ response_a }} | {{constructor}} | {{steps}}', { prompt: 'P', response_a: '{{prompt}}' })).toBe('P | {{prompt}} | {{constructor}} | ');
  });
  it('edit distance in characters', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('naïve 👍', 'naive 👍')).toBe(1);
  });
});
