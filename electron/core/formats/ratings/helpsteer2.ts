// HelpSteer2 (nvidia/HelpSteer2), two files:
//   ratings rows     {"prompt", "response", "helpfulness", "correctness", "coherence", "complexity", "verbosity"} (0–4 each)
//   preference rows  {"prompt", "response_1", "response_2", "preference_strength" (−3…+3, negative: response 1 is
//                     better), "preference_statement", "preference_elaboration", …}
// Ratings rows: the dataset lists the responses to one prompt on consecutive rows, so consecutive rows
// with the same prompt become one item with a response each (../import/group.ts), and their ratings the
// `source` annotator's ratings under the rubric "helpsteer2" (Likert 0–4 per attribute). Rows of one
// prompt that are not consecutive make an item per run of rows: the import streams, and does not look
// back. Export: one row per rated response, the attributes from the deciding ratings.
// Preference rows: the `source` annotator's pairwise label, A or B with strength |s|, or a tie (0); the
// statement is its rationale and the elaboration stays beside it in the label, so the export writes both
// back; other fields stay in metadata in their place.
import { contentText } from '../../../../shared/choices';
import type { ItemRecord } from '../../../../shared/domain';
import { responseLetter } from '../../../../shared/letters';
import type { RatingValue } from '../../../../shared/rubric';
import { promptText } from '../content';
import { fill, keptRecord, skeleton } from '../recordSkeleton';
import { likertCriterion, ratingsJudgement, signedPreference, wholeNumber } from './ratingJudgements';
import { RecordError, type ParsedRecord, type SourceJudgement } from '../types';
import { extraFields, isPlainObject } from '../validate';

type Json = Record<string, unknown>;

export const HS2_RUBRIC = 'helpsteer2';
export const HS2_ATTRIBUTES = ['helpfulness', 'correctness', 'coherence', 'complexity', 'verbosity'] as const;
const DESCRIPTIONS: Record<(typeof HS2_ATTRIBUTES)[number], string> = {
  helpfulness: 'Overall helpfulness of the response to the prompt.',
  correctness: 'Inclusion of all pertinent facts without errors.',
  coherence: 'Consistency and clarity of expression.',
  complexity: 'Intellectual depth required to write the response (basic language competency to deep domain expertise).',
  verbosity: 'Amount of detail included in the response, relative to what the prompt asks for.',
};
export const HS2_CRITERIA = HS2_ATTRIBUTES.map((key) => likertCriterion(key, DESCRIPTIONS[key], 0, 4));
const ROW_FIELDS = new Set<string>(['prompt', 'response', ...HS2_ATTRIBUTES]);
/** Where a ratings row's other fields are kept, one entry per response (only when some row has any). */
export const HS2_METADATA = 'helpsteer2_rows';
export const HS2P_METADATA = 'helpsteer2_preference';

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

function text(record: Json, field: string): string {
  const value = record[field];
  if (typeof value === 'string' && value.length > 0) return value;
  throw new RecordError(`${field}: ${value === undefined ? 'missing' : typeof value === 'string' ? 'empty text' : `expected a string, got ${describe(value)}`}`);
}

/** One ratings row as a one-response item (the group merge puts a prompt's rows together). */
export function parseHelpsteer2(record: Json): ParsedRecord {
  const prompt = text(record, 'prompt');
  const response = text(record, 'response');
  const values: Record<string, RatingValue> = {};
  for (const key of HS2_ATTRIBUTES) {
    const value = record[key];
    if (value === null) values[key] = null;
    else if (value !== undefined) {
      const n = wholeNumber(value, 0, 4);
      if (typeof n === 'string') throw new RecordError(`${key}: ${n}`);
      values[key] = n;
    }
  }
  const extra = extraFields(record, ROW_FIELDS);
  const judgement = ratingsJudgement({ name: HS2_RUBRIC, criteria: HS2_CRITERIA }, { A: values });
  return {
    draft: { externalId: null, prompt, responses: [{ content: response, model: null, steps: null }], reference: null, metadata: Object.keys(extra).length ? { [HS2_METADATA]: [extra] } : {} },
    preference: null,
    judgements: judgement ? [judgement] : [],
  };
}

/** The group key of a ratings row: its prompt. */
export const helpsteer2Key = (record: Json) => (typeof record.prompt === 'string' ? record.prompt : '');

/** One item from a prompt's consecutive rows (each already parsed on its own). */
export function mergeHelpsteer2(rows: ParsedRecord[]): ParsedRecord {
  const ratings: Record<string, Record<string, RatingValue>> = {};
  const extras: Json[] = [];
  rows.forEach((row, i) => {
    const values = (row.judgements?.[0]?.body.ratings as Record<string, Record<string, RatingValue>> | undefined)?.A;
    if (values) ratings[responseLetter(i)] = values;
    const extra = row.draft.metadata[HS2_METADATA];
    extras.push(Array.isArray(extra) && isPlainObject(extra[0]) ? extra[0] : {});
  });
  const judgement = ratingsJudgement({ name: HS2_RUBRIC, criteria: HS2_CRITERIA }, ratings);
  return {
    draft: {
      externalId: null,
      prompt: rows[0]!.draft.prompt,
      responses: rows.map((r) => r.draft.responses[0]!),
      reference: null,
      metadata: extras.some((e) => Object.keys(e).length) ? { [HS2_METADATA]: extras } : {},
    },
    preference: null,
    judgements: judgement ? [judgement] : [],
  };
}

/** The rows of an item: one per response the deciding ratings rated on some attribute. */
export function encodeHelpsteer2(item: ItemRecord, ratings: Record<string, Record<string, RatingValue>>): Json[] {
  const extras = Array.isArray(item.metadata[HS2_METADATA]) ? (item.metadata[HS2_METADATA] as unknown[]) : [];
  const prompt = promptText(item.prompt).text;
  const rows: Json[] = [];
  item.responses.forEach((r, i) => {
    const values = ratings[responseLetter(i)];
    if (!values || !HS2_ATTRIBUTES.some((k) => values[k] !== undefined)) return;
    const row: Json = { prompt, response: contentText(r.content) };
    for (const key of HS2_ATTRIBUTES) row[key] = values[key] ?? null;
    const extra = extras[i];
    rows.push(isPlainObject(extra) ? { ...row, ...extra } : row);
  });
  return rows;
}

const PREFERENCE_STORED = ['prompt', 'response_1', 'response_2', 'preference_strength', 'preference_statement', 'preference_elaboration'];

export function parseHelpsteer2Preference(record: Json): ParsedRecord {
  const prompt = text(record, 'prompt');
  const first = text(record, 'response_1');
  const second = text(record, 'response_2');
  const strength = wholeNumber(record.preference_strength, -3, 3);
  if (typeof strength === 'string') throw new RecordError(`preference_strength: ${strength}`);
  for (const field of ['preference_statement', 'preference_elaboration'])
    if (!(record[field] === undefined || record[field] === null || typeof record[field] === 'string')) throw new RecordError(`${field}: expected a string, got ${describe(record[field])}`);
  const { choice, strength: size } = signedPreference(strength);
  const body: SourceJudgement['body'] = {};
  if (typeof record.preference_statement === 'string') body.rationale = record.preference_statement;
  if (typeof record.preference_elaboration === 'string') body.elaboration = record.preference_elaboration;
  return {
    draft: {
      externalId: null,
      prompt,
      responses: [
        { content: first, model: null, steps: null },
        { content: second, model: null, steps: null },
      ],
      reference: null,
      metadata: { [HS2P_METADATA]: skeleton(record, PREFERENCE_STORED) },
    },
    preference: null,
    judgements: [{ task: 'pairwise', choice, strength: size, body }],
  };
}

export function encodeHelpsteer2Preference(item: ItemRecord, score: number, rationale: string | null, elaboration: string | null): Json {
  return fill(keptRecord(item, HS2P_METADATA), {
    prompt: promptText(item.prompt).text,
    response_1: contentText(item.responses[0]!.content),
    response_2: contentText(item.responses[1]!.content),
    preference_strength: score,
    preference_statement: rationale,
    preference_elaboration: elaboration,
  });
}
