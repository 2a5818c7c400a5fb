// A LeRobot dataset folder (huggingface/lerobot, codebase v2.x) read as one record per episode: the folder
// holds meta/info.json (fps, features — a feature of dtype "video" is a camera —, chunks_size, and the
// data_path / video_path templates such as "videos/chunk-{episode_chunk:03d}/{video_key}/episode_{episode_index:06d}.mp4"),
// meta/episodes.jsonl (episode_index, tasks, length), meta/tasks.jsonl, and per episode a Parquet file of
// frames (its `next.success` column, where the dataset has one, says whether the episode succeeded) and
// one mp4 per camera. Each record is {lerobot_episode, tasks, length, fps, robot_type, cameras: {key: path},
// success}; paths are relative to the folder, which the import reads them from (the file's folder).
// The hash covers the metadata files and the episodes' Parquet files read.
import type { Hash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadataAsync, parquetReadObjects, type AsyncBuffer } from 'hyparquet';
import { ArbiterError } from '../../base/errors';
import type { Chunk } from './chunk';

const EPISODES_PER_CHUNK = 500;

/** Whether `path` is a LeRobot dataset folder (it holds meta/info.json). */
export function isLeRobotFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory() && existsSync(join(path, 'meta', 'info.json'));
  } catch {
    return false;
  }
}

/** A LeRobot path template filled ("{episode_index:06d}" → 000042). */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)(?::0?(\d+)d)?\}/g, (whole, key: string, width?: string) => {
    const value = values[key];
    if (value === undefined) return whole;
    return width && typeof value === 'number' ? String(value).padStart(Number(width), '0') : String(value);
  });
}

function readHashed(path: string, hash: Hash): Buffer {
  const bytes = readFileSync(path);
  hash.update(bytes);
  return bytes;
}

/** The last `next.success` (or `success`) of an episode's frames, or null when the dataset has none. */
async function episodeSuccess(file: string, hash: Hash, column: string): Promise<boolean | null> {
  if (!existsSync(file)) return null;
  const bytes = readHashed(file, hash);
  const buffer: AsyncBuffer = { byteLength: bytes.length, slice: (start, end = bytes.length) => Uint8Array.prototype.slice.call(bytes, start, end).buffer };
  const metadata = await parquetMetadataAsync(buffer);
  const rows = Number(metadata.num_rows);
  if (!rows) return null;
  const last = await parquetReadObjects({ file: buffer, metadata, columns: [column], rowStart: rows - 1, rowEnd: rows });
  const value = last[0]?.[column];
  return typeof value === 'boolean' ? value : typeof value === 'number' || typeof value === 'bigint' ? Number(value) !== 0 : null;
}

export async function* leRobotChunks(dir: string, hash: Hash, name = dir): AsyncGenerator<Chunk> {
  let info: Record<string, unknown>;
  try {
    info = JSON.parse(readHashed(join(dir, 'meta', 'info.json'), hash).toString('utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new ArbiterError('invalid_file', `${name}: meta/info.json is not readable JSON (${(error as Error).message}).`);
  }
  const features = (info.features ?? {}) as Record<string, { dtype?: string }>;
  const cameras = Object.keys(features).filter((k) => features[k]?.dtype === 'video');
  const successColumn = ['next.success', 'success'].find((k) => k in features) ?? null;
  const videoPath = typeof info.video_path === 'string' ? info.video_path : 'videos/chunk-{episode_chunk:03d}/{video_key}/episode_{episode_index:06d}.mp4';
  const dataPath = typeof info.data_path === 'string' ? info.data_path : 'data/chunk-{episode_chunk:03d}/episode_{episode_index:06d}.parquet';
  const chunkSize = Number(info.chunks_size) > 0 ? Number(info.chunks_size) : 1000;
  const episodesFile = join(dir, 'meta', 'episodes.jsonl');
  if (!existsSync(episodesFile)) throw new ArbiterError('invalid_file', `${name}: meta/episodes.jsonl is missing; a LeRobot v2 dataset lists its episodes there.`);
  const lines = readHashed(episodesFile, hash).toString('utf8').split(/\r?\n/);
  let out: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    let episode: Record<string, unknown>;
    try {
      episode = JSON.parse(line) as Record<string, unknown>;
    } catch {
      // The importer names the line: hand it on as it is.
      out.push(line);
      continue;
    }
    const index = Number(episode.episode_index);
    const values = { episode_chunk: Math.floor(index / chunkSize), episode_index: index };
    const success = typeof episode.success === 'boolean' ? episode.success : successColumn && Number.isInteger(index) ? await episodeSuccess(join(dir, fillTemplate(dataPath, values)), hash, successColumn) : null;
    out.push(
      JSON.stringify({
        lerobot_episode: episode.episode_index,
        tasks: episode.tasks ?? [],
        length: episode.length ?? null,
        fps: info.fps ?? null,
        robot_type: info.robot_type ?? null,
        cameras: Object.fromEntries(cameras.map((key) => [key, fillTemplate(videoPath, { ...values, video_key: key })])),
        success,
      }),
    );
    if (out.length >= EPISODES_PER_CHUNK) {
      yield { lines: out };
      out = [];
    }
  }
  yield { lines: out };
}
