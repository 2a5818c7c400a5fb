// The import step for videos, in every format, beside the images' (core/images/resolve.ts, which finds the
// files the same way: locateFile): each raw video part of a parsed record becomes the stored form of
// shared/videos.ts, its bytes copied into the video store (./store.ts) while they are hashed. Sync code,
// no database: it runs where records are prepared (import/prepare.ts), in import workers too.
//
// Raw forms taken (a part's `type` and where its video is):
//   OpenAI-style  {type:'video_url', video_url:{url}|'url'}
//   HF chat / TRL {type:'video', video:'path'|'http…'|{path}|{url}}, {type:'video', path|url}
//   stored        {type:'video', video:{sha256,…}, origin} (an Arbiter export read back): the store must hold
//                 the hash, else its origin path is read again
// A part may name the column its video came from (`column`, `index`: a `videos` column, a LeRobot camera).
//   a relative path  → copied from the images folder the user gave, else the file's own folder (never an
//                      absolute path, a file: URL, or `..` out of the folder: the file may be hostile)
//   an http(s) URL   → kept, never fetched: {origin:{kind:'url'}, unavailable:'not available offline: http URL'}
// A file that is no video container, or larger than videoMaxBytes, is a RecordError naming the place and the
// path; one whose headers are broken is stored with `damaged` saying why (its box on the page says it).
import { statSync } from 'node:fs';
import type { Content, ContentPart } from '../../../shared/domain';
import { replaceParts } from '../../../shared/contentParts';
import { SHA256_HEX, type ImageOrigin } from '../../../shared/images';
import type { VideoPart, VideoRef } from '../../../shared/videos';
import { RecordError } from '../base/errors';
import { formatBytes, limit, limitEnvName } from '../base/limits';
import { locateFile, type Fail, type ImageContext, type RecordImages } from '../images/resolve';
import { probeVideoFile, VideoRefusal } from './probe';
import { hasVideo, putVideoFile, videoFile, videoStoreDir } from './store';

const UNAVAILABLE_URL = 'not available offline: http URL';
const SEEN_MAX = 4096;
/** Paths already copied in an import (absolute path → what it held), so a shared video is read once. */
const seenOf = new WeakMap<ImageContext, Map<string, { ref: VideoRef; mtimeMs: number; size: number }>>();

/** A part that is (or claims to be) a video: its type names one (video, video_url). */
export function isVideoLike(part: unknown): part is ContentPart {
  return part !== null && typeof part === 'object' && typeof (part as ContentPart).type === 'string' && (part as ContentPart).type.startsWith('video');
}

/**
 * `content` with every raw video part in the stored form (a new list; one without videos is returned as it
 * is). `place` names it in errors ("prompt", "response A"). Each stored video's sha256 goes to `out.videos`.
 */
export function resolveVideos(content: Content, place: string, ctx: ImageContext, out: RecordImages): Content {
  return replaceParts(content, isVideoLike, (part, m, p) => {
    const fail: Fail = (what, why) => {
      throw new RecordError(`${place} message ${m + 1}, part ${p + 1}: ${what}: ${why}`);
    };
    return resolvePart(part, ctx, out, fail);
  });
}

function resolvePart(part: ContentPart, ctx: ImageContext, out: RecordImages, fail: Fail): VideoPart {
  const column = typeof part.column === 'string' ? { column: part.column, index: Number.isSafeInteger(part.index) ? (part.index as number) : 0 } : null;
  if (part.type === 'video_url') {
    const field = part.video_url;
    const url = typeof field === 'string' ? field : field !== null && typeof field === 'object' ? (field as { url?: unknown }).url : undefined;
    if (typeof url !== 'string') fail('a video_url part', 'it has no url (video_url should be {"url": "…"} or a string)');
    return fromString(url as string, column, ctx, out, fail);
  }
  if (part.type !== 'video') fail(`a content part of type ${JSON.stringify(part.type.slice(0, 40))}`, 'Arbiter reads video and video_url parts only');
  const video = part.video;
  if (video !== null && typeof video === 'object' && typeof (video as VideoRef).sha256 === 'string') return storedForm(part as VideoPart, ctx, out, fail);
  const origin = part.origin as ImageOrigin | undefined;
  if (origin && typeof origin === 'object' && video === undefined) {
    if (origin.kind === 'url' && typeof origin.url === 'string') return fromString(origin.url, null, ctx, out, fail);
    const path = origin.kind === 'path' ? origin.path : origin.kind === 'column' ? origin.path : undefined;
    if (typeof path === 'string') return fromPath(path, origin.kind === 'column' ? { column: origin.column, index: origin.index } : null, ctx, out, fail);
  }
  for (const value of [video, part.path, part.url]) {
    if (typeof value === 'string') return fromString(value, column, ctx, out, fail);
    if (value !== null && typeof value === 'object') {
      const v = value as { path?: unknown; url?: unknown };
      if (typeof v.url === 'string') return fromString(v.url, column, ctx, out, fail);
      if (typeof v.path === 'string') return fromPath(v.path, column, ctx, out, fail);
    }
  }
  return fail('a video part with no video in it', 'it names no path or URL (Arbiter reads a video file by a path relative to the file, or keeps an http URL)');
}

function fromString(value: string, column: { column: string; index: number } | null, ctx: ImageContext, out: RecordImages, fail: Fail): VideoPart {
  const text = value.trim();
  if (/^https?:\/\//i.test(text)) return { type: 'video', origin: { kind: 'url', url: text }, unavailable: UNAVAILABLE_URL };
  if (/^data:/i.test(text)) fail('a data: URI', 'videos are read from files beside the dataset, not from data: URIs (they may be gigabytes)');
  return fromPath(value, column, ctx, out, fail);
}

/** A part in the stored form already (an Arbiter file read back). */
function storedForm(part: VideoPart, ctx: ImageContext, out: RecordImages, fail: Fail): VideoPart {
  const ref = part.video!;
  const store = videoStoreDir(ctx.store);
  if (SHA256_HEX.test(ref.sha256) && hasVideo(store, ref.sha256)) {
    const file = videoFile(store, ref.sha256);
    const probed = probe(file, `the stored video ${ref.sha256.slice(0, 12)}…`, fail);
    note(ref.sha256, out);
    return { type: 'video', video: { sha256: ref.sha256, bytes: statSync(file).size, ...probed }, origin: part.origin };
  }
  const origin = part.origin;
  const path = origin.kind === 'path' ? origin.path : origin.kind === 'column' ? origin.path : undefined;
  if (typeof path === 'string' && path !== '') return fromPath(path, origin.kind === 'column' ? { column: origin.column, index: origin.index } : null, ctx, out, fail);
  if (origin.kind === 'url') return { type: 'video', origin, unavailable: UNAVAILABLE_URL };
  return fail(`the video ${ref.sha256.slice(0, 12)}…`, 'it is not in this database’s video store and the record carries no path for it; import the file with its videos beside it instead');
}

function probe(file: string, what: string, fail: Fail): Omit<VideoRef, 'sha256' | 'bytes'> {
  try {
    const p = probeVideoFile(file);
    return { mime: p.mime, codec: p.codec, width: p.width, height: p.height, duration: p.duration, fps: p.fps, frames: p.frames, audio: p.audio, ...(p.damaged ? { damaged: p.damaged } : {}) };
  } catch (error) {
    if (error instanceof VideoRefusal) return fail(what, error.message);
    throw error;
  }
}

function note(sha256: string, out: RecordImages): void {
  out.videos ??= [];
  if (!out.videos.includes(sha256)) out.videos.push(sha256);
}

/** A relative path, copied from the images folder or the file's folder into the store. */
function fromPath(written: string, column: { column: string; index: number } | null, ctx: ImageContext, out: RecordImages, fail: Fail): VideoPart {
  const { full, real, size, mtimeMs, what } = locateFile(written, ctx, fail, 'video');
  const max = limit('videoMaxBytes');
  if (size > max) fail(what, `${formatBytes(size)}, more than the ${formatBytes(max)} a video may be (${limitEnvName('videoMaxBytes')} raises it)`);
  const origin: ImageOrigin = column ? { kind: 'column', ...column, path: written } : { kind: 'path', path: written };
  let seen = seenOf.get(ctx);
  if (!seen) seenOf.set(ctx, (seen = new Map()));
  const known = seen.get(full);
  if (known && known.mtimeMs === mtimeMs && known.size === size && (ctx.checkOnly || hasVideo(videoStoreDir(ctx.store), known.ref.sha256))) {
    note(known.ref.sha256, out);
    return { type: 'video', video: known.ref, origin };
  }
  const probed = probe(real, what, fail);
  let stored: { sha256: string; bytes: number };
  try {
    stored = ctx.checkOnly ? { sha256: '0'.repeat(64), bytes: size } : putVideoFile(videoStoreDir(ctx.store), real);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(what, `cannot be copied into the video store: ${code === 'ENOSPC' ? 'the disk is full' : (code ?? (error as Error).message)}`);
  }
  const ref: VideoRef = { sha256: stored.sha256, bytes: stored.bytes, ...probed };
  if (!ctx.checkOnly) {
    note(ref.sha256, out);
    if (seen.size >= SEEN_MAX) seen.clear();
    seen.set(full, { ref, mtimeMs, size });
  }
  return { type: 'video', video: ref, origin };
}
