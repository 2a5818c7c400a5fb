// VLFeedback (MMInstruction/VLFeedback on the Hub: vlfeedback_80k.jsonl with merged_images.zip; its
// dataset card and loading script VLFeedback.py):
//   {"id", "prompt", "models": [m…], "img_path": "svit/…/x.jpg",
//    "completions": [{"model", "response", "annotations": {"Helpfulness": {"Rating": "1"…"5", "Rationale"},
//                      "Visual Faithfulness": {…}, "Ethical Considerations": {…}}}]}
// Four completions from different models per prompt, each rated by GPT-4V on three aspects. `img_path`
// is relative to the unzipped images folder (give it as the images folder, or put the file there); a
// Parquet copy (davanstrien/VLFeedback) holds the picture as an `image` feature instead. A completions
// list read through `datasets` comes as one object of lists ({"model": […], "response": […], …}): both
// are read.
// Import: the image then the prompt → the prompt; each completion → a response; the aspects' ratings →
// the `source` annotator's ratings under the rubric "vlfeedback" (Likert 1–5; "N/A" → not applicable).
// The rationales and other fields stay in metadata.vlfeedback in their places.
import type { RatingValue } from '../../../../shared/rubric';
import { responseLetter } from '../../../../shared/letters';
import { skeleton } from '../recordSkeleton';
import { likertCriterion, ratingsJudgement } from '../ratings/ratingJudgements';
import { RecordError, type ParsedRecord } from '../types';
import { externalIdOf, isPlainObject } from '../validate';
import { describeValue, rawImage, requiredText, visionPrompt } from './visionParts';

type Json = Record<string, unknown>;

export const VLF_RUBRIC = 'vlfeedback';
export const VLF_METADATA = 'vlfeedback';
/** The file's aspect names and the criterion keys they become. */
export const VLF_ASPECTS = [
  ['Helpfulness', 'helpfulness', 'Does the response answer the question well: relevant, complete, useful?'],
  ['Visual Faithfulness', 'visual_faithfulness', 'Does the response agree with what the image shows: no object, attribute or text that is not there?'],
  ['Ethical Considerations', 'ethical_considerations', 'Is the response safe and fair: no harm, bias or privacy breach?'],
] as const;
export const VLF_CRITERIA = VLF_ASPECTS.map(([, key, description]) => likertCriterion(key, description, 1, 5));
const KEY_OF: ReadonlyMap<string, string> = new Map(VLF_ASPECTS.map(([name, key]) => [name, key]));

function rating(value: unknown, where: string): RatingValue {
  if (value === 'N/A' || value === null) return null;
  if (typeof value === 'string' && /^\s*[1-5]\s*$/.test(value)) return Number(value);
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 5) return value;
  throw new RecordError(`${where}.Rating: expected "1" to "5" or "N/A", got ${JSON.stringify(value)}`);
}

/** The completions as a list, whether the file has a list of objects or (as `datasets` returns a sequence) an object of lists. */
function completionList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value) && Array.isArray(value.response)) {
    const columns = Object.entries(value).filter(([, v]) => Array.isArray(v)) as [string, unknown[]][];
    return (value.response as unknown[]).map((_, i) => Object.fromEntries(columns.map(([key, list]) => [key, list[i]])));
  }
  throw new RecordError(`completions: ${value === undefined ? 'missing' : `expected a list of completions, got ${describeValue(value)}`}`);
}

export function parseVlfeedback(record: Json): ParsedRecord {
  const prompt = requiredText(record, 'prompt');
  const completions = completionList(record.completions);
  if (completions.length === 0) throw new RecordError('completions: empty list');
  const { models } = record;
  const field = record.image !== undefined && record.image !== null ? 'image' : 'img_path';
  const image = rawImage(record[field], field);
  const responses: ParsedRecord['draft']['responses'] = [];
  const ratings: Record<string, Record<string, RatingValue>> = {};
  const kept: Json[] = [];
  completions.forEach((c, i) => {
    const where = `completions[${i}]`;
    if (!isPlainObject(c)) throw new RecordError(`${where}: expected an object, got ${describeValue(c)}`);
    const response = requiredText(c, 'response', `${where}.response`);
    const model = typeof c.model === 'string' && c.model ? c.model : Array.isArray(models) && typeof models[i] === 'string' ? (models[i] as string) : null;
    responses.push({ content: response, model, steps: null });
    const completion = skeleton(c, ['response']);
    if (c.annotations !== undefined && c.annotations !== null) {
      if (!isPlainObject(c.annotations)) throw new RecordError(`${where}.annotations: expected an object, got ${describeValue(c.annotations)}`);
      const values: Record<string, RatingValue> = {};
      const annotations: Json = {};
      for (const [aspect, a] of Object.entries(c.annotations)) {
        const key = KEY_OF.get(aspect);
        if (key && isPlainObject(a) && 'Rating' in a) {
          values[key] = rating(a.Rating, `${where}.annotations.${aspect}`);
          annotations[aspect] = skeleton(a, ['Rating']);
        } else annotations[aspect] = a;
      }
      const ordered: Record<string, RatingValue> = {};
      for (const [, key] of VLF_ASPECTS) if (key in values) ordered[key] = values[key]!;
      ratings[responseLetter(i)] = ordered;
      completion.annotations = annotations;
    }
    kept.push(completion);
  });
  const top = skeleton(record, ['id', 'prompt', 'completions', 'image', 'img_path']);
  top.completions = kept;
  const judgement = ratingsJudgement({ name: VLF_RUBRIC, criteria: VLF_CRITERIA }, ratings);
  return {
    draft: { externalId: externalIdOf(record.id), prompt: visionPrompt([image], prompt), responses, reference: null, metadata: { [VLF_METADATA]: top } },
    preference: null,
    judgements: judgement ? [judgement] : [],
  };
}
