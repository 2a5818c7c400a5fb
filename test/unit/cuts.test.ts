// The rule a stored cut must pass (shared/cuts.ts): what Arbiter's own rule, a split and a merge make
// passes; steps that are not texts, or that say something the response does not, fail.
import { describe, expect, it } from 'vitest';
import { cutProblem } from '../../shared/cuts';
import { mergeSteps, segment, splitStep } from '../../shared/segment';

const TEXT = '1. Take 3.\n2. Add 3.\n\n3. So 6.\n\n```py\nx = 3\ny = x + 3\nprint(y)\n```\nDone.';

describe('cutProblem', () => {
  it('passes every cut Arbiter makes: its rule, splits (inside a code block too) and merges', () => {
    for (const method of ['auto', 'markers', 'numbered', 'paragraphs', 'lines'] as const) expect(cutProblem(TEXT, segment(TEXT, method).steps)).toBeNull();
    const steps = segment(TEXT, 'numbered').steps;
    const last = steps.length - 1;
    // A split inside the code block adds a closing and an opening fence line.
    const inFence = splitStep(steps, last, steps[last]!.indexOf('y = x'))!;
    expect(inFence.length).toBe(steps.length + 1);
    expect([inFence[last]!.endsWith('\n```'), inFence[last + 1]!.startsWith('```py\n')]).toEqual([true, true]);
    expect(cutProblem(TEXT, inFence)).toBeNull();
    expect(cutProblem(TEXT, splitStep(inFence, 0, 3))).toBeNull();
    expect(cutProblem(TEXT, mergeSteps(inFence, last))).toBeNull();
    expect(cutProblem(TEXT, mergeSteps(steps, 0))).toBeNull();
    expect(cutProblem(TEXT, [TEXT])).toBeNull();
  });

  it('refuses what is not a list of texts, blank steps, and steps that say something else', () => {
    expect(cutProblem(TEXT, 'Take 3.')).toBe('the steps are a text, not a list of texts');
    expect(cutProblem(TEXT, { 0: TEXT })).toBe('the steps are an object, not a list of texts');
    expect(cutProblem(TEXT, null)).toBe('the steps are null, not a list of texts');
    expect(cutProblem(TEXT, [])).toBe('the steps are an empty list');
    expect(cutProblem(TEXT, [TEXT, 5])).toBe('step 2 is a number, not a text');
    expect(cutProblem(TEXT, [TEXT, ' \n'])).toBe('step 2 is blank');
    expect(cutProblem(TEXT, ['1. Take 3.', '2. Add 4.', TEXT.slice(20)])).toBe("the steps put together are not the response's text");
    expect(cutProblem(TEXT, ['1. Take 3.'])).toMatch(/not the response's text/);
    expect(cutProblem(TEXT, [...segment(TEXT).steps, 'And more.'])).toMatch(/not the response's text/);
  });
});
