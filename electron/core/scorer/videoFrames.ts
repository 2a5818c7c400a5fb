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

/**
 * `request.frames` RGB frames (each width × height × 3 bytes, one buffer) of the video file at `path`,
 * sampled at `request.fps`, scaled to width × height.
 */
export function decodeFrames(path: string, request: FrameRequest): Promise<{ rgb: Uint8Array; decoded: number }> {
  const { frames, fps, width, height } = request;
  const frameBytes = width * height * 3;
  const wanted = frames * frameBytes;
  const args = [
    '-hide_banner', '-loglevel', 'error', '-nostdin',
    '-protocol_whitelist', 'file', '-format_whitelist', FORMATS,
    '-i', `file:${path}`,
    '-an', '-sn', '-dn',
    '-vf', `fps=${fps.toFixed(6)},scale=${width}:${height}:flags=bicubic`,
    '-frames:v', String(frames),
    '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1',
  ];
  return new Promise((resolve, reject) => {
    let bin: string;
    try {
      bin = ffmpegBinary();
    } catch (error) {
      reject(error);
      return;
    }
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const rgb = new Uint8Array(wanted);
    let filled = 0;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, request.timeoutMs ?? DECODE_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      const take = Math.min(chunk.length, wanted - filled);
      if (take > 0) rgb.set(chunk.subarray(0, take), filled);
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
      if (timedOut) return reject(new VideoReadError(`decoding took more than ${Math.round((request.timeoutMs ?? DECODE_TIMEOUT_MS) / 1000)} s`));
      const decoded = Math.floor(filled / frameBytes);
      if (decoded === 0) return reject(new VideoReadError(`no frame could be decoded${code ? ` (ffmpeg: ${lastLine(stderr) || `exit ${code}`})` : ''}`));
      // A short video: its last frame fills the frames it does not have.
      const last = rgb.subarray((decoded - 1) * frameBytes, decoded * frameBytes);
      for (let k = decoded; k < frames; k++) rgb.set(last, k * frameBytes);
      resolve({ rgb, decoded });
    });
  });
}

/**
 * The rate to sample a video at: `fps`, lowered so that `frames` frames span the whole clip when it is
 * longer than frames / fps seconds (a long clip is seen whole, not only its start). Unknown duration: `fps`.
 */
export function samplingRate(fps: number, frames: number, duration: number | null): number {
  if (duration === null || !(duration > 0)) return fps;
  return Math.min(fps, frames / duration);
}
