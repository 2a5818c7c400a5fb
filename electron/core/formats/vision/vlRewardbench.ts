// VL-RewardBench (MMInstruction/VL-RewardBench on the Hub; github.com/vl-rewardbench/VL_RewardBench):
//   {"id", "query", "response": [text, text], "human_ranking": [1, 0], "models": [m, m], "judge",
//    "rationale", "query_source", "meta", "human_error_analysis": […], "ground_truth"}
// and the image as `image_path` (the GitHub data.jsonl: relative to the data folder, `images/…/x.jpg`)
// or `image` (the Hub's Parquet: an `Image` feature, {bytes, path}). `human_ranking` gives each response
// its rank, 0 the best ("[0, 1] denotes the first one is preferred", the dataset card).
// Import: the image then the query → the prompt (one user turn); each response → a response, its model
// from `models`; the ranks → the `source` annotator's judgement (a choice for two responses, a ranking
// for more). The other fields stay in metadata.vl_rewardbench in their places.
// Export: the same line, JSON Lines, the image written beside the file (`<out stem>_images/<sha256>.<ext>`)
// and named by `image_path` relative to it; `human_ranking` from the deciding label. To a `.parquet`
// output, the Hub's shape: `image` an `Image` feature cell (the bytes as stored), the card's columns.
import type { ItemRecord } from '../../../../shared/domain';
import { fill, keptRecord, skeleton } from '../recordSkeleton';
import { RecordError, type ParsedRecord } from '../types';
import { externalIdOf } from '../validate';
import { HF_IMAGE, HF_STRING, hfList, type HfFeature, type HfImageValue } from './hfImage';
import { describeValue, promptParts, rawImage, requiredText, responseTextOf, visionPrompt } from './visionParts';
import { checkRanks, groupsToRanks, rankJudgement } from './ranks';

type Json = Record<string, unknown>;

export const VLRB_METADATA = 'vl_rewardbench';
const STORED = ['id', 'query', 'response', 'human_ranking', 'models', 'image', 'image_path'];

export function parseVlRewardbench(record: Json): ParsedRecord {
  const query = requiredText(record, 'query');
  const { response, models } = record;
  if (!Array.isArray(response)) throw new RecordError(`response: ${response === undefined ? 'missing' : `expected a list of responses, got ${describeValue(response)}`}`);
  if (response.length < 2) throw new RecordError(`response: ${response.length} response${response.length === 1 ? '' : 's'}; a comparison needs at least 2`);
  if (!(models === undefined || models === null || Array.isArray(models))) throw new RecordError(`models: expected a list of model names, got ${describeValue(models)}`);
  const responses = response.map((text, i) => {
    if (typeof text !== 'string' || text.length === 0) throw new RecordError(`response[${i}]: ${typeof text === 'string' ? 'empty text' : `expected a string, got ${describeValue(text)}`}`);
    const model = Array.isArray(models) && typeof models[i] === 'string' && models[i] ? (models[i] as string) : null;
    return { content: text, model, steps: null };
  });
  const field = record.image !== undefined && record.image !== null ? 'image' : 'image_path';
  const image = rawImage(record[field], field);
  const ranks = record.human_ranking === undefined || record.human_ranking === null ? null : checkRanks(record.human_ranking, responses.length, 'human_ranking');
  return {
    draft: {
      externalId: externalIdOf(record.id),
      prompt: visionPrompt([image], query),
      responses,
      reference: null,
      metadata: { [VLRB_METADATA]: skeleton(record, STORED) },
    },
    preference: null,
    judgement: ranks ? rankJudgement(ranks) : null,
  };
}

export interface VlRewardbenchLine {
  item: ItemRecord;
  /** The deciding ranking, groups best first. */
  ranking: number[][];
  /** Where the prompt's image was written, relative to the output file (or its URL when it is not stored). */
  imagePath?: string | null;
  /** For the Hub's Parquet: the image itself, an `Image` cell. */
  image?: HfImageValue;
}

export function encodeVlRewardbench({ item, ranking, imagePath, image }: VlRewardbenchLine): Json {
  const values: Json = {
    id: item.externalId ?? item.uid,
    ...(image ? { image } : { image_path: imagePath ?? null }),
    query: promptParts(item.prompt).text,
    response: item.responses.map((r) => responseTextOf(r.content)),
    human_ranking: groupsToRanks(ranking, item.responses.length),
    models: item.responses.map((r) => r.model),
  };
  const kept = keptRecord(item, VLRB_METADATA);
  return fill(image ? kept : imageAsPath(kept), values);
}

/** The Hub's columns (MMInstruction/VL-RewardBench's dataset card), for a `.parquet` output. */
export const VLRB_FEATURES: Record<string, HfFeature> = {
  id: HF_STRING,
  query: HF_STRING,
  response: hfList(HF_STRING),
  image: HF_IMAGE,
  human_ranking: hfList({ kind: 'int64' }),
  models: hfList(HF_STRING),
  judge: HF_STRING,
  rationale: HF_STRING,
  query_source: HF_STRING,
  meta: HF_STRING,
  human_error_analysis: hfList(HF_STRING),
  ground_truth: HF_STRING,
};

/** The Hub's Parquet held the image itself (`image`); beside a JSON Lines file it is a path, in the same place. */
function imageAsPath(kept: Json | null): Json | null {
  if (!kept || !('image' in kept) || 'image_path' in kept) return kept;
  return Object.fromEntries(Object.entries(kept).map(([key, value]) => (key === 'image' ? ['image_path', null] : [key, value])));
}
