// Frames of a stored video for a video reward model, decoded by the ffmpeg binary that ships inside the
// npm package @ffmpeg-installer/<platform>-<arch> (nothing is fetched at install or run time; why this
// decoder and not the page's: docs/models.md, "Video reward models"). ffmpeg runs as a child process with
// only the file protocol and the containers Arbiter stores allowed (a video cannot make it open a URL or
// another file), within a time bound, and its output is read to exactly the bytes asked for: `frames`
// RGB frames of the width × height asked for (scaled by swscale's bicubic), sampled at a set rate by
// ffmpeg's fps filter.
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentModuleFile } from '../base/workers';

/** The video could not be decoded into frames; its message is a sentence. */
export class VideoReadError extends Error {}

/** The containers the video store holds (shared/videos.ts VideoRef.mime), as ffmpeg names its demuxers. */
const FORMATS = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm';
/** The most seconds one video's decoding may take before it is stopped. */
export const DECODE_TIMEOUT_MS = 120_000;

let binary: string | undefined;

const here = (): string => (typeof import.meta.url === 'string' && import.meta.url.startsWith('file:') ? fileURLToPath(import.meta.url) : currentModuleFile());

/** The ffmpeg executable of this platform's @ffmpeg-installer package (outside app.asar when packaged). */
export function ffmpegBinary(): string {
  if (binary) return binary;
  const name = `@ffmpeg-installer/${process.platform}-${process.arch}`;
  let dir: string;
  try {
    dir = dirname(createRequire(here()).resolve(`${name}/package.json`));
  } catch {
    throw new VideoReadError(`no video decoder for this platform (${process.platform}-${process.arch}): the npm package ${name} is not installed`);
  }
  const file = join(dir.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1'), process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
  if (!existsSync(file)) throw new VideoReadError(`the video decoder ${file} is missing: install the npm package ${name} again`);
  if (process.platform !== 'win32') {
    try {
      accessSync(file, constants.X_OK);
    } catch {
      // The package's tarball keeps the executable bit; its postinstall chmod is denied (package.json allowScripts).
      chmodSync(file, 0o755);
    }
  }
  return (binary = file);
}

export interface FrameRequest {
  /** Frames wanted; a shorter video repeats its last frame to fill them. */
  frames: number;
  /** Frames per second to sample at (ffmpeg's fps filter: the frame nearest each tick from the start). */
  fps: number;
  width: number;
  height: number;
  timeoutMs?: number;
}

/** What ffmpeg said on stderr, its first three lines in one (the first says why, the last where). */
const lastLine = (text: string) => text.trim().split('\n').filter(Boolean).slice(0, 3).join('; ').slice(0, 400);

/** Runs ffmpeg with `args`, reading at most `wanted` bytes of its output; rejects on a timeout or a failed start. */
function runDecoder(args: string[], wanted: number, timeoutMs: number): Promise<{ out: Uint8Array; filled: number; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    let bin: string;
    try {
      bin = ffmpegBinary();
    } catch (error) {
      reject(error);
      return;
    }
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const out = new Uint8Array(wanted);
    let filled = 0;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      const take = Math.min(chunk.length, wanted - filled);
      if (take > 0) out.set(chunk.subarray(0, take), filled);
      filled += take;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new VideoReadError(`the video decoder could not start: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new VideoReadError(`decoding took more than ${Math.round(timeoutMs / 1000)} s`));
      else resolve({ out, filled, code, stderr });
    });
  });
}

const inputArgs = () => ['-hide_banner', '-loglevel', 'error', '-nostdin', '-protocol_whitelist', 'file', '-format_whitelist', FORMATS];
const outputArgs = (width: number, height: number, filters: string[], frames: number) => [
  '-an', '-sn', '-dn',
  '-vf', [...filters, `scale=${width}:${height}:flags=bicubic`].join(','),
  '-frames:v', String(frames),
  '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1',
];

/** Fills the frames after the last decoded one with it (a short video), or rejects when none was decoded. */
function padFrames(rgb: Uint8Array, filled: number, frameBytes: number, frames: number, why: () => string): { rgb: Uint8Array; decoded: number } {
  const decoded = Math.floor(filled / frameBytes);
  if (decoded === 0) throw new VideoReadError(`no frame could be decoded${why()}`);
  const last = rgb.subarray((decoded - 1) * frameBytes, decoded * frameBytes);
  for (let k = decoded; k < frames; k++) rgb.set(last, k * frameBytes);
  return { rgb, decoded };
}

/**
 * `request.frames` RGB frames (each width × height × 3 bytes, one buffer) of the video file at `path`,
 * sampled at `request.fps` in one pass (ffmpeg decodes every frame up to the last one it keeps), scaled to
 * width × height. A short video repeats its last frame.
 */
export async function decodeFrames(path: string, request: FrameRequest): Promise<{ rgb: Uint8Array; decoded: number }> {
  const { frames, fps, width, height } = request;
  const frameBytes = width * height * 3;
  const args = [...inputArgs(), '-i', `file:${path}`, ...outputArgs(width, height, [`fps=${fps.toFixed(6)}`], frames)];
  const { out, filled, code, stderr } = await runDecoder(args, frames * frameBytes, request.timeoutMs ?? DECODE_TIMEOUT_MS);
  return padFrames(out, filled, frameBytes, frames, () => (code ? ` (ffmpeg: ${lastLine(stderr) || `exit ${code}`})` : ''));
}

/**
 * The same frames taken by seeking: for each tick k / fps, ffmpeg seeks to the key frame before it and
 * decodes from there to the first frame at or after the tick (one short run per frame). For a long clip
 * this decodes a few frames per sample instead of the whole clip.
 */
export async function decodeFramesBySeeking(path: string, request: FrameRequest): Promise<{ rgb: Uint8Array; decoded: number }> {
  const { frames, fps, width, height } = request;
  const frameBytes = width * height * 3;
  const rgb = new Uint8Array(frames * frameBytes);
  const started = performance.now();
  const budget = request.timeoutMs ?? DECODE_TIMEOUT_MS;
  let filled = 0;
  let said = '';
  for (let k = 0; k < frames; k++) {
    const left = budget - (performance.now() - started);
    if (left <= 0) throw new VideoReadError(`decoding took more than ${Math.round(budget / 1000)} s`);
    const args = [...inputArgs(), '-ss', (k / fps).toFixed(6), '-i', `file:${path}`, ...outputArgs(width, height, [], 1)];
    const { out, filled: got, code, stderr } = await runDecoder(args, frameBytes, left);
    // Past the end (a duration the headers overstate): the frames before it stand, the last repeats.
    if (got < frameBytes) {
      said = code ? ` (ffmpeg: ${lastLine(stderr) || `exit ${code}`})` : '';
      break;
    }
    rgb.set(out, k * frameBytes);
    filled += frameBytes;
  }
  return padFrames(rgb, filled, frameBytes, frames, () => said);
}

/** Clips at least this long are sampled by seeking rather than in one pass. */
export const SEEK_FROM_SECONDS = 30;

/**
 * The rate to sample a video at: `fps`, lowered so that `frames` frames span the whole clip when it is
 * longer than frames / fps seconds (a long clip is seen whole, not only its start). Unknown duration: `fps`.
 */
export function samplingRate(fps: number, frames: number, duration: number | null): number {
  if (duration === null || !(duration > 0)) return fps;
  return Math.min(fps, frames / duration);
}
