// TRL's vision preference datasets (`trl-vision`), read and written:
//   {"prompt": [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "What is this?"}]}],
//    "chosen": [{"role": "assistant", "content": [{"type": "text", "text": "A cat."}]}],
//    "rejected": [{"role": "assistant", "content": [{"type": "text", "text": "A dog."}]}],
//    "images": [<image>]}
// Sources: TRL's dataset-formats docs (vision datasets: conversational rows with an `images` column and
// `{"type": "image"}` placeholders), trl/data_utils.py `prepare_multimodal_messages` (each placeholder
// without an image takes the next image of the list, in order; a user message whose content is a string
// gets the images put before its text; a count that differs is an error) and trl/trainer/dpo_trainer.py
// `DataCollatorForVisionPreference` (an `images` list, or one `image`; images go with the prompt). In
// Parquet (the Hub's files) `images` is a list of the `Image` feature, struct<bytes, path> (./hfImage.ts);
// in JSON Lines an entry is a path, a data: URI, base64, or {"bytes", "path"}.
//
// The parser fills each placeholder with the raw image part of its entry ({type:'image', image: <entry>,
// column, index}); core/images/resolve.ts stores it. The encoder writes every message's content as a part
// list (one shape per file, as Parquet and `datasets` need), each image as a placeholder, and the images in
// order in `images` as their stored parts: the writer (./imagesBeside.ts, or ./storedImages.ts for
// Parquet; ./trlVisionExport.ts opens it) turns them into files beside the output or Image cells, from
// the store's bytes. No writer is imported here: the importer loads this module.
import type { ChatMessage, Content, ContentPart } from '../../../../shared/domain';
import { isImagePart, type ImagePart } from '../../../../shared/images';
import { plural } from '../../../../shared/plural';
import { toChat } from '../content';
import { pairRecord } from '../pairs/pair';
import { RecordError, type DecidedPair, type ExportNotes, type ParsedRecord } from '../types';
import { check, contentSchema, fieldPath, isPlainObject } from '../validate';
import { ROW_ITEM } from './rows';

const PLACES = ['prompt', 'chosen', 'rejected'] as const;

// ---------------------------------------------------------------------------------------------------
// import

/** Keys by which a `{"type": "image"}` part carries its own image: then it is no placeholder. */
const OWN_IMAGE_KEYS = ['image', 'url', 'path', 'base64', 'bytes', 'data', 'source'];

function isPlaceholder(part: unknown): boolean {
  if (!isPlainObject(part) || part.type !== 'image') return false;
  return OWN_IMAGE_KEYS.every((k) => part[k] === undefined || part[k] === null);
}

/** A part as Parquet gives it: a struct's missing fields come as null ({"type": "image", "text": null}); they go. */
function withoutNulls(part: unknown): unknown {
  if (!isPlainObject(part)) return part;
  if (!Object.values(part).some((v) => v === null)) return part;
  return Object.fromEntries(Object.entries(part).filter(([, v]) => v !== null));
}

function cleanContent(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((m) => (isPlainObject(m) && Array.isArray(m.content) ? { ...m, content: m.content.map(withoutNulls) } : m));
}

/** The image entries of the row, with the column each came from. */
function imageEntries(record: Record<string, unknown>): { column: string; entries: unknown[] } {
  const { images, image } = record;
  const hasImages = images !== undefined && images !== null;
  const hasImage = image !== undefined && image !== null;
  if (hasImages && hasImage) throw new RecordError('images, image: both are set; a row has an "images" list or one "image", not both');
  if (hasImages) {
    if (!Array.isArray(images)) throw new RecordError(`images: expected a list of images, got ${images === null ? 'null' : typeof images}`);
    return { column: 'images', entries: images };
  }
  return { column: 'image', entries: hasImage ? [image] : [] };
}

function placeholders(content: Content): number {
  if (typeof content === 'string') return 0;
  let n = 0;
  for (const m of content) if (Array.isArray(m.content)) for (const part of m.content) if (isPlaceholder(part)) n++;
  return n;
}

/**
 * TRL's rule for rows with no placeholder: the first user message of the prompt whose content is a string
 * gets one placeholder per image before its text (prepare_multimodal_messages).
 */
function withLeadingPlaceholders(prompt: Content, count: number): Content {
  const messages = toChat(prompt, 'user');
  const at = messages.findIndex((m) => m.role === 'user' && typeof m.content === 'string');
  if (at < 0) return prompt;
  const placeholder = (): ContentPart => ({ type: 'image' });
  const text = messages[at]!.content as string;
  const out = messages.slice();
  out[at] = { ...messages[at]!, content: [...Array.from({ length: count }, placeholder), ...(text.length ? [{ type: 'text', text }] : [])] };
  return out;
}

/** `content` with its placeholders, in order, replaced by the raw parts of `entries` from `next` on. */
function fill(content: Content, column: string, entries: unknown[], next: { at: number }): Content {
  if (typeof content === 'string') return content;
  return content.map((m) => {
    if (!Array.isArray(m.content) || !m.content.some(isPlaceholder)) return m;
    return {
      ...m,
      content: m.content.map((part) => {
        if (!isPlaceholder(part)) return part;
        const index = next.at++;
        const { type: _type, ...rest } = part;
        return { ...rest, type: 'image', image: entries[index], column, index };
      }),
    };
  });
}

export function parseTrlVision(record: Record<string, unknown>): ParsedRecord {
  if (!('prompt' in record)) throw new RecordError('prompt: missing (a TRL vision row has "prompt", "chosen", "rejected" and "images")');
  const fields = { prompt: cleanContent(record.prompt), chosen: cleanContent(record.chosen), rejected: cleanContent(record.rejected) };
  const content: Record<(typeof PLACES)[number], Content> = {
    prompt: check(contentSchema, fields.prompt, ['prompt']) as Content,
    chosen: check(contentSchema, fields.chosen, ['chosen']) as Content,
    rejected: check(contentSchema, fields.rejected, ['rejected']) as Content,
  };
  const { column, entries } = imageEntries(record);
  entries.forEach((entry, i) => {
    if (entry === null || entry === undefined) throw new RecordError(`${fieldPath([column, ...(column === 'images' ? [i] : [])])}: null, not an image`);
  });
  let counts = PLACES.map((p) => placeholders(content[p]));
  if (entries.length && counts.every((n) => n === 0)) {
    content.prompt = withLeadingPlaceholders(content.prompt, entries.length);
    counts = PLACES.map((p) => placeholders(content[p]));
  }
  const total = counts.reduce((a, b) => a + b, 0);
  if (total !== entries.length) {
    const where = PLACES.map((p, i) => `${counts[i]} in ${p}`).join(', ');
    throw new RecordError(
      `${column}: ${plural(entries.length, 'image')} for ${plural(total, '{"type": "image"} placeholder')} (${where}); each placeholder takes the next image in order, so the two counts must be equal`,
    );
  }
  const next = { at: 0 };
  for (const p of PLACES) content[p] = fill(content[p], column, entries, next);
  const parsed = pairRecord(record, content.prompt, content.chosen, content.rejected);
  // The images are in the content now (and may be megabytes of base64): not kept twice.
  delete parsed.draft.metadata.images;
  delete parsed.draft.metadata.image;
  return parsed;
}

// ---------------------------------------------------------------------------------------------------
// export

/** A message as trl-vision writes it: role and a list of {type, text} parts. */
export interface VisionMessage {
  role: string;
  content: { type: string; text?: string }[];
}

/** One row before its images are written: `images` holds the stored parts, in placeholder order. */
export interface TrlVisionRow {
  prompt: VisionMessage[];
  chosen: VisionMessage[];
  rejected: VisionMessage[];
  images: ImagePart[];
  /** The item's name, for a message about one of its images. */
  [ROW_ITEM]?: string;
}

interface VisionCounts {
  pairs: number;
  withImages: number;
  responseImages: number;
  unavailable: number;
  unavailableItems: string[];
}

const counts = new WeakMap<ExportNotes, VisionCounts>();

function countsOf(notes: ExportNotes): VisionCounts {
  let c = counts.get(notes);
  if (!c) counts.set(notes, (c = { pairs: 0, withImages: 0, responseImages: 0, unavailable: 0, unavailableItems: [] }));
  return c;
}

/** Messages as part lists, each image a placeholder, its stored part appended to `images`; false when an image has no bytes. */
function visionMessages(content: Content, role: 'user' | 'assistant', images: ImagePart[]): VisionMessage[] | null {
  const out: VisionMessage[] = [];
  for (const message of toChat(content, role) as ChatMessage[]) {
    const parts: VisionMessage['content'] = [];
    if (typeof message.content === 'string') parts.push({ type: 'text', text: message.content });
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (isImagePart(part)) {
          if (!part.image) return null;
          images.push(part);
          parts.push({ type: 'image' });
        } else if (typeof part.text === 'string') parts.push({ type: part.type === 'text' ? 'text' : part.type, text: part.text });
        else parts.push({ type: part.type });
      }
    }
    out.push({ role: message.role, content: parts });
  }
  return out;
}

/** The row of a pair, or null when one of its images is not stored (an http URL never fetched): left out and counted. */
export function encodeTrlVision(pair: DecidedPair, notes: ExportNotes): TrlVisionRow | null {
  const c = countsOf(notes);
  const name = pair.item.externalId !== null ? `"${pair.item.externalId}"` : `#${pair.item.seq + 1}`;
  const images: ImagePart[] = [];
  const prompt = visionMessages(pair.prompt, 'user', images);
  const promptImages = images.length;
  const chosen = prompt && visionMessages(pair.chosen.content, 'assistant', images);
  const rejected = chosen && visionMessages(pair.rejected.content, 'assistant', images);
  if (!prompt || !chosen || !rejected) {
    c.unavailable++;
    if (c.unavailableItems.length < 5) c.unavailableItems.push(name);
    return null;
  }
  c.pairs++;
  if (images.length) c.withImages++;
  if (images.length > promptImages) c.responseImages++;
  return { prompt, chosen, rejected, images, [ROW_ITEM]: name };
}

/** What the summary says of a trl-vision export (pushed to notes.extra by the exporter). */
export function trlVisionNote(notes: ExportNotes, parquet: boolean): void {
  const c = countsOf(notes);
  if (c.unavailable)
    notes.extra.push(
      `${plural(c.unavailable, 'pair was', 'pairs were')} left out because an image is not available offline (an http URL, never fetched: ${c.unavailableItems.join(', ')}${c.unavailable > c.unavailableItems.length ? ', …' : ''})`,
    );
  if (c.responseImages)
    notes.extra.push(
      `${plural(c.responseImages, 'pair has', 'pairs have')} images in chosen or rejected: TRL's DPOTrainer fills image placeholders in the prompt only, so train those with a trainer that takes generated images (or export them as text-to-image preference)`,
    );
  const where = !parquet ? 'the images are files in the folder beside it (paths relative to the file; cast the column with datasets.Image to load them)' : 'the images are Parquet Image cells that datasets decodes';
  notes.extra.push(
    `${c.withImages ? `${plural(c.withImages, 'pair holds', 'pairs hold')} images; ${where}` : 'No pair holds an image'}. DPOTrainer takes this with a vision-language model and its processor; TRL's RewardTrainer and OpenRLHF have no vision reward models today, so they cannot train on these images`,
  );
}
