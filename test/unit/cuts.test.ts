// The rule a stored cut must pass (shared/cuts.ts): what Arbiter's own rule, a split and a merge make
// passes; steps that are not texts, or that say something the response does not, fail.
import { describe, expect, it } from 'vitest';
import { cutProblem } from '../../shared/cuts';
import { mergeSteps, segment, splitStep } from '../../shared/segment';
import { seededRng } from '../helpers/seeded';

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

  it('passes every cut drawn from texts with code blocks, cut by every method and split or merged up to 4 times; refuses each altered', () => {
    for (const seed of [Number(process.env.FUZZ_SEED ?? 20261128), 1, 2, 3, 77, 4242]) {
      const rng = seededRng(seed);
      const words = ['Take', '3.', 'x', '=', 'y', 'So', '6.', 'Done.', 'é', 'δ', '\u00a0', '\t'];
      const fence = () => rng.pick(['```', '~~~', '````']);
      const piece = () => {
        const kind = rng.int(5);
        const text = Array.from({ length: 1 + rng.int(6) }, () => rng.pick(words)).join(rng.pick([' ', ' ', '  ', '\u00a0']));
        if (kind === 0) return `${1 + rng.int(9)}. ${text}`;
        if (kind === 1) return `Step ${1 + rng.int(9)}: ${text}`;
        if (kind === 2) return `${fence()}${rng.pick(['', 'py', 'js x'])}\n${text}\n${text}\n${fence()}`;
        return text;
      };
      for (let c = 0; c < 300; c++) {
        const text = Array.from({ length: 1 + rng.int(6) }, piece).join(rng.pick(['\n', '\n\n', '\n \n']));
        let steps = segment(text, rng.pick(['auto', 'markers', 'numbered', 'paragraphs', 'lines'] as const)).steps;
        if (steps.length === 0) continue;
        for (let k = rng.int(5); k > 0; k--) {
          const i = rng.int(steps.length);
          const next = rng.chance(0.6) ? splitStep(steps, i, 1 + rng.int(Math.max(1, steps[i]!.length - 1))) : mergeSteps(steps, i);
          if (next) steps = next;
        }
        const where = `seed ${seed}, case ${c}: ${JSON.stringify({ text, steps })}`;
        expect(cutProblem(text, steps), where).toBeNull();
        const altered = [...steps];
        const i = rng.int(altered.length);
        altered[i] = rng.chance(0.5) ? `Step 0: ${altered[i]}` : `${altered[i]} seven`;
        expect(cutProblem(text, altered), `${where} altered ${JSON.stringify(altered)}`).not.toBeNull();
      }
    }
  });
});
