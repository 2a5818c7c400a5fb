// The score job's pass over a project with an image model: each response's one image (read from the
// image store) and its prompt's tokens, in batches. While a batch runs, the next batch's images are
// decoded and resized: sharp works on libvips' threads, and onnxruntime-node's session.run holds this
// one, so the two overlap. An image that cannot be read makes its response unscorable with the reason;
// the job goes on.
import { existsSync } from 'node:fs';
import type * as ort from 'onnxruntime-node';
import type { ItemRecord } from '../../../shared/domain';
import { imageFile } from '../images/store';
import type { Sequence } from './batching';
import { ImageReadError, preprocessImage } from './imageInputs';
import { encodePromptText, imageTarget, runImageBatch } from './imageModel';
import { outcomeScores, type ExampleScore } from './readout';
import type { TextTokenizer } from './tokenize';
import type { ModelSpec } from './types';

export interface ImageRow {
  hash: string;
  itemId: number;
  responseIndex: number;
  file: string;
  prompt: Sequence;
  /** How the summary names it, should it get no score. */
  where: string;
}

export interface ImagePassHooks {
  /** The rows still to score (from pass 1); each is deleted from it when taken. */
  pending: Set<string>;
  hashOf(item: ItemRecord, responseIndex: number): string;
  where(item: ItemRecord, responseIndex: number): string;
  /** A response that gets no score and is not written (it is tried again next job). */
  skip(reason: string, where: string): void;
  /** A batch's scores (reward null with noScore: written, with its reason). */
  scored(rows: ImageRow[], scores: ExampleScore[], promptTokens: number): void;
  truncated(): void;
  isCancelled(): boolean;
}

interface Prepared {
  rows: ImageRow[];
  pixels: Float32Array;
}

/** Why an image's bytes could not become pixel values, said for people. */
export function imageReadReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) return `its image is larger than Arbiter opens (imageMaxPixels): ${message}`;
  return `its image could not be read (damaged, or not an image sharp can decode): ${message}`;
}

/** Scores every pending response of the items with an image model; returns whether it was cancelled. */
export async function scoreImagePass(
  items: Iterable<ItemRecord>,
  storeDir: string,
  spec: ModelSpec,
  session: ort.InferenceSession,
  tok: TextTokenizer,
  batchSize: number,
  hooks: ImagePassHooks,
): Promise<boolean> {
  const image = spec.image!;
  const plane = 3 * image.height * image.width;

  // Decodes a batch's images into one buffer; a row whose image cannot be read is reported and dropped.
  const prepare = async (rows: ImageRow[]): Promise<Prepared> => {
    const pixels = new Float32Array(rows.length * plane);
    const results = await Promise.all(
      rows.map((row, k) =>
        preprocessImage(row.file, image.preprocess, image, pixels, k * plane).then(
          () => null,
          (error: unknown) => (error instanceof ImageReadError ? imageReadReason(error) : imageReadReason(new Error((error as Error).message))),
        ),
      ),
    );
    const kept: ImageRow[] = [];
    results.forEach((reason, k) => {
      if (reason !== null) {
        hooks.skip(reason, rows[k]!.where);
        return;
      }
      if (kept.length !== k) pixels.copyWithin(kept.length * plane, k * plane, (k + 1) * plane);
      kept.push(rows[k]!);
    });
    return { rows: kept, pixels };
  };

  const run = async ({ rows, pixels }: Prepared) => {
    if (!rows.length) return;
    const out = await runImageBatch(session, spec, image, pixels, rows.map((r) => r.prompt));
    hooks.scored(rows, outcomeScores(spec, out, rows.length), rows.reduce((n, r) => n + r.prompt.ids.length, 0));
  };

  let gathering: ImageRow[] = [];
  let decoding: Promise<Prepared> | null = null;
  // Starts decoding the gathered rows, then runs the batch decoded before (the two overlap).
  const advance = async () => {
    const next = gathering.length ? prepare(gathering) : null;
    gathering = [];
    if (decoding) await run(await decoding);
    decoding = next;
  };

  for (const item of items) {
    // The prompt's tokens depend on the item only: encoded once, for its first response to score.
    let itemPrompt: ReturnType<typeof encodePromptText> | undefined;
    for (const responseIndex of item.responses.keys()) {
      const hash = hooks.hashOf(item, responseIndex);
      if (!hooks.pending.delete(hash)) continue;
      const where = hooks.where(item, responseIndex);
      const target = imageTarget(item.prompt, item.responses[responseIndex]!.content);
      if ('unscorable' in target) {
        hooks.skip(target.unscorable, where);
        continue;
      }
      const file = imageFile(storeDir, target.sha256);
      if (!existsSync(file)) {
        hooks.skip(`its image is not in the image store (${file}): import the file again to store it`, where);
        continue;
      }
      const prompt = (itemPrompt ??= encodePromptText(spec, tok, item.prompt));
      if (prompt.truncated) hooks.truncated();
      gathering.push({ hash, itemId: item.id, responseIndex, file, prompt, where });
      if (gathering.length >= batchSize) {
        if (hooks.isCancelled()) {
          if (decoding) await decoding;
          return true;
        }
        await advance();
      }
    }
  }
  if (hooks.isCancelled()) {
    if (decoding) await decoding;
    return true;
  }
  await advance();
  await advance();
  return false;
}
