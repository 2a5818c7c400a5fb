// Word-level differences between the two responses, found by jsdiff. The result is plain text
// segments per side: the view renders them as React text nodes, so model text never becomes HTML.
import { diffArrays, diffWordsWithSpace } from 'diff';

export interface Segment {
  text: string;
  /** Only on this side: the other response does not have these words here. */
  only: boolean;
}

export interface WordDiff {
  left: Segment[];
  right: Segment[];
  /** Words found only on each side. */
  onlyLeft: number;
  onlyRight: number;
}

/**
 * jsdiff's word diff costs about (words × changes): fine for a sentence, a blocking pause for two long
 * responses that differ all through. So the texts are first lined up sentence by sentence (and line by
 * line, for code), and only sentences that changed are diffed word by word, each within a small budget.
 */
const SENTENCES_BUDGET_MS = 150;
const WORDS_BUDGET_MS = 40;

/**
 * Sentences and lines, each with the spacing after it: joined, they give back the text exactly. A quoted
 * key's colon (`"path": …`, a tool call's JSON arguments) ends no sentence: each argument stays one line.
 */
const chunks = (text: string) => text.split(/(?<=(?:[.!?;]|(?<!["']):)[\])"'*_]*)(?=\s)|(?<=\n)(?=[^\n])/);

const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;
const isSpace = (text: string) => !/\S/.test(text);

function append(list: Segment[], text: string, only: boolean): void {
  if (!text) return;
  const last = list[list.length - 1];
  if (last && last.only === only) last.text += text;
  else list.push({ text, only });
}

/**
 * One mark per changed phrase, not one per word: a space between two marked words joins them, and a
 * mark neither starts nor ends with a space. A change of spacing alone has nothing to mark.
 */
function tidy(pieces: Segment[]): Segment[] {
  const joined: Segment[] = [];
  pieces.forEach((piece, i) => {
    const only = piece.only && !isSpace(piece.text);
    const gap = !only && isSpace(piece.text) && joined[joined.length - 1]?.only === true && pieces[i + 1]?.only === true;
    append(joined, piece.text, only || gap);
  });
  const tidied: Segment[] = [];
  for (const s of joined) {
    if (!s.only) {
      append(tidied, s.text, false);
      continue;
    }
    const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(s.text) ?? [];
    append(tidied, lead, false);
    append(tidied, core, true);
    append(tidied, trail, false);
  }
  return tidied;
}

/** Word by word between a changed run of sentences on each side; past its budget the runs are marked whole. */
function diffRun(left: string, right: string, pieces: { left: Segment[]; right: Segment[] }): { left: number; right: number } {
  const changes = left && right ? diffWordsWithSpace(left, right, { timeout: WORDS_BUDGET_MS }) : undefined;
  if (!changes) {
    pieces.left.push({ text: left, only: true });
    pieces.right.push({ text: right, only: true });
    return { left: countWords(left), right: countWords(right) };
  }
  const counts = { left: 0, right: 0 };
  for (const change of changes) {
    if (change.removed) counts.left += countWords(change.value);
    if (change.added) counts.right += countWords(change.value);
    if (!change.added) pieces.left.push({ text: change.value, only: change.removed });
    if (!change.removed) pieces.right.push({ text: change.value, only: change.added });
  }
  return counts;
}

/**
 * Splits both texts into what they share and what only one side has. Spaces count as text too, so
 * each side's segments join up to exactly its own text. Null when even the sentences take too long.
 */
export function wordDiff(left: string, right: string): WordDiff | null {
  const runs = diffArrays(chunks(left), chunks(right), { timeout: SENTENCES_BUDGET_MS });
  if (!runs) return null;
  const pieces = { left: [] as Segment[], right: [] as Segment[] };
  let onlyLeft = 0;
  let onlyRight = 0;
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    const text = run.value.join('');
    if (!run.added && !run.removed) {
      pieces.left.push({ text, only: false });
      pieces.right.push({ text, only: false });
      continue;
    }
    // A removed run next to an added one is the same place rewritten: diff it word by word. Runs of as
    // many lines (or sentences) each are diffed line against line, so two arguments that swapped places
    // (`"from": "alice",` / `"to": "bob",`) are marked on both lines, not matched across them.
    const next = runs[i + 1];
    const paired = next && (next.added || next.removed) && next.added !== run.added;
    if (paired) i++;
    const mine = paired && next.value.length === run.value.length ? run.value : [text];
    const theirs = paired ? (mine.length > 1 ? next.value : [next.value.join('')]) : [''];
    mine.forEach((chunk, k) => {
      const counts = run.removed ? diffRun(chunk, theirs[k]!, pieces) : diffRun(theirs[k]!, chunk, pieces);
      onlyLeft += counts.left;
      onlyRight += counts.right;
    });
  }
  return { left: tidy(pieces.left), right: tidy(pieces.right), onlyLeft, onlyRight };
}
