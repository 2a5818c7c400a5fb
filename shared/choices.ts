// Pure helpers for preference choices: mapping screen sides to source order, and saying a label in words.
import type { Choice, Content, ContentPart, Strength } from './domain';

export type ScreenChoice = 'left' | 'right' | 'tie' | 'both_bad';

/** Maps what the annotator pressed (a screen side) to the stored, source-order choice. */
export function toSourceChoice(screen: ScreenChoice, order: number[]): Choice {
  if (screen === 'tie' || screen === 'both_bad') return screen;
  const index = screen === 'left' ? order[0] : order[1];
  return index === 0 ? 'A' : 'B';
}

/** Maps a stored, source-order choice back to the screen side it appears on for this order. */
export function toScreenChoice(choice: Choice, order: number[]): ScreenChoice {
  if (choice === 'tie' || choice === 'both_bad') return choice;
  const index = choice === 'A' ? 0 : 1;
  return order.indexOf(index) === 0 ? 'left' : 'right';
}

export const STRENGTH_WORDS: Record<Strength, string> = { 1: 'slightly better', 2: 'better', 3: 'much better' };

export function describeScreenChoice(screen: ScreenChoice, strength: Strength | null): string {
  if (screen === 'tie') return 'Tie';
  if (screen === 'both_bad') return 'Both bad';
  const side = screen === 'left' ? 'Left' : 'Right';
  return `${side} ${STRENGTH_WORDS[strength ?? 2]}`;
}

/** Rough token count for display: about one token per four characters of English, per word of code. */
export function approxTokens(text: string): number {
  if (!text) return 0;
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return Math.max(words, Math.round(text.length / 4));
}

/**
 * A message's content as text: a string as it is; typed parts as their text parts, with a placeholder
 * naming each other part ("[image]"), since the text is what people read and tokenizers take.
 */
export function messageText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  // A trajectory's assistant message that only calls tools has null content, or none.
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : `[${partName(part.type)}]`)).join('\n');
}

function partName(type: string): string {
  return type === 'image_url' ? 'image' : type || 'part';
}

export function contentText(content: Content): string {
  return typeof content === 'string' ? content : content.map((m) => messageText(m.content)).join('\n\n');
}
