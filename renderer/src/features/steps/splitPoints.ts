// Where a step can be split from the keyboard: before a word (← / →), or at the start of a sentence
// or a line (↑ / ↓). Both halves must keep some text, as the host's splitStep requires.

export interface SplitPoints {
  words: number[];
  sentences: number[];
}

export function splitPoints(text: string): SplitPoints {
  const words: number[] = [];
  const sentences: number[] = [];
  const lastText = text.trimEnd().length;
  for (let i = 1; i < lastText; i++) {
    if (!/\s/.test(text[i - 1]!) || /\s/.test(text[i]!)) continue;
    if (!text.slice(0, i).trim()) continue;
    words.push(i);
    const before = text.slice(0, i).trimEnd();
    if (text.slice(before.length, i).includes('\n') || /[.!?:;]["')\]]?$/.test(before)) sentences.push(i);
  }
  return { words, sentences };
}

/** Where the caret starts: the sentence start nearest the middle, else the word nearest it. */
export function initialPoint(text: string, points: SplitPoints): number | null {
  const list = points.sentences.length ? points.sentences : points.words;
  if (!list.length) return null;
  const middle = text.length / 2;
  return list.reduce((best, p) => (Math.abs(p - middle) < Math.abs(best - middle) ? p : best));
}

/** The next point after (1) or before (−1) `at` in a list, or `at` itself at either end. */
export function movePoint(list: number[], at: number, direction: 1 | -1): number {
  if (direction > 0) return list.find((p) => p > at) ?? at;
  return list.findLast((p) => p < at) ?? at;
}
