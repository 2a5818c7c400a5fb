// Fixtures for the image scorer tests: tiny image model folders (the demo's builder), images made by
// sharp, stored in a database's image store, and items whose responses are generated images.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Content } from '../../shared/domain';
import type { ImagePart } from '../../shared/images';
import { imageStoreDir, putImage } from '../../electron/core/images/store';
import { buildVocab, wordPieceTokenizerJson } from '../../scripts/lib/onnx-builder.mjs';
import { buildImageRewardModel, clipPreprocessorConfig, makeImageRewardWeights, type ImageRewardWeights } from '../../scripts/lib/onnx-image-builder.mjs';

export const IMAGE_WORDS = 'a the red green blue apple sky sea photo of on table tree and'.split(' ');

export interface ImageFolder {
  dir: string;
  vocab: string[];
  weights: ImageRewardWeights;
}

export interface ImageFolderOptions {
  /** The crop the config makes (and, unless `pixelShape` says otherwise, the graph takes). */
  size?: number;
  /** The graph's pixel input dims (height, width); default: size × size. */
  pixelShape?: [number | string, number | string];
  /** preprocessor_config.json; null: none written; default: CLIPImageProcessor's for `size`. */
  preprocessor?: Record<string, unknown> | null;
  seed?: number;
}

export function writeImageModelFolder(dir: string, options: ImageFolderOptions = {}): ImageFolder {
  mkdirSync(dir, { recursive: true });
  const size = options.size ?? 32;
  const vocab = buildVocab(IMAGE_WORDS);
  const weights = makeImageRewardWeights({ seed: options.seed ?? 3, vocab, size });
  const [height, width] = options.pixelShape ?? [size, size];
  writeFileSync(join(dir, 'model.onnx'), buildImageRewardModel(weights, { height, width }));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(wordPieceTokenizerJson(vocab)));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ pad_token: '[PAD]', model_max_length: 77 }));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ pad_token_id: 0 }));
  const preprocessor = options.preprocessor === undefined ? clipPreprocessorConfig(size) : options.preprocessor;
  if (preprocessor) writeFileSync(join(dir, 'preprocessor_config.json'), JSON.stringify(preprocessor));
  return { dir, vocab, weights };
}

export type Rgb = [number, number, number];

/** A PNG of one colour. */
export function solidPng(width: number, height: number, [r, g, b]: Rgb): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } }).png().toBuffer();
}

/** A PNG from raw RGB bytes, row by row. */
export function rawPng(width: number, height: number, rgb: number[], channels: 1 | 3 | 4 = 3): Promise<Buffer> {
  return sharp(Buffer.from(rgb), { raw: { width, height, channels } }).png().toBuffer();
}

/** Stores bytes in the database's image store and returns the part an import would have written. */
export function storedImagePart(dbPath: string, bytes: Buffer, width: number, height: number, mime = 'image/png'): ImagePart {
  const sha256 = putImage(imageStoreDir(dbPath), bytes);
  return { type: 'image', image: { sha256, mime, width, height, bytes: bytes.length }, origin: { kind: 'inline' } };
}

/** A generated-image response: one assistant message holding the image. */
export function imageResponse(part: ImagePart): { content: Content } {
  return { content: [{ role: 'assistant', content: [part] }] };
}
