// Images as Arbiter keeps them. An image is a content part of a message ({type: 'image', …}); its bytes
// are stored once, content-addressed by sha256, in the image store beside the database (core/images).
// The part names the stored bytes and keeps where they came from, so that an export can write the
// shape the file had. An image that cannot be stored (an http URL, which is never fetched) keeps its
// origin and says why it is not shown. Region marks on images live in label revisions (LabelBody.regions).
import type { Content, ContentPart } from './domain';
import type { ImagePlace } from './regions';

export type { ImagePlace, RegionMark } from './regions';
export { REGION_TAGS } from './regions';

/** The stored bytes of an image: what the store holds under `sha256`, as it came (never re-encoded). */
export interface ImageRef {
  /** Lower-case hex sha256 of the original bytes. */
  sha256: string;
  /** image/png, image/jpeg, image/webp, image/gif, image/bmp, image/tiff, image/svg+xml, image/avif… */
  mime: string;
  /** Pixels as shown: after EXIF orientation (a portrait photo stored sideways is taller than wide). */
  width: number;
  height: number;
  /** Size of the original file in bytes. */
  bytes: number;
}

/** Where an image came from, kept for exports and for people. */
export type ImageOrigin =
  /** A path as the file wrote it (relative to the file's folder or the images folder the user picked). */
  | { kind: 'path'; path: string }
  /** An http(s) URL: never fetched, so the image is not available offline. */
  | { kind: 'url'; url: string }
  /** Inline bytes: a data URI or a base64 field. */
  | { kind: 'inline' }
  /** An entry of an image column (TRL's `images`, a Parquet `Image` feature), with the path it carried. */
  | { kind: 'column'; column: string; index: number; path?: string };

/** An image part as stored in a prompt's or response's content. */
export interface ImagePart extends ContentPart {
  type: 'image';
  /** The stored bytes; absent when the image could not be stored (see `unavailable`). */
  image?: ImageRef;
  origin: ImageOrigin;
  /** Why it cannot be shown, for people ("not available offline: http URL"). */
  unavailable?: string;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isImagePart(part: unknown): part is ImagePart {
  if (part === null || typeof part !== 'object') return false;
  const p = part as Partial<ImagePart>;
  return p.type === 'image' && typeof p.origin === 'object' && p.origin !== null;
}


export interface PlacedImage {
  at: ImagePlace;
  /** Index of the message within the content (0 for string content, which holds no images). */
  message: number;
  /** Index of the part within the message's content. */
  part: number;
  image: ImagePart;
}

/** Every image part of one prompt or response, in reading order. */
export function imagesOf(content: Content, at: ImagePlace): PlacedImage[] {
  if (typeof content === 'string') return [];
  const out: PlacedImage[] = [];
  content.forEach((message, m) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, p) => {
      if (isImagePart(part)) out.push({ at, message: m, part: p, image: part });
    });
  });
  return out;
}

/** "2048 × 1536 PNG, 3.1 MB": what hover shows. */
export function describeImage(ref: ImageRef): string {
  const format = ref.mime.replace(/^image\//, '').replace(/\+xml$/, '').toUpperCase();
  const mb = ref.bytes >= 1e6 ? `${(ref.bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(ref.bytes / 1e3))} KB`;
  return `${ref.width} × ${ref.height} ${format}, ${mb}`;
}

/**
 * The path of an image route (same origin): the browser host answers it with the token header, the
 * Electron app:// protocol answers it directly. `variant` 'display' may be a downscaled or converted copy
 * (huge images, formats a page should not decode itself, SVG rasterised); 'original' is the bytes as
 * stored, sent only for download with a content type that cannot render as a document.
 */
export function imagePath(project: string, sha256: string, variant: 'display' | 'original' = 'display'): string {
  return `/images/${encodeURIComponent(project)}/${sha256}${variant === 'original' ? '?original=1' : ''}`;
}

/**
 * Whether a prompt or response holds an image: a message part whose type names one. Since issue 15 an
 * import stores every image as an `image` part (this file, core/images/resolve.ts); the other
 * names (image_url, input_image) are what a database written before holds. Text formats cannot carry them.
 */
export function holdsImages(content: Content): boolean {
  if (typeof content === 'string') return false;
  for (const message of content) {
    // Text, or none (an assistant message that only calls tools: null or left out).
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) if (typeof part.type === 'string' && part.type.includes('image')) return true;
  }
  return false;
}
