import { describe, expect, it } from 'vitest';
import { afterMerge, afterSplit, mergeSteps, segment, splitStep, type ResponseSteps } from '../../shared/segment';

describe('segment', () => {
  it('cuts at "Step N:" markers first, keeping each step as written', () => {
    const text = 'Let me think.\nStep 1: 9.8 = 9.80.\nStep 2: 80 > 11 hundredths.\n\nStep 3: So 9.8 is larger.';
    expect(segment(text)).toEqual({ method: 'markers', steps: ['Let me think.\nStep 1: 9.8 = 9.80.', 'Step 2: 80 > 11 hundredths.', 'Step 3: So 9.8 is larger.'] });
  });
  it('then numbered lines, then paragraphs, then lines', () => {
    expect(segment('1. a\n2) b\n3. c').method).toBe('numbered');
    expect(segment('First part.\n\nSecond part.').steps).toEqual(['First part.', 'Second part.']);
    expect(segment('one\ntwo').method).toBe('lines');
    expect(segment('just one thing')).toEqual({ method: 'whole', steps: ['just one thing'] });
  });
  it('follows the method a project chose', () => {
    expect(segment('Step 1: a\n\nStep 2: b', 'paragraphs').method).toBe('paragraphs');
    expect(segment('a\nb\n\nc', 'paragraphs').steps).toEqual(['a\nb', 'c']);
  });
});

describe('splitting and merging carry a judgement over, and say what changed', () => {
  const judged: ResponseSteps = { version: 1, ratings: [1, 1, -1, null], firstError: 2, tags: { '2': ['calculation'] }, corrections: { '2': 'fix' } };
  it('split: the halves are unrated, later steps shift, the first error stays put and says so', () => {
    expect(splitStep(['ab cd', 'x'], 0, 2)).toEqual(['ab', 'cd', 'x']);
    expect(splitStep(['ab'], 0, 0)).toBeNull();
    const { steps, notices } = afterSplit(judged, 2, 2);
    expect(steps).toMatchObject({ version: 2, ratings: [1, 1, null, null, null], firstError: 2, tags: { '2': ['calculation'] } });
    expect(notices.join(' ')).toMatch(/Step 3 was rated −1; its two halves are unrated now/);
    expect(notices.join(' ')).toMatch(/first error/);
    const before = afterSplit(judged, 0, 2);
    expect(before.steps).toMatchObject({ ratings: [null, null, 1, -1, null], firstError: 3, tags: { '3': ['calculation'] }, corrections: { '3': 'fix' } });
  });
  it('merge: the worse rating stays and is named', () => {
    expect(mergeSteps(['a', 'b', 'c'], 1)).toEqual(['a', 'b\nc']);
    expect(mergeSteps(['a'], 0)).toBeNull();
    const { steps, notices } = afterMerge(judged, 1, 2);
    expect(steps).toMatchObject({ ratings: [1, -1, null], firstError: 1, tags: { '1': ['calculation'] } });
    expect(notices).toEqual(['Steps 2 and 3 were rated +1 and −1; the merged step keeps the worse, −1.']);
  });
});

describe('a split inside a fenced code block keeps both halves valid markdown', () => {
  const step = 'Compute it:\n```python\nx = 4 * 7\n    y = x - 5\nprint(y)\n```\nSo 23 are left.';
  it('closes the fence in the first half and reopens it, with the same info string, in the second', () => {
    const at = step.indexOf('y = x');
    const halves = splitStep([step], 0, at)!;
    expect(halves).toEqual(['Compute it:\n```python\nx = 4 * 7\n```', '```python\n    y = x - 5\nprint(y)\n```\nSo 23 are left.']);
  });
  it('uses the fence as opened (tildes, longer runs) and leaves a split outside fences as it was', () => {
    const tilde = '~~~~ js\nlet a = 1;\nlet b = 2;\n~~~~';
    expect(splitStep([tilde], 0, tilde.indexOf('let b'))).toEqual(['~~~~ js\nlet a = 1;\n~~~~', '~~~~ js\nlet b = 2;\n~~~~']);
    const after = step.indexOf('So 23');
    expect(splitStep([step], 0, after)).toEqual(['Compute it:\n```python\nx = 4 * 7\n    y = x - 5\nprint(y)\n```', 'So 23 are left.']);
  });
});

describe('a split on a closing fence', () => {
  it('ends the code block in the first half, with no empty block in the second', () => {
    const step = '```\na\nb\n```\nDone.';
    expect(splitStep([step], 0, step.indexOf('```\nDone'))).toEqual(['```\na\nb\n```', 'Done.']);
  });
});

describe('merging the halves of a split inside a code block', () => {
  it('gives the step back as it was, one code block', () => {
    const step = 'Compute it:\n```python\nx = 4 * 7\ny = x - 5\n```\nSo 23.';
    const halves = splitStep([step], 0, step.indexOf('y = x'))!;
    expect(mergeSteps(halves, 0)).toEqual([step]);
    // Two steps that are each a code block of the same fence become one step with one block; others keep theirs.
    expect(mergeSteps(['```js\na\n```', '```js\nb\n```'], 0)).toEqual(['```js\na\nb\n```']);
    expect(mergeSteps(['```js\na\n```', '```py\nb\n```'], 0)).toEqual(['```js\na\n```\n```py\nb\n```']);
    expect(mergeSteps(['a', 'b'], 0)).toEqual(['a\nb']);
  });
});
