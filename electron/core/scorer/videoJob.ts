// The score job's pass over a project with a video model: each response's one video (read from the video
// store), its frames sampled at the model's rate, decoded and resized by ffmpeg (videoFrames.ts), cropped
// and normalised as images, and its prompt's tokens, in batches. While a batch runs, the next batch's videos are decoded
// (ffmpeg is a child process per video, so decoding overlaps onnxruntime's session.run on this thread).
// A video that cannot be decoded makes its response unscorable with the reason; the job goes on.
import { existsSync } from 'node:fs';
import type * as ort from 'onnxruntime-node';
import type { ItemRecord } from '../../../shared/domain';
import { videoFile, videoStoreDir } from '../videos/store';
import type { ImagePassHooks, ImageRow } from './imageJob';
import { resizedSize } from './imageInputs';
import { encodePromptText } from './imageModel';
import { outcomeScores } from './readout';
import type { TextTokenizer } from './tokenize';
import type { ModelSpec } from './types';
import { decodeFrames, decodeFramesBySeeking, samplingRate, SEEK_FROM_SECONDS, VideoReadError } from './videoFrames';
import { framePlane, framesToTensor, runVideoBatch, videoTarget } from './videoModel';

interface VideoRow extends ImageRow {
  width: number;
  height: number;
  duration: number | null;
}

interface Prepared {
  rows: VideoRow[];
  pixels: Float32Array;
}

/** Why a video could not become frames, said for people. */
export function videoReadReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `its video could not be decoded into frames (damaged, or a codec the decoder lacks): ${message}`;
}

/** Decodes one video's sampled frames into `pixels` at `offset`; resolves to null, or the reason it could not. */
async function prepareVideo(row: VideoRow, spec: ModelSpec, pixels: Float32Array, offset: number): Promise<string | null> {
  const image = spec.image!;
  const { frames, fps } = image.video!;
  // ffmpeg scales each frame to the size the processor's resize gives (swscale's bicubic), so a 1080p
  // frame never crosses the pipe whole; the crop, rescale and normalise are the image models' own.
  const size = resizedSize(row.width, row.height, image.preprocess.resize);
  try {
    // A long clip (a robot episode, minutes of footage) is sampled by seeking: a few frames decoded per sample.
    const decode = row.duration !== null && row.duration >= SEEK_FROM_SECONDS ? decodeFramesBySeeking : decodeFrames;
    const { rgb } = await decode(row.file, { frames, fps: samplingRate(fps, frames, row.duration), ...size });
    framesToTensor(rgb, size.width, size.height, frames, image, pixels, offset);
    return null;
  } catch (error) {
    return videoReadReason(error instanceof VideoReadError ? error : new Error((error as Error).message));
  }
}

/** Scores every pending response of the items with a video model; returns whether it was cancelled. */
export async function scoreVideoPass(
  items: Iterable<ItemRecord>,
  imageStore: string,
  spec: ModelSpec,
  session: ort.InferenceSession,
  tok: TextTokenizer,
  batchSize: number,
  hooks: ImagePassHooks,
): Promise<boolean> {
  const image = spec.image!;
  const stack = image.video!.frames * framePlane(image);
  const store = videoStoreDir(imageStore);

  // Decodes a batch's videos (in parallel, one ffmpeg each) into one buffer; a row that fails is reported and dropped.
  const prepare = async (rows: VideoRow[]): Promise<Prepared> => {
    const pixels = new Float32Array(rows.length * stack);
    const results = await Promise.all(rows.map((row, k) => prepareVideo(row, spec, pixels, k * stack)));
    const kept: VideoRow[] = [];
    results.forEach((reason, k) => {
      if (reason !== null) {
        hooks.skip(reason, rows[k]!.where);
        return;
      }
      if (kept.length !== k) pixels.copyWithin(kept.length * stack, k * stack, (k + 1) * stack);
      kept.push(rows[k]!);
    });
    return { rows: kept, pixels };
  };

  const run = async ({ rows, pixels }: Prepared) => {
    if (!rows.length) return;
    const out = await runVideoBatch(session, spec, image, pixels, rows.map((r) => r.prompt));
    hooks.scored(rows, outcomeScores(spec, out, rows.length), rows.reduce((n, r) => n + r.prompt.ids.length, 0));
  };

  let gathering: VideoRow[] = [];
  let decoding: Promise<Prepared> | null = null;
  const advance = async () => {
    const next = gathering.length ? prepare(gathering) : null;
    gathering = [];
    if (decoding) await run(await decoding);
    decoding = next;
  };
  const stop = async () => {
    if (decoding) await decoding;
    return true;
  };

  for (const item of items) {
    let itemPrompt: ReturnType<typeof encodePromptText> | undefined;
    for (const responseIndex of item.responses.keys()) {
      const hash = hooks.hashOf(item, responseIndex);
      if (!hooks.pending.delete(hash)) continue;
      const where = hooks.where(item, responseIndex);
      const target = videoTarget(item.prompt, item.responses[responseIndex]!.content);
      if ('unscorable' in target) {
        hooks.skip(target.unscorable, where);
        continue;
      }
      const file = videoFile(store, target.sha256);
      if (!existsSync(file)) {
        hooks.skip(`its video is not in the video store (${file}): import the file again to store it`, where);
        continue;
      }
      const prompt = (itemPrompt ??= encodePromptText(spec, tok, item.prompt));
      if (prompt.truncated) hooks.truncated();
      gathering.push({ hash, itemId: item.id, responseIndex, file, prompt, where, width: target.width, height: target.height, duration: target.duration });
      if (gathering.length >= batchSize) {
        if (hooks.isCancelled()) return stop();
        await advance();
      }
    }
  }
  if (hooks.isCancelled()) return stop();
  await advance();
  await advance();
  return false;
}
