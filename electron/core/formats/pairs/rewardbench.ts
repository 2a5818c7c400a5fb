// RewardBench: {"prompt", "chosen", "chosen_model", "rejected", "rejected_model", "subset", "id"}.
// id → the item's external id, the models → the responses' models, subset → metadata.subset.
import { z } from 'zod';
import { isNonEmptyString, pairRecord } from './pair';
import { standardPair } from './trl';
import type { DecidedPair, ExportNotes, ParsedRecord } from '../types';
import { check, nonEmptyText } from '../validate';

const optionalText = z.string().nullable().optional();
const schema = z.looseObject({
  prompt: nonEmptyText,
  chosen: nonEmptyText,
  chosen_model: optionalText,
  rejected: nonEmptyText,
  rejected_model: optionalText,
  subset: optionalText,
  id: z.union([z.string(), z.number()]).nullable().optional(),
});

const isOptionalText = (v: unknown) => v === undefined || v === null || typeof v === 'string';

export function parseRewardbench(record: Record<string, unknown>): ParsedRecord {
  const { prompt, chosen, rejected, chosen_model, rejected_model, subset, id } = record;
  const fast =
    isNonEmptyString(prompt) &&
    isNonEmptyString(chosen) &&
    isNonEmptyString(rejected) &&
    isOptionalText(chosen_model) &&
    isOptionalText(rejected_model) &&
    isOptionalText(subset) &&
    (isOptionalText(id) || typeof id === 'number');
  if (!fast) check(schema, record);
  return pairRecord(record, prompt as string, chosen as string, rejected as string);
}

/** RewardBench ids are integers; an external id that is an integer's decimal text goes back out as a number. */
export function idValue(text: string): string | number {
  if (/^-?(0|[1-9]\d{0,15})$/.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
  }
  return text;
}

export function encodeRewardbench(pair: DecidedPair, notes: ExportNotes): unknown {
  const p = standardPair(pair, notes);
  const subset = pair.item.metadata.subset;
  return {
    prompt: p.prompt,
    chosen: p.chosen,
    chosen_model: pair.chosen.model,
    rejected: p.rejected,
    rejected_model: pair.rejected.model,
    subset: typeof subset === 'string' ? subset : null,
    id: idValue(pair.item.externalId ?? pair.item.uid),
  };
}
