// Shared types of the format modules: what a parser returns for one record, what an encoder gets for one pair.
import type { Choice, Content, ItemRecord, LabelBody, ResponseRecord, Strength, Task, Verdict } from '../../../shared/domain';
import type { ImportFormat } from '../../../shared/formatNames';
import type { Criterion } from '../../../shared/rubric';

import type { ItemDraft } from '../store/itemInsert';

/** One record of a dataset file turned into an item (and the file's own preference, if it carries one). */
export interface ParsedRecord {
  draft: ItemDraft;
  /**
   * 'A' when the file said which response is better. Parsers always store the preferred response first
   * (chosen = response 0, rejected = response 1), so the preference is always A; null when the file
   * carries no preference (Arbiter items).
   */
  preference: 'A' | null;
  /**
   * Any other judgement the file carried on the item (a chain's step ratings, a ranking, a verdict): it
   * becomes a revision of the `source` annotator, like the preference.
   */
  judgement?: SourceJudgement | null;
  /** More judgements of the file (ratings and a critique; several annotators' preferences). */
  judgements?: SourceJudgement[];
  /** The item's own criteria (a per-prompt rubric, the `rar` format): stored on a new item. */
  criteria?: Criterion[];
  /**
   * What tells this record's item apart beyond its content, when the same content can come twice as
   * different records (a PRM800K chain labeled in several sessions): mixed into the item's uid, so each
   * session is an item of its own while a re-import of the same file still adds nothing.
   */
  identity?: string;
}

/** A file's own judgement: a pairwise choice with a strength, a ranking, a verdict, steps, ratings, a critique. */
export interface SourceJudgement {
  task: Task;
  choice?: Choice | Verdict | null;
  strength?: Strength | null;
  ranking?: number[][] | null;
  body: LabelBody;
  /**
   * Who judged: an annotator of kind `source` by this name (HelpSteer3's individual annotators), so that
   * a file's disagreement is kept. Left out: the `source` annotator itself.
   */
  annotator?: string;
  /**
   * The rubric a ratings judgement is under (task 'rubric'): the importer saves it as the project rubric
   * `name` (its newest version when the criteria are the same) and writes the version into the label.
   * `inForce`: also put it in force where the project has none, so the people who go on labeling the
   * file's items rate on its axes (a VideoAlign CSV's VQ / MQ / TA / Overall winners).
   */
  rubric?: { name: string; criteria: Criterion[]; inForce?: boolean };
}

// RecordError lives in base/ (images/ throws it too, and stands below formats/).
export { RecordError } from '../base/errors';

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
  /** The two responses' rubric scores, where the formats that carry scores have them (ultrafeedback-binarized). */
  scores?: { chosen: number | null; rejected: number | null };
}

/**
 * The one shape every prompt of a text-format file has: plain text, or (as soon as one prompt is a
 * conversation) HH-style transcripts. A file never mixes the two: a trainer reads every line alike.
 * trl-unpaired goes from text to 'chat' (message lists) instead, TRL's conversational shape.
 */
export type PromptShape = 'text' | 'transcript' | 'chat';

/** Collects facts about an export that the summary note reports (conversions made on the way). */
export class ExportNotes {
  /** Chat prompts that were longer than one user message and were rendered as HH-style transcripts. */
  transcripts = 0;
  /** Single-turn prompts wrapped in a transcript because the file's prompts are transcripts. */
  wrapped = 0;
  /** String prompts that already were transcripts. */
  given = 0;
  /** Chat responses of more than one message that were flattened to text. */
  flattenedResponses = 0;
  /** Chat prompts ending with an assistant message, continued in place instead of opening a new turn. */
  continued = 0;
  /** openrlhf lines whose margin is 0 because no label that chose the winner recorded a strength. */
  zeroMargin = 0;
  readonly extra: string[] = [];

  constructor(
    /** The shape text formats give every prompt in this file (the exporter decides it). */
    readonly promptShape: PromptShape = 'text',
  ) {}

  text(format: string): string | null {
    const parts: string[] = [];
    if (this.promptShape === 'transcript') parts.push(this.transcriptNote());
    if (this.flattenedResponses) parts.push(`${this.flattenedResponses} multi-message response(s) were flattened to text`);
    if (this.continued) parts.push(`${this.continued} prompt(s) ending with an assistant message were continued in place`);
    if (this.zeroMargin && format === 'openrlhf')
      parts.push(`${this.zeroMargin} line(s) have "margin": 0 because no label recorded a strength (the file's own preference, or a choice saved without one); OpenRLHF trains those as plain Bradley–Terry pairs`);
    parts.push(...this.extra);
    return parts.length ? `${parts.join('; ')}.` : null;
  }

  private transcriptNote(): string {
    const conversations = this.transcripts + this.continued + this.given;
    const wrapped = this.wrapped ? `, and the ${this.wrapped} single-turn prompt(s) were wrapped as one human turn` : '';
    return (
      `Every prompt is an HH-style transcript ("\\n\\nHuman: …\\n\\nAssistant:"), one shape for the whole file: ${conversations} prompt(s) are conversations${wrapped}. ` +
      'A response after a new "\\n\\nAssistant:" starts with a space, as in HH-RLHF. To keep conversations as message lists and single prompts as plain text, export TRL conversational (trl-chat)'
    );
  }
}
