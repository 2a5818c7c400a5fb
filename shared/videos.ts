// Videos as Arbiter keeps them. A video is a content part of a message ({type: 'video', …}), like an image
// (./images.ts): its bytes are stored once, content-addressed by sha256, in the video store beside the
// database (electron/core/videos), copied and hashed as a stream, never held whole in memory. The part
// names the stored bytes, what the container's headers say (probed at import, electron/core/videos/probe.ts)
// and where it came from, so an export writes the path the file had. A video that cannot be stored (an
// http URL, never fetched) keeps its origin and says why it is not shown; one whose headers are damaged
// is stored all the same and says so (`damaged`), so the item imports and the page shows its own box.
import type { Content, ContentPart } from './domain';
import type { ImageOrigin } from './images';

/** What the store holds under `sha256`, and what its container's headers said at import. */
export interface VideoRef {
  /** Lower-case hex sha256 of the file's bytes. */
  sha256: string;
  /** video/mp4, video/quicktime, video/webm, video/x-matroska. */
  mime: string;
  /** Codec of the first video track, as people name it: h264, hevc, vp8, vp9, av1, mpeg4, prores…; null when unknown. */
  codec: string | null;
  width: number | null;
  height: number | null;
  /** Seconds, as the container says; null when it does not (a live-written WebM). */
  duration: number | null;
  /** Frames per second (frames over the track's duration, or the track's default frame duration); null when unknown. */
  fps: number | null;
  /** Frames of the video track (MP4 / MOV: counted in its sample table; WebM: duration × fps, rounded); null when unknown. */
  frames: number | null;
  /** Whether the file has an audio track (the page plays it muted until asked). */
  audio: boolean;
  /** Size of the file in bytes. */
  bytes: number;
  /** Why its headers could not be read (stored as it is; the page says so in the video's box). */
  damaged?: string;
}

/** Where a video came from: the forms of an image's origin (a path, an http URL, a column entry). */
export type VideoOrigin = ImageOrigin;

export interface VideoPart extends ContentPart {
  type: 'video';
  /** The stored bytes; absent when the video could not be stored (see `unavailable`). */
  video?: VideoRef;
  origin: VideoOrigin;
  /** Why it cannot be shown, for people ("not available offline: http URL"). */
  unavailable?: string;
}

export function isVideoPart(part: unknown): part is VideoPart {
  if (part === null || typeof part !== 'object') return false;
  const p = part as Partial<VideoPart>;
  return p.type === 'video' && typeof p.origin === 'object' && p.origin !== null;
}

/** Every video part of one prompt or response, in reading order. */
export function videosOf(content: Content): VideoPart[] {
  if (typeof content === 'string') return [];
  const out: VideoPart[] = [];
  for (const message of content) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) if (isVideoPart(part)) out.push(part);
  }
  return out;
}

/** "1280 × 720 H264, 24 fps, 5.2 s, 3.1 MB": what hover and the video's box show. */
export function describeVideo(ref: VideoRef): string {
  const parts: string[] = [];
  if (ref.width && ref.height) parts.push(`${ref.width} × ${ref.height}${ref.codec ? ` ${ref.codec.toUpperCase()}` : ''}`);
  else if (ref.codec) parts.push(ref.codec.toUpperCase());
  if (ref.fps) parts.push(`${Number(ref.fps.toFixed(2))} fps`);
  if (ref.duration !== null) parts.push(`${ref.duration.toFixed(1)} s`);
  parts.push(ref.bytes >= 1e6 ? `${(ref.bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(ref.bytes / 1e3))} KB`);
  return parts.join(', ');
}

/** "01:02.375": a timecode of `seconds` (minutes, seconds, milliseconds; hours when there are any). */
export function timecode(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const rest = `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
  return h ? `${h}:${rest}` : rest;
}

/** The path the page plays a video from: a ticket the service hands out (`videoAddress`), same origin. */
export const VIDEO_PREFIX = '/videos/';
