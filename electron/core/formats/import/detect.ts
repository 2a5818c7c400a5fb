// Telling the format of a file from its first records, with a one-line reason for the choice.
import type { ImportFormat } from '../../../../shared/formatNames';
import { readCutObject } from './cutJson';
import { detectionOrder } from '../registry';
import { RecordError } from '../types';
import { isPlainObject } from '../validate';

/** How many non-blank lines `auto` looks at before it decides. */
export const DETECT_RECORDS = 20;

interface Guess {
  format: ImportFormat | null;
  why: string;
}

function classify(record: unknown): Guess {
  if (!isPlainObject(record)) return { format: null, why: 'not a JSON object' };
  // Each format's rule, lowest rank first (../registry.ts): the specific before the general.
  for (const format of detectionOrder()) {
    const why = format.detect!.why(record);
    if (why) return { format: format.name as ImportFormat, why };
  }
  if ('item' in record && 'annotator' in record)
    return { format: null, why: 'records with "item" and "annotator" are labels, not items: labels are imported on the command line, with `arbiter labels import`' };
  const keys = Object.keys(record).slice(0, 8);
  return { format: null, why: `no known format has the fields ${keys.map((k) => `"${k}"`).join(', ') || '(none)'}` };
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
