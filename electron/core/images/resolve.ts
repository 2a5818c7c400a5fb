// The one import step for images, in every format: each raw image part of a parsed record (prompt and
// responses) becomes the stored form of shared/images.ts, its bytes put in the image store (./store.ts).
// It runs where records are prepared (import/prepare.ts prepareRecord, in import workers too): sync code,
// no database. Format parsers hand over parts as the file had them and never read files themselves.
//
// Raw forms taken (a part's `type` and where its image is):
//   OpenAI      {type:'image_url', image_url:{url}|'url'}, {type:'input_image', image_url:…}
//   HF chat     {type:'image', image:'data:…'|'path'|'http…'|'<base64>'|{bytes,path}|{url}|{path}}
//   plain       {type:'image', url|path|base64|bytes|data}
//   a parser's  {type:'image', source:{type:'base64',data}|{type:'url',url}|{url}|{path}|{bytes,path}|{data}}
//   stored      {type:'image', image:{sha256,…}, origin} (an Arbiter export read back): the store must
//               hold the hash, else its origin path is read again; an http URL stays unavailable.
// A part may name the column its image came from (`column`, `index`: TRL's `images`, a Parquet Image
// feature), kept in its origin for exports. Where the image is:
//   data: URI, base64, bytes  → stored, origin inline (or column)
//   a relative path           → read from the images folder the user gave, else the file's own folder
//                               (an upload has none); an absolute path, a file: URL and `..` leaving the
//                               folder are refused (the file may be hostile)
//   an http(s) URL            → kept, never fetched: {origin:{kind:'url'}, unavailable:'not available offline: http URL'}
// Anything else (a missing or unreadable file, bytes that are not an image, an image over imageMaxBytes or
// imageMaxPixels) is a RecordError naming the place and the image, so an all-or-nothing import stops at
// the line and --skip-invalid makes it a reject.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, win32 } from 'node:path';
import type { Content, ContentPart } from '../../../shared/domain';
import { replaceParts } from '../../../shared/contentParts';
import { isImagePart, SHA256_HEX, type ImageOrigin, type ImagePart, type ImageRef } from '../../../shared/images';
import { RecordError } from '../base/errors';
import { ImageRefusal, imageBounds, probeImage, tooManyBytes, type ImageBounds } from './probe';
import { hasImage, imageFile, imageSha256, putImageOnce } from './store';

/** Where an import's images come from and go. */
export interface ImageSources {
  /** The image store (./store.ts imageStoreDir). */
  store: string;
  /** The images folder the user gave (--images-dir, the import panel's field), absolute; null if none. */
  imagesDir: string | null;
  /** The folder of the file being imported; null for an upload, which has no folder of its own. */
  fileDir: string | null;
}

export interface ImageContext extends ImageSources {
  bounds: ImageBounds;
  /** Check every image but store nothing (an all-or-nothing import that has failed already). */
  checkOnly?: boolean;
  /** Paths already read in this import (absolute path → what it held), so a shared image is read once. */
  seen?: Map<string, { ref: ImageRef; mtimeMs: number; size: number }>;
}

export function imageContext(sources: ImageSources, checkOnly = false): ImageContext {
  return { ...sources, bounds: imageBounds(), checkOnly, seen: new Map() };
}

/** What a record's images came to. */
export interface RecordImages {
  /** sha256 of each stored image, once, in reading order (prompt, then responses). */
  stored: string[];
  /** Those of `stored` this record wrote into the store (they were not there before). */
  added: string[];
  /** Image parts that cannot be shown offline (http URLs). */
  unavailable: number;
  /** sha256 of each stored video, once (core/videos/resolve.ts); absent when the record holds none. */
  videos?: string[];
}

export function noImages(): RecordImages {
  return { stored: [], added: [], unavailable: 0 };
}

const UNAVAILABLE_URL = 'not available offline: http URL';
/** Paths past this are refused unread (no file system takes much more). */
const PATH_MAX = 4096;
const SEEN_MAX = 4096;

/** "response A" … "response Z", then "response 27". */
export function responsePlace(index: number): string {
  return `response ${index < 26 ? String.fromCharCode(65 + index) : index + 1}`;
}

/**
 * `content` with every raw image part in the stored form (a new list; one without images is returned as
 * it is). `place` names it in errors ("prompt", "response A"). Throws a RecordError for an image that
 * cannot be stored.
 */
export function resolveImages(content: Content, place: string, ctx: ImageContext, out: RecordImages): Content {
  return replaceParts(content, isImageLike, (part, m, p) => resolvePart(part, ctx, out, `${place} message ${m + 1}, part ${p + 1}`));
}

/** A part that is (or claims to be) an image: its type names one (image, image_url, input_image…). */
function isImageLike(part: unknown): part is ContentPart {
  return part !== null && typeof part === 'object' && typeof (part as ContentPart).type === 'string' && (part as ContentPart).type.includes('image');
}

type Raw = { kind: 'string'; value: string } | { kind: 'base64'; value: string } | { kind: 'bytes'; value: unknown; path?: string } | { kind: 'path'; value: string };

function resolvePart(part: ContentPart, ctx: ImageContext, out: RecordImages, where: string): ImagePart {
  const fail = (what: string, why: string): never => {
    throw new RecordError(`${where}: ${what}: ${why}`);
  };
  const column = typeof part.column === 'string' ? { column: part.column, index: Number.isSafeInteger(part.index) ? (part.index as number) : 0 } : null;
  const raw = rawOf(part, fail);
  if ('stored' in raw) return raw.stored(ctx, out, fail);
  if (raw.kind === 'string') {
    const value = raw.value.trim();
    if (/^https?:\/\//i.test(value)) {
      out.unavailable++;
      return { type: 'image', origin: { kind: 'url', url: value }, unavailable: UNAVAILABLE_URL };
    }
    if (/^data:/i.test(value)) return store(dataUriBytes(value, ctx.bounds, fail), column ? { kind: 'column', ...column } : { kind: 'inline' }, 'a data: URI', ctx, out, fail);
    if (looksBase64(value)) return store(base64Bytes(value, 'base64 image data', ctx.bounds, fail), column ? { kind: 'column', ...column } : { kind: 'inline' }, 'base64 image data', ctx, out, fail);
    return fromPath(raw.value, column, ctx, out, fail);
  }
  if (raw.kind === 'path') return fromPath(raw.value, column, ctx, out, fail);
  if (raw.kind === 'base64') return store(base64Bytes(raw.value, 'base64 image data', ctx.bounds, fail), column ? { kind: 'column', ...column } : { kind: 'inline' }, 'base64 image data', ctx, out, fail);
  const origin: ImageOrigin = column || raw.path !== undefined ? { kind: 'column', column: column?.column ?? 'image', index: column?.index ?? 0, ...(raw.path ? { path: raw.path } : {}) } : { kind: 'inline' };
  const what = raw.path ? `the image bytes of ${raw.path}` : 'the image bytes';
  return store(bytesOf(raw.value, what, ctx.bounds, fail), origin, what, ctx, out, fail);
}

export type Fail = (what: string, why: string) => never;
type Stored = { stored: (ctx: ImageContext, out: RecordImages, fail: Fail) => ImagePart };

/** Where a part's image is, whichever form it has. */
function rawOf(part: ContentPart, fail: Fail): Raw | Stored {
  const type = part.type;
  if (type === 'image_url' || type === 'input_image') {
    const field = part.image_url;
    const url = typeof field === 'string' ? field : field !== null && typeof field === 'object' ? (field as { url?: unknown }).url : undefined;
    if (typeof url === 'string') return { kind: 'string', value: url };
    if (typeof part.file_id === 'string') fail(`the file id ${JSON.stringify(part.file_id.slice(0, 80))}`, "it names a file kept on OpenAI's servers, which Arbiter cannot read offline; put the image in the file (a data: URI) or beside it (a path)");
    fail(`a ${type} part`, `it has no url (image_url should be {"url": "…"} or a string)`);
  }
  if (type !== 'image') fail(`a content part of type ${JSON.stringify(type.slice(0, 40))}`, 'Arbiter reads image, image_url and input_image parts only');
  if (isImagePart(part) && (part.image !== undefined || part.origin !== undefined)) return storedForm(part as ImagePart);
  for (const key of ['image', 'source'] as const) {
    const value = part[key];
    if (value === undefined || value === null) continue;
    const found = rawOfValue(value);
    if (found) return found;
    fail(`the part's ${key}`, `${describe(value)}, not an image Arbiter reads (a data: URI, base64, a path, an http(s) URL, or {"bytes", "path"})`);
  }
  const found = rawOfValue(part);
  if (found) return found;
  return fail('an image part with no image in it', 'it has no url, path, base64 or bytes (a placeholder whose image is in another field needs the format that reads that field, such as TRL’s images column)');
}

/** A value holding an image: a string, or an object with url, path, base64, data or bytes. */
function rawOfValue(value: unknown): Raw | null {
  if (typeof value === 'string') return { kind: 'string', value };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const path = typeof v.path === 'string' && v.path !== '' ? v.path : undefined;
  if (v.bytes !== undefined && v.bytes !== null) return { kind: 'bytes', value: v.bytes, ...(path !== undefined ? { path } : {}) };
  if (v.type === 'base64' && typeof v.data === 'string') return { kind: 'base64', value: v.data };
  if (typeof v.base64 === 'string') return { kind: 'base64', value: v.base64 };
  if (typeof v.data === 'string') return { kind: 'string', value: v.data };
  if (typeof v.url === 'string') return { kind: 'string', value: v.url };
  if (path !== undefined) return { kind: 'path', value: path };
  return null;
}

/** A part in the stored form already (an Arbiter file read back). */
function storedForm(part: ImagePart): Stored {
  return {
    stored: (ctx, out, fail) => {
      const origin = part.origin;
      const sha = part.image?.sha256;
      if (typeof sha === 'string' && SHA256_HEX.test(sha) && hasImage(ctx.store, sha)) {
        const bytes = readStored(ctx, sha, fail);
        return store(bytes, origin, `the stored image ${sha.slice(0, 12)}…`, ctx, out, fail);
      }
      if (origin && typeof origin === 'object') {
        if (origin.kind === 'url' && typeof origin.url === 'string') {
          out.unavailable++;
          return { type: 'image', origin: { kind: 'url', url: origin.url }, unavailable: UNAVAILABLE_URL };
        }
        const path = origin.kind === 'path' ? origin.path : origin.kind === 'column' ? origin.path : undefined;
        if (typeof path === 'string' && path !== '') return fromPath(path, origin.kind === 'column' ? { column: origin.column, index: origin.index } : null, ctx, out, fail);
      }
      const named = typeof sha === 'string' ? `the image ${sha.slice(0, 12)}…` : 'a stored image part';
      return fail(named, 'it is not in this database’s image store and the record carries no bytes or path for it; import the file with its images (a path, a data: URI) instead');
    },
  };
}

function readStored(ctx: ImageContext, sha: string, fail: Fail): Uint8Array {
  try {
    return readFileSync(imageFile(ctx.store, sha));
  } catch (error) {
    return fail(`the stored image ${sha.slice(0, 12)}…`, `it cannot be read from the image store (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') {
    const keys = Object.keys(value).slice(0, 4);
    return keys.length ? `an object with ${keys.map((k) => JSON.stringify(k.slice(0, 20))).join(', ')}` : 'an empty object';
  }
  return `a ${typeof value}`;
}

/** Probes, stores (unless checking only) and describes `bytes`. */
function store(bytes: Uint8Array, origin: ImageOrigin, what: string, ctx: ImageContext, out: RecordImages, fail: Fail): ImagePart {
  let probed;
  try {
    probed = probeImage(bytes, ctx.bounds);
  } catch (error) {
    if (error instanceof ImageRefusal) fail(what, error.message);
    throw error;
  }
  const sha256 = imageSha256(bytes);
  const ref: ImageRef = { sha256, mime: probed.mime, width: probed.width, height: probed.height, bytes: bytes.byteLength };
  note(ref, ctx, out, bytes);
  return { type: 'image', image: ref, origin };
}

function note(ref: ImageRef, ctx: ImageContext, out: RecordImages, bytes: Uint8Array | null): void {
  if (out.stored.includes(ref.sha256)) return;
  out.stored.push(ref.sha256);
  if (ctx.checkOnly) return;
  if (bytes === null) {
    if (hasImage(ctx.store, ref.sha256)) return;
    throw new Error('an image read before is no longer in the store');
  }
  if (putImageOnce(ctx.store, bytes, ref.sha256).added) out.added.push(ref.sha256);
}

/** A file a record names by a relative path: where it is, its real path inside the folder, its size and time. */
export interface LocatedFile {
  full: string;
  real: string;
  size: number;
  mtimeMs: number;
  /** The path as written, quoted where it holds control characters (for messages). */
  what: string;
}

/**
 * The file a relative path names, in the images folder or the file's folder and never outside it (core/
 * videos/resolve.ts finds videos the same way); `noun` names what it is in the messages. Throws through
 * `fail` for an empty, absolute, file: or URL path, one leaving the folder (a link too), or a missing file.
 */
export function locateFile(written: string, ctx: ImageSources, fail: Fail, noun = 'image'): LocatedFile {
  // As written; quoted only where it holds control characters (a line break would cut the message).
  const what = /[\u0000-\u001f\u007f]/.test(written) ? JSON.stringify(written) : written;
  if (written.length > PATH_MAX) fail(`${written.slice(0, 80)}…`, `a path longer than ${PATH_MAX} characters`);
  if (written.trim() === '') fail('an empty path', `the ${noun} part names no file`);
  if (written.includes('\0')) fail(what, 'a path holding a NUL character');
  if (/^file:/i.test(written)) fail(what, `a file: URL; ${noun} paths must be relative to the images folder (a file may not name files elsewhere on the computer)`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(written)) fail(what, 'a URL Arbiter cannot read (it keeps http(s) URLs unfetched, and reads data: URIs and relative paths)');
  if (isAbsolute(written) || win32.isAbsolute(written))
    fail(what, `an absolute path; ${noun} paths must be relative to the images folder or the file’s folder (a file may not name files elsewhere on the computer)`);
  const base = ctx.imagesDir ?? ctx.fileDir;
  const folder = ctx.imagesDir ? 'the images folder' : 'the file’s folder';
  if (base === null)
    return fail(what, `a relative ${noun} path, and an uploaded file has no folder of its own: give the images folder that holds the ${noun}s (the import panel’s “Images folder” field, or --images-dir)`);
  // Paths written on Windows use backslashes.
  const full = resolve(base, written.replace(/\\/g, '/'));
  const inside = relative(base, full);
  if (inside === '' || inside === '..' || inside.startsWith(`..${'/'}`) || inside.startsWith('..\\') || isAbsolute(inside))
    fail(what, `outside ${base} (${folder}); ${noun} paths may not leave it`);
  let stat;
  try {
    stat = statSync(full);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return fail(what, `no such file in ${base} (${folder})`);
    return fail(what, `cannot be read in ${base} (${folder}): ${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? 'error')}`);
  }
  if (!stat.isFile()) fail(what, `not a file in ${base} (${folder}) but ${stat.isDirectory() ? 'a folder' : 'something else'}`);
  // A link (the file, or a folder on its way) may lead out of the folder: the real path must lie inside
  // the folder's real path, as the app:// protocol requires (electron/main/protocol.ts).
  const real = realPathInside(full, base);
  if (typeof real !== 'string')
    return fail(what, real ? `a link to ${real.outside}, outside ${base} (${folder}); ${noun} paths may not leave it` : `cannot be read in ${base} (${folder}): it went away while being read`);
  return { full, real, size: stat.size, mtimeMs: stat.mtimeMs, what };
}

/** A relative path, read from the images folder or the file's folder, never outside it. */
function fromPath(written: string, column: { column: string; index: number } | null, ctx: ImageContext, out: RecordImages, fail: Fail): ImagePart {
  const { full, real, size, mtimeMs, what } = locateFile(written, ctx, fail);
  const base = ctx.imagesDir ?? ctx.fileDir;
  const folder = ctx.imagesDir ? 'the images folder' : 'the file’s folder';
  const stat = { size, mtimeMs };
  if (stat.size > ctx.bounds.maxBytes) fail(what, tooManyBytes(stat.size, ctx.bounds.maxBytes));
  const origin: ImageOrigin = column ? { kind: 'column', ...column, path: written } : { kind: 'path', path: written };
  const seen = ctx.seen?.get(full);
  if (seen && seen.mtimeMs === stat.mtimeMs && seen.size === stat.size && (ctx.checkOnly || hasImage(ctx.store, seen.ref.sha256))) {
    note(seen.ref, ctx, out, null);
    return { type: 'image', image: seen.ref, origin };
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(real);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(what, `cannot be read in ${base} (${folder}): ${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? 'error')}`);
  }
  const part = store(bytes, origin, what, ctx, out, fail);
  if (ctx.seen) {
    if (ctx.seen.size >= SEEN_MAX) ctx.seen.clear();
    ctx.seen.set(full, { ref: part.image!, mtimeMs: stat.mtimeMs, size: stat.size });
  }
  return part;
}

/** The real path of `full` when it lies inside the real `base`; where it leads when it does not; null when it vanished. */
function realPathInside(full: string, base: string): string | { outside: string } | null {
  let real: string;
  let realBase: string;
  try {
    real = realpathSync(full);
    realBase = realpathSync(base);
  } catch {
    return null;
  }
  const inside = relative(realBase, real);
  if (inside === '' || inside === '..' || inside.startsWith('../') || inside.startsWith('..\\') || isAbsolute(inside)) return { outside: real };
  return real;
}

const BASE64 = /^[A-Za-z0-9+/\-_\s]*={0,2}\s*$/;

/** A long string of base64 characters and nothing else (a path has a dot; a URL a colon). */
function looksBase64(value: string): boolean {
  return value.length >= 64 && BASE64.test(value);
}

function base64Bytes(text: string, what: string, bounds: ImageBounds, fail: Fail): Uint8Array {
  if (!BASE64.test(text)) fail(what, 'not base64 (it holds characters base64 does not use)');
  const estimate = Math.floor((text.length * 3) / 4);
  // Whitespace counts in the estimate: decode to know for sure when it is near the bound.
  if (estimate > bounds.maxBytes * 1.5 + 16) fail(what, tooManyBytes(estimate, bounds.maxBytes));
  const bytes = Buffer.from(text, 'base64');
  if (bytes.byteLength > bounds.maxBytes) fail(what, tooManyBytes(bytes.byteLength, bounds.maxBytes));
  return bytes;
}

function dataUriBytes(uri: string, bounds: ImageBounds, fail: Fail): Uint8Array {
  const comma = uri.indexOf(',');
  if (comma < 0) fail('a data: URI', 'it has no comma before its data');
  const meta = uri.slice(5, comma);
  const data = uri.slice(comma + 1);
  if (/;base64$/i.test(meta.trim())) return base64Bytes(data, 'a data: URI', bounds, fail);
  let text: string;
  try {
    text = decodeURIComponent(data);
  } catch {
    return fail('a data: URI', 'its percent-escapes are broken');
  }
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.byteLength > bounds.maxBytes) fail('a data: URI', tooManyBytes(bytes.byteLength, bounds.maxBytes));
  return bytes;
}

/** Bytes as a JSON file can carry them: base64 (what the Parquet reader gives), a list of 0-255, a Node Buffer's JSON. */
function bytesOf(value: unknown, what: string, bounds: ImageBounds, fail: Fail): Uint8Array {
  if (typeof value === 'string') return /^data:/i.test(value) ? dataUriBytes(value, bounds, fail) : base64Bytes(value, what, bounds, fail);
  const list = Array.isArray(value) ? value : value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'Buffer' ? (value as { data?: unknown }).data : null;
  if (!Array.isArray(list)) return fail(what, `${describe(value)}, not bytes (base64 text or a list of numbers 0-255)`);
  if (list.length > bounds.maxBytes) fail(what, tooManyBytes(list.length, bounds.maxBytes));
  const bytes = new Uint8Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const b = list[i];
    if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b > 255) fail(what, `byte ${i + 1} is ${JSON.stringify(b)?.slice(0, 20)}, not a number 0-255`);
    bytes[i] = b as number;
  }
  return bytes;
}
