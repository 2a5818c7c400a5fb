// Whether a list of steps is a cut of a response's text: what a stored segmentation must be wherever it
// comes from (Arbiter's rule, a split or a merge here, a teammate's cut pulled from the hub). The rule of
// shared/segment.ts: a step keeps its text exactly, so the steps put back together give the response
// again, up to the whitespace a cut trims at its edges; a split inside a code block closes the block at
// the end of the first half and opens it again at the start of the second (segment.ts splitStep), lines
// that putting the halves back together (mergeSteps) takes out again.
import { mergeSteps } from './segment';

const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : typeof value === 'string' ? 'a text' : `a ${typeof value}`);

const letters = (text: string): string => text.replace(/\s+/g, '');

/** The steps put back together as mergeSteps does, the fence lines a split added inside a code block taken out. */
function mergedBack(steps: readonly string[]): string {
  const fenced = steps.map((step, i) => i + 1 < steps.length && mergeSteps([step, steps[i + 1]!], 0)![0] !== `${step}\n${steps[i + 1]}`);
  return steps
    .map((step, i) => {
      let text = step;
      if (fenced[i]) text = text.slice(0, text.lastIndexOf('\n'));
      if (i > 0 && fenced[i - 1]) text = text.slice(text.indexOf('\n') + 1);
      return text;
    })
    .join('');
}

/**
 * Why `steps` is not a cut of `text` (a sentence without its subject, such as "step 2 is a number, not a
 * text"), or null when it is one: a non-empty list of texts, none of them blank, that put back
 * together give the response's text (whitespace aside).
 */
export function cutProblem(text: string, steps: unknown): string | null {
  if (!Array.isArray(steps)) return `the steps are ${kindOf(steps)}, not a list of texts`;
  if (steps.length === 0) return 'the steps are an empty list';
  for (let i = 0; i < steps.length; i++) {
    const step: unknown = steps[i];
    if (typeof step !== 'string') return `step ${i + 1} is ${kindOf(step)}, not a text`;
    if (!step.trim()) return `step ${i + 1} is blank`;
  }
  const want = letters(text);
  const texts = steps as string[];
  if (letters(texts.join('')) === want || letters(mergedBack(texts)) === want) return null;
  return "the steps put together are not the response's text";
}
