// RLAIF-V (openbmb/RLAIF-V-Dataset on the Hub; its dataset card's "Data fields"):
//   {"ds_name", "image": {"bytes", "path"}, "question", "chosen", "rejected", "origin_dataset",
//    "origin_split", "idx", "image_path"}
// Parquet files whose `image` is an `Image` feature ("Dict contains path and bytes"); `image_path` is the
// path the picture had where it was made. A copy without the bytes (JSON Lines with `image_path` only, or
// `image` as a path) reads the path, relative to the file's folder or the images folder given.
// Import: the image then the question → the prompt; chosen → response A, rejected → B, and the file's
// preference (A). `idx` is the item's id; the other fields stay in metadata (origin_split, which names
// the models that answered and the one that gave feedback, among them).
import type { ParsedRecord } from '../types';
import { externalIdOf, extraFields } from '../validate';
import { rawImage, requiredText, visionPrompt } from './visionParts';

const STORED = new Set(['image', 'question', 'chosen', 'rejected', 'idx']);

export function parseRlaifV(record: Record<string, unknown>): ParsedRecord {
  const question = requiredText(record, 'question');
  const field = record.image !== undefined && record.image !== null ? 'image' : 'image_path';
  const image = rawImage(record[field], field);
  const chosen = requiredText(record, 'chosen');
  const rejected = requiredText(record, 'rejected');
  return {
    draft: {
      externalId: externalIdOf(record.idx, 'idx'),
      prompt: visionPrompt([image], question),
      responses: [
        { content: chosen, model: null, steps: null },
        { content: rejected, model: null, steps: null },
      ],
      reference: null,
      metadata: extraFields(record, STORED),
    },
    preference: 'A',
  };
}
