// Short videos made at test time by Debian's ffmpeg (never committed): a moving test pattern of a given
// size, rate and length, in the codec and container asked for. Suites that need them call ffmpegMissing()
// and skip (or fail under ARBITER_REQUIRE_ALL=1, test/helpers/required.ts) where ffmpeg is not installed.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export type ClipCodec = 'h264' | 'vp9' | 'av1';

export interface ClipSpec {
  codec: ClipCodec;
  /** mp4, mov, webm (VP9 and AV1 default to webm, H.264 to mp4). */
  container?: 'mp4' | 'mov' | 'webm';
  width?: number;
  height?: number;
  fps?: number;
  seconds?: number;
  audio?: boolean;
  /** lavfi source: testsrc2 (a moving pattern, the default), testsrc, or a colour such as color=c=red. */
  source?: string;
}

let missing: string | null | undefined;

/** Why clips cannot be made here (no ffmpeg on PATH), or null. */
export function ffmpegMissing(): string | null {
  if (missing === undefined) {
    const probe = spawnSync('ffmpeg', ['-hide_banner', '-version'], { encoding: 'utf8' });
    missing = probe.status === 0 ? null : 'ffmpeg is not installed (apt-get install ffmpeg)';
  }
  return missing;
}

/** Makes `name` in `dir` and returns its path. */
export function makeClip(dir: string, name: string, spec: ClipSpec): string {
  const { codec, width = 64, height = 48, fps = 24, seconds = 1, audio = false } = spec;
  const container = spec.container ?? (codec === 'h264' ? 'mp4' : 'webm');
  const out = join(dir, name);
  const base = spec.source ?? 'testsrc2';
  const source = `${base}${base.includes('=') ? ':' : '='}size=${width}x${height}:rate=${fps}:duration=${seconds}`;
  const video = codec === 'h264' ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', String(fps)] : codec === 'vp9' ? ['-c:v', 'libvpx-vp9', '-b:v', '60k', '-deadline', 'realtime', '-cpu-used', '8', '-g', String(fps)] : ['-c:v', 'libaom-av1', '-cpu-used', '8', '-b:v', '60k', '-g', String(fps)];
  const sound = audio ? ['-f', 'lavfi', '-i', `sine=duration=${seconds}`] : [];
  const audioCodec = audio ? (container === 'webm' ? ['-c:a', 'libopus'] : ['-c:a', 'aac']) : [];
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, ...sound, ...video, ...audioCodec, '-f', container === 'mov' ? 'mov' : container, out];
  const run = spawnSync('ffmpeg', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`ffmpeg failed making ${name}: ${run.stderr}`);
  return out;
}
