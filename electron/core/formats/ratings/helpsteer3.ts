// HelpSteer3 preference (nvidia/HelpSteer3, config "preference"):
//   {"domain", "language", "context": [msg], "response1", "response2", "overall_preference" (−3…+3, negative:
//    response 1 is better), "individual_preference": [{"score", "reasoning", "feedback1", "feedback2"}]}
// Import: context → the prompt (a conversation), response1 / response2 → A / B. overall_preference is the
// `source` annotator's pairwise label (strength |s|, 0 a tie). Each individual_preference is a label of
// its own annotator, `helpsteer3-annotator-<n>` (kind source), so the disagreement is kept: its score the
// choice and strength, its reasoning the rationale, feedback1 / feedback2 that annotator's critiques of
// response 1 / 2. The rest (domain, language, an entry's other fields) stays in metadata in its place.
// Export: overall_preference from the deciding label, and every annotator's current preference as an
// individual_preference entry (HelpSteer3's annotators first, in their order, then people by name).
import { contentText } from '../../../../shared/choices';
import type { ChatMessage, ItemRecord } from '../../../../shared/domain';
import { fill, keptRecord, skeleton } from '../recordSkeleton';
import { isMessageList } from '../pairs/pair';
import { critiqueJudgement, signedPreference, wholeNumber } from './ratingJudgements';
import { RecordError, type ParsedRecord, type SourceJudgement } from '../types';
import { check, isPlainObject, messagesSchema } from '../validate';
import { z } from 'zod';

type Json = Record<string, unknown>;

export const HS3_METADATA = 'helpsteer3';
export const HS3_ANNOTATOR = 'helpsteer3-annotator-';
const ENTRY_STORED = ['score', 'reasoning', 'feedback1', 'feedback2'];
const contextSchema = z.looseObject({ context: messagesSchema });

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

function responseText(record: Json, field: string): string {
  const value = record[field];
  if (typeof value === 'string' && value.length > 0) return value;
  throw new RecordError(`${field}: ${value === undefined ? 'missing' : typeof value === 'string' ? 'empty text' : `expected a string, got ${describe(value)}`}`);
}

function score(value: unknown, where: string): number {
  const n = wholeNumber(value, -3, 3);
  if (typeof n === 'string') throw new RecordError(`${where}: ${n}`);
  return n;
}

/** The annotator name of individual_preference[i]. */
export const hs3Annotator = (i: number) => `${HS3_ANNOTATOR}${i + 1}`;

export function parseHelpsteer3(record: Json): ParsedRecord {
  if (!isMessageList(record.context)) check(contextSchema, record);
  const first = responseText(record, 'response1');
  const second = responseText(record, 'response2');
  const overall = score(record.overall_preference, 'overall_preference');
  const individual = record.individual_preference ?? [];
  if (!Array.isArray(individual)) throw new RecordError(`individual_preference: expected a list, got ${describe(individual)}`);
  const judgements: SourceJudgement[] = [{ task: 'pairwise', ...signedPreference(overall), body: {} }];
  const keptEntries = individual.map((entry, i) => {
    const where = `individual_preference[${i}]`;
    if (!isPlainObject(entry)) throw new RecordError(`${where}: expected an object, got ${describe(entry)}`);
    const annotator = hs3Annotator(i);
    const body: SourceJudgement['body'] = {};
    if (typeof entry.reasoning === 'string') body.rationale = entry.reasoning;
    else if (entry.reasoning !== undefined && entry.reasoning !== null) throw new RecordError(`${where}.reasoning: expected a string, got ${describe(entry.reasoning)}`);
    judgements.push({ task: 'pairwise', ...signedPreference(score(entry.score, `${where}.score`)), body, annotator });
    const critiques: Record<string, string> = {};
    for (const [field, letter] of [['feedback1', 'A'], ['feedback2', 'B']] as const) {
      const value = entry[field];
      if (typeof value === 'string') critiques[letter] = value;
      else if (value !== undefined && value !== null) throw new RecordError(`${where}.${field}: expected a string, got ${describe(value)}`);
    }
    const critique = critiqueJudgement(critiques, annotator);
    if (critique) judgements.push(critique);
    // Only what Arbiter stores elsewhere becomes a placeholder; a null stays a null.
    return skeleton(entry, ENTRY_STORED.filter((k) => typeof entry[k] === 'string' || k === 'score'));
  });
  const kept = skeleton(record, ['context', 'response1', 'response2', 'overall_preference', 'individual_preference']);
  kept.individual_preference = keptEntries;
  return {
    draft: {
      externalId: null,
      prompt: record.context as ChatMessage[],
      responses: [
        { content: first, model: null, steps: null },
        { content: second, model: null, steps: null },
      ],
      reference: null,
      metadata: { [HS3_METADATA]: kept },
    },
    preference: null,
    judgements,
  };
}

export interface Hs3Preference {
  annotator: string;
  score: number;
  reasoning: string | null;
  feedback: { A: string | null; B: string | null };
}

/** individual_preference[i] of the file, when this annotator is HelpSteer3's i-th. */
function keptEntry(kept: Json | null, annotator: string): Json | null {
  if (!annotator.startsWith(HS3_ANNOTATOR) || !Array.isArray(kept?.individual_preference)) return null;
  const entry = (kept.individual_preference as unknown[])[Number(annotator.slice(HS3_ANNOTATOR.length)) - 1];
  return isPlainObject(entry) ? entry : null;
}

export function encodeHelpsteer3(item: ItemRecord, overall: number, preferences: Hs3Preference[]): Json {
  const kept = keptRecord(item, HS3_METADATA);
  // A field with nothing to write is not given at all: the file's own value (a null) then stays.
  const individual = preferences.map((p) => {
    const values: Json = { score: p.score };
    if (p.reasoning !== null) values.reasoning = p.reasoning;
    if (p.feedback.A !== null) values.feedback1 = p.feedback.A;
    if (p.feedback.B !== null) values.feedback2 = p.feedback.B;
    return fill(keptEntry(kept, p.annotator), values);
  });
  const context = typeof item.prompt === 'string' ? [{ role: 'user', content: item.prompt }] : item.prompt;
  return fill(kept, {
    context,
    response1: contentText(item.responses[0]!.content),
    response2: contentText(item.responses[1]!.content),
    overall_preference: overall,
    individual_preference: individual,
  });
}

/** HelpSteer3's annotators by their number, then everyone else by name. */
export function annotatorOrder(a: string, b: string): number {
  const na = a.startsWith(HS3_ANNOTATOR) ? Number(a.slice(HS3_ANNOTATOR.length)) : Infinity;
  const nb = b.startsWith(HS3_ANNOTATOR) ? Number(b.slice(HS3_ANNOTATOR.length)) : Infinity;
  if (na !== nb) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}
