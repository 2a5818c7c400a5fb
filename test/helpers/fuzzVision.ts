// Templates for fuzzing the vision and GUI-agent importers (issue 15): one valid record per format, written
// by hand from each format's own documentation (the parsers' heads in electron/core/formats/vision/ and
// trajectories/mind2web.ts, onlineMind2web.ts name the sources), holding tiny images made here by sharp:
// data URIs, base64 fields, Hugging Face Image cells ({bytes, path}) and paths relative to the file's
// folder (written beside the fuzzed files), so that every raw form the import takes is hit by the hostile
// values. `markRecord` makes each line's record its own item (a marker in its text and its id), and
// `imageHashes` says which images a valid line must keep through an import and an export.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ImportFormat } from '../../shared/formatNames';
import { setAt } from './hostile';

/** The two images every template uses: a PNG and a JPEG of a few pixels. */
export interface FuzzImages {
  png: Buffer;
  jpeg: Buffer;
  /** sha256 of each. */
  pngSha: string;
  jpegSha: string;
}

export async function fuzzImages(): Promise<FuzzImages> {
  const png = await sharp({ create: { width: 3, height: 2, channels: 3, background: '#c33' } }).png().toBuffer();
  const jpeg = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#fa0' } }).jpeg().toBuffer();
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  return { png, jpeg, pngSha: sha(png), jpegSha: sha(jpeg) };
}

/** Where the path templates' images live, relative to the fuzzed files' folder. */
export const FUZZ_IMAGE_PATH = 'images/square.png';

/**
 * A valid record per vision and GUI format, and the hashes of the images it holds. Writes the image the
 * path templates name into `dir` (the folder the fuzzed files are written in).
 */
export function visionTemplates(dir: string, images: FuzzImages, root: string): { templates: Partial<Record<ImportFormat, unknown>>; hashes: Partial<Record<ImportFormat, string[]>> } {
  mkdirSync(join(dir, 'images'), { recursive: true });
  writeFileSync(join(dir, FUZZ_IMAGE_PATH), images.png);
  const base64 = (b: Buffer) => b.toString('base64');
  const dataUri = (b: Buffer, mime: string) => `data:${mime};base64,${base64(b)}`;
  const pngUri = dataUri(images.png, 'image/png');
  const jpegUri = dataUri(images.jpeg, 'image/jpeg');
  const rating = (r: string) => ({ Rating: r, Rationale: `rated ${r}` });
  // The first Multimodal-Mind2Web row of the hand-written fixture, its screenshot an Image cell.
  const mind2webRow = JSON.parse(readFileSync(join(root, 'test/fixtures/formats/gui/mind2web.jsonl'), 'utf8').split('\n')[0]!) as Record<string, unknown>;
  const online = JSON.parse(readFileSync(join(root, 'test/fixtures/formats/gui/online-mind2web.json'), 'utf8')) as Record<string, unknown>;
  const templates: Partial<Record<ImportFormat, unknown>> = {
    // TRL's vision preference rows: {"type": "image"} placeholders and an `images` column (here a data URI).
    'trl-vision': {
      prompt: [{ role: 'user', content: [{ type: 'image' }, { type: 'text', text: 'What colour is the square?' }] }],
      chosen: [{ role: 'assistant', content: [{ type: 'text', text: 'Red.' }] }],
      rejected: [{ role: 'assistant', content: [{ type: 'text', text: 'Blue.' }] }],
      images: [pngUri],
    },
    // VL-RewardBench's GitHub data.jsonl: image_path relative to the data folder.
    'vl-rewardbench': {
      id: 'RLAIF-V-14',
      image_path: FUZZ_IMAGE_PATH,
      query: 'Describe the image in detail.',
      response: ['A red square.', 'A blue plate on a table.'],
      human_ranking: [0, 1],
      models: ['m1', 'm2'],
      judge: 'human',
      rationale: null,
      query_source: 'COCO',
      meta: { original_dataset: 'COCO' },
      human_error_analysis: ['hallucination'],
    },
    // Multimodal RewardBench's all_data.json entries: Image relative to the data folder.
    'multimodal-rewardbench': { ID: 'mmrb-1', Text: 'What is in the picture?', Image: FUZZ_IMAGE_PATH, Output1: 'A red square.', Output2: 'A blue circle.', Better: 'Output1', Category: 'general' },
    // Pick-a-Pic v2 rows as JSON Lines: jpg_0 / jpg_1 the images' bytes as base64.
    pickapic: {
      caption: 'a red square on white',
      jpg_0: base64(images.png),
      jpg_1: base64(images.jpeg),
      label_0: 1,
      label_1: 0,
      model_0: 'sd-1.5',
      model_1: 'sdxl',
      has_label: true,
      are_different: true,
      image_0_uid: 'u0',
      image_1_uid: 'u1',
      best_image_uid: 'u0',
      ranking_id: 7,
      user_id: 3,
    },
    // OpenAI chat content parts: image_url with a data URL, TRL's prompt / chosen / rejected lists.
    'openai-vision': {
      prompt: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: jpegUri } }, { type: 'text', text: 'What is in the picture?' }] }],
      chosen: [{ role: 'assistant', content: 'An orange square.' }],
      rejected: [{ role: 'assistant', content: 'A dog.' }],
    },
    // VLFeedback's vlfeedback_80k.jsonl: img_path, completions rated per aspect (here the image inline as a data URI).
    vlfeedback: {
      id: 'vlf-1',
      prompt: 'Describe the picture.',
      models: ['m1', 'm2'],
      img_path: pngUri,
      completions: [
        { model: 'm1', response: 'A red square.', annotations: { Helpfulness: rating('5'), 'Visual Faithfulness': rating('4'), 'Ethical Considerations': rating('5') } },
        { model: 'm2', response: 'A cat on a sofa.', annotations: { Helpfulness: rating('2'), 'Visual Faithfulness': rating('1'), 'Ethical Considerations': rating('N/A') } },
      ],
    },
    // RLAIF-V's Parquet rows as JSON Lines: image an Image cell {bytes (base64), path}.
    'rlaif-v': {
      ds_name: 'RLAIF-V',
      image: { bytes: base64(images.png), path: 'square.png' },
      question: 'What colour is the square?',
      chosen: 'Red.',
      rejected: 'Green.',
      origin_dataset: 'coco',
      origin_split: '{"model": "m", "feedback_model": "f"}',
      idx: 'rlaif-1',
      image_path: 'square.png',
    },
    // MM-RLHF's dpo_pairs.jsonl: image relative to the dataset folder, the responses' critiques, a tie flag.
    'mm-rlhf': {
      id: 'short_0001',
      prompt: 'What colour is the square?',
      chosen: 'Red.',
      rejected: 'Blue.',
      chosen_reason: 'Right colour.',
      rejected_reason: 'Wrong colour.',
      image: FUZZ_IMAGE_PATH,
      is_tie: false,
      ls_factor: 0.5,
    },
    // Multimodal-Mind2Web: one action step, its screenshot an Image cell.
    mind2web: { ...mind2webRow, screenshot: { bytes: base64(images.jpeg), path: null } },
    // Online-Mind2Web result.json with its screenshots listed (one per action, one at the end).
    'online-mind2web': { ...online, screenshots: [pngUri, jpegUri, pngUri, jpegUri] },
  };
  const hashes: Partial<Record<ImportFormat, string[]>> = {
    'trl-vision': [images.pngSha],
    'vl-rewardbench': [images.pngSha],
    'multimodal-rewardbench': [images.pngSha],
    pickapic: [images.pngSha, images.jpegSha],
    'openai-vision': [images.jpegSha],
    vlfeedback: [images.pngSha],
    'rlaif-v': [images.pngSha],
    'mm-rlhf': [images.pngSha],
    mind2web: [images.jpegSha],
    'online-mind2web': [images.pngSha, images.jpegSha],
  };
  return { templates, hashes };
}

/** Formats whose lines group into items (a task's steps, a task's runs): their line count is not an item count. */
export const GROUPED_FORMATS = new Set<string>(['mind2web', 'online-mind2web']);

/** Where each vision / GUI template's text and id are, to make a line's record its own item. */
const TEXT_AT: Partial<Record<ImportFormat, (string | number)[]>> = {
  'trl-vision': ['prompt', 0, 'content', 1, 'text'],
  'openai-vision': ['prompt', 0, 'content', 1, 'text'],
  'vl-rewardbench': ['query'],
  'multimodal-rewardbench': ['Text'],
  pickapic: ['caption'],
  vlfeedback: ['prompt'],
  'rlaif-v': ['question'],
  'mm-rlhf': ['prompt'],
  mind2web: ['confirmed_task'],
  'online-mind2web': ['task'],
};
/** The formats these templates are for. */
export const VISION_TEMPLATE_FORMATS: readonly string[] = Object.keys(TEXT_AT);

const ID_AT: Partial<Record<ImportFormat, string>> = {
  'vl-rewardbench': 'id',
  'multimodal-rewardbench': 'ID',
  vlfeedback: 'id',
  'rlaif-v': 'idx',
  'mm-rlhf': 'id',
  mind2web: 'annotation_id',
  'online-mind2web': 'task_id',
};

/** The record with `marker` appended to its text and its id made unique; null when the format is not one of these. */
export function markRecord(format: ImportFormat, record: unknown, marker: string, line: number): unknown | null {
  const at = TEXT_AT[format];
  if (!at) return null;
  let text: unknown = record;
  for (const key of at) text = (text as Record<string | number, unknown>)[key];
  let out = setAt(record, at, `${String(text)} ${marker}`);
  const id = ID_AT[format];
  if (id) out = setAt(out, [id], `${String((record as Record<string, unknown>)[id])}-${line}`);
  return out;
}

/** The sha256 of every stored image in an exported Arbiter record (its JSON text). */
export function storedHashes(json: string): string[] {
  return [...new Set([...json.matchAll(/"sha256":"([0-9a-f]{64})"/g)].map((m) => m[1]!))].sort();
}
