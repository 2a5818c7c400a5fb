// Fixtures for the video scorer tests: tiny video model folders (scripts/lib/onnx-video-builder.mjs), clips
// made by Debian's ffmpeg (one colour, colours one after another, a moving pattern), stored in a database's
// video store with what the import's probe reads, and items whose responses are generated videos.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Content } from '../../shared/domain';
import type { VideoPart } from '../../shared/videos';
import { imageStoreDir } from '../../electron/core/images/store';
import { probeVideoFile } from '../../electron/core/videos/probe';
import { putVideoFile, videoStoreDir } from '../../electron/core/videos/store';
import { buildVocab, wordPieceTokenizerJson } from '../../scripts/lib/onnx-builder.mjs';
import { clipPreprocessorConfig } from '../../scripts/lib/onnx-image-builder.mjs';
import { buildVideoRewardModel, makeVideoRewardWeights, type VideoRewardWeights } from '../../scripts/lib/onnx-video-builder.mjs';

export const VIDEO_WORDS = 'a the red green blue car sky sea road photo of on driving along and'.split(' ');

export interface VideoFolder {
  dir: string;
  vocab: string[];
  weights: VideoRewardWeights;
}

export interface VideoFolderOptions {
  size?: number;
  /** The graph's frame dimension (a string: dynamic). */
  frames?: number | string;
  /** arbiter-model.json, when given. */
  manifest?: Record<string, unknown>;
}

export function writeVideoModelFolder(dir: string, options: VideoFolderOptions = {}): VideoFolder {
  mkdirSync(dir, { recursive: true });
  const size = options.size ?? 32;
  const vocab = buildVocab(VIDEO_WORDS);
  const weights = makeVideoRewardWeights({ vocab, size });
  writeFileSync(join(dir, 'model.onnx'), buildVideoRewardModel(weights, { frames: options.frames ?? 4 }));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(wordPieceTokenizerJson(vocab)));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ pad_token: '[PAD]', model_max_length: 77 }));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ pad_token_id: 0 }));
  writeFileSync(join(dir, 'preprocessor_config.json'), JSON.stringify(clipPreprocessorConfig(size)));
  if (options.manifest) writeFileSync(join(dir, 'arbiter-model.json'), JSON.stringify(options.manifest));
  return { dir, vocab, weights };
}

/** Token ids the reference way: [CLS] words [SEP] (every prompt word is a whole token of the test vocabulary). */
export function videoPromptIds(folder: VideoFolder, prompt: string): number[] {
  return [2, ...prompt.split(' ').map((w) => folder.vocab.indexOf(w)), 3];
}

/**
 * An H.264 MP4 (or, with `webm`, VP9) at `dir/name`: `colours` one after another, `secondsEach` each, or
 * testsrc2's moving pattern when `colours` is 'pattern'.
 */
export function colourClip(dir: string, name: string, colours: string[] | 'pattern', { width = 64, height = 48, fps = 24, secondsEach = 1, webm = false } = {}): string {
  const out = join(dir, name);
  const sources = colours === 'pattern' ? [`testsrc2=size=${width}x${height}:rate=${fps}:duration=${secondsEach}`] : colours.map((c) => `color=c=${c}:size=${width}x${height}:rate=${fps}:duration=${secondsEach}`);
  const graph = sources.map((s, i) => `${s}[v${i}]`).join(';') + `;${sources.map((_, i) => `[v${i}]`).join('')}concat=n=${sources.length}:v=1:a=0[out]`;
  const codec = webm ? ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k'] : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  const run = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-filter_complex', graph, '-map', '[out]', ...codec, out], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`ffmpeg failed making ${name}: ${run.stderr}`);
  return out;
}

/** Stores the clip in the database's video store and returns the part an import would have written. */
export function storedVideoPart(dbPath: string, file: string): VideoPart {
  const stored = putVideoFile(videoStoreDir(imageStoreDir(dbPath)), file);
  const probed = probeVideoFile(file);
  return { type: 'video', video: { sha256: stored.sha256, bytes: stored.bytes, ...probed }, origin: { kind: 'path', path: file } } as VideoPart;
}

/** A generated-video response: one assistant message holding the video. */
export function videoResponse(part: VideoPart): { content: Content } {
  return { content: [{ role: 'assistant', content: [part] }] };
}

/** RGB frames decoded by Debian's ffmpeg (not the packaged one), sampled the same way: the reference. */
export function referenceFrames(file: string, fps: number, frames: number, width: number, height: number): Uint8Array {
  const run = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-vf', `fps=${fps.toFixed(6)},scale=${width}:${height}:flags=bicubic`, '-frames:v', String(frames), '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`ffmpeg failed decoding ${file}: ${String(run.stderr)}`);
  const frameBytes = width * height * 3;
  const got = Math.floor(run.stdout.length / frameBytes);
  const out = new Uint8Array(frames * frameBytes);
  out.set(run.stdout.subarray(0, got * frameBytes));
  for (let k = got; k < frames; k++) out.set(run.stdout.subarray((got - 1) * frameBytes, got * frameBytes), k * frameBytes);
  return out;
}
