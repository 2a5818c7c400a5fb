// The score job's pass over a project with a video model: each response's one video (read from the video
// store), its frames sampled at the model's rate, decoded and resized by ffmpeg (videoFrames.ts), cropped
// and normalised as images, and its prompt's tokens, in batches. While a batch runs, the next batch's videos are decoded
// (ffmpeg is a child process per video, so decoding overlaps onnxruntime's session.run on this thread: mediaPass.ts).
// A video that cannot be decoded makes its response unscorable with the reason; the job goes on.
import type * as ort from 'onnxruntime-node';
import type { ItemRecord } from '../../../shared/domain';
import { videoFile, videoStoreDir } from '../videos/store';
import type { ImagePassHooks, ImageRow } from './imageJob';
import { resizedSize } from './imageInputs';
import { scoreMediaPass } from './mediaPass';
import type { TextTokenizer } from './tokenize';
import type { ModelSpec } from './types';
import { decodeFrames, decodeFramesBySeeking, samplingRate, SEEK_FROM_SECONDS, VideoReadError } from './videoFrames';
import { framePlane, framesToTensor, runVideoBatch, videoTarget } from './videoModel';

interface VideoRow extends ImageRow {
  width: number;
  height: number;
  duration: number | null;
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
export function scoreVideoPass(
  items: Iterable<ItemRecord>,
  imageStore: string,
  spec: ModelSpec,
  session: ort.InferenceSession,
  tok: TextTokenizer,
  batchSize: number,
  hooks: ImagePassHooks,
): Promise<boolean> {
  const image = spec.image!;
  const store = videoStoreDir(imageStore);
  return scoreMediaPass(items, spec, tok, batchSize, hooks, {
    stride: image.video!.frames * framePlane(image),
    target: (item, responseIndex) => videoTarget(item.prompt, item.responses[responseIndex]!.content),
    file: (target) => videoFile(store, target.sha256),
    missing: (file) => `its video is not in the video store (${file}): import the file again to store it`,
    row: (base, target): VideoRow => ({ ...base, width: target.width, height: target.height, duration: target.duration }),
    // ffmpeg is a child process per video: a batch's videos decode in parallel.
    decode: (row, pixels, offset) => prepareVideo(row, spec, pixels, offset),
    run: (pixels, prompts) => runVideoBatch(session, spec, image, pixels, prompts),
  });
}
