// Converting prompts and responses between the two shapes the formats use: plain text ("standard") and
// chat message lists ("conversational"). Text → chat wraps it in one message; chat → text keeps a single
// message's content and renders anything longer as an Anthropic HH-style transcript.
import { messageText } from '../../../shared/choices';
import type { ChatMessage, Content, ContentPart } from '../../../shared/domain';

export const HUMAN = '\n\nHuman:';
export const ASSISTANT = '\n\nAssistant:';

export function isMessages(content: Content): content is ChatMessage[] {
  return Array.isArray(content);
}

/** Text becomes one message of `role`; a message list is returned as it is. */
export function toChat(content: Content, role: 'user' | 'assistant'): ChatMessage[] {
  return typeof content === 'string' ? [{ role, content }] : content;
}

/**
 * A message's content as text for a text format: its text parts; an image is left out (an export with
 * images: 'drop', counted in its summary; without it such items are refused before this); other typed
 * parts are named as the app names them ("[audio]").
 */
export function partsText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return messageText(content.filter((part) => !(typeof part.type === 'string' && part.type.includes('image'))));
}

function roleLabel(role: string): string {
  if (role === 'user') return 'Human';
  if (role === 'assistant') return 'Assistant';
  return role.length ? role[0]!.toUpperCase() + role.slice(1) : 'Unknown';
}

/** "\n\nHuman: …\n\nAssistant: …" for each message in order. */
export function renderTurns(messages: readonly ChatMessage[]): string {
  let out = '';
  for (const m of messages) out += `\n\n${roleLabel(m.role)}: ${partsText(m.content)}`;
  return out;
}

/** True when a string prompt already is an HH transcript waiting for the assistant. */
export function isTranscriptPrompt(text: string): boolean {
  return text.startsWith(HUMAN) && text.endsWith(ASSISTANT);
}

export interface TextPrompt {
  text: string;
  /**
   * 'text': a string, or one user message's content. 'transcript': a conversation rendered as an HH-style
   * transcript ending with "\n\nAssistant:" (responses then start with a space, as in HH-RLHF).
   * 'continued': a conversation ending with an assistant message, rendered without a new marker.
   * 'wrapped': single-turn text put in a transcript ("\n\nHuman: text\n\nAssistant:"), so that it has the
   * shape of the file's other prompts (see transcriptPrompt).
   */
  mode: 'text' | 'transcript' | 'continued' | 'wrapped';
}

/**
 * A prompt as text: a string stays as it is; a single user message becomes its content; a longer
 * conversation becomes an HH-style transcript ending with "\n\nAssistant:" (or with the final assistant
 * message, when the conversation ends with one to be continued).
 */
export function promptText(prompt: Content): TextPrompt {
  if (typeof prompt === 'string') return { text: prompt, mode: 'text' };
  if (prompt.length === 1 && prompt[0]!.role === 'user') return { text: partsText(prompt[0]!.content), mode: 'text' };
  const last = prompt[prompt.length - 1];
  if (last && last.role === 'assistant') return { text: renderTurns(prompt), mode: 'continued' };
  return { text: renderTurns(prompt) + ASSISTANT, mode: 'transcript' };
}

/**
 * Whether a prompt is a transcript once it is text: a conversation, or a string that already is one. A
 * text-format file holding one such prompt holds nothing but transcripts (see transcriptPrompt).
 */
export function needsTranscript(prompt: Content): boolean {
  return typeof prompt === 'string' ? isTranscriptPrompt(prompt) : promptText(prompt).mode !== 'text';
}

/**
 * A prompt as an HH-style transcript, for files whose prompts must all have that shape: a conversation
 * as promptText renders it, a transcript string as it is, single-turn text wrapped in one human turn.
 */
export function transcriptPrompt(prompt: Content): TextPrompt {
  if (typeof prompt === 'string' && isTranscriptPrompt(prompt)) return { text: prompt, mode: 'text' };
  const rendered = promptText(prompt);
  if (rendered.mode !== 'text') return rendered;
  return { text: `${HUMAN} ${rendered.text}${ASSISTANT}`, mode: 'wrapped' };
}

/**
 * A response as text: a string stays; one message becomes its content; several messages become the
 * first one's content followed by the rest as transcript turns. After a transcript prompt the text
 * starts with a space, as in HH-RLHF ("\n\nAssistant: text").
 */
export function responseText(content: Content, afterTranscript: boolean): { text: string; flattened: boolean } {
  let text: string;
  let flattened = false;
  if (typeof content === 'string') text = content;
  else if (content.length === 1) text = partsText(content[0]!.content);
  else {
    text = partsText(content[0]!.content) + renderTurns(content.slice(1));
    flattened = true;
  }
  return { text: afterTranscript ? ` ${text}` : text, flattened };
}

/**
 * Parses an HH transcript prompt (everything up to and including the final "\n\nAssistant:") into chat
 * messages. Returns null when it does not start with "\n\nHuman:". Each turn's single leading space is
 * dropped, the way renderTurns adds it.
 */
export function parseTranscriptPrompt(prompt: string): ChatMessage[] | null {
  if (!prompt.startsWith(HUMAN) || !prompt.endsWith(ASSISTANT)) return null;
  const body = prompt.slice(0, prompt.length - ASSISTANT.length);
  const messages: ChatMessage[] = [];
  const marker = /\n\n(Human|Assistant):/g;
  let match: RegExpExecArray | null;
  let role: string | null = null;
  let start = 0;
  while ((match = marker.exec(body)) !== null) {
    if (role !== null) messages.push({ role, content: stripOneSpace(body.slice(start, match.index)) });
    role = match[1] === 'Human' ? 'user' : 'assistant';
    start = match.index + match[0].length;
  }
  if (role !== null) messages.push({ role, content: stripOneSpace(body.slice(start)) });
  return messages;
}

export function stripOneSpace(text: string): string {
  return text.charCodeAt(0) === 32 ? text.slice(1) : text;
}

/** One readable string for previews: text as it is, chat as "role: content" lines. */
export function displayText(content: Content): string {
  if (typeof content === 'string') return content;
  if (content.length === 1) return messageText(content[0]!.content);
  return content.map((m) => `${m.role}: ${messageText(m.content)}`).join('\n\n');
}

// holdsImages lives in shared/images.ts: the scorer asks it too, and the scorer stands below formats/.
export { holdsImages } from '../../../shared/images';
