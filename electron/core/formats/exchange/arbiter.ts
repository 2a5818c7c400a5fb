// Arbiter's own item format (lossless):
// {"id":"q-17","prompt":"…" | [msg],"responses":[{"text":"…" | [msg],"model":"m1","steps":["…"]}, …],"reference":"…","metadata":{…}}
import { z } from 'zod';
import type { Content, ItemRecord } from '../../../../shared/domain';
import { isMessageList, isNonEmptyString } from '../pairs/pair';
import { RecordError, type ParsedRecord } from '../types';
import { check, contentSchema, externalIdOf, hasOwn, isPlainObject, messagesSchema, nonEmptyText, setOwn } from '../validate';
import { isTrajectoryMessages } from '../trajectories/common';

const responseSchema = z
  .looseObject({
    // Optional when the response is given by its steps alone: its text is then the steps joined.
    // A trajectory's messages too (an assistant message that only calls tools has null content or none).
    text: z.union([nonEmptyText, messagesSchema, z.custom<Content>(isTrajectoryMessages)]).optional(),
    model: z.string().nullable().optional(),
    steps: z.array(z.string()).nullable().optional(),
  })
  .refine((r) => r.text !== undefined || (Array.isArray(r.steps) && r.steps.length > 0), { message: 'missing (give the response as text, or as a non-empty list of "steps")', path: ['text'] });

/** How a response given only by its steps gets its text: one paragraph a step, as the "auto" segmentation cuts it again. */
export const STEPS_JOINER = '\n\n';

const itemSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).nullable().optional(),
  prompt: contentSchema,
  // One response: a verdict (unpaired data) or a chain to rate step by step; two: a pair; more: a ranking.
  responses: z.array(responseSchema).min(1, 'no responses'),
  reference: z.string().nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

const KNOWN = new Set(['id', 'prompt', 'responses', 'reference', 'metadata']);

const isContent = (v: unknown): v is Content => isNonEmptyString(v) || isMessageList(v) || isTrajectoryMessages(v);

function fastValid(record: Record<string, unknown>): boolean {
  const { id, prompt, responses, reference, metadata } = record;
  if (!(id === undefined || id === null || typeof id === 'string' || typeof id === 'number')) return false;
  if (!isContent(prompt)) return false;
  if (!Array.isArray(responses) || responses.length < 1) return false;
  for (const r of responses) {
    if (!isPlainObject(r) || !(isContent(r.text) || (r.text === undefined && Array.isArray(r.steps) && r.steps.length > 0))) return false;
    if (!(r.model === undefined || r.model === null || typeof r.model === 'string')) return false;
    if (!(r.steps === undefined || r.steps === null || (Array.isArray(r.steps) && r.steps.every((s) => typeof s === 'string')))) return false;
  }
  if (!(reference === undefined || reference === null || typeof reference === 'string')) return false;
  return metadata === undefined || metadata === null || isPlainObject(metadata);
}

export function parseArbiter(record: Record<string, unknown>): ParsedRecord {
  if (!fastValid(record)) check(itemSchema, record);
  const responses = record.responses as Record<string, unknown>[];
  // Spread copies "__proto__" as an own key; setOwn keeps it so, and hasOwn does not see "toString" in every object.
  const metadata = { ...((record.metadata as Record<string, unknown> | null | undefined) ?? {}) };
  // Unknown top-level fields are kept in metadata rather than dropped.
  for (const key of Object.keys(record)) if (!KNOWN.has(key) && !hasOwn(metadata, key)) setOwn(metadata, key, record[key]);
  const steps = (r: Record<string, unknown>, i: number) => {
    const s = r.steps as string[] | null | undefined;
    if (s && s.length === 0) throw new RecordError(`responses[${i}].steps: empty list (leave it out instead)`);
    return s ?? null;
  };
  return {
    draft: {
      externalId: externalIdOf(record.id),
      prompt: record.prompt as Content,
      responses: responses.map((r, i) => {
        const given = steps(r, i);
        const content = r.text === undefined ? given!.join(STEPS_JOINER) : (r.text as Content);
        return { content, model: (r.model as string | null | undefined) || null, steps: given };
      }),
      reference: (record.reference as string | null | undefined) ?? null,
      metadata,
    },
    preference: null,
  };
}

export function encodeArbiter(item: ItemRecord): unknown {
  const out: Record<string, unknown> = {};
  if (item.externalId !== null) out.id = item.externalId;
  out.prompt = item.prompt;
  out.responses = item.responses.map((r) => {
    const response: Record<string, unknown> = { text: r.content };
    if (r.model !== null) response.model = r.model;
    if (r.steps !== null) response.steps = r.steps;
    return response;
  });
  if (item.reference !== null) out.reference = item.reference;
  if (Object.keys(item.metadata).length) out.metadata = item.metadata;
  return out;
}
