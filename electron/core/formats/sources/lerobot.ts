// A LeRobot dataset folder (huggingface/lerobot, codebase v2.x) read as one record per episode: the folder
// holds meta/info.json (fps, features — a feature of dtype "video" is a camera —, chunks_size, and the
// data_path / video_path templates such as "videos/chunk-{episode_chunk:03d}/{video_key}/episode_{episode_index:06d}.mp4"),
// meta/episodes.jsonl (episode_index, tasks, length; Arbiter's export adds the labels `success` and
// `first_failure`), meta/tasks.jsonl, and per episode a Parquet file of frames (its `next.success` column,
// where the dataset has one, says whether the episode succeeded) and one mp4 per camera. Each record is
// {lerobot_episode, tasks, length, fps, robot_type, cameras: {key: path}, success, first_failure?, damaged?};
// paths are relative to the folder, which the import reads them from (the file's folder).
// A damaged folder is said in sentences, never a stack trace: no meta/info.json, or templates and camera
// keys that lead out of the folder, refuse the whole import; an episode whose Parquet file cannot be read
// carries `damaged`, which its parser turns into that line's refusal (a missing camera video is refused
// there too, by the video resolver). Files are read within bounds (META_MAX_BYTES, EPISODE_DATA_MAX_BYTES).
// The hash covers the metadata files and the episodes' Parquet files read.
import type { Hash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { parquetMetadataAsync, parquetReadObjects, type AsyncBuffer } from 'hyparquet';
import { ArbiterError } from '../../base/errors';
import { limit } from '../../base/limits';
import type { Chunk } from './chunk';

const EPISODES_PER_CHUNK = 500;
/** The most bytes meta/info.json and meta/episodes.jsonl may have. */
export const META_MAX_BYTES = 256 * 1024 * 1024;
/** The most bytes an episode's Parquet file may have (it is read whole, for its last frame's success). */
export const EPISODE_DATA_MAX_BYTES = 1024 * 1024 * 1024;

/** Whether `path` is a folder: read as a LeRobot dataset (one without meta/info.json is refused with a sentence). */
export function isLeRobotFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Why a path relative to the dataset folder would lead out of it (`..`, an absolute path), or null. */
export function escapesFolder(relative: string): string | null {
  if (isAbsolute(relative) || /^[a-zA-Z]:|^[\\/]/.test(relative)) return 'is an absolute path';
  const normal = normalize(relative);
  if (normal === '..' || normal.startsWith(`..${sep}`) || relative.split(/[\\/]/).includes('..')) return 'leads out of the dataset folder (..)';
  return null;
}

const fail = (name: string, what: string) => new ArbiterError('invalid_file', `${name}: ${what}`);

/** Whether JSON text nests lists and objects deeper than `max` (outside strings): parsing and writing it again would recurse that deep. */
function nestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A value of info.json the records carry: only text or a number (a list or an object there is the dataset's mistake). */
const scalar = (value: unknown): string | number | null => (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : null);

/** A LeRobot path template filled ("{episode_index:06d}" → 000042). */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)(?::0?(\d+)d)?\}/g, (whole, key: string, width?: string) => {
    const value = values[key];
    if (value === undefined) return whole;
    return width && typeof value === 'number' ? String(value).padStart(Number(width), '0') : String(value);
  });
}

function readHashed(path: string, hash: Hash, max = META_MAX_BYTES): Buffer {
  const size = statSync(path).size;
  if (size > max) throw new RangeError(`${size} bytes, more than the ${max} read`);
  const bytes = readFileSync(path);
  hash.update(bytes);
  return bytes;
}

/** The last `next.success` (or `success`) of an episode's frames, or null when the dataset has none. */
async function episodeSuccess(file: string, hash: Hash, column: string): Promise<boolean | null> {
  if (!existsSync(file)) return null;
  const bytes = readHashed(file, hash, EPISODE_DATA_MAX_BYTES);
  const buffer: AsyncBuffer = { byteLength: bytes.length, slice: (start, end = bytes.length) => Uint8Array.prototype.slice.call(bytes, start, end).buffer };
  const metadata = await parquetMetadataAsync(buffer);
  const rows = Number(metadata.num_rows);
  if (!rows) return null;
  const last = await parquetReadObjects({ file: buffer, metadata, columns: [column], rowStart: rows - 1, rowEnd: rows });
  const value = last[0]?.[column];
  return typeof value === 'boolean' ? value : typeof value === 'number' || typeof value === 'bigint' ? Number(value) !== 0 : null;
}

export async function* leRobotChunks(dir: string, hash: Hash, name = dir): AsyncGenerator<Chunk> {
  const infoFile = join(dir, 'meta', 'info.json');
  if (!existsSync(infoFile)) throw fail(name, 'meta/info.json is missing: a LeRobot v2 dataset folder holds it (fps, features, the data and video path templates). Import a dataset folder, or a file.');
  let info: Record<string, unknown>;
  try {
    info = JSON.parse(readHashed(infoFile, hash).toString('utf8')) as Record<string, unknown>;
  } catch (error) {
    throw fail(name, `meta/info.json is not readable JSON (${(error as Error).message}).`);
  }
  if (info === null || typeof info !== 'object' || Array.isArray(info)) throw fail(name, 'meta/info.json is not a JSON object.');
  const features = (info.features !== null && typeof info.features === 'object' && !Array.isArray(info.features) ? info.features : {}) as Record<string, { dtype?: string } | null>;
  const cameras = Object.keys(features).filter((k) => features[k]?.dtype === 'video');
  for (const key of cameras) {
    const why = escapesFolder(key);
    if (why || /[\\/]/.test(key)) throw fail(name, `meta/info.json: the camera feature ${JSON.stringify(key.slice(0, 80))} ${why ?? 'holds a path separator'}; a camera key names a folder inside videos/.`);
  }
  const successColumn = ['next.success', 'success'].find((k) => k in features) ?? null;
  const template = (key: 'video_path' | 'data_path', fallback: string) => {
    const value = info[key] === undefined || info[key] === null ? fallback : info[key];
    if (typeof value !== 'string') throw fail(name, `meta/info.json: ${key} is not text.`);
    const why = escapesFolder(value);
    if (why) throw fail(name, `meta/info.json: ${key} ${JSON.stringify(value.slice(0, 120))} ${why}; its files must be inside the dataset folder.`);
    return value;
  };
  const videoPath = template('video_path', 'videos/chunk-{episode_chunk:03d}/{video_key}/episode_{episode_index:06d}.mp4');
  const dataPath = template('data_path', 'data/chunk-{episode_chunk:03d}/episode_{episode_index:06d}.parquet');
  const chunkSize = Number(info.chunks_size) > 0 ? Number(info.chunks_size) : 1000;
  const episodesFile = join(dir, 'meta', 'episodes.jsonl');
  if (!existsSync(episodesFile)) throw fail(name, 'meta/episodes.jsonl is missing; a LeRobot v2 dataset lists its episodes there.');
  let lines: string[];
  try {
    lines = readHashed(episodesFile, hash).toString('utf8').split(/\r?\n/);
  } catch (error) {
    throw fail(name, `meta/episodes.jsonl cannot be read (${(error as Error).message}).`);
  }
  let out: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    let episode: Record<string, unknown> | null = null;
    // Too deep: handed on as it is, for the importer to refuse with its sentence (recordMaxDepth).
    if (!nestsDeeper(line, limit('recordMaxDepth'))) {
      try {
        const parsed = JSON.parse(line) as unknown;
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) episode = parsed as Record<string, unknown>;
      } catch {
        // handed on below
      }
    }
    if (episode === null) {
      // Not JSON, or no object: the importer names the line, hand it on as it is.
      out.push(line);
      continue;
    }
    const index = Number(episode.episode_index);
    const values = { episode_chunk: Math.floor(index / chunkSize), episode_index: index };
    let success: boolean | null = typeof episode.success === 'boolean' ? episode.success : null;
    let damaged: string | undefined;
    // A labels file's own null says "no verdict": the frames are not asked then.
    if (!('success' in episode) && successColumn && Number.isInteger(index)) {
      const data = fillTemplate(dataPath, values);
      try {
        success = await episodeSuccess(join(dir, data), hash, successColumn);
      } catch (error) {
        damaged = `${data} is not a readable Parquet file (${(error as Error).message.slice(0, 200)})`;
      }
    }
    out.push(
      JSON.stringify({
        lerobot_episode: episode.episode_index,
        tasks: episode.tasks ?? [],
        length: episode.length ?? null,
        fps: scalar(info.fps),
        robot_type: scalar(info.robot_type),
        cameras: Object.fromEntries(cameras.map((key) => [key, fillTemplate(videoPath, { ...values, video_key: key })])),
        success,
        ...('first_failure' in episode ? { first_failure: episode.first_failure } : {}),
        ...(damaged ? { damaged } : {}),
      }),
    );
    if (out.length >= EPISODES_PER_CHUNK) {
      yield { lines: out };
      out = [];
    }
  }
  yield { lines: out };
}
