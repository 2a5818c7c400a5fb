// Telling the format of a file from its first records, with a one-line reason for the choice.
import type { ImportFormat } from '../../../shared/formatNames';
import { ASSISTANT, HUMAN } from './content';
import { isPlainObject } from './validate';

interface Guess {
  format: ImportFormat | null;
  why: string;
}

const isList = Array.isArray;

function classify(record: unknown): Guess {
  if (!isPlainObject(record)) return { format: null, why: 'not a JSON object' };
  if ('responses' in record) return { format: 'arbiter', why: 'a "responses" list' };
  if ('chosen' in record && 'rejected' in record) {
    const { prompt, chosen } = record;
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
  if ('item' in record && 'annotator' in record)
    return { format: null, why: 'records with "item" and "annotator" are labels: use `arbiter labels import`' };
  const keys = Object.keys(record).slice(0, 8);
  return { format: null, why: `no known format has the fields ${keys.map((k) => `"${k}"`).join(', ') || '(none)'}` };
}

/** Picks the format most of `records` look like; says which and why in one line. */
export function detectFormat(records: unknown[]): { format: ImportFormat | null; reason: string } {
  if (records.length === 0) return { format: null, reason: 'no records to look at' };
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
