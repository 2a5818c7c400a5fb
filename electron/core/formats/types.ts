// Shared types of the format modules: what a parser returns for one record, what an encoder gets for one pair.
import type { Content, ItemRecord, ResponseRecord } from '../../../shared/domain';
import type { ImportFormat } from '../../../shared/formatNames';

import type { ItemDraft } from '../store/items';

/** One record of a dataset file turned into an item (and the file's own preference, if it carries one). */
export interface ParsedRecord {
  draft: ItemDraft;
  /**
   * 'A' when the file said which response is better. Parsers always store the preferred response first
   * (chosen = response 0, rejected = response 1), so the preference is always A; null when the file
   * carries no preference (Arbiter items).
   */
  preference: 'A' | null;
}

/** A record that cannot be imported: the message names the field and what is wrong with it. */
export class RecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordError';
  }
}

export type RecordParser = (record: Record<string, unknown>) => ParsedRecord;

export interface ImportCodec {
  name: ImportFormat;
  parse: RecordParser;
}

/** An item that the resolution step decided: the preferred response and the other one. */
export interface DecidedPair {
  item: ItemRecord;
  prompt: Content;
  chosen: ResponseRecord;
  rejected: ResponseRecord;
  /** Mean strength of the labels that chose the winner; null when none recorded a strength. */
  margin: number | null;
}

/** Collects facts about an export that the summary note reports (conversions made on the way). */
export class ExportNotes {
  /** Chat prompts that were longer than one user message and were rendered as HH-style transcripts. */
  transcripts = 0;
  /** Chat responses of more than one message that were flattened to text. */
  flattenedResponses = 0;
  /** Chat prompts ending with an assistant message, continued in place instead of opening a new turn. */
  continued = 0;
  /** Lines written without a margin (openrlhf) because no label recorded a strength. */
  noMargin = 0;
  readonly extra: string[] = [];

  text(format: string): string | null {
    const parts: string[] = [];
    if (this.transcripts)
      parts.push(
        `${this.transcripts} chat prompt(s) longer than one user message were rendered as HH-style transcripts ("\\n\\nHuman: …\\n\\nAssistant: …" ending with "\\n\\nAssistant:"), and their responses prefixed with a space`,
      );
    if (this.flattenedResponses) parts.push(`${this.flattenedResponses} multi-message response(s) were flattened to text`);
    if (this.continued) parts.push(`${this.continued} prompt(s) ending with an assistant message were continued in place`);
    if (this.noMargin && format === 'openrlhf') parts.push(`${this.noMargin} line(s) have no "margin" because no label recorded a strength`);
    parts.push(...this.extra);
    return parts.length ? `${parts.join('; ')}.` : null;
  }
}
