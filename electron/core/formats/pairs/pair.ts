// Building an item from one pairwise record (chosen + rejected), shared by the TRL, HH-RLHF and
// RewardBench parsers. The chosen response is stored first (A), the rejected second (B), and the file's
// preference becomes a label of the `source` annotator choosing A.
import type { ChatMessage, Content } from '../../../../shared/domain';
import { RecordError, type DecidedPair, type ExportNotes, type ParsedRecord } from '../types';
import { externalIdOf, extraFields } from '../validate';

/** One decided pair as the format's line (each pair format's descriptor hands the pair pass its own). */
export type PairEncoder = (pair: DecidedPair, notes: ExportNotes) => unknown;

export const PAIR_FIELDS = new Set(['prompt', 'chosen', 'rejected', 'id', 'chosen_model', 'rejected_model']);

function modelOf(record: Record<string, unknown>, field: 'chosen_model' | 'rejected_model'): string | null {
  const value = record[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new RecordError(`${field}: expected a string or null, got ${typeof value}`);
  return value.length ? value : null;
}

export function pairRecord(record: Record<string, unknown>, prompt: Content, chosen: Content, rejected: Content): ParsedRecord {
  return {
    draft: {
      externalId: externalIdOf(record.id),
      prompt,
      responses: [
        { content: chosen, model: modelOf(record, 'chosen_model'), steps: null },
        { content: rejected, model: modelOf(record, 'rejected_model'), steps: null },
      ],
      reference: null,
      metadata: extraFields(record, PAIR_FIELDS),
    },
    preference: 'A',
  };
}

/** Hot-path checks, so that valid records skip zod; zod runs only to word the error of a bad one. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

export function isMessageList(value: unknown): value is ChatMessage[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  let someText = false;
  for (const m of value) {
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return false;
    const { role, content } = m as { role?: unknown; content?: unknown };
    if (typeof role !== 'string' || role.length === 0 || typeof content !== 'string') return false;
    if (content.length) someText = true;
  }
  return someText;
}

/** A message list whose messages are all well-formed but may all be empty (a prompt prefix). */
export function hasText(content: Content): boolean {
  if (typeof content === 'string') return content.length > 0;
  return content.some((m) => m.content.length > 0);
}
