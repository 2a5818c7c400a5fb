// What a video's container headers say, read from the file with a few positioned reads (never the whole
// file; a 4 GiB video costs the moov box or the first Matroska elements): the container, the first video
// track's codec, size, duration, frame rate and frame count, whether it has sound. Written here in
// TypeScript rather than by ffprobe, because ffprobe is not on users' machines and nothing may be
// fetched at install or run time; the headers are all an import needs (the page decodes the frames).
//   MP4 / MOV (ISO BMFF): ftyp, then moov → mvhd, trak → tkhd, mdia → mdhd, hdlr, minf → stbl → stsd, stts
//   WebM / MKV (EBML): the EBML header's DocType, Segment → Info (TimestampScale, Duration), Tracks →
//   TrackEntry (TrackType, CodecID, DefaultDuration, Video → PixelWidth, PixelHeight)
// A file that is neither is refused (VideoRefusal); one that starts like a video but whose headers are cut
// short or broken is a DamagedVideo: stored all the same, its box on the page says why.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { VideoRef } from '../../../shared/videos';

/** What the headers say: the fields of a stored video's part (shared/videos.ts) that the file itself tells. */
export interface ProbedVideo extends Pick<VideoRef, 'mime' | 'codec' | 'width' | 'height' | 'duration' | 'fps' | 'frames' | 'audio'> {
  /** Why the headers could not be read, when the file starts like a video but is broken. */
  damaged?: string;
}

/** Not a video Arbiter reads, in a sentence without a place (the caller names the field and the path). */
export class VideoRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VideoRefusal';
  }
}

/** The most bytes of header a probe reads into memory (a moov box of a long video is a few MB). */
const HEADER_MAX = 64 << 20;
const MAX_BOXES = 100_000;

interface Source {
  size: number;
  read(at: number, length: number): Buffer;
}

function fileSource(fd: number): Source {
  const size = fstatSync(fd).size;
  return {
    size,
    read(at, length) {
      const n = Math.max(0, Math.min(length, size - at));
      const buf = Buffer.alloc(n);
      let got = 0;
      while (got < n) {
        const r = readSync(fd, buf, got, n - got, at + got);
        if (r === 0) break;
        got += r;
      }
      return buf.subarray(0, got);
    },
  };
}

const MP4_CODECS: Record<string, string> = {
  avc1: 'h264', avc3: 'h264', hvc1: 'hevc', hev1: 'hevc', vp08: 'vp8', vp09: 'vp9', av01: 'av1', mp4v: 'mpeg4',
  apcn: 'prores', apch: 'prores', apcs: 'prores', apco: 'prores', ap4h: 'prores', jpeg: 'mjpeg', mjpa: 'mjpeg',
};
const MKV_CODECS: Record<string, string> = { V_VP8: 'vp8', V_VP9: 'vp9', V_AV1: 'av1', 'V_MPEG4/ISO/AVC': 'h264', 'V_MPEGH/ISO/HEVC': 'hevc', V_THEORA: 'theora', 'V_MPEG4/ISO/ASP': 'mpeg4' };

/** Probes the video file at `path`. */
export function probeVideoFile(path: string): ProbedVideo {
  const fd = openSync(path, 'r');
  try {
    return probeVideo(fileSource(fd));
  } finally {
    closeSync(fd);
  }
}

/** Probes bytes in memory (tests, small files). */
export function probeVideoBytes(bytes: Uint8Array): ProbedVideo {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return probeVideo({ size: buf.length, read: (at, length) => buf.subarray(at, Math.min(buf.length, at + length)) });
}

export const VIDEO_KINDS = 'MP4, MOV, WebM or MKV';

function probeVideo(src: Source): ProbedVideo {
  const head = src.read(0, 64);
  if (head.length >= 8 && ['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip'].includes(head.toString('latin1', 4, 8))) return probeMp4(src, head);
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return probeMatroska(src);
  throw new VideoRefusal(`not a video Arbiter reads (${VIDEO_KINDS}): ${head.length === 0 ? 'the file is empty' : 'its first bytes are not a video container’s'}`);
}

class Broken extends Error {}

function damaged(mime: string, why: string): ProbedVideo {
  return { mime, codec: null, width: null, height: null, duration: null, fps: null, frames: null, audio: false, damaged: why };
}

// ---- MP4 / MOV ----

interface Box {
  type: string;
  /** Where its content starts and ends, in the buffer or file it was read from. */
  start: number;
  end: number;
}

function* boxes(buf: Buffer, from: number, to: number): Generator<Box> {
  let at = from;
  let n = 0;
  while (at + 8 <= to) {
    if (++n > MAX_BOXES) throw new Broken('too many boxes');
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) throw new Broken(`the ${type} box is cut short`);
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) throw new Broken(`the ${type} box is cut short`);
    yield { type, start: at + header, end: at + size };
    at += size;
  }
}

function child(buf: Buffer, box: Box, type: string): Box | undefined {
  for (const b of boxes(buf, box.start, box.end)) if (b.type === type) return b;
  return undefined;
}

function probeMp4(src: Source, head: Buffer): ProbedVideo {
  const mov = head.toString('latin1', 4, 8) === 'ftyp' && head.toString('latin1', 8, 12) === 'qt  ';
  const mime = mov ? 'video/quicktime' : 'video/mp4';
  // The top level is walked on disk: mdat (the frames) may come before moov and is skipped unread.
  let at = 0;
  let moov: Buffer | null = null;
  for (let n = 0; at + 8 <= src.size && n < MAX_BOXES; n++) {
    const h = src.read(at, 16);
    let size = h.readUInt32BE(0);
    const type = h.toString('latin1', 4, 8);
    let header = 8;
    if (size === 1) {
      if (h.length < 16) break;
      size = Number(h.readBigUInt64BE(8));
      header = 16;
    } else if (size === 0) size = src.size - at;
    if (size < header) return damaged(mime, `its ${JSON.stringify(type)} box has an impossible size`);
    if (type === 'moov') {
      if (at + size > src.size) return damaged(mime, 'its moov box (the index of its frames) is cut short: the file may be incomplete');
      if (size > HEADER_MAX) return damaged(mime, `its moov box is ${size} bytes, more than the ${HEADER_MAX} a probe reads`);
      moov = src.read(at + header, size - header);
      break;
    }
    at += size;
  }
  if (!moov) return damaged(mime, 'it has no moov box (the index of its frames): the file may be cut short, or still being written');
  try {
    return { mime, ...readMoov(moov) };
  } catch (error) {
    if (error instanceof Broken) return damaged(mime, `its moov box is broken: ${error.message}`);
    throw error;
  }
}

function readMoov(moov: Buffer): Omit<ProbedVideo, 'mime'> {
  const all: Box = { type: 'moov', start: 0, end: moov.length };
  let duration: number | null = null;
  const mvhd = child(moov, all, 'mvhd');
  if (mvhd) {
    const v1 = moov[mvhd.start] === 1;
    const scale = moov.readUInt32BE(mvhd.start + (v1 ? 20 : 12));
    const length = v1 ? Number(moov.readBigUInt64BE(mvhd.start + 24)) : moov.readUInt32BE(mvhd.start + 16);
    if (scale > 0) duration = length / scale;
  }
  let video: Omit<ProbedVideo, 'mime' | 'audio' | 'duration'> | null = null;
  let trackDuration: number | null = null;
  let audio = false;
  for (const trak of boxes(moov, 0, moov.length)) {
    if (trak.type !== 'trak') continue;
    const mdia = child(moov, trak, 'mdia');
    const hdlr = mdia && child(moov, mdia, 'hdlr');
    const handler = hdlr ? moov.toString('latin1', hdlr.start + 8, hdlr.start + 12) : '';
    if (handler === 'soun') audio = true;
    if (handler !== 'vide' || video || !mdia) continue;
    const mdhd = child(moov, mdia, 'mdhd');
    let seconds: number | null = null;
    if (mdhd) {
      const v1 = moov[mdhd.start] === 1;
      const scale = moov.readUInt32BE(mdhd.start + (v1 ? 20 : 12));
      const length = v1 ? Number(moov.readBigUInt64BE(mdhd.start + 24)) : moov.readUInt32BE(mdhd.start + 16);
      if (scale > 0) seconds = length / scale;
    }
    const stbl = child(moov, child(moov, mdia, 'minf') ?? mdia, 'stbl');
    const stsd = stbl && child(moov, stbl, 'stsd');
    let codec: string | null = null;
    let width: number | null = null;
    let height: number | null = null;
    if (stsd && stsd.end - stsd.start >= 8 + 8 + 28) {
      const entry = stsd.start + 8;
      const format = moov.toString('latin1', entry + 4, entry + 8);
      codec = MP4_CODECS[format] ?? format.trim();
      width = moov.readUInt16BE(entry + 8 + 24) || null;
      height = moov.readUInt16BE(entry + 8 + 26) || null;
    }
    if (width === null) {
      const tkhd = child(moov, trak, 'tkhd');
      if (tkhd && tkhd.end - tkhd.start >= 8) {
        width = Math.round(moov.readUInt32BE(tkhd.end - 8) / 65536) || null;
        height = Math.round(moov.readUInt32BE(tkhd.end - 4) / 65536) || null;
      }
    }
    const stts = stbl && child(moov, stbl, 'stts');
    let frames: number | null = null;
    if (stts) {
      const count = moov.readUInt32BE(stts.start + 4);
      if (stts.start + 8 + count * 8 > stts.end) throw new Broken('its stts table is cut short');
      frames = 0;
      for (let i = 0; i < count; i++) frames += moov.readUInt32BE(stts.start + 8 + i * 8);
    }
    trackDuration = seconds;
    const fps = frames && seconds ? round(frames / seconds) : null;
    video = { codec, width, height, fps, frames };
  }
  if (!video) return { codec: null, width: null, height: null, duration, fps: null, frames: null, audio, damaged: 'it has no video track' };
  return { ...video, duration: trackDuration ?? duration, audio };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

// ---- WebM / Matroska ----

const EBML = { DocType: 0x4282, Segment: 0x18538067, Info: 0x1549a966, Tracks: 0x1654ae6b, Cluster: 0x1f43b675, Scale: 0x2ad7b1, Duration: 0x4489, Entry: 0xae, Type: 0x83, Codec: 0x86, Default: 0x23e383, Video: 0xe0, Width: 0xb0, Height: 0xba };

interface Element {
  id: number;
  /** Where its data starts; its size (-1: unknown, to the end of its parent). */
  start: number;
  size: number;
}

function vint(buf: Buffer, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } {
  const first = buf[at];
  if (first === undefined || first === 0) throw new Broken('an element header is cut short or invalid');
  const length = Math.clz32(first) - 23;
  if (at + length > buf.length) throw new Broken('an element header is cut short');
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + buf[at + i]!;
    if (buf[at + i] !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function element(buf: Buffer, at: number): Element {
  const id = vint(buf, at, true);
  const size = vint(buf, at + id.length, false);
  return { id: id.value, start: at + id.length + size.length, size: size.unknown ? -1 : size.value };
}

function* elements(buf: Buffer, from: number, to: number): Generator<Element> {
  let at = from;
  for (let n = 0; at < to && n < MAX_BOXES; n++) {
    const e = element(buf, at);
    yield e;
    if (e.size < 0) return;
    at = e.start + e.size;
  }
}

function uint(buf: Buffer, e: Element): number {
  let v = 0;
  for (let i = 0; i < e.size; i++) v = v * 256 + buf[e.start + i]!;
  return v;
}

function probeMatroska(src: Source): ProbedVideo {
  // Info and Tracks come before the first Cluster; a few MiB hold them in any file a muxer wrote.
  const buf = src.read(0, Math.min(src.size, 4 << 20));
  let mime = 'video/x-matroska';
  try {
    const header = element(buf, 0);
    if (header.size < 0) throw new Broken('its EBML header has no size');
    for (const e of elements(buf, header.start, header.start + header.size))
      if (e.id === EBML.DocType && buf.toString('latin1', e.start, e.start + e.size).replace(/\0+$/, '') === 'webm') mime = 'video/webm';
    const segment = element(buf, header.start + header.size);
    if (segment.id !== EBML.Segment) throw new Broken('no Segment follows its EBML header');
    const end = segment.size < 0 ? buf.length : Math.min(buf.length, segment.start + segment.size);
    let scale = 1_000_000;
    let durationTicks: number | null = null;
    let video: { codec: string | null; width: number | null; height: number | null; frameNs: number | null } | null = null;
    let audio = false;
    let sawTracks = false;
    for (const e of elements(buf, segment.start, end)) {
      if (e.id === EBML.Cluster) break;
      if (e.size < 0 || e.start + e.size > buf.length) throw new Broken('its headers are cut short');
      if (e.id === EBML.Info) {
        for (const f of elements(buf, e.start, e.start + e.size)) {
          if (f.id === EBML.Scale) scale = uint(buf, f) || scale;
          if (f.id === EBML.Duration) durationTicks = f.size === 4 ? buf.readFloatBE(f.start) : f.size === 8 ? buf.readDoubleBE(f.start) : null;
        }
      } else if (e.id === EBML.Tracks) {
        sawTracks = true;
        for (const t of elements(buf, e.start, e.start + e.size)) {
          if (t.id !== EBML.Entry) continue;
          let type = 0;
          const track = { codec: null as string | null, width: null as number | null, height: null as number | null, frameNs: null as number | null };
          for (const f of elements(buf, t.start, t.start + t.size)) {
            if (f.id === EBML.Type) type = uint(buf, f);
            else if (f.id === EBML.Codec) {
              const id = buf.toString('latin1', f.start, f.start + f.size).replace(/\0+$/, '');
              track.codec = MKV_CODECS[id] ?? id;
            } else if (f.id === EBML.Default) track.frameNs = uint(buf, f) || null;
            else if (f.id === EBML.Video)
              for (const g of elements(buf, f.start, f.start + f.size)) {
                if (g.id === EBML.Width) track.width = uint(buf, g) || null;
                if (g.id === EBML.Height) track.height = uint(buf, g) || null;
              }
          }
          if (type === 2) audio = true;
          if (type === 1 && !video) video = track;
        }
      }
    }
    if (!sawTracks) return damaged(mime, 'it has no Tracks element before its first frames: the file may be cut short');
    const duration = durationTicks !== null && Number.isFinite(durationTicks) ? round((durationTicks * scale) / 1e9) : null;
    if (!video) return { ...damaged(mime, 'it has no video track'), duration, audio };
    const fps = video.frameNs ? round(1e9 / video.frameNs) : null;
    const frames = fps && duration !== null ? Math.round(fps * duration) : null;
    return { mime, codec: video.codec, width: video.width, height: video.height, duration, fps, frames, audio };
  } catch (error) {
    if (error instanceof Broken) return damaged(mime, `its headers are broken: ${error.message}`);
    throw error;
  }
}
