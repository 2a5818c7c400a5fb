// Image reward models (CLIP-style, ImageReward-style): what they read of an item (the response's one
// generated image, and the prompt's text as tokens if the graph reads tokens), a batch's feeds, and the
// probe that proves the graph takes what Arbiter makes before the model is added.
import type * as ort from 'onnxruntime-node';
import { onnxRuntime } from '../base/native';
import type { Content } from '../../../shared/domain';
import { holdsImages, imagesOf } from '../../../shared/images';
import { videosOf } from '../../../shared/videos';
import { padBatch, type Sequence } from './batching';
import { toTensor } from './imageInputs';
import { cutToBudget, promptText } from './inputs';
import type { TextTokenizer } from './tokenize';
import { runBatch, type OutputTensor } from './session';
import type { ImageInputSpec, ModelSpec } from './types';
import { IMAGE_MODEL_VIDEO, IMAGE_PROMPT, TEXT_RESPONSE } from './unscorable';

/** What an image model reads for one response: its image's sha256, or why there is none to read. */
export type ImageTarget = { sha256: string } | { unscorable: string };

/**
 * The one image an image model scores in a response, or a sentence saying why the response has none
 * it can score. The prompt is read as text only, so a prompt holding images is refused too.
 */
export function imageTarget(prompt: Content, response: Content): ImageTarget {
  if (holdsImages(prompt)) return { unscorable: IMAGE_PROMPT };
  const images = imagesOf(response, 0);
  if (images.length === 0) {
    if (holdsImages(response)) return { unscorable: 'its image was kept as the file wrote it, not stored (imported before Arbiter stored images): import the file again to score it' };
    return { unscorable: videosOf(response).length ? IMAGE_MODEL_VIDEO : TEXT_RESPONSE };
  }
  if (images.length > 1) return { unscorable: `the response holds ${images.length} images; an image reward model scores one image per response` };
  const part = images[0]!.image;
  if (!part.image) return { unscorable: `its image is ${part.unavailable ?? 'not stored'}, so there are no pixels to score` };
  return { sha256: part.image.sha256 };
}

/** The prompt's text as the model's tokens (its single-text template, cut to max length on the configured side). */
export function encodePromptText(spec: ModelSpec, tok: TextTokenizer, prompt: Content): Sequence & { truncated: boolean } {
  if (!spec.inputs.length) return { ids: [], typeIds: [], truncated: false };
  const all = tok.tokens(promptText(prompt));
  const [cut] = cutToBudget(all, [], spec.maxLength - tok.specialsCount(false), spec.truncationSide);
  const { tokens, typeIds } = tok.withSpecials(cut, null);
  return { ids: tok.ids(tokens), typeIds, truncated: cut.length < all.length };
}

/** Runs `rows` images (pixel values [rows, 3, H, W], filled in place) with their prompts' tokens. */
export function runImageBatch(session: ort.InferenceSession, spec: ModelSpec, image: ImageInputSpec, pixels: Float32Array, prompts: Sequence[]): Promise<OutputTensor> {
  const rows = prompts.length;
  const batch = padBatch(prompts, spec.inputs, spec.padTokenId, spec.paddingSide);
  const tensor = new (onnxRuntime().Tensor)('float32', pixels.length === rows * 3 * image.height * image.width ? pixels : pixels.subarray(0, rows * 3 * image.height * image.width), [rows, 3, image.height, image.width]);
  return runBatch(session, batch, spec.output.name, { [image.input]: tensor });
}

const PROBE_PROMPT = 'a red apple on a table';

/**
 * Runs the graph once on a mid-grey image and the probe prompt (and, when it reads tokens, once with the
 * largest token id the tokenizer can produce): outputs of the wrong shape, or a tokenizer that does not
 * belong to the model, are errors in words before the model is added.
 */
export async function probeImageModel(session: ort.InferenceSession, spec: ModelSpec, tok: TextTokenizer, check: (out: OutputTensor) => void): Promise<void> {
  const image = spec.image!;
  const grey = new Uint8Array(image.width * image.height * 3).fill(128);
  const pixels = toTensor(grey, image.width, image.height, image.preprocess, image);
  await probeRuns(spec, tok, `a ${image.height} × ${image.width} image`, async (sequence) => check(await runImageBatch(session, spec, image, pixels, [sequence])));
}

/**
 * The probe's runs, for image and video models alike: once with the probe prompt's tokens (`what` names the
 * pixels), and, when the graph reads tokens, once with the largest id the tokenizer can produce.
 */
export async function probeRuns(spec: ModelSpec, tok: TextTokenizer, what: string, run: (sequence: Sequence) => Promise<void>, prompt = encodePromptText(spec, tok, PROBE_PROMPT)): Promise<void> {
  try {
    await run(prompt);
  } catch (error) {
    throw new Error(`model.onnx failed on ${what}${spec.inputs.length ? ' and a tokenized prompt' : ''}: ${firstLine(error)}`);
  }
  if (!spec.inputs.length) return;
  try {
    await run({ ids: [tok.maxTokenId], typeIds: [0] });
  } catch (error) {
    throw new Error(`model.onnx rejects token id ${tok.maxTokenId}, which tokenizer.json can produce: the tokenizer does not belong to this model (onnxruntime: ${firstLine(error)})`);
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
