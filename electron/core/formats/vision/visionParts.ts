// What the vision formats share on the way in and out. In: the raw image parts a parser puts in a
// prompt or a response, as the files hold their images (a relative path, an HF `Image` feature's
// {bytes, path}, base64 bytes, a data URI or an http URL); ../../images/resolve.ts turns each into a
// stored part (bytes in the image store, by sha256) before the item is written, so parsers never read a
// file. Out: a prompt's text and stored images, a response's text, the single image a generated
// response is.
import type { ChatMessage, Content, ContentPart } from '../../../../shared/domain';
import { imagesOf, isImagePart, type ImagePart } from '../../../../shared/images';
import { partsText, responseText } from '../content';
import { RecordError } from '../types';
import { isPlainObject } from '../validate';

type Json = Record<string, unknown>;

export const describeValue = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : typeof v);

/** A required, non-empty text field, or a RecordError naming it. */
export function requiredText(record: Json, field: string, where = field): string {
  const value = record[field];
  if (typeof value === 'string' && value.length > 0) return value;
  throw new RecordError(`${where}: ${value === undefined ? 'missing' : typeof value === 'string' ? 'empty text' : `expected a string, got ${describeValue(value)}`}`);
}

/**
 * An image as a file's field holds it, as a raw part for resolve.ts:
 * - a string: a path relative to the file's folder (or the images folder given), a data URI, or an
 *   http(s) URL (kept, never fetched);
 * - an object with `bytes` and/or `path`: the Hugging Face `Image` feature (bytes are base64 once the
 *   Parquet reader has them; a null `bytes` leaves the path to resolve).
 * `field` names the field in messages ("image", "jpg_0").
 */
export function rawImage(value: unknown, field: string): ContentPart {
  if (typeof value === 'string' && value.length > 0) return { type: 'image', image: value };
  if (isPlainObject(value) && (typeof value.bytes === 'string' || typeof value.path === 'string')) {
    const image: Json = { bytes: typeof value.bytes === 'string' && value.bytes.length ? value.bytes : null, path: typeof value.path === 'string' ? value.path : null };
    if (image.bytes === null && !image.path) throw new RecordError(`${field}: an image with neither bytes nor a path`);
    return { type: 'image', image, column: field };
  }
  throw new RecordError(
    `${field}: ${value === undefined ? 'missing' : value === '' ? 'empty text' : `expected an image (a path, a data URI, or {"bytes", "path"}), got ${describeValue(value)}`}`,
  );
}

/** Raw image bytes held as base64 text (Pick-a-Pic's jpg_0 / jpg_1 once read from Parquet, or in JSON Lines). */
export function rawBase64Image(value: unknown, field: string): ContentPart {
  if (typeof value === 'string' && value.length > 0) return { type: 'image', image: { bytes: value, path: null }, column: field };
  // The same bytes written as an HF Image feature, or a path a converted copy points at.
  if (isPlainObject(value) || typeof value === 'string') return rawImage(value, field);
  throw new RecordError(`${field}: ${value === undefined ? 'missing' : `expected the image's bytes (base64 text), got ${describeValue(value)}`}`);
}

/** A user turn holding the image(s) first, then the question (the order VLM chat templates and TRL's RLAIF-V use). */
export function visionPrompt(images: ContentPart[], text: string): ChatMessage[] {
  return [{ role: 'user', content: [...images, { type: 'text', text }] }];
}

/** A generated image as a response: one assistant message with the image part. */
export function imageResponse(image: ContentPart): ChatMessage[] {
  return [{ role: 'assistant', content: [image] }];
}

// ---------------------------------------------------------------------------------------------------
// Export

/** A prompt's text (its text parts, images left out) and its images, in reading order. */
export function promptParts(prompt: Content): { text: string; images: ImagePart[] } {
  if (typeof prompt === 'string') return { text: prompt, images: [] };
  const texts = prompt.map((m) => partsText(m.content)).filter((t) => t.length > 0);
  return { text: texts.join('\n\n'), images: imagesOf(prompt, 'prompt').map((p) => p.image) };
}

/** A response's text (images left out). */
export function responseTextOf(content: Content): string {
  return responseText(content, false).text;
}

/** The images of a response (a generated image is one), in reading order. */
export function responseImages(content: Content): ImagePart[] {
  if (typeof content === 'string') return [];
  const out: ImagePart[] = [];
  for (const message of content) if (Array.isArray(message.content)) for (const part of message.content) if (isImagePart(part)) out.push(part);
  return out;
}

/** What a part says when it cannot be written (an http image never fetched): its URL, else nothing. */
export function originText(part: ImagePart): string | null {
  if (part.origin.kind === 'url') return part.origin.url;
  if (part.origin.kind === 'path') return part.origin.path;
  return null;
}
