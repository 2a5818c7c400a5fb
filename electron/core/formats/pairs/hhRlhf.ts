// Anthropic HH-RLHF: {"chosen": "\n\nHuman: …\n\nAssistant: …", "rejected": "\n\nHuman: …\n\nAssistant: …"}.
// The prompt is the longest shared prefix that ends at the last "\n\nAssistant:" both share. A single
// human turn becomes a string prompt; a longer conversation becomes a chat message list ending with the
// human turn. The responses are the remainders without their single leading space.
import { z } from 'zod';
import { messageText } from '../../../../shared/choices';
import type { Content } from '../../../../shared/domain';
import { ASSISTANT, HUMAN, isTranscriptPrompt, parseTranscriptPrompt, renderTurns, responseText, stripOneSpace } from '../content';
import { isNonEmptyString, pairRecord } from './pair';
import { RecordError, type DecidedPair, type ExportNotes, type ParsedRecord } from '../types';
import { check, nonEmptyText } from '../validate';

const schema = z.looseObject({ chosen: nonEmptyText, rejected: nonEmptyText });

export interface HhSplit {
  /** The transcript up to and including the last shared "\n\nAssistant:". */
  transcript: string;
  chosen: string;
  rejected: string;
}

export function splitHh(chosen: string, rejected: string): HhSplit | null {
  const n = Math.min(chosen.length, rejected.length);
  let common = 0;
  while (common < n && chosen.charCodeAt(common) === rejected.charCodeAt(common)) common++;
  const from = common - ASSISTANT.length;
  if (from < 0) return null;
  const at = chosen.lastIndexOf(ASSISTANT, from);
  if (at < 0) return null;
  const end = at + ASSISTANT.length;
  return { transcript: chosen.slice(0, end), chosen: stripOneSpace(chosen.slice(end)), rejected: stripOneSpace(rejected.slice(end)) };
}

export function parseHhRlhf(record: Record<string, unknown>): ParsedRecord {
  const { chosen, rejected } = record;
  if (!(isNonEmptyString(chosen) && isNonEmptyString(rejected))) check(schema, record);
  const c = chosen as string;
  const r = rejected as string;
  if (!c.startsWith(HUMAN)) throw new RecordError('chosen: does not start with "\\n\\nHuman:"');
  if (!r.startsWith(HUMAN)) throw new RecordError('rejected: does not start with "\\n\\nHuman:"');
  const split = splitHh(c, r);
  if (!split) throw new RecordError('chosen, rejected: no shared "\\n\\nAssistant:" turn, so there is no prompt');
  if (!split.chosen.length) throw new RecordError('chosen: empty text after the last shared "\\n\\nAssistant:"');
  if (!split.rejected.length) throw new RecordError('rejected: empty text after the last shared "\\n\\nAssistant:"');
  const messages = parseTranscriptPrompt(split.transcript)!;
  const prompt: Content = messages.length === 1 && messages[0]!.role === 'user' ? messageText(messages[0]!.content) : messages;
  return pairRecord(record, prompt, split.chosen, split.rejected);
}

/** The prompt as an HH transcript ending with "\n\nAssistant:". */
export function hhPrompt(prompt: DecidedPair['prompt'], notes: ExportNotes): string {
  if (typeof prompt === 'string') return isTranscriptPrompt(prompt) ? prompt : `${HUMAN} ${prompt}${ASSISTANT}`;
  const last = prompt[prompt.length - 1];
  if (last && last.role === 'assistant') {
    // The conversation ends with an assistant message to be continued: render it without a new marker.
    notes.continued++;
    return renderTurns(prompt);
  }
  return renderTurns(prompt) + ASSISTANT;
}

export function encodeHhRlhf(pair: DecidedPair, notes: ExportNotes): unknown {
  const transcript = hhPrompt(pair.prompt, notes);
  const continued = !transcript.endsWith(ASSISTANT);
  // A string prompt that already was a transcript came with responses that carry their own space.
  const given = typeof pair.prompt === 'string' && transcript === pair.prompt;
  const text = (content: DecidedPair['chosen']['content']) => {
    const r = responseText(content, false);
    if (r.flattened) notes.flattenedResponses++;
    if (continued || (given && /^\s/.test(r.text))) return r.text;
    return ` ${r.text}`;
  };
  return { chosen: transcript + text(pair.chosen.content), rejected: transcript + text(pair.rejected.content) };
}
