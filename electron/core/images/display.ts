// What a page is sent for a stored image (design "Serving"). The original, when it is a PNG, JPEG, WebP
// or GIF no longer than imageDisplayMaxEdge on either side, at most 16 MiB, upright (no EXIF rotation
// to apply) and decodes to the end; otherwise a display copy made by sharp: WebP, longest edge at most
// imageDisplayMaxEdge, turned upright by its EXIF orientation; an SVG drawn to a PNG (an SVG is never
// sent as image/svg+xml, so it can never run as a document). Copies and the "original is fine" verdicts
// are kept under `<store>/display/` (written to a temp file, then renamed), so each image is decoded once.
//
// sharp (libvips) decodes on libuv's thread pool, not on the event loop: the host keeps answering while
// an 8k × 8k copy is made (measured: an 8192 × 8192 JPEG of 48 MB took 2.8 s to copy, the event loop
// never waited more than 13 ms). At most two decodes run at once, so two huge images cannot take all of
// the pool (file reads use it too) or all the memory.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sharpModule } from '../base/native';
import { SHA256_HEX } from '../../../shared/images';
import { limit, limitEnvName } from '../base/limits';
import { imageFile } from './store';

/** The largest original a page is sent as it is; a bigger one is sent as a (smaller) display copy. */
export const ORIGINAL_MAX_BYTES = 16 * 1024 * 1024;
/** WebP cannot be wider or taller than this. */
const WEBP_MAX_EDGE = 16383;
/** Formats every browser draws, sent as they are when small enough; their content types. */
const PAGE_FORMATS: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };
/** Content types of the originals a download may carry (never image/svg+xml: an SVG is a document). */
const ORIGINAL_TYPES: Record<string, string> = { ...PAGE_FORMATS, avif: 'image/avif', heif: 'image/heif', tiff: 'image/tiff', bmp: 'image/bmp' };
const EXTENSIONS: Record<string, string> = { jpeg: 'jpg', svg: 'svg', tiff: 'tif' };

export type DisplayAnswer =
  /** `name`: a file name for a download of the original. */
  | { ok: true; file: string; type: string; size: number; copy: boolean; name?: string }
  | { ok: false; status: 404 | 422; message: string };

interface Metadata {
  format: string;
  width: number;
  height: number;
  orientation: number;
  size: number;
}

/** Runs `job` when fewer than two decodes are running. */
const MAX_DECODES = 2;
let decoding = 0;
const waiting: (() => void)[] = [];
async function oneOfFew<T>(job: () => Promise<T>): Promise<T> {
  if (decoding >= MAX_DECODES) await new Promise<void>((go) => waiting.push(go));
  decoding++;
  try {
    return await job();
  } finally {
    decoding--;
    waiting.shift()?.();
  }
}

/** One answer in the making per image: a second request for it waits for the first. */
const inFlight = new Map<string, Promise<DisplayAnswer>>();

function displayFile(store: string, sha256: string, ending: string): string {
  return join(store, 'display', sha256.slice(0, 2), `${sha256}.${ending}`);
}

async function writeOnce(file: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

/** libvips' words, without its prefixes and trailing newline: "libpng read error". */
function vipsReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .replace(/^Input (file|buffer) (is missing|has corrupt header):\s*/i, '')
    .replace(/^\w+load(_buffer|_source)?:\s*/i, '')
    .replace(/^vips\w*:\s*/i, '')
    .split('\n')[0]!
    .trim();
}

const MISSING: DisplayAnswer = {
  ok: false,
  status: 404,
  message: 'The image store does not hold this image (its file is missing). Import the dataset again.',
};

const NOT_AN_IMAGE =
  'Not an image: its bytes are not PNG, JPEG, WebP, GIF, AVIF, TIFF, SVG or another format Arbiter can draw. Check the file it came from.';

function damaged(error: unknown): DisplayAnswer {
  return { ok: false, status: 422, message: `The image is damaged or truncated (its decoder stopped with “${vipsReason(error)}”). Check the file it came from and import it again.` };
}

function svgUnreadable(error: unknown): DisplayAnswer {
  return {
    ok: false,
    status: 422,
    message: `This SVG could not be drawn: ${vipsReason(error)}. An SVG is shown as a picture only (drawn to PNG), never as a page.`,
  };
}

function tooManyPixels(meta: Metadata, most: number): DisplayAnswer {
  const pixels = meta.width * meta.height;
  return {
    ok: false,
    status: 422,
    message:
      `The image is ${meta.width} × ${meta.height} pixels (${pixels.toLocaleString('en-US')}), more than the ${most.toLocaleString('en-US')} an image may have, ` +
      `so it is not decoded. Start Arbiter with ${limitEnvName('imageMaxPixels')} set higher to see it.`,
  };
}

/** The header's facts (sharp reads the header only), or null when the bytes are no image it knows. */
async function metadataOf(file: string, size: number): Promise<Metadata | null> {
  try {
    // Header only: no pixel limit here (sharp's default would refuse a bomb as if it were no image); the
    // caller compares the dimensions with imageMaxPixels and says so.
    const meta = await sharpModule()(file, { limitInputPixels: false }).metadata();
    if (!meta.format || !meta.width || !meta.height) return null;
    return { format: meta.format, width: meta.width, height: meta.height, orientation: meta.orientation ?? 1, size };
  } catch {
    return null;
  }
}

/** The format whose signature opens `head` (PNG, JPEG, GIF, WebP, BMP, TIFF, AVIF/HEIF), or null. */
function imageSignature(head: Buffer): string | null {
  const ascii = head.toString('latin1');
  if (ascii.startsWith('\x89PNG\r\n\x1a\n')) return 'PNG';
  if (ascii.startsWith('\xff\xd8\xff')) return 'JPEG';
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'GIF';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'WebP';
  if (ascii.startsWith('BM') && head.length >= 10 && head.readUInt32LE(6) === 0) return 'BMP';
  if (ascii.startsWith('II*\0') || ascii.startsWith('MM\0*')) return 'TIFF';
  if (ascii.slice(4, 8) === 'ftyp') return 'AVIF or HEIF';
  return null;
}

async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether the page can be sent the original as it is (before checking that it decodes). */
function originalFits(meta: Metadata, maxEdge: number): boolean {
  return meta.format in PAGE_FORMATS && Math.max(meta.width, meta.height) <= maxEdge && meta.size <= ORIGINAL_MAX_BYTES && meta.orientation === 1;
}

async function makeAnswer(store: string, sha256: string, source: string): Promise<DisplayAnswer> {
  const maxEdge = Math.min(limit('imageDisplayMaxEdge'), WEBP_MAX_EDGE);
  const maxPixels = limit('imageMaxPixels');
  const verdict = displayFile(store, sha256, 'original');
  const webp = displayFile(store, sha256, 'webp');
  const png = displayFile(store, sha256, 'png');
  // Made before: the original was checked, or a copy is there.
  const checked = await readFile(verdict, 'utf8').catch(() => null);
  if (checked !== null && Object.values(PAGE_FORMATS).includes(checked)) {
    const size = await sizeOf(source);
    if (size !== null) return { ok: true, file: source, type: checked, size, copy: false };
  }
  for (const [file, type] of [[webp, 'image/webp'], [png, 'image/png']] as const) {
    const size = await sizeOf(file);
    if (size !== null) return { ok: true, file, type, size, copy: true };
  }

  const size = await sizeOf(source);
  if (size === null) return MISSING;
  const meta = await metadataOf(source, size);
  if (meta === null) {
    const named = imageSignature(await readHead(source, 16));
    return named ? damaged(new Error(`it starts as a ${named} but its header cannot be read`)) : { ok: false, status: 422, message: NOT_AN_IMAGE };
  }

  if (meta.format === 'svg') {
    // Drawn from the bytes, not the file: with no base folder, librsvg loads nothing the SVG refers to.
    const bytes = await readFile(source).catch(() => null);
    if (bytes === null) return MISSING;
    const scale = Math.min(2, maxEdge / Math.max(meta.width, meta.height));
    if (Math.round(meta.width * scale) * Math.round(meta.height * scale) > maxPixels) return tooManyPixels(meta, maxPixels);
    let drawn: Buffer;
    try {
      drawn = await oneOfFew(() =>
        sharpModule()(bytes, { density: Math.max(1, 72 * scale), limitInputPixels: maxPixels })
          .resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true })
          .png()
          .toBuffer(),
      );
    } catch (error) {
      return svgUnreadable(error);
    }
    await writeOnce(png, drawn);
    return { ok: true, file: png, type: 'image/png', size: drawn.length, copy: true };
  }

  if (meta.width * meta.height > maxPixels) return tooManyPixels(meta, maxPixels);
  if (originalFits(meta, maxEdge)) {
    // Sent as it is, once it is seen to decode to its last row (a truncated PNG has a fine header).
    try {
      await oneOfFew(() => sharpModule()(source, { limitInputPixels: maxPixels }).stats());
    } catch (error) {
      return damaged(error);
    }
    const type = PAGE_FORMATS[meta.format]!;
    await writeOnce(verdict, type);
    return { ok: true, file: source, type, size: meta.size, copy: false };
  }
  let copy: Buffer;
  try {
    copy = await oneOfFew(() =>
      sharpModule()(source, { limitInputPixels: maxPixels })
        .rotate()
        .resize({ width: maxEdge, height: maxEdge, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 85 })
        .toBuffer(),
    );
  } catch (error) {
    return damaged(error);
  }
  await writeOnce(webp, copy);
  return { ok: true, file: webp, type: 'image/webp', size: copy.length, copy: true };
}

/**
 * What to send a page for image `sha256` of the store `store`: a file and its content type (the original
 * or a display copy), or a 404 / 422 with a sentence for the image's box.
 */
export function displayImage(store: string, sha256: string): Promise<DisplayAnswer> {
  if (!SHA256_HEX.test(sha256)) return Promise.resolve({ ok: false, status: 404, message: 'That is not an image hash (64 lower-case hex digits).' });
  const key = `${store}\0${sha256}`;
  let answer = inFlight.get(key);
  if (!answer) {
    answer = makeAnswer(store, sha256, imageFile(store, sha256)).finally(() => inFlight.delete(key));
    inFlight.set(key, answer);
  }
  return answer;
}

/**
 * The stored bytes as they are, for a download: their own content type when it is a picture format, else
 * application/octet-stream (an SVG is a document: it is never sent as image/svg+xml), and a file name.
 */
export async function originalImage(store: string, sha256: string): Promise<DisplayAnswer> {
  if (!SHA256_HEX.test(sha256)) return { ok: false, status: 404, message: 'That is not an image hash (64 lower-case hex digits).' };
  const file = imageFile(store, sha256);
  const size = await sizeOf(file);
  if (size === null) return MISSING;
  const meta = await metadataOf(file, size);
  const format = meta?.format;
  const type = (format && ORIGINAL_TYPES[format]) || 'application/octet-stream';
  const ending = format ? (EXTENSIONS[format] ?? format) : 'bin';
  return { ok: true, file, type, size, copy: false, name: `${sha256}.${ending}` };
}
