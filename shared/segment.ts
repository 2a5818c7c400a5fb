// Splitting a response into the steps of a reasoning chain, when the file did not say where they are.
// Pure: the same text and method give the same steps on every machine. A step keeps its text exactly
// (markers and numbering included), so the steps put back together give the response again.
import { correctionText, SEVERITIES, type Severity, type StepCorrection, type ToolVerdict } from './stepJudgement';

export const SEGMENTATION_METHODS = ['auto', 'markers', 'numbered', 'paragraphs', 'lines'] as const;
export type SegmentationMethod = (typeof SEGMENTATION_METHODS)[number];

export interface Segmented {
  steps: string[];
  /** The method that made them ('auto' resolves to the first that finds two or more steps). */
  method: Exclude<SegmentationMethod, 'auto'> | 'whole';
}

const STEP_MARKER = /^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*)?Step[ \t]+\d+[ \t]*(?:\*\*)?[ \t]*[:.)-]/gim;
const NUMBERED = /^[ \t]*\d{1,3}[.)][ \t]+/gm;

/** Cuts `text` at the starts of the matches of `pattern` (a global, multiline regex); text before the first match joins the first step. */
function cutAt(text: string, pattern: RegExp): string[] {
  const starts: number[] = [];
  for (const match of text.matchAll(pattern)) starts.push(match.index);
  if (starts.length < 2) return [];
  const steps: string[] = [];
  for (let i = 0; i < starts.length; i++) {
    const from = i === 0 ? 0 : starts[i]!;
    const to = i + 1 < starts.length ? starts[i + 1]! : text.length;
    steps.push(text.slice(from, to));
  }
  return tidy(steps);
}

/** Trailing blank lines belong to no step; empty pieces are dropped. */
function tidy(pieces: string[]): string[] {
  return pieces.map((p) => p.replace(/\s+$/, '')).filter((p) => p.trim().length > 0);
}

function byParagraphs(text: string): string[] {
  const pieces = tidy(text.split(/\n[ \t]*\n+/));
  return pieces.length >= 2 ? pieces : [];
}

function byLines(text: string): string[] {
  const pieces = tidy(text.split('\n'));
  return pieces.length >= 2 ? pieces : [];
}

const METHODS: Record<Exclude<SegmentationMethod, 'auto'>, (text: string) => string[]> = {
  markers: (text) => cutAt(text, STEP_MARKER),
  numbered: (text) => cutAt(text, NUMBERED),
  paragraphs: byParagraphs,
  lines: byLines,
};

/**
 * The steps of a response. `auto` tries "Step N:" markers, then numbered lines, then paragraphs, then
 * lines; a text none of them splits is one step.
 */
export function segment(text: string, method: SegmentationMethod = 'auto'): Segmented {
  const order = method === 'auto' ? (['markers', 'numbered', 'paragraphs', 'lines'] as const) : [method];
  for (const m of order) {
    const steps = METHODS[m](text);
    if (steps.length >= 2) return { steps, method: m };
  }
  const whole = text.trim();
  return { steps: whole ? [whole] : [], method: 'whole' };
}

/**
 * The steps of a response as the step screen shows them, and so as a process model scores them: its
 * newest stored segmentation (the file's own steps, or an annotator's split or merge) when it has one,
 * else the cut of its text by the project's method.
 */
export function shownSteps(text: string, stored: readonly string[] | null | undefined, method: SegmentationMethod): string[] {
  return stored ? [...stored] : segment(text, method).steps;
}

/**
 * A short fingerprint of a list of steps (two FNV-1a hashes of its JSON), so a screen can tell whether
 * a model's step scores were made for the steps it shows. Not a security hash: it only tells cuts apart.
 */
export function stepsKey(steps: readonly string[]): string {
  const json = JSON.stringify(steps);
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ json.length;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The code fence (CommonMark: three or more backticks or tildes) still open at the end of `text`, as
 * its opening line, or null when none is.
 */
export function openFence(text: string): { marker: string; line: string } | null {
  let open: { marker: string; line: string } | null = null;
  for (const line of text.split('\n')) {
    const match = FENCE.exec(line);
    if (!match) continue;
    const run = match[1]!;
    if (!open) {
      // A backtick fence's info string holds no backtick (else it is inline code, not a fence).
      if (run[0] === '`' && match[2]!.includes('`')) continue;
      open = { marker: run, line: line.trimStart() };
    } else if (run[0] === open.marker[0] && run.length >= open.marker.length && !match[2]!.trim()) open = null;
  }
  return open;
}

/**
 * Splits step `index` at character `at` (both halves must keep some text). A split inside a fenced code
 * block closes the fence at the end of the first half and opens it again, with the same info string, at
 * the start of the second, so each half is still a code block; the second half keeps its indentation.
 */
export function splitStep(steps: readonly string[], index: number, at: number): string[] | null {
  const step = steps[index];
  if (step === undefined) return null;
  const fence = openFence(step.slice(0, at));
  let cut = at;
  if (fence) {
    const lineStart = step.lastIndexOf('\n', at - 1) + 1;
    if (!step.slice(lineStart, at).trim()) cut = lineStart;
  }
  let head = step.slice(0, cut).replace(/\s+$/, '');
  let tail = fence ? step.slice(cut).replace(/^\s*\n/, '') : step.slice(cut).replace(/^\s+/, '');
  if (!head.trim() || !tail.trim()) return null;
  if (fence) {
    const firstLine = tail.split('\n', 1)[0]!;
    const closes = FENCE.exec(firstLine);
    if (closes && closes[1]![0] === fence.marker[0] && closes[1]!.length >= fence.marker.length && !closes[2]!.trim()) {
      // Split on the closing fence itself: it ends the first half; the second half is what follows it.
      head = `${head}\n${firstLine.trim()}`;
      tail = tail.slice(firstLine.length).replace(/^\s+/, '');
      if (!tail.trim()) return null;
    } else {
      head = `${head}\n${fence.marker}`;
      tail = `${fence.line}\n${tail}`;
    }
  }
  return [...steps.slice(0, index), head, tail, ...steps.slice(index + 1)];
}

/**
 * Merges step `index` with the next one. Where the first ends by closing a code block and the next opens
 * one with the same fence and info string (what a split inside a code block leaves), the two fence lines
 * go, and the merged step has one code block again.
 */
export function mergeSteps(steps: readonly string[], index: number): string[] | null {
  if (index < 0 || index + 1 >= steps.length) return null;
  const first = steps[index]!;
  const next = steps[index + 1]!;
  const cut = first.lastIndexOf('\n');
  const closing = first.slice(cut + 1).trim();
  const open = cut > 0 ? openFence(first.slice(0, cut)) : null;
  const merged =
    open && closing === open.marker && next.startsWith(`${open.line}\n`) ? `${first.slice(0, cut)}\n${next.slice(open.line.length + 1)}` : `${first}\n${next}`;
  return [...steps.slice(0, index), merged, ...steps.slice(index + 2)];
}

export type StepRating = -1 | 0 | 1;

/** One response's step judgement as the step screen edits it. */
export interface ResponseSteps {
  /** The segmentation version the ratings refer to. */
  version: number;
  /** One per step: −1 / 0 / +1, or null (not rated; always null after the first error). */
  ratings: (StepRating | null)[];
  /** 0-based index of the first wrong step, −1 for "no error", null while not decided. */
  firstError: number | null;
  tags?: Record<string, string[]>;
  /** Per tagged step: how bad its error is. */
  severity?: Record<string, Severity>;
  /** Per step, per tool call id: the call's verdict. */
  toolVerdicts?: Record<string, Record<string, ToolVerdict>>;
  corrections?: Record<string, StepCorrection>;
}

/** Two corrections of steps now one: texts one after the other; tool calls one list. */
function joinCorrections(a: StepCorrection, b: StepCorrection): StepCorrection {
  if (typeof a !== 'string' && typeof b !== 'string') return { tool_calls: [...a.tool_calls, ...b.tool_calls] };
  return `${correctionText(a)}\n${correctionText(b)}`;
}
const worseSeverity = (a: Severity, b: Severity): Severity => (SEVERITIES.indexOf(a) >= SEVERITIES.indexOf(b) ? a : b);

/** What a split or merge did to a step judgement, in words, so nothing changes silently. */
export interface Remapped {
  steps: ResponseSteps;
  notices: string[];
}

const ratingWord = (r: StepRating | null) => (r === null ? 'unrated' : r > 0 ? '+1' : r < 0 ? '−1' : '0');

function shiftKeys<T>(record: Record<string, T> | undefined, map: (index: number) => number | null, merge: (a: T, b: T) => T): Record<string, T> | undefined {
  if (!record) return undefined;
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(record)) {
    const to = map(Number(key));
    if (to === null) continue;
    out[to] = out[to] === undefined ? value : merge(out[to]!, value);
  }
  return Object.keys(out).length ? out : undefined;
}

/** Carries a judgement over a split of step `index` (into two) to the new version. */
export function afterSplit(steps: ResponseSteps, index: number, version: number): Remapped {
  const notices: string[] = [];
  const ratings = [...steps.ratings.slice(0, index), null, null, ...steps.ratings.slice(index + 1)];
  const was = steps.ratings[index] ?? null;
  if (was !== null) notices.push(`Step ${index + 1} was rated ${ratingWord(was)}; its two halves are unrated now: rate each.`);
  let firstError = steps.firstError;
  if (firstError !== null && firstError > index) firstError++;
  else if (firstError === index) notices.push(`Step ${index + 1} was the first error; it is now on the first half (step ${index + 1}). Move it with f if the error is in the second half.`);
  const map = (i: number) => (i > index ? i + 1 : i);
  return {
    steps: {
      version,
      ratings,
      firstError,
      tags: shiftKeys(steps.tags, map, (a, b) => [...new Set([...a, ...b])]),
      severity: shiftKeys(steps.severity, map, worseSeverity),
      toolVerdicts: shiftKeys(steps.toolVerdicts, map, (a, b) => ({ ...a, ...b })),
      corrections: shiftKeys(steps.corrections, map, joinCorrections),
    },
    notices,
  };
}

/** Carries a judgement over a merge of step `index` with the next one: the worse rating stays, and says so. */
export function afterMerge(steps: ResponseSteps, index: number, version: number): Remapped {
  const notices: string[] = [];
  const a = steps.ratings[index] ?? null;
  const b = steps.ratings[index + 1] ?? null;
  const worse = a === null ? b : b === null ? a : (Math.min(a, b) as StepRating);
  if (a !== b && a !== null && b !== null) notices.push(`Steps ${index + 1} and ${index + 2} were rated ${ratingWord(a)} and ${ratingWord(b)}; the merged step keeps the worse, ${ratingWord(worse)}.`);
  const ratings = [...steps.ratings.slice(0, index), worse, ...steps.ratings.slice(index + 2)];
  let firstError = steps.firstError;
  if (firstError !== null && firstError > index) firstError--;
  const map = (i: number) => (i > index ? i - 1 : i);
  if (steps.corrections?.[index] !== undefined && steps.corrections?.[index + 1] !== undefined)
    notices.push(`Both steps had a correction; the merged step keeps both, one after the other.`);
  return {
    steps: {
      version,
      ratings,
      firstError,
      tags: shiftKeys(steps.tags, map, (x, y) => [...new Set([...x, ...y])]),
      severity: shiftKeys(steps.severity, map, worseSeverity),
      toolVerdicts: shiftKeys(steps.toolVerdicts, map, (x, y) => ({ ...x, ...y })),
      corrections: shiftKeys(steps.corrections, map, joinCorrections),
    },
    notices,
  };
}
