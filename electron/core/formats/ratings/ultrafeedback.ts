// UltraFeedback, raw: one prompt per line, several completions, each rated per aspect.
//   {"source", "instruction", "models", "completions": [{"model", "principle", "custom_system_prompt", "response",
//    "annotations": {aspect: {"Rating": "1"…"5" | "N/A", "Rationale", …}}, "overall_score", "critique", …}], …}
// Import: instruction → prompt; each completion → a response (model: its own, else models[i]); the four
// aspects' ratings → the `source` annotator's ratings under the rubric "ultrafeedback" (Likert 1–5 per
// aspect; "N/A" → null, not applicable); the completions' critiques → the source's critique. The rest
// (rationales, types, principle, overall_score…) stays in metadata.ultrafeedback in its place, so that
// the export writes the line back as it came.
// Export: the same shape, with the deciding ratings (null → "N/A") and critique. The file's own texts
// (rationales, types, overall_score, fine-grained_score) go back only where the file's own ratings
// decide: beside a person's ratings they would explain other numbers, so they are left out and counted.
import { contentText } from '../../../../shared/choices';
import type { ItemRecord } from '../../../../shared/domain';
import { responseLetter } from '../../../../shared/letters';
import type { RatingValue } from '../../../../shared/rubric';
import { promptText } from '../content';
import { fill, keptRecord, skeleton } from '../recordSkeleton';
import { critiqueJudgement, likertCriterion, ratingsJudgement } from './ratingJudgements';
import { RecordError, type ParsedRecord } from '../types';
import { isPlainObject } from '../validate';

type Json = Record<string, unknown>;

export const UF_RUBRIC = 'ultrafeedback';
export const UF_ASPECTS = ['instruction_following', 'honesty', 'truthfulness', 'helpfulness'] as const;
const DESCRIPTIONS: Record<(typeof UF_ASPECTS)[number], string> = {
  instruction_following: 'Does the response follow the instruction: its task, and the restrictions it sets?',
  honesty: 'Is the response honest: confident where it is right, saying so where it is unsure?',
  truthfulness: 'Is the response free of hallucination: no made-up facts, no contradiction of the input or itself?',
  helpfulness: 'Is the response correct, informative and useful for the task?',
};
export const UF_CRITERIA = UF_ASPECTS.map((key) => likertCriterion(key, DESCRIPTIONS[key], 1, 5));
const ASPECT_SET: ReadonlySet<string> = new Set(UF_ASPECTS);
/** Where the file's record is kept. */
export const UF_METADATA = 'ultrafeedback';
/** A completion's fields that only make sense beside the file's own ratings. */
const OWN_SCORES = ['overall_score', 'fine-grained_score'];

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

function rating(value: unknown, where: string): RatingValue {
  if (value === 'N/A') return null;
  if (typeof value === 'string' && /^[1-5]$/.test(value)) return Number(value);
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 5) return value;
  throw new RecordError(`${where}.Rating: expected "1" to "5" or "N/A", got ${JSON.stringify(value)}`);
}

export function parseUltrafeedback(record: Json): ParsedRecord {
  const { instruction, completions, models } = record;
  if (typeof instruction !== 'string' || instruction.length === 0)
    throw new RecordError(`instruction: ${instruction === undefined ? 'missing' : typeof instruction === 'string' ? 'empty text' : `expected a string, got ${describe(instruction)}`}`);
  if (!Array.isArray(completions) || completions.length === 0)
    throw new RecordError(`completions: ${completions === undefined ? 'missing' : Array.isArray(completions) ? 'empty list' : `expected a list, got ${describe(completions)}`}`);
  if (!(models === undefined || models === null || Array.isArray(models))) throw new RecordError(`models: expected a list, got ${describe(models)}`);
  const responses: ParsedRecord['draft']['responses'] = [];
  const ratings: Record<string, Record<string, RatingValue>> = {};
  const critiques: Record<string, string> = {};
  const kept: Json[] = [];
  completions.forEach((c, i) => {
    const where = `completions[${i}]`;
    if (!isPlainObject(c)) throw new RecordError(`${where}: expected an object, got ${describe(c)}`);
    if (typeof c.response !== 'string' || c.response.length === 0)
      throw new RecordError(`${where}.response: ${c.response === undefined ? 'missing' : typeof c.response === 'string' ? 'empty text' : `expected a string, got ${describe(c.response)}`}`);
    const model = typeof c.model === 'string' && c.model ? c.model : typeof models?.[i] === 'string' ? (models[i] as string) : null;
    responses.push({ content: c.response, model, steps: null });
    const letter = responseLetter(i);
    const stored = ['response'];
    if (typeof c.critique === 'string' && c.critique.length > 0) {
      critiques[letter] = c.critique;
      stored.push('critique');
    }
    const completion = skeleton(c, stored);
    if (c.annotations !== undefined && c.annotations !== null) {
      if (!isPlainObject(c.annotations)) throw new RecordError(`${where}.annotations: expected an object, got ${describe(c.annotations)}`);
      const annotations: Json = {};
      const values: Record<string, RatingValue> = {};
      for (const [aspect, a] of Object.entries(c.annotations)) {
        if (ASPECT_SET.has(aspect) && isPlainObject(a) && 'Rating' in a) {
          values[aspect] = rating(a.Rating, `${where}.annotations.${aspect}`);
          annotations[aspect] = skeleton(a, ['Rating']);
        } else annotations[aspect] = a;
      }
      // In the rubric's order, whatever order the file had.
      const ordered: Record<string, RatingValue> = {};
      for (const key of UF_ASPECTS) if (key in values) ordered[key] = values[key]!;
      ratings[letter] = ordered;
      completion.annotations = annotations;
    }
    kept.push(completion);
  });
  const judgements = [ratingsJudgement({ name: UF_RUBRIC, criteria: UF_CRITERIA }, ratings), critiqueJudgement(critiques)].filter((j) => j !== null);
  const top = skeleton(record, ['instruction', 'completions']);
  top.completions = kept;
  return {
    draft: { externalId: null, prompt: instruction, responses, reference: null, metadata: { [UF_METADATA]: top } },
    preference: null,
    judgements,
  };
}

export interface UltrafeedbackInput {
  item: ItemRecord;
  /** The deciding ratings per response letter (the four aspects only), and whether they are the file's own. */
  ratings: Record<string, Record<string, RatingValue>>;
  own: boolean;
  critiques: Record<string, string>;
}

export function encodeUltrafeedback({ item, ratings, own, critiques }: UltrafeedbackInput): Json {
  const top = keptRecord(item, UF_METADATA);
  const keptCompletions = Array.isArray(top?.completions) ? (top.completions as unknown[]) : [];
  const completions = item.responses.map((r, i) => {
    const letter = responseLetter(i);
    const base: Json = isPlainObject(keptCompletions[i]) ? { ...keptCompletions[i] } : { model: null, response: null, annotations: null };
    if (!own) for (const key of OWN_SCORES) delete base[key];
    const keptAnnotations = own && isPlainObject(base.annotations) ? base.annotations : {};
    const rated = ratings[letter] ?? {};
    const ratingText = (aspect: string) => (rated[aspect] === undefined ? undefined : rated[aspect] === null ? 'N/A' : String(rated[aspect]));
    // The file's aspects in the file's order; a placeholder with no decided rating goes, the rest stays.
    const annotations: Json = {};
    for (const [aspect, a] of Object.entries(keptAnnotations)) annotations[aspect] = ASPECT_SET.has(aspect) && isPlainObject(a) ? fill(a, { Rating: ratingText(aspect) }) : a;
    for (const aspect of UF_ASPECTS) if (!(aspect in annotations) && rated[aspect] !== undefined) annotations[aspect] = { Rating: ratingText(aspect) };
    return fill(base, { model: r.model, response: contentText(r.content), annotations, critique: critiques[letter] });
  });
  const instruction = promptText(item.prompt).text;
  // A kept record keeps its own models list (or its lack of one); an item from elsewhere gets its responses'.
  if (top) return fill(top, { instruction, completions });
  const source = typeof item.metadata.source === 'string' ? item.metadata.source : null;
  return { source, instruction, models: item.responses.map((r) => r.model), completions };
}
