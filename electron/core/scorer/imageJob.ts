// The score job's pass over a project with an image model: each response's one image, read from the image
// store and decoded and resized by sharp on libvips' threads while the batch before runs (mediaPass.ts).
import type * as ort from 'onnxruntime-node';
import type { ItemRecord } from '../../../shared/domain';
import { imageFile } from '../images/store';
import { ImageReadError, preprocessImage } from './imageInputs';
import { imageTarget, runImageBatch } from './imageModel';
import { scoreMediaPass, type MediaPassHooks, type MediaRow } from './mediaPass';
import type { TextTokenizer } from './tokenize';
import type { ModelSpec } from './types';

export type ImageRow = MediaRow;
export type ImagePassHooks = MediaPassHooks;

/** Why an image's bytes could not become pixel values, said for people. */
export function imageReadReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return `its image is larger than Arbiter opens (imageMaxPixels): ${message}`;
  return `its image could not be read (damaged, or not an image sharp can decode): ${message}`;
}

/** Scores every pending response of the items with an image model; returns whether it was cancelled. */
export function scoreImagePass(
  items: Iterable<ItemRecord>,
  storeDir: string,
  spec: ModelSpec,
  session: ort.InferenceSession,
  tok: TextTokenizer,
  batchSize: number,
  hooks: ImagePassHooks,
): Promise<boolean> {
  const image = spec.image!;
  return scoreMediaPass(items, spec, tok, batchSize, hooks, {
    stride: 3 * image.height * image.width,
    target: (item, responseIndex) => imageTarget(item.prompt, item.responses[responseIndex]!.content),
    file: (target) => imageFile(storeDir, target.sha256),
    missing: (file) => `its image is not in the image store (${file}): import the file again to store it`,
    row: (base) => base,
    decode: (row, pixels, offset) =>
      preprocessImage(row.file, image.preprocess, image, pixels, offset).then(
        () => null,
        (error: unknown) => (error instanceof ImageReadError ? imageReadReason(error) : imageReadReason(new Error((error as Error).message))),
      ),
    run: (pixels, prompts) => runImageBatch(session, spec, image, pixels, prompts),
  });
}
