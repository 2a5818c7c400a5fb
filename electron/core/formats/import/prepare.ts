// The database-free half of an import: lines → parsed, validated records → the exact column values an
// item row gets (uid included). It runs on the importing thread for small inputs and in the import worker
// for big ones (see ./pool.ts), so that hashing and JSON work overlap with the SQL on the main thread.
// Nothing here may import the store: the worker must not load better-sqlite3.
import type { ImportFormat } from '../../../../shared/formatNames';
import { formatBytes, limit, limitEnvName } from '../../base/limits';
import { canonicalJson, itemUidOfCanonical, sha256Hex } from '../../base/uid';
import { formats } from '../registry';
import { invalidUtf8Reason } from '../sources/utf8';
import { INVALID_UTF8 } from '../sources/chunk';

export { chunkLines, type Chunk } from '../sources/chunk';
import { holdsImages } from '../content';
import { imageStoreDir } from '../../images/store';
import { imageContext, noImages, resolveImages, responsePlace, type ImageContext } from '../../images/resolve';
import { resolveVideos } from '../../videos/resolve';
import { RecordError, type ParsedRecord, type RecordParser, type SourceJudgement } from '../types';
import { fieldPath } from '../validate';
import type { Criterion } from '../../../../shared/rubric';
import { responsesSearchText, searchText } from '../../../../shared/searchText';

/** Each readable format's parser, by name (from the registry, ../registry.ts). */
export const PARSERS = Object.fromEntries(formats().flatMap((f) => (f.parse ? [[f.name, f.parse]] : []))) as Record<ImportFormat, RecordParser>;

/** What JUDGEMENT_FIELD holds: the record's judgements and its own criteria, whichever it has. */
export interface RecordExtras {
  judgements?: SourceJudgement[];
  criteria?: Criterion[];
}

function extrasJson(parsed: ParsedRecord): string | null {
  const judgements = [...(parsed.judgement ? [parsed.judgement] : []), ...(parsed.judgements ?? [])];
  if (!judgements.length && !parsed.criteria) return null;
  const extras: RecordExtras = {};
  if (judgements.length) extras.judgements = judgements;
  if (parsed.criteria) extras.criteria = parsed.criteria;
  return JSON.stringify(extras);
}

/** What one record may be: how long (limits.ts: recordMaxBytes) and how deeply nested (recordMaxDepth). */
export interface RecordBounds {
  maxBytes: number;
  maxDepth: number;
}

/** Read once per chunk (an environment variable may set them), not per record. */
export function recordBounds(): RecordBounds {
  return { maxBytes: limit('recordMaxBytes'), maxDepth: limit('recordMaxDepth') };
}

/**
 * One line's JSON object. Refused, as a RecordError for the line: bytes that are not UTF-8 (marked by
 * chunkLines), a line longer than the cap, anything but an object, an object nested deeper than the
 * bound (before anything recursive sees it), and a number JSON cannot hold (1e309 would be Infinity,
 * stored as null: silently changed). Keys such as __proto__ are own properties of what JSON.parse gives.
 */
export function parseJson(text: string, bounds: RecordBounds = recordBounds()): Record<string, unknown> {
  if (text.charCodeAt(0) === 0 && text.startsWith(INVALID_UTF8)) throw new RecordError(invalidLineReason(text));
  if (text.length > bounds.maxBytes || (text.length * 3 > bounds.maxBytes && Buffer.byteLength(text) > bounds.maxBytes))
    throw new RecordError(`the record is longer than ${formatBytes(bounds.maxBytes)}, the most one record may hold (${limitEnvName('recordMaxBytes')} raises it)`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RecordError(`invalid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object') throw new RecordError(`not a JSON object (a ${value === null ? 'null' : typeof value})`);
  if (Array.isArray(value)) throw new RecordError('not a JSON object (a list)');
  checkShape(value, bounds.maxDepth);
  // A lone surrogate can only come from a \uD800-\uDFFF escape (the bytes are UTF-8 already): look only then.
  if (SURROGATE_ESCAPE.test(text)) {
    const at = loneSurrogatePath(value);
    if (at !== null)
      throw new RecordError(`${at || 'record'}: a \\u escape of half a UTF-16 surrogate pair (such as \\ud800) with no other half: not a character, and it would be stored as U+FFFD; fix or remove the escape`);
  }
  return value as Record<string, unknown>;
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The field path of the first string (value or key) holding a lone surrogate, or null (depth is bounded already). */
function loneSurrogatePath(root: object): string | null {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return fieldPath(path);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const keys: PropertyKey[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k]!;
      if (typeof key === 'string' && LONE_SURROGATE.test(key)) return fieldPath([...path, key]);
      stack.push({ value: (value as Record<PropertyKey, unknown>)[key], path: [...path, key] });
    }
  }
  return null;
}

/** Walks a parsed record without recursion: its depth, and no number that overflowed to ±Infinity. */
function checkShape(root: object, maxDepth: number): void {
  const values: unknown[] = [root];
  const depths: number[] = [1];
  let overflow = false;
  while (values.length) {
    const value = values.pop() as object;
    const depth = depths.pop()!;
    if (depth > maxDepth)
      throw new RecordError(`the record is nested more than ${maxDepth} levels deep (lists and objects inside one another); ${limitEnvName('recordMaxDepth')} raises the bound`);
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item !== null && typeof item === 'object') {
          values.push(item);
          depths.push(depth + 1);
        } else if (typeof item === 'number' && !Number.isFinite(item)) overflow = true;
      }
    } else {
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        if (item !== null && typeof item === 'object') {
          values.push(item);
          depths.push(depth + 1);
        } else if (typeof item === 'number' && !Number.isFinite(item)) overflow = true;
      }
    }
  }
  if (overflow) throw new RecordError(`${overflowPath(root)}: a number too large for JSON to hold (it would be stored as null); write it as a string to keep it`);
}

/** The field path (as validate.ts's fieldPath writes it) of the first number that overflowed. */
function overflowPath(root: object): string {
  // Depth first, in key order (the depth is bounded already): children go on the stack last one first.
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'number' && !Number.isFinite(value)) return fieldPath(path) || 'record';
    if (value === null || typeof value !== 'object') continue;
    const keys: PropertyKey[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
    for (let k = keys.length - 1; k >= 0; k--) stack.push({ value: (value as Record<PropertyKey, unknown>)[keys[k]!], path: [...path, keys[k]!] });
  }
  return 'record';
}


function invalidLineReason(text: string): string {
  const [at, value] = text.slice(INVALID_UTF8.length).split(':', 2);
  return invalidUtf8Reason(Number(at), Number(value));
}

/** A line as the file had it (what the rejects file gets): without chunkLines' mark. */
export function originalLine(text: string): string {
  if (text.charCodeAt(0) !== 0 || !text.startsWith(INVALID_UTF8)) return text;
  const rest = text.slice(INVALID_UTF8.length);
  return rest.slice(rest.indexOf(':', rest.indexOf(':') + 1) + 1);
}

/**
 * A prepared record is RECORD_STRIDE consecutive values of a flat array (cheap to post between threads):
 * uid, external id, prompt JSON, reference, metadata JSON (the item columns, as stored), the number of
 * responses (as a string), the file's preference ('A' or null), then its other judgements and own
 * criteria as JSON (RecordExtras, or null), its line (as a string: 1-based, in the chunk or the input as
 * the caller counts) and, when it holds images, what they came to as JSON (RecordImages: the sha256 of
 * each stored image, those this record added to the store, how many are not available offline; else
 * null), then the text the search index takes of it (shared/searchText.ts): its prompt's, its responses',
 * and their tool calls' and results'. Its responses follow in a second flat array, RESPONSE_STRIDE
 * values each: content JSON, model, steps JSON (or null).
 */
export const RECORD_STRIDE = 13;
export const RESPONSE_COUNT_FIELD = 5;
export const PREFERENCE_FIELD = 6;
export const JUDGEMENT_FIELD = 7;
export const LINE_FIELD = 8;
export const IMAGES_FIELD = 9;
export const SEARCH_FIELD = 10;
export const RESPONSE_STRIDE = 3;


export interface ChunkError {
  /** 1-based, counted from the chunk's first line. */
  line: number;
  reason: string;
  text: string;
}

export interface ChunkResult {
  /** Lines in the chunk, blank ones included. */
  lines: number;
  /** Non-blank lines. */
  records: number;
  /** RECORD_STRIDE values per good record, in line order. */
  rows: (string | null)[];
  /** RESPONSE_STRIDE values per response of each good record, in the same order. */
  responses: (string | null)[];
  errors: ChunkError[];
}



/**
 * Images when no caller said where they come from (unit tests): the in-memory store, no folders, so a
 * relative path is refused with a sentence rather than read from anywhere.
 */
let fallbackImages: ImageContext | null = null;
function defaultImages(): ImageContext {
  return (fallbackImages ??= imageContext({ store: imageStoreDir(':memory:'), imagesDir: null, fileDir: null }));
}

/**
 * Appends the record's item columns and preference to `rows`, its responses to `responses`. Its images
 * are stored first (../../images/resolve.ts), so the uid covers each image's sha256, not how the file
 * wrote it; an image that cannot be stored throws a RecordError before anything is appended.
 */
export function prepareRecord(parsed: ParsedRecord, rows: (string | null)[], responses: (string | null)[], line: number, images: ImageContext = defaultImages()): void {
  const { draft } = parsed;
  const found = noImages();
  const prompt = resolveVideos(resolveImages(draft.prompt, 'prompt', images, found), 'prompt', images, found);
  const contents = draft.responses.map((r, i) => resolveVideos(resolveImages(r.content, responsePlace(i), images, found), responsePlace(i), images, found));
  let holds = holdsImages(prompt) || found.videos !== undefined;
  const promptJson = JSON.stringify(prompt);
  // canonicalJson of a string is its JSON.stringify: hash and stored text share one stringify.
  const promptCanonical = typeof prompt === 'string' ? promptJson : canonicalJson(prompt);
  const canonical: string[] = [];
  draft.responses.forEach((r, i) => {
    const content = contents[i]!;
    const contentJson = JSON.stringify(content);
    canonical.push(typeof content === 'string' ? contentJson : canonicalJson(content));
    responses.push(contentJson, r.model, r.steps === null ? null : JSON.stringify(r.steps));
    holds ||= holdsImages(content);
  });
  const uid = itemUidOfCanonical(promptCanonical, canonical);
  const promptText = searchText(prompt);
  const responseText = responsesSearchText(contents);
  rows.push(
    parsed.identity === undefined ? uid : sha256Hex(`${uid}\u0000${parsed.identity}`).slice(0, 32),
    draft.externalId,
    promptJson,
    draft.reference,
    JSON.stringify(draft.metadata),
    String(draft.responses.length),
    parsed.preference,
    extrasJson(parsed),
    String(line),
    holds ? JSON.stringify(found) : null,
    promptText.text,
    responseText.text,
    promptText.tool ? (responseText.tool ? `${promptText.tool}\n\n${responseText.tool}` : promptText.tool) : responseText.tool,
  );
}

/** Checks a record's images without storing them (an all-or-nothing import that has failed already). */
export function checkRecordImages(parsed: ParsedRecord, images: ImageContext = defaultImages()): void {
  const check = { ...images, checkOnly: true };
  const found = noImages();
  resolveVideos(resolveImages(parsed.draft.prompt, 'prompt', check, found), 'prompt', check, found);
  parsed.draft.responses.forEach((r, i) => resolveVideos(resolveImages(r.content, responsePlace(i), check, found), responsePlace(i), check, found));
}

/**
 * Parses, validates and prepares lines of a known format. With validateOnly (an all-or-nothing import
 * that has already failed) good records are checked but not prepared.
 */
export function prepareLines(parse: RecordParser, lines: string[], validateOnly = false, images: ImageContext = defaultImages()): ChunkResult {
  const result: ChunkResult = { lines: lines.length, records: 0, rows: [], responses: [], errors: [] };
  const bounds = recordBounds();
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.trim() === '') continue;
    result.records++;
    try {
      const parsed = parse(parseJson(text, bounds));
      if (!validateOnly) prepareRecord(parsed, result.rows, result.responses, i + 1, images);
      else checkRecordImages(parsed, images);
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      result.errors.push({ line: i + 1, reason: error.message, text: originalLine(text) });
    }
  }
  return result;
}
