// Pixel values for image reward models, made the way Hugging Face's image processors make them from
// preprocessor_config.json (CLIPImageProcessor's fields; transformers' PIL backend is the reference:
// image_transforms.py resize / center_crop / rescale / normalize, in that order):
//   decode (sharp) → EXIF orientation → RGB (alpha dropped, grey repeated) → resize as Pillow does
//   (resample.ts; the shortest edge to size.shortest_edge and the long edge int(size · long / short), or
//   exactly size.height × size.width) → centre crop (top = (H − crop_h) // 2, black where the image is
//   smaller) → × rescale_factor → (x − mean) / std per channel → float32, channels first [3, H, W].
// The arithmetic is numpy's float32, so from the same decoded pixels the values are transformers' to the
// bit (test/scorer/image-preprocess-python.test.ts checks it against transformers itself).
import { sharpModule } from '../base/native';
import { limit } from '../base/limits';
import { PREPROCESSOR_FILE } from './modelFolder';
import { resizeRgb } from './resample';
import type { ImagePreprocess } from './types';

/** CLIPImageProcessor's defaults (transformers: OPENAI_CLIP_MEAN / OPENAI_CLIP_STD), used for fields the file leaves out. */
const CLIP_MEAN: [number, number, number] = [0.48145466, 0.4578275, 0.40821073];
const CLIP_STD: [number, number, number] = [0.26862954, 0.26130258, 0.27577711];

/** PIL's resampling filters by number (PIL.Image.Resampling), as preprocessor_config.json writes them. */
const RESAMPLE: Record<number, ImagePreprocess['resample']> = { 0: 'nearest', 1: 'lanczos', 2: 'bilinear', 3: 'bicubic', 4: 'box', 5: 'hamming' };

/** Keys that would change the pixels in a way Arbiter does not reproduce: refused when they ask for it. */
const UNSUPPORTED: Record<string, string> = {
  do_pad: 'padding to a fixed size',
  do_image_splitting: 'splitting an image into tiles',
  image_grid_pinpoints: 'tiling by grid',
  min_pixels: 'dynamic resolution',
  max_pixels: 'dynamic resolution',
  patch_size: 'patching into the input',
  do_reduce_labels: 'label maps',
};
/** Keys read here, and the ones that carry no processing (names, lists of valid keys). */
const READ = ['do_resize', 'size', 'resample', 'do_center_crop', 'crop_size', 'do_rescale', 'rescale_factor', 'do_normalize', 'image_mean', 'image_std', 'do_convert_rgb'];
const INERT = ['image_processor_type', 'feature_extractor_type', 'processor_class', '_valid_processor_keys', 'auto_map', 'default_to_square', 'use_square_size', 'data_format', 'input_data_format', 'return_tensors'];

export interface ParsedPreprocessor {
  preprocess: ImagePreprocess;
  /** The tensor's height and width after it (null: it depends on each image, which a batch cannot hold). */
  height: number;
  width: number;
  warnings: string[];
}

type Json = Record<string, unknown>;

const where = (key: string) => `${PREPROCESSOR_FILE} "${key}"`;

function positiveInt(value: unknown, key: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 16384) throw new Error(`${where(key)} must be a whole number of pixels from 1 to 16384, not ${JSON.stringify(value)}`);
  return value;
}

function flag(json: Json, key: string, fallback: boolean): boolean {
  const value = json[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw new Error(`${where(key)} must be true or false, not ${JSON.stringify(value)}`);
  return value;
}

function triple(value: unknown, key: string, fallback: [number, number, number]): [number, number, number] {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number' && Number.isFinite(value)) return [value, value, value];
  if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'number' && Number.isFinite(v))) return value as [number, number, number];
  throw new Error(`${where(key)} must be a number or a list of 3 numbers (R, G, B), not ${JSON.stringify(value)}`);
}

/** `size`: {shortest_edge}, {height, width}, or a number (CLIP: the shortest edge; other processors: a square). */
function sizeOf(json: Json, clipLike: boolean): ImagePreprocess['resize'] {
  const size = json.size ?? { shortest_edge: 224 };
  if (typeof size === 'number') return clipLike ? { shortestEdge: positiveInt(size, 'size') } : { height: positiveInt(size, 'size'), width: positiveInt(size, 'size') };
  if (!size || typeof size !== 'object') throw new Error(`${where('size')} must be {"shortest_edge": n} or {"height": h, "width": w}, not ${JSON.stringify(size)}`);
  const s = size as Json;
  // CLIPImageProcessor.resize reads shortest_edge first (a longest_edge beside it is not used).
  if (s.shortest_edge !== undefined) return { shortestEdge: positiveInt(s.shortest_edge, 'size.shortest_edge') };
  if (s.height !== undefined || s.width !== undefined) return { height: positiveInt(s.height, 'size.height'), width: positiveInt(s.width, 'size.width') };
  throw new Error(`${where('size')} is ${JSON.stringify(size)}: Arbiter resizes by {"shortest_edge": n} or {"height": h, "width": w}`);
}

function cropOf(json: Json): { height: number; width: number } {
  const crop = json.crop_size ?? { height: 224, width: 224 };
  if (typeof crop === 'number') return { height: positiveInt(crop, 'crop_size'), width: positiveInt(crop, 'crop_size') };
  if (crop && typeof crop === 'object') {
    const c = crop as Json;
    if (c.height !== undefined || c.width !== undefined) return { height: positiveInt(c.height, 'crop_size.height'), width: positiveInt(c.width, 'crop_size.width') };
    if (c.shortest_edge !== undefined) return { height: positiveInt(c.shortest_edge, 'crop_size.shortest_edge'), width: positiveInt(c.shortest_edge, 'crop_size.shortest_edge') };
  }
  throw new Error(`${where('crop_size')} must be {"height": h, "width": w} or a number, not ${JSON.stringify(crop)}`);
}

/**
 * Reads preprocessor_config.json (its parsed object). Fields it leaves out take CLIPImageProcessor's
 * defaults. Throws an Error naming the field for what Arbiter cannot reproduce.
 */
export function parsePreprocessorConfig(json: Json): ParsedPreprocessor {
  const warnings: string[] = [];
  for (const [key, what] of Object.entries(UNSUPPORTED)) {
    const value = json[key];
    if (value !== undefined && value !== null && value !== false) throw new Error(`${where(key)} asks for ${what}, which Arbiter's image preprocessing does not do: export a model that reads a fixed-size centre crop (see docs/models.md, "Image reward models")`);
  }
  const type = typeof json.image_processor_type === 'string' ? json.image_processor_type : typeof json.feature_extractor_type === 'string' ? json.feature_extractor_type : null;
  const clipLike = type === null || /^CLIP/i.test(type);
  const ignored = Object.keys(json).filter((k) => !READ.includes(k) && !INERT.includes(k) && !(k in UNSUPPORTED));
  if (ignored.length) warnings.push(`${PREPROCESSOR_FILE}: not read: ${ignored.slice(0, 8).join(', ')}${ignored.length > 8 ? ', …' : ''}`);
  if (flag(json, 'do_convert_rgb', true) === false) warnings.push(`${PREPROCESSOR_FILE} says do_convert_rgb false; Arbiter converts every image to RGB all the same (grey and RGBA images could not be read otherwise)`);

  const resize = flag(json, 'do_resize', true) ? sizeOf(json, clipLike) : null;
  let resample: ImagePreprocess['resample'] = 'bicubic';
  if (json.resample !== undefined && json.resample !== null) {
    const r = json.resample;
    const known = typeof r === 'number' ? RESAMPLE[r] : undefined;
    if (known === undefined) throw new Error(`${where('resample')} is ${JSON.stringify(r)}; expected a PIL filter number (0 nearest, 1 lanczos, 2 bilinear, 3 bicubic, 4 box, 5 hamming)`);
    resample = known;
  } else if (resize) warnings.push(`${PREPROCESSOR_FILE} names no resample filter: bicubic, as CLIPImageProcessor`);
  const crop = flag(json, 'do_center_crop', clipLike) ? cropOf(json) : null;
  let rescale: number | null = null;
  if (flag(json, 'do_rescale', true)) {
    const factor = json.rescale_factor ?? 1 / 255;
    if (typeof factor !== 'number' || !Number.isFinite(factor) || factor <= 0) throw new Error(`${where('rescale_factor')} must be a positive number, not ${JSON.stringify(factor)}`);
    rescale = factor;
  }
  let normalize: ImagePreprocess['normalize'] = null;
  if (flag(json, 'do_normalize', true)) {
    const std = triple(json.image_std, 'image_std', CLIP_STD);
    if (std.some((s) => s === 0)) throw new Error(`${where('image_std')} holds 0, which would divide by zero`);
    normalize = { mean: triple(json.image_mean, 'image_mean', CLIP_MEAN), std };
  }

  // The tensor's size: the crop, else an exact resize. A shortest-edge resize alone leaves the long edge
  // to each image's shape, and a batch (and most graphs) needs one size.
  const out = crop ?? (resize && 'height' in resize ? resize : null);
  if (!out) {
    throw new Error(
      `${PREPROCESSOR_FILE} gives no fixed image size (${resize ? 'a shortest-edge resize with no centre crop' : 'no resize and no centre crop'}), so images of different shapes would give tensors of different sizes: ` +
        'Arbiter needs do_center_crop with crop_size, or size {"height", "width"}',
    );
  }
  return { preprocess: { resize, resample, crop, rescale, normalize }, height: out.height, width: out.width, warnings };
}

/** "shortest edge → 224 (bicubic), centre crop 224 × 224, × 1/255, normalised (mean 0.481 0.458 0.408, std 0.269 0.261 0.276)". */
export function describePreprocess(p: ImagePreprocess): string {
  const parts: string[] = ['RGB, EXIF orientation'];
  if (p.resize) parts.push('shortestEdge' in p.resize ? `shortest edge → ${p.resize.shortestEdge} (${p.resample})` : `resize → ${p.resize.height} × ${p.resize.width} (${p.resample})`);
  if (p.crop) parts.push(`centre crop ${p.crop.height} × ${p.crop.width}`);
  if (p.rescale !== null) parts.push(Math.abs(p.rescale * 255 - 1) < 1e-9 ? '× 1/255' : `× ${p.rescale}`);
  if (p.normalize) parts.push(`normalised (mean ${p.normalize.mean.map((m) => m.toFixed(3)).join(' ')}, std ${p.normalize.std.map((s) => s.toFixed(3)).join(' ')})`);
  return parts.join(', ');
}

/** The size a resize gives an image of width × height (transformers' get_resize_output_image_size). */
export function resizedSize(width: number, height: number, resize: ImagePreprocess['resize']): { width: number; height: number } {
  if (!resize) return { width, height };
  if ('height' in resize) return { width: resize.width, height: resize.height };
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  // Python: int(requested_new_short * long / short), a float division truncated.
  const newLong = Math.trunc((resize.shortestEdge * long) / short);
  return width <= height ? { width: resize.shortestEdge, height: newLong } : { width: newLong, height: resize.shortestEdge };
}

/** The image could not be read: decoding failed, or it is larger than Arbiter opens. Its message is a sentence. */
export class ImageReadError extends Error {}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim().slice(0, 200);
}

/**
 * Pixel values [3, height, width] (float32, channels first) for one image: a file path or its bytes.
 * `out` (optional) receives them at `offset`, so a batch is filled in place.
 */
export async function preprocessImage(source: string | Uint8Array, p: ImagePreprocess, size: { height: number; width: number }, out?: Float32Array, offset = 0): Promise<Float32Array> {
  const input = typeof source === 'string' ? source : Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  let raw: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    // Decoded whole, turned upright, sRGB, alpha dropped (PIL's convert('RGB') keeps the colour under it).
    raw = await sharpModule()(input, { limitInputPixels: limit('imageMaxPixels'), failOn: 'error' }).rotate().toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new ImageReadError(firstLine(error));
  }
  const { width, height, channels } = raw.info;
  if (channels !== 3) throw new ImageReadError(`it decodes to ${channels} channels, not RGB`);
  const target = resizedSize(width, height, p.resize);
  const decoded = new Uint8Array(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength);
  const rgb = resizeRgb(decoded, width, height, target.width, target.height, p.resample);
  const [W, H] = [target.width, target.height];
  return toTensor(rgb, W, H, p, size, out, offset);
}

/**
 * Centre crop, rescale and normalise of RGB bytes [H, W, 3] into float32 [3, h, w], in numpy's float32
 * arithmetic: rescale is float64 then cast (image.astype(float64) * scale → float32), normalise is
 * float32 ((x − mean) / std with mean and std as float32 arrays).
 */
export function toTensor(rgb: Uint8Array, W: number, H: number, p: ImagePreprocess, size: { height: number; width: number }, out?: Float32Array, offset = 0): Float32Array {
  const { height: h, width: w } = size;
  const plane = h * w;
  const target = out ?? new Float32Array(3 * plane);
  // transformers' center_crop: top = (orig − crop) // 2 (floor), and black (0) where the crop leaves the image.
  const top = p.crop ? Math.floor((H - h) / 2) : 0;
  const left = p.crop ? Math.floor((W - w) / 2) : 0;
  if (!p.crop && (H !== h || W !== w)) throw new ImageReadError(`it resized to ${W} × ${H}, not ${w} × ${h}`);
  const f = Math.fround;
  const mean = p.normalize?.mean.map(f) ?? [0, 0, 0];
  const std = p.normalize?.std.map(f) ?? [1, 1, 1];
  // Each of the 256 levels maps to one value per channel: a table, then a copy per pixel.
  const table = [0, 1, 2].map((c) => {
    const t = new Float32Array(256);
    for (let v = 0; v < 256; v++) {
      let x = p.rescale !== null ? f(v * p.rescale) : v;
      if (p.normalize) x = f(f(x - mean[c]!) / std[c]!);
      t[v] = x;
    }
    return t;
  });
  const zero = table.map((t) => t[0]!);
  for (let y = 0; y < h; y++) {
    const sy = y + top;
    const rowInside = sy >= 0 && sy < H;
    for (let x = 0; x < w; x++) {
      const sx = x + left;
      const at = offset + y * w + x;
      if (rowInside && sx >= 0 && sx < W) {
        const s = (sy * W + sx) * 3;
        target[at] = table[0]![rgb[s]!]!;
        target[at + plane] = table[1]![rgb[s + 1]!]!;
        target[at + 2 * plane] = table[2]![rgb[s + 2]!]!;
      } else {
        target[at] = zero[0]!;
        target[at + plane] = zero[1]!;
        target[at + 2 * plane] = zero[2]!;
      }
    }
  }
  return target;
}
