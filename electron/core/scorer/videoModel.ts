// Video reward models (a frame stack: pixel_values [batch, frames, 3, H, W], optionally with the prompt's
// tokens): what they read of an item (the response's one generated video), a batch's feeds, each sampled
// frame made into pixel values as an image model's image is (crop, rescale, normalise; the resize is
// ffmpeg's when it decodes, else resample.ts's Pillow port), and the probe that proves the graph takes what
// Arbiter makes before it is added.
import type * as ort from 'onnxruntime-node';
import { onnxRuntime } from '../base/native';
import type { Content } from '../../../shared/domain';
import { holdsImages } from '../../../shared/images';
import { videosOf } from '../../../shared/videos';
import { padBatch, type Sequence } from './batching';
import { resizedSize, toTensor } from './imageInputs';
import { encodePromptText, probeRuns } from './imageModel';
import { resizeRgb } from './resample';
import { runBatch, type OutputTensor } from './session';
import type { TextTokenizer } from './tokenize';
import type { ImageInputSpec, ModelSpec } from './types';
import { VIDEO_MODEL_IMAGE, VIDEO_PROMPT, VIDEO_TEXT_RESPONSE } from './unscorable';

/** What a video model reads for one response: its stored video, or why there is none to read. */
export type VideoTarget = { sha256: string; width: number; height: number; duration: number | null } | { unscorable: string };

/** The one video a video model scores in a response, or a sentence saying why the response has none it can score. */
export function videoTarget(prompt: Content, response: Content): VideoTarget {
  if (holdsImages(prompt) || videosOf(prompt).length) return { unscorable: VIDEO_PROMPT };
  const videos = videosOf(response);
  if (videos.length === 0) return { unscorable: holdsImages(response) ? VIDEO_MODEL_IMAGE : VIDEO_TEXT_RESPONSE };
  if (videos.length > 1) return { unscorable: `the response holds ${videos.length} videos; a video reward model scores one video per response` };
  const part = videos[0]!;
  if (!part.video) return { unscorable: `its video is ${part.unavailable ?? 'not stored'}, so there are no frames to score` };
  const { sha256, width, height, duration } = part.video;
  if (!width || !height) return { unscorable: `its video's size could not be read at import (${part.video.damaged ?? 'no video track found'}), so its frames cannot be decoded` };
  return { sha256, width, height, duration };
}

/** Values in one frame's pixel tensor [3, H, W]. */
export const framePlane = (image: ImageInputSpec) => 3 * image.height * image.width;

/**
 * Preprocesses `frames` decoded RGB frames (each width × height, one after the other in `rgb`) into
 * `out` at `offset`: each resized, cropped, rescaled and normalised as an image model's image.
 */
export function framesToTensor(rgb: Uint8Array, width: number, height: number, frames: number, image: ImageInputSpec, out: Float32Array, offset: number): void {
  const p = image.preprocess;
  const target = resizedSize(width, height, p.resize);
  const frameBytes = width * height * 3;
  const plane = framePlane(image);
  for (let k = 0; k < frames; k++) {
    const frame = rgb.subarray(k * frameBytes, (k + 1) * frameBytes);
    const resized = target.width === width && target.height === height ? frame : resizeRgb(frame, width, height, target.width, target.height, p.resample);
    toTensor(resized, target.width, target.height, p, image, out, offset + k * plane);
  }
}

/** Runs `prompts.length` videos (pixel values [rows, frames, 3, H, W], filled in place) with their prompts' tokens. */
export function runVideoBatch(session: ort.InferenceSession, spec: ModelSpec, image: ImageInputSpec, pixels: Float32Array, prompts: Sequence[]): Promise<OutputTensor> {
  const rows = prompts.length;
  const frames = image.video!.frames;
  const size = rows * frames * framePlane(image);
  const batch = padBatch(prompts, spec.inputs, spec.padTokenId, spec.paddingSide);
  const tensor = new (onnxRuntime().Tensor)('float32', pixels.length === size ? pixels : pixels.subarray(0, size), [rows, frames, 3, image.height, image.width]);
  return runBatch(session, batch, spec.output.name, { [image.input]: tensor });
}

const PROBE_PROMPT = 'a red car driving along a road';

/**
 * Runs the graph once on a stack of mid-grey frames and the probe prompt (and, when it reads tokens,
 * once with the largest token id the tokenizer can produce), as the image models' probe does.
 */
export async function probeVideoModel(session: ort.InferenceSession, spec: ModelSpec, tok: TextTokenizer, check: (out: OutputTensor) => void): Promise<void> {
  const image = spec.image!;
  const frames = image.video!.frames;
  const grey = new Uint8Array(image.width * image.height * 3 * frames).fill(128);
  const pixels = new Float32Array(frames * framePlane(image));
  framesToTensor(grey, image.width, image.height, frames, { ...image, preprocess: { ...image.preprocess, resize: null } }, pixels, 0);
  const prompt = encodePromptText(spec, tok, PROBE_PROMPT);
  await probeRuns(spec, tok, `${frames} frames of ${image.height} × ${image.width}`, async (sequence) => check(await runVideoBatch(session, spec, image, pixels, [sequence])), prompt);
}

