// Telling the format of a file from its first records, with a one-line reason for the choice.
import type { ImportFormat } from '../../../../shared/formatNames';
import { ASSISTANT, HUMAN } from '../content';
import { readCutObject } from './cutJson';
import { STEP_TAG } from '../process/mathShepherd';
import { classifyTrajectory } from '../trajectories/registry';
import { classifyVision } from '../vision/detect';
import { RecordError } from '../types';
import { isPlainObject } from '../validate';

/** How many non-blank lines `auto` looks at before it decides. */
export const DETECT_RECORDS = 20;

interface Guess {
  format: ImportFormat | null;
  why: string;
}

const isList = Array.isArray;

function classify(record: unknown): Guess {
  if (!isPlainObject(record)) return { format: null, why: 'not a JSON object' };
  if ('responses' in record) return { format: 'arbiter', why: 'a "responses" list' };
  // Agent trajectories: before the pairs, since a tool-calling pair has "chosen" and "rejected" too.
  const trajectoryGuess = classifyTrajectory(record);
  if (trajectoryGuess) return trajectoryGuess;
  // Vision benchmarks: before the pairs too (RLAIF-V's question / chosen / rejected is no TRL file).
  const visionGuess = classifyVision(record);
  if (visionGuess) return visionGuess;
  const ratingGuess = classifyRatings(record);
  if (ratingGuess) return ratingGuess;
  if ('chosen' in record && 'rejected' in record) {
    const { prompt, chosen } = record;
    if ('prompt' in record && (isList(record.images) || isPlainObject(record.image) || typeof record.image === 'string'))
      return { format: 'trl-vision', why: '"prompt", "chosen", "rejected" and an "images" list (TRL vision preference)' };
    if ('chosen_model' in record || 'rejected_model' in record || 'subset' in record)
      return { format: 'rewardbench', why: '"prompt", "chosen", "rejected" with "chosen_model"/"rejected_model"/"subset"' };
    if ('prompt' in record) {
      if (isList(prompt)) return { format: 'trl-chat', why: 'a message-list "prompt" with "chosen" and "rejected"' };
      return { format: 'trl', why: 'string "prompt", "chosen" and "rejected"' };
    }
    if (isList(chosen)) return { format: 'trl-chat-implicit', why: 'message-list "chosen" and "rejected" with no "prompt"' };
    if (typeof chosen === 'string' && chosen.startsWith(HUMAN) && chosen.includes(ASSISTANT))
      return { format: 'hh-rlhf', why: '"chosen"/"rejected" are "\\n\\nHuman: … \\n\\nAssistant: …" transcripts' };
    return { format: 'trl-implicit', why: 'string "chosen" and "rejected" with no "prompt"' };
  }
  const stepGuess = classifySteps(record);
  if (stepGuess) return stepGuess;
  if ('item' in record && 'annotator' in record)
    return { format: null, why: 'records with "item" and "annotator" are labels, not items: labels are imported on the command line, with `arbiter labels import`' };
  const keys = Object.keys(record).slice(0, 8);
  return { format: null, why: `no known format has the fields ${keys.map((k) => `"${k}"`).join(', ') || '(none)'}` };
}

/** The rating and rubric formats: each has fields of its own, which no other format has. */
function classifyRatings(record: Record<string, unknown>): Guess | null {
  const { instruction, completions, models, context, rubric, question } = record;
  if (typeof instruction === 'string' && (isList(completions) || isList(models)))
    return { format: 'ultrafeedback', why: '"instruction" with "completions" rated per aspect (UltraFeedback, raw)' };
  if ('chosen' in record && 'rejected' in record && isList(record.chosen) && ('score_chosen' in record || 'prompt_id' in record))
    return { format: 'ultrafeedback-binarized', why: '"prompt", "prompt_id", message-list "chosen"/"rejected" and "score_chosen" (UltraFeedback, binarized)' };
  if ('response_1' in record && 'response_2' in record && 'preference_strength' in record)
    return { format: 'helpsteer2-preference', why: '"response_1", "response_2" and "preference_strength" (HelpSteer2 preference)' };
  if ('prompt' in record && 'response' in record && 'helpfulness' in record && 'correctness' in record)
    return { format: 'helpsteer2', why: '"prompt", "response" and "helpfulness", "correctness"… (HelpSteer2 ratings rows)' };
  if (isList(context) && ('response1' in record || 'overall_preference' in record || 'individual_preference' in record))
    return { format: 'helpsteer3', why: '"context", "response1", "response2" and "overall_preference" (HelpSteer3 preference)' };
  if (typeof question === 'string' && isList(rubric))
    return { format: 'rar', why: '"question" with a "rubric" list of weighted criteria (Rubrics as Rewards)' };
  return null;
}

/** The process-supervision and unpaired formats: each has a field no pairwise format has. */
function classifySteps(record: Record<string, unknown>): Guess | null {
  const { question, label } = record;
  if (isPlainObject(question) && 'problem' in question && (isPlainObject(label) || 'labeler' in record))
    return { format: 'prm800k', why: 'a "question" with a "problem" and a "label" with rated "steps" (a PRM800K labeling session)' };
  if (typeof record.input === 'string' && typeof label === 'string' && record.input.includes(STEP_TAG))
    return { format: 'math-shepherd', why: `"input" with "${STEP_TAG}" step tags and a "label" tagging each step + or -` };
  if ('problem' in record && isList(record.steps) && (typeof label === 'number' || 'final_answer_correct' in record))
    return { format: 'processbench', why: '"problem", a "steps" list and a numeric "label" (the earliest wrong step, or -1)' };
  if (isList(record.completions) && isList(record.labels))
    return { format: 'trl-stepwise', why: '"prompt", a "completions" list and a "labels" list (TRL stepwise supervision)' };
  if ('completion' in record && typeof label === 'boolean')
    return { format: 'trl-unpaired', why: '"prompt", "completion" and a true/false "label" (TRL unpaired preference)' };
  return null;
}

/** Picks the format most of `records` look like; says which and why in one line. */
export function detectFormat(records: unknown[]): { format: ImportFormat | null; reason: string } {
  if (records.length === 0) return { format: null, reason: 'no records: the file is empty or blank' };
  const counts = new Map<ImportFormat, { n: number; why: string }>();
  let firstMiss: string | null = null;
  for (const record of records) {
    const guess = classify(record);
    if (!guess.format) {
      firstMiss ??= guess.why;
      continue;
    }
    const entry = counts.get(guess.format);
    if (entry) entry.n++;
    else counts.set(guess.format, { n: 1, why: guess.why });
  }
  let best: [ImportFormat, { n: number; why: string }] | null = null;
  for (const entry of counts) if (!best || entry[1].n > best[1].n) best = entry;
  if (!best) return { format: null, reason: `not a known format: ${firstMiss}` };
  const [format, { n, why }] = best;
  const others = [...counts].filter(([f]) => f !== format).map(([f, e]) => `${e.n} look like ${f}`);
  return {
    format,
    reason: `${format}: ${why} (${n} of ${records.length} record${records.length === 1 ? '' : 's'}${others.length ? `; ${others.join(', ')}` : ''})`,
  };
}

/** A line of a file's head: parsed as JSON, or why it is not a JSON object. */
export interface HeadLine {
  line: number;
  text: string;
  value: Record<string, unknown> | RecordError;
}

export interface LinesGuess {
  format: ImportFormat | null;
  reason: string;
  /** False when no line is a JSON object: the file is not JSON Lines at all (a CSV file, say). */
  jsonLines: boolean;
}

/** detectFormat over a file's first lines; says "not JSON Lines" when none of them is a JSON object. */
export function detectLines(lines: readonly HeadLine[]): LinesGuess {
  const records = lines.filter((l) => !(l.value instanceof RecordError)).map((l) => l.value);
  const first = lines[0];
  if (first && records.length === 0) return { format: null, reason: `not JSON Lines: line ${first.line} is not a JSON object (it begins "${opening(first.text)}")`, jsonLines: false };
  return { ...detectFormat(records), jsonLines: true };
}

/**
 * Detection from a line that was cut off before its end (longer than a preview reads): from the fields
 * before the cut. Of chosen and rejected, the one not reached yet is taken to come later, like the other.
 */
export function detectCutLine(line: { line: number; text: string }): LinesGuess {
  const prefix = readCutObject(line.text);
  if (!prefix) return detectLines([{ ...line, value: new RecordError('not a JSON object') }]);
  if ('chosen' in prefix && !('rejected' in prefix)) prefix.rejected = prefix.chosen;
  if ('rejected' in prefix && !('chosen' in prefix)) prefix.chosen = prefix.rejected;
  const guess = detectFormat([prefix]);
  const kib = Math.floor(line.text.length / 1024);
  const where = `line ${line.line} is longer than the ${kib} KiB the preview reads, so this is from its first fields; the import reads the whole line`;
  return { format: guess.format, reason: `${guess.reason.replace(/ \(1 of 1 record\)$/, '')} (${where})`, jsonLines: true };
}

function opening(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 40 ? `${flat.slice(0, 40)}…` : flat;
}
