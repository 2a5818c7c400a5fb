// Math-Shepherd: {"input": "<problem> Step 1: … ки\nStep 2: … ки", "label": "<problem> Step 1: … +\nStep 2: … -", "task": "GSM8K"}.
// In `input` every step ends with the tag "ки"; `label` is the same text with each tag replaced by "+"
// (a good step) or "-" (a bad one). Import: the problem (everything before "Step 1") is the prompt, the
// steps (without their tags) one response joined by "\n", every step rated +1 / −1 by the `source`
// annotator. The spacing around the tags is kept in the item's metadata when it is not the usual
// (" " after the problem, " ки" after a step, "\n" between steps), so the same file comes back out.
import { chainRecord } from './chain';
import { RecordError, type ParsedRecord } from '../types';
import { externalIdOf, extraFields } from '../validate';

export const STEP_TAG = 'ки';
const FIELDS = new Set(['input', 'label', 'id']);
/** Where the first step begins: its "Step 1" marker (the last one before the first tag). */
const STEP_ONE = /Step\s*1(?!\d)/g;

/** The usual spacing: after the problem, then before and after each step's tag. */
export function canonicalLayout(steps: number): string[] {
  const gaps = [' '];
  for (let i = 0; i < steps; i++) gaps.push(' ', i + 1 < steps ? '\n' : '');
  return gaps;
}

/** The text of a Math-Shepherd line: `tags[i]` ends step i ("ки" in input, "+" / "-" in label). */
export function layOut(problem: string, steps: readonly string[], tags: readonly string[], gaps: readonly string[]): string {
  let text = problem + gaps[0]!;
  steps.forEach((step, i) => (text += step + gaps[1 + 2 * i]! + tags[i]! + gaps[2 + 2 * i]!));
  return text;
}

export function parseMathShepherd(record: Record<string, unknown>): ParsedRecord {
  const { input, label } = record;
  for (const [field, value] of [['input', input], ['label', label]] as const) {
    if (typeof value !== 'string') throw new RecordError(`${field}: ${value === undefined ? 'missing' : `expected a string, got ${typeof value}`}`);
  }
  const text = input as string;
  const labels = label as string;
  const pieces = text.split(STEP_TAG);
  const n = pieces.length - 1;
  if (n === 0) throw new RecordError(`input: no "${STEP_TAG}" step tag`);
  const tail = pieces[n]!;
  if (tail.trim() !== '') throw new RecordError(`input: text after the last "${STEP_TAG}" tag`);
  // label is input with each tag replaced by + or -.
  const ratings: number[] = [];
  let at = 0;
  for (let k = 0; k < n; k++) {
    const piece = pieces[k]!;
    if (!labels.startsWith(piece, at)) throw new RecordError(`label: differs from input before step ${k + 1}'s tag (it must be input with each ${STEP_TAG} replaced by + or -)`);
    at += piece.length;
    const tag = labels[at];
    if (tag !== '+' && tag !== '-') throw new RecordError(`label: step ${k + 1} is tagged ${tag === undefined ? 'nothing' : JSON.stringify(tag)}, not + or -`);
    ratings.push(tag === '+' ? 1 : -1);
    at++;
  }
  if (labels.slice(at) !== tail) throw new RecordError('label: differs from input after the last tag');
  const first = pieces[0]!;
  let start = -1;
  for (const match of first.matchAll(STEP_ONE)) start = match.index;
  if (start < 0) throw new RecordError('input: no "Step 1" before the first tag, so the problem cannot be told from the first step');
  const problem = first.slice(0, start).replace(/\s+$/, '');
  if (problem.trim() === '') throw new RecordError('input: no problem before "Step 1"');
  const gaps = [first.slice(problem.length, start)];
  const steps: string[] = [];
  for (let k = 0; k < n; k++) {
    const raw = k === 0 ? first.slice(start) : pieces[k]!.slice(gaps[gaps.length - 1]!.length);
    const step = raw.replace(/\s+$/, '');
    if (step.trim() === '') throw new RecordError(`input: step ${k + 1} is empty`);
    steps.push(step);
    gaps.push(raw.slice(step.length));
    // Whitespace after the tag: the next piece's leading spaces (the tail after the last one).
    const next = k + 1 < n ? pieces[k + 1]! : tail;
    gaps.push(k + 1 < n ? /^\s*/.exec(next)![0] : tail);
  }
  const metadata = extraFields(record, FIELDS);
  const canonical = canonicalLayout(n);
  if (gaps.some((g, i) => g !== canonical[i])) metadata.math_shepherd_layout = gaps;
  return chainRecord({ externalId: externalIdOf(record.id), prompt: problem, steps, separator: '\n', model: null, reference: null, metadata, ratings });
}
