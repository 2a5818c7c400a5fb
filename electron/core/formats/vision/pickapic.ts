// Pick-a-Pic (yuvalkirstain/pickapic_v2 on the Hub; its dataset card's features, and PickScore's
// trainer/datasetss/clip_hf_dataset.py, which reads it):
//   {"caption", "jpg_0": <bytes>, "jpg_1": <bytes>, "label_0": 1.0, "label_1": 0.0, "model_0", "model_1",
//    "has_label", "are_different", "best_image_uid", "image_0_uid", "image_1_uid", "image_0_url",
//    "image_1_url", "ranking_id", "user_id", "created_at", "num_example_per_prompt", …}
// Parquet with the two generated images as plain binary columns (not an `Image` feature); Arbiter's Parquet
// reader gives binary as base64, as a JSON Lines copy of the same rows has it. label_0 / label_1 are 1 / 0
// (image 0 preferred), 0 / 1, or 0.5 / 0.5 (a tie, as PickScore's evaluation reads it); has_label false
// means nobody chose. A copy without images (pickapic_v2_no_images) has only the URLs: those are kept and
// shown as not available offline.
// Import: the caption → the prompt (text); each image → a response, one assistant message holding that
// image, its model from model_0 / model_1; the labels → the `source` annotator's choice (A, B or tie).
// The other fields stay in metadata.pickapic, in their places.
// Export: the same row, the images' bytes as they were stored, labels from the deciding label (a tie
// 0.5 / 0.5). Parquet when the output's name ends in .parquet (what the dataset is), else JSON Lines with
// the bytes as base64.
import type { Choice, ItemRecord } from '../../../../shared/domain';
import { contentText } from '../../../../shared/choices';
import { fill, keptRecord, skeleton } from '../recordSkeleton';
import { RecordError, type ParsedRecord, type SourceJudgement } from '../types';
import { setOwn } from '../validate';
import type { HfFeature } from './hfImage';
import { imageResponse, rawBase64Image, rawImage, requiredText } from './visionParts';

type Json = Record<string, unknown>;

export const PICKAPIC_METADATA = 'pickapic';
const STORED = ['caption', 'jpg_0', 'jpg_1', 'label_0', 'label_1', 'model_0', 'model_1'];

function image(record: Json, side: 0 | 1) {
  const bytes = record[`jpg_${side}`];
  if (bytes !== undefined && bytes !== null) return rawBase64Image(bytes, `jpg_${side}`);
  const url = record[`image_${side}_url`];
  if (typeof url === 'string' && url) return rawImage(url, `image_${side}_url`);
  throw new RecordError(`jpg_${side}: missing (the image's bytes; a copy without images needs image_${side}_url)`);
}

function label(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && (value === 0 || value === 0.5 || value === 1)) return value;
  throw new RecordError(`${field}: expected 1, 0 or 0.5 (a tie), got ${JSON.stringify(value)}`);
}

/** label_0 / label_1 as a choice: 1/0 → A, 0/1 → B, 0.5/0.5 → tie; null where nobody chose. */
function choiceOf(record: Json): Choice | null {
  if (record.has_label === false) return null;
  const first = label(record.label_0, 'label_0');
  const second = label(record.label_1, 'label_1');
  if (first === null && second === null) return null;
  if (first === 1 && second === 0) return 'A';
  if (first === 0 && second === 1) return 'B';
  if (first === 0.5 && second === 0.5) return 'tie';
  throw new RecordError(`label_0, label_1: ${JSON.stringify(record.label_0)} and ${JSON.stringify(record.label_1)} do not say which image is better (1 and 0, 0 and 1, or 0.5 and 0.5 for a tie)`);
}

const modelOf = (value: unknown) => (typeof value === 'string' && value ? value : null);

export function parsePickapic(record: Json): ParsedRecord {
  const caption = requiredText(record, 'caption');
  const choice = choiceOf(record);
  const judgement: SourceJudgement | null = choice ? { task: 'pairwise', choice, body: {} } : null;
  return {
    draft: {
      externalId: null,
      prompt: caption,
      responses: [
        { content: imageResponse(image(record, 0)), model: modelOf(record.model_0), steps: null },
        { content: imageResponse(image(record, 1)), model: modelOf(record.model_1), steps: null },
      ],
      reference: null,
      metadata: { [PICKAPIC_METADATA]: skeleton(record, STORED) },
    },
    preference: null,
    judgement,
  };
}

export interface PickapicRow {
  item: ItemRecord;
  /** The deciding choice between the two images. */
  choice: 'A' | 'B' | 'tie';
  /** The two images' bytes and their hashes. */
  images: [{ bytes: Uint8Array; sha256: string }, { bytes: Uint8Array; sha256: string }];
}

const LABELS = { A: [1, 0], B: [0, 1], tie: [0.5, 0.5] } as const;

/** One Pick-a-Pic row; the bytes stay bytes (the Parquet writer's binary, base64 for JSON Lines). */
export function encodePickapic({ item, choice, images }: PickapicRow): Json {
  const kept = keptRecord(item, PICKAPIC_METADATA);
  const [label0, label1] = LABELS[choice];
  const values: Json = {
    caption: contentText(item.prompt),
    jpg_0: images[0].bytes,
    jpg_1: images[1].bytes,
    label_0: label0,
    label_1: label1,
    model_0: item.responses[0]!.model,
    model_1: item.responses[1]!.model,
    has_label: true,
    are_different: images[0].sha256 !== images[1].sha256,
  };
  // The winner's uid, where the file named its images (PickScore reads best_image_uid); none for a tie.
  if (kept && typeof kept.image_0_uid === 'string' && typeof kept.image_1_uid === 'string')
    values.best_image_uid = choice === 'A' ? kept.image_0_uid : choice === 'B' ? kept.image_1_uid : '';
  if (!kept) values.num_example_per_prompt = 1;
  return fill(kept, values);
}

/**
 * The columns a Pick-a-Pic Parquet file gets, in the dataset card's order and types (`created_at` as
 * text: Arbiter reads timestamps as ISO text; `__index_level_0__`, pandas' index, is left out).
 */
export const PICKAPIC_FEATURES: Record<string, HfFeature> = {
  are_different: { kind: 'bool' },
  best_image_uid: { kind: 'string' },
  caption: { kind: 'string' },
  created_at: { kind: 'string' },
  has_label: { kind: 'bool' },
  image_0_uid: { kind: 'string' },
  image_0_url: { kind: 'string' },
  image_1_uid: { kind: 'string' },
  image_1_url: { kind: 'string' },
  jpg_0: { kind: 'binary' },
  jpg_1: { kind: 'binary' },
  label_0: { kind: 'float64' },
  label_1: { kind: 'float64' },
  model_0: { kind: 'string' },
  model_1: { kind: 'string' },
  ranking_id: { kind: 'int64' },
  user_id: { kind: 'int64' },
  num_example_per_prompt: { kind: 'int64' },
};

/** For JSON Lines: the bytes as base64, as the Parquet reader gives them. */
export function jsonRow(row: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(row)) setOwn(out, key, value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') : value);
  return out;
}
