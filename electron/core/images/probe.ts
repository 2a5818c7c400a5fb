// What an image's header says, read without decoding it (image-size: sync, a few bytes, so an import
// worker can ask it of every image): its type, and its size as shown (after EXIF orientation). Anything
// that is not an image Arbiter can show, or is bigger than the limits allow (imageMaxBytes,
// imageMaxPixels: a small file claiming 60000 × 60000 pixels is a decompression bomb), is refused with
// a sentence; the caller says where (the field and the path).
import { imageSize } from 'image-size';
import { formatBytes, limit, limitEnvName } from '../base/limits';

/** The types Arbiter stores (image-size's names), and their content types. */
const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  avif: 'image/avif',
};

const TAKEN = 'PNG, JPEG, WebP, GIF, AVIF, BMP, TIFF or SVG';

/** Image-size's names of the types it knows that Arbiter does not store, as people call them. */
const OTHER: Record<string, string> = {
  heif: 'HEIF', heic: 'HEIC', psd: 'Photoshop (PSD)', ico: 'icon (ICO)', cur: 'cursor (CUR)', icns: 'Apple icon (ICNS)', dds: 'DDS texture', ktx: 'KTX texture',
  pnm: 'PNM', tga: 'TGA', jp2: 'JPEG 2000', j2c: 'JPEG 2000', jxl: 'JPEG XL', 'jxl-stream': 'JPEG XL',
};

export interface ProbedImage {
  mime: string;
  /** As shown: EXIF orientations 5 to 8 (a quarter turn) swap the stored width and height. */
  width: number;
  height: number;
}

/** A refusal of an image, in a sentence without a place (the caller prefixes the field and the path). */
export class ImageRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageRefusal';
  }
}

export interface ImageBounds {
  maxBytes: number;
  maxPixels: number;
}

/** Read once per chunk (an environment variable may set them), not per image. */
export function imageBounds(): ImageBounds {
  return { maxBytes: limit('imageMaxBytes'), maxPixels: limit('imageMaxPixels') };
}

/** The sentence for an image of `size` bytes over the limit (checked before the bytes are read or decoded). */
export function tooManyBytes(size: number, maxBytes: number): string {
  return `the image is ${formatBytes(size)}, more than the ${formatBytes(maxBytes)} one image may be (${limitEnvName('imageMaxBytes')} raises it)`;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The header's type and size; an ImageRefusal for anything Arbiter does not store. */
export function probeImage(bytes: Uint8Array, bounds: ImageBounds = imageBounds()): ProbedImage {
  if (bytes.byteLength > bounds.maxBytes) throw new ImageRefusal(tooManyBytes(bytes.byteLength, bounds.maxBytes));
  if (bytes.byteLength === 0) throw new ImageRefusal('not an image: it is empty (0 bytes)');
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch (error) {
    const message = (error as Error).message;
    const type = /unsupported file type: (\S+)/.exec(message)?.[1];
    // image-size names the type whose header it could not read ("Invalid PNG", "Corrupt JPG, …").
    const damaged = /^(?:Invalid|Corrupt) (\w+)/.exec(message)?.[1];
    if (damaged) throw new ImageRefusal(`a ${damaged === 'JPG' ? 'JPEG' : damaged} file whose header is damaged or cut short`);
    if (type && type !== 'undefined') throw new ImageRefusal(`a ${OTHER[type] ?? type.toUpperCase()} image whose size cannot be read from its header (the header is damaged)`);
    if (!(error instanceof TypeError)) throw new ImageRefusal('not an image, or a damaged one: its header cannot be read');
    throw new ImageRefusal(`not an image: its bytes are not ${TAKEN}${looksLikeText(bytes) ? ' (it starts like text)' : ''}`);
  }
  const type = size.type ?? '';
  const mime = MIME[type];
  if (!mime) throw new ImageRefusal(`a ${OTHER[type] ?? type.toUpperCase()} image, which Arbiter does not store (it takes ${TAKEN}); convert it to PNG`);
  const { width, height } = size;
  if (!(Number.isSafeInteger(width) && Number.isSafeInteger(height) && width > 0 && height > 0))
    throw new ImageRefusal(`a ${type.toUpperCase()} image whose header gives no size (${width} × ${height}); the file is damaged`);
  if (width * height > bounds.maxPixels)
    throw new ImageRefusal(
      `the image is ${width} × ${height} pixels (${count(width * height)}), more than the ${count(bounds.maxPixels)} one image may have (${limitEnvName('imageMaxPixels')} raises it)`,
    );
  const turned = size.orientation !== undefined && size.orientation >= 5 && size.orientation <= 8;
  return { mime, width: turned ? height : width, height: turned ? width : height };
}

function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 64);
  for (const b of head) if (b < 9 || (b > 13 && b < 32)) return false;
  return true;
}
