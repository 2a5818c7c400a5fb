// Whether a list of steps is a cut of a response's text: what a stored segmentation must be wherever it
// comes from (Arbiter's rule, a split or a merge here, a teammate's cut pulled from the hub). The rule of
// shared/segment.ts: a step keeps its text exactly, so the steps put back together give the response
// again, up to the whitespace a cut trims at its edges, and up to the fence lines a split inside a code
// block adds (segment.ts splitStep closes the block at the end of the first half and opens it again at
// the start of the second: backticks or tildes, and a copy of the opening line, or of its start where
// the split fell inside it) and a merge takes out again. Never stricter than the app: every cut its rule,
// its splits and its merges make passes (test/unit/cuts.test.ts draws them); the hub's own check (hub
// migration 0003 cut_problem) says the same.

const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : typeof value === 'string' ? 'a text' : `a ${typeof value}`);

const letters = (text: string): string => text.replace(/\s+/g, '');

/** A text's letters: no whitespace, and no backticks or tildes (what fence lines are made of). */
const bare = (text: string): string => text.replace(/[\s`~]+/g, '');

const FENCE_LINE = /^ {0,3}(?:`{3,}|~{3,})([^\n]*)$/gm;

/** The info strings ("py") of a text's fence lines, as letters. */
function fenceWords(text: string): string[] {
  const words = new Set<string>();
  for (const match of text.matchAll(FENCE_LINE)) {
    const word = bare(match[1]!);
    if (word) words.add(word);
  }
  return [...words];
}

/** The fence words a split may copy: the text's own, and the steps' that begin one of the text's; longest first. */
function splitFenceWords(text: string, joined: string): string[] {
  const whole = fenceWords(text);
  return [...new Set([...whole, ...fenceWords(joined)])].filter((w) => whole.some((x) => x.startsWith(w))).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** A text's letters without the fence words (taken out until none is left: taking one out can join the pieces of another). */
function unfenced(text: string, words: readonly string[]): string {
  let letters = bare(text);
  for (;;) {
    const before = letters;
    for (const w of words) letters = letters.split(w).join('');
    if (letters === before) return letters;
  }
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
  const texts = steps as string[];
  if (letters(texts.join('')) === letters(text)) return null;
  const joined = texts.join('\n');
  const words = splitFenceWords(text, joined);
  if (unfenced(joined, words) === unfenced(text, words)) return null;
  return "the steps put together are not the response's text";
}
