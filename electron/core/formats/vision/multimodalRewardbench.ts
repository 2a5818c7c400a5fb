// Multimodal RewardBench (github.com/facebookresearch/multimodal_rewardbench): `data/all_data.json`, a
// JSON array (Arbiter reads arrays as it reads JSON Lines) of
//   {"ID", "Text", "Image": "images/nocaps/13062.jpg", "Output1", "Output2", "Better": "Output1" | "Output2",
//    "Category", …}
// where `Image` is relative to the data folder (its scripts join it to `--image-folder data`), and the
// judge scripts read `Better` as the label ("B" when it is "Output2", else "A"). Written from the README
// and scripts/1_run_model_as_judge_gpt4o.py, 2_get_accuracy.py (the data file itself is fetched by
// scripts/0_download_data.py).
// Import: the image then `Text` → the prompt; Output1, Output2 → responses A and B (in that order);
// `Better` → the `source` annotator's choice. The other fields stay in metadata.multimodal_rewardbench.
// Export: one JSON line per decided pair, the image written beside the file and `Image` relative to it.
// An item of more responses gives its ranking's pairs (--ranking-pairs), each `ID` suffixed with the
// pair's letters; ties are left out and counted (the benchmark has none).
import type { ItemRecord } from '../../../../shared/domain';
import { responseLetter } from '../../../../shared/letters';
import { fill, keptRecord, skeleton } from '../recordSkeleton';
import { RecordError, type ParsedRecord } from '../types';
import { externalIdOf } from '../validate';
import { promptParts, rawImage, requiredText, responseTextOf, visionPrompt } from './visionParts';

type Json = Record<string, unknown>;

export const MMRB_METADATA = 'multimodal_rewardbench';
const STORED = ['ID', 'Text', 'Image', 'Output1', 'Output2', 'Better'];

export function parseMultimodalRewardbench(record: Json): ParsedRecord {
  const text = requiredText(record, 'Text');
  const image = rawImage(record.Image, 'Image');
  const first = requiredText(record, 'Output1');
  const second = requiredText(record, 'Output2');
  const { Better: better } = record;
  if (!(better === undefined || better === null || better === 'Output1' || better === 'Output2'))
    throw new RecordError(`Better: expected "Output1" or "Output2", got ${JSON.stringify(better)}`);
  return {
    draft: {
      externalId: externalIdOf(record.ID, 'ID'),
      prompt: visionPrompt([image], text),
      responses: [
        { content: first, model: null, steps: null },
        { content: second, model: null, steps: null },
      ],
      reference: null,
      metadata: { [MMRB_METADATA]: skeleton(record, STORED) },
    },
    preference: null,
    judgement: better ? { task: 'pairwise', choice: better === 'Output1' ? 'A' : 'B', body: {} } : null,
  };
}

export interface MmrbLine {
  item: ItemRecord;
  /** The pair's two responses in source order, and which of them is better. */
  first: number;
  second: number;
  better: 'Output1' | 'Output2';
  /** Where the prompt's image was written, relative to the output file (or its URL when it is not stored). */
  imagePath: string | null;
  /** The item gives more than this pair: the ID names the pair. */
  several: boolean;
}

export function encodeMultimodalRewardbench({ item, first, second, better, imagePath, several }: MmrbLine): Json {
  const id = item.externalId ?? item.uid;
  return fill(keptRecord(item, MMRB_METADATA), {
    ID: several ? `${id}:${responseLetter(first)}${responseLetter(second)}` : id,
    Text: promptParts(item.prompt).text,
    Image: imagePath,
    Output1: responseTextOf(item.responses[first]!.content),
    Output2: responseTextOf(item.responses[second]!.content),
    Better: better,
  });
}
