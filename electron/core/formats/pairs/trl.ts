// TRL preference datasets, all four variants:
//   trl                {"prompt": str, "chosen": str, "rejected": str}
//   trl-implicit       {"chosen": str, "rejected": str}               (prompt = the shared prefix)
//   trl-chat           {"prompt": [msg], "chosen": [msg], "rejected": [msg]}
//   trl-chat-implicit  {"chosen": [msg], "rejected": [msg]}           (prompt = the shared messages)
// Implicit prompts are split exactly the way TRL's `extract_prompt` does, so that an exported
// implicit file (prompt + response concatenated) imports back to the same split and exports identically.
import type { ChatMessage } from '../../../../shared/domain';
import { canonicalJson } from '../../base/uid';
import { promptText, responseText, toChat, transcriptPrompt } from '../content';
import { hasText, isMessageList, isNonEmptyString, pairRecord } from './pair';
import { RecordError, type DecidedPair, type ExportNotes, type ParsedRecord } from '../types';
import { check, messagesSchema, nonEmptyText } from '../validate';
import { z } from 'zod';

const standardSchema = z.looseObject({ prompt: nonEmptyText, chosen: nonEmptyText, rejected: nonEmptyText });
const implicitSchema = z.looseObject({ chosen: nonEmptyText, rejected: nonEmptyText });
const chatSchema = z.looseObject({ prompt: messagesSchema, chosen: messagesSchema, rejected: messagesSchema });
const chatImplicitSchema = z.looseObject({ chosen: messagesSchema, rejected: messagesSchema });

// ---------------------------------------------------------------------------------------------------
// extract_prompt

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

export interface Split<T> {
  prompt: T;
  chosen: T;
  rejected: T;
}

/**
 * TRL's `extract_prompt` for strings: the character-wise common prefix; when the character before the
 * divergence is a space, the space goes to the responses. When one string is a prefix of the other, TRL's
 * loop ends on the shorter string's last character, and so does this. Characters are code points, as in
 * Python. One deliberate difference: TRL looks at `chosen[-1]` (the last character) when the strings
 * differ at the very first character, which can drop text; here nothing is shared then (empty prompt).
 */
export function extractPromptText(chosen: string, rejected: string): Split<string> {
  const n = Math.min(chosen.length, rejected.length);
  let i = 0;
  while (i < n && chosen.charCodeAt(i) === rejected.charCodeAt(i)) i++;
  let idx: number;
  if (i < n) {
    idx = i;
    // The strings differ inside a surrogate pair: the character starts one code unit earlier.
    if (idx > 0 && isHigh(chosen.charCodeAt(idx - 1))) idx--;
    if (idx > 0 && chosen.charCodeAt(idx - 1) === 32) idx--;
  } else if (n === 0) {
    idx = 0;
  } else {
    const shorter = chosen.length <= rejected.length ? chosen : rejected;
    idx = n >= 2 && isLow(shorter.charCodeAt(n - 1)) && isHigh(shorter.charCodeAt(n - 2)) ? n - 2 : n - 1;
  }
  return { prompt: chosen.slice(0, idx), chosen: chosen.slice(idx), rejected: rejected.slice(idx) };
}

function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  if (a.role !== b.role || a.content !== b.content) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length === 2 && kb.length === 2) return true;
  return canonicalJson(a) === canonicalJson(b);
}

/** TRL's `extract_prompt` for conversations: the element-wise common prefix of the two message lists. */
export function extractPromptMessages(chosen: ChatMessage[], rejected: ChatMessage[]): Split<ChatMessage[]> {
  const n = Math.min(chosen.length, rejected.length);
  let i = 0;
  while (i < n && sameMessage(chosen[i]!, rejected[i]!)) i++;
  const idx = i < n ? i : Math.max(0, n - 1);
  return { prompt: chosen.slice(0, idx), chosen: chosen.slice(idx), rejected: rejected.slice(idx) };
}

// ---------------------------------------------------------------------------------------------------
// import

export function parseTrl(record: Record<string, unknown>): ParsedRecord {
  const { prompt, chosen, rejected } = record;
  if (!(isNonEmptyString(prompt) && isNonEmptyString(chosen) && isNonEmptyString(rejected))) check(standardSchema, record);
  return pairRecord(record, prompt as string, chosen as string, rejected as string);
}

export function parseTrlImplicit(record: Record<string, unknown>): ParsedRecord {
  const { chosen, rejected } = record;
  if (!(isNonEmptyString(chosen) && isNonEmptyString(rejected))) check(implicitSchema, record);
  if ('prompt' in record) throw new RecordError('prompt: present, but an implicit-prompt file has none (read the file as trl, the explicit-prompt format)');
  const split = extractPromptText(chosen as string, rejected as string);
  if (!split.prompt.length) throw new RecordError('chosen, rejected: no common beginning, so there is no prompt to extract');
  return pairRecord(record, split.prompt, split.chosen, split.rejected);
}

export function parseTrlChat(record: Record<string, unknown>): ParsedRecord {
  const { prompt, chosen, rejected } = record;
  if (!(isMessageList(prompt) && isMessageList(chosen) && isMessageList(rejected))) check(chatSchema, record);
  return pairRecord(record, prompt as ChatMessage[], chosen as ChatMessage[], rejected as ChatMessage[]);
}

export function parseTrlChatImplicit(record: Record<string, unknown>): ParsedRecord {
  const { chosen, rejected } = record;
  if (!(isMessageList(chosen) && isMessageList(rejected))) check(chatImplicitSchema, record);
  if ('prompt' in record) throw new RecordError('prompt: present, but an implicit-prompt file has none (read the file as trl-chat, the explicit-prompt format)');
  const split = extractPromptMessages(chosen as ChatMessage[], rejected as ChatMessage[]);
  if (!split.prompt.length) throw new RecordError('chosen, rejected: the first messages differ, so there is no prompt to extract');
  if (!hasText(split.chosen)) throw new RecordError('chosen: empty text after the prompt');
  if (!hasText(split.rejected)) throw new RecordError('rejected: empty text after the prompt');
  return pairRecord(record, split.prompt, split.chosen, split.rejected);
}

// ---------------------------------------------------------------------------------------------------
// export

/**
 * A pair with text prompt and responses, in the file's prompt shape (notes.promptShape): plain text, or
 * every prompt an HH transcript. The exporter only asks for 'text' while no prompt needs a transcript.
 */
export function standardPair(pair: DecidedPair, notes: ExportNotes): { prompt: string; chosen: string; rejected: string } {
  const prompt = notes.promptShape === 'transcript' ? transcriptPrompt(pair.prompt) : promptText(pair.prompt);
  if (prompt.mode === 'transcript') notes.transcripts++;
  else if (prompt.mode === 'continued') notes.continued++;
  else if (prompt.mode === 'wrapped') notes.wrapped++;
  else if (notes.promptShape === 'transcript') notes.given++;
  // A new "\n\nAssistant:" turn is followed by a space (HH-RLHF's own spacing); a given transcript's
  // responses already carry theirs.
  const space = prompt.mode === 'transcript' || prompt.mode === 'wrapped';
  const chosen = responseText(pair.chosen.content, space);
  const rejected = responseText(pair.rejected.content, space);
  if (chosen.flattened) notes.flattenedResponses++;
  if (rejected.flattened) notes.flattenedResponses++;
  return { prompt: prompt.text, chosen: chosen.text, rejected: rejected.text };
}

export function encodeTrl(pair: DecidedPair, notes: ExportNotes): unknown {
  return standardPair(pair, notes);
}

export function encodeTrlImplicit(pair: DecidedPair, notes: ExportNotes): unknown {
  const p = standardPair(pair, notes);
  return { chosen: p.prompt + p.chosen, rejected: p.prompt + p.rejected };
}

export function encodeTrlChat(pair: DecidedPair): unknown {
  return {
    prompt: toChat(pair.prompt, 'user'),
    chosen: toChat(pair.chosen.content, 'assistant'),
    rejected: toChat(pair.rejected.content, 'assistant'),
  };
}

export function encodeTrlChatImplicit(pair: DecidedPair): unknown {
  const prompt = toChat(pair.prompt, 'user');
  return {
    chosen: [...prompt, ...toChat(pair.chosen.content, 'assistant')],
    rejected: [...prompt, ...toChat(pair.rejected.content, 'assistant')],
  };
}
