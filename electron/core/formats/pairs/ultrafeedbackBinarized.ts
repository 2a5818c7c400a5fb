// UltraFeedback, binarized (HuggingFaceH4/ultrafeedback_binarized):
//   {"prompt", "prompt_id", "chosen": [msg], "rejected": [msg], "messages": [msg], "score_chosen", "score_rejected"}
// chosen and rejected are whole conversations (the user's prompt, then the answer); messages is chosen.
// Import: the messages both share are the prompt (the `prompt` text itself when that is all they share);
// what follows is each response (its text, when it is one assistant message); chosen is stored first and
// the file's preference is the `source` annotator's choice of it. prompt_id is the external id; the
// scores stay in metadata by response, the rest of the line in its place.
// Export: a decided pair (or one from rubric totals, with --from-ratings); a response's score is its
// rubric score where it was rated (../base/rubricTotals.ts rubricScore: the weighted mean on a shared Likert
// scale), else the file's own score for that response, else null. prompt_id, when the line has none, is
// the SHA-256 of the prompt, as the dataset makes it.
import { createHash } from 'node:crypto';
import type { ChatMessage, Content } from '../../../../shared/domain';
import { partsText, toChat } from '../content';
import { fill, keptRecord, skeleton } from '../recordSkeleton';
import { hasText, isMessageList } from './pair';
import { extractPromptMessages } from './trl';
import { RecordError, type DecidedPair, type ParsedRecord } from '../types';
import { check, externalIdOf, messagesSchema, nonEmptyText } from '../validate';
import { z } from 'zod';

type Json = Record<string, unknown>;

export const UFB_METADATA = 'ultrafeedback_binarized';
const schema = z.looseObject({ prompt: nonEmptyText, chosen: messagesSchema, rejected: messagesSchema });
const score = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A conversation's tail as a response: the text of a single assistant message, else the messages. */
function responseOf(messages: ChatMessage[]): Content {
  const only = messages.length === 1 ? messages[0]! : null;
  return only && only.role === 'assistant' && typeof only.content === 'string' && Object.keys(only).length === 2 ? only.content : messages;
}

export function parseUltrafeedbackBinarized(record: Json): ParsedRecord {
  const { prompt, chosen, rejected, messages } = record;
  if (!(typeof prompt === 'string' && prompt.length > 0 && isMessageList(chosen) && isMessageList(rejected))) check(schema, record);
  const split = extractPromptMessages(chosen as ChatMessage[], rejected as ChatMessage[]);
  if (!split.prompt.length) throw new RecordError('chosen, rejected: the first messages differ, so there is no prompt to extract');
  if (!hasText(split.chosen)) throw new RecordError('chosen: no answer after the prompt');
  if (!hasText(split.rejected)) throw new RecordError('rejected: no answer after the prompt');
  const first = split.prompt[0]!;
  const itemPrompt: Content = split.prompt.length === 1 && first.role === 'user' && first.content === prompt && Object.keys(first).length === 2 ? (prompt as string) : split.prompt;
  // messages is the chosen conversation in the dataset: a placeholder then, kept as it is otherwise.
  const sameMessages = JSON.stringify(messages) === JSON.stringify(chosen);
  const kept = skeleton(record, ['prompt', 'chosen', 'rejected', 'score_chosen', 'score_rejected', ...(sameMessages ? ['messages'] : [])]);
  return {
    draft: {
      externalId: externalIdOf(record.prompt_id, 'prompt_id'),
      prompt: itemPrompt,
      responses: [
        { content: responseOf(split.chosen), model: null, steps: null },
        { content: responseOf(split.rejected), model: null, steps: null },
      ],
      reference: null,
      metadata: { [UFB_METADATA]: kept, scores: [score(record.score_chosen), score(record.score_rejected)] },
    },
    preference: 'A',
  };
}

/** The prompt as the dataset's `prompt` text: a conversation's last user message. */
function promptString(prompt: Content): string {
  if (typeof prompt === 'string') return prompt;
  for (let i = prompt.length - 1; i >= 0; i--) if (prompt[i]!.role === 'user') return partsText(prompt[i]!.content);
  return partsText(prompt[prompt.length - 1]!.content);
}

export function encodeUltrafeedbackBinarized(pair: DecidedPair): unknown {
  const kept = keptRecord(pair.item, UFB_METADATA);
  const fileScores = Array.isArray(pair.item.metadata.scores) ? (pair.item.metadata.scores as unknown[]) : [];
  const prompt = promptString(pair.prompt);
  const conversation = toChat(pair.prompt, 'user');
  const chosen = [...conversation, ...toChat(pair.chosen.content, 'assistant')];
  const rejected = [...conversation, ...toChat(pair.rejected.content, 'assistant')];
  const scoreOf = (rubric: number | null | undefined, index: number) => rubric ?? score(fileScores[index]);
  return fill(kept, {
    prompt,
    prompt_id: typeof kept?.prompt_id === 'string' ? kept.prompt_id : createHash('sha256').update(prompt).digest('hex'),
    chosen,
    rejected,
    messages: kept && kept.messages !== null && kept.messages !== undefined ? kept.messages : chosen,
    score_chosen: scoreOf(pair.scores?.chosen, pair.chosen.index),
    score_rejected: scoreOf(pair.scores?.rejected, pair.rejected.index),
  });
}
