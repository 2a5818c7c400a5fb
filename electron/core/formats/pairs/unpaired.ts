// TRL unpaired preference (what KTOTrainer reads): {"prompt", "completion", "label": bool}, standard
// (strings) or conversational (message lists). Import: an item with one response and the file's label as
// the `source` annotator's verdict (true → good, false → bad).
import type { ChatMessage, Content } from '../../../../shared/domain';
import { isMessageList, isNonEmptyString } from './pair';
import { RecordError, type ParsedRecord } from '../types';
import { check, contentSchema, externalIdOf, extraFields } from '../validate';
import { z } from 'zod';

const FIELDS = new Set(['prompt', 'completion', 'label', 'id']);
const schema = z.looseObject({ prompt: contentSchema, completion: contentSchema, label: z.boolean({ error: 'expected true or false' }) });

const isContent = (v: unknown): v is Content => isNonEmptyString(v) || isMessageList(v);

export function parseTrlUnpaired(record: Record<string, unknown>): ParsedRecord {
  const { prompt, completion, label } = record;
  if (!(isContent(prompt) && isContent(completion) && typeof label === 'boolean')) check(schema, record);
  if (typeof prompt === 'string' && Array.isArray(completion)) throw new RecordError('completion: a message list after a text prompt (a conversational line has message lists in both)');
  if (Array.isArray(prompt) && typeof completion === 'string') throw new RecordError('completion: text after a message-list prompt (a conversational line has message lists in both)');
  return {
    draft: {
      externalId: externalIdOf(record.id),
      prompt: prompt as string | ChatMessage[],
      responses: [{ content: completion as string | ChatMessage[], model: null, steps: null }],
      reference: null,
      metadata: extraFields(record, FIELDS),
    },
    preference: null,
    judgement: { task: 'verdict', choice: label ? 'good' : 'bad', body: {} },
  };
}
