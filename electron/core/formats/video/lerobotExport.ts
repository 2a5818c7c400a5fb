// Writing a LeRobot dataset folder back (huggingface/lerobot codebase v2.1 layout, as ./lerobot.ts reads it):
// one episode per item whose response holds camera videos, in item order, indexed 0…N−1 (LeRobot needs
// them contiguous; a filtered export renumbers, and the summary says so).
//   meta/info.json        fps, robot type, totals, chunks_size, the data_path / video_path templates, the
//                         features: each camera (dtype "video", shape and codec as probed), the frame columns
//   meta/episodes.jsonl   episode_index, tasks, length, and the labels: `success` (the deciding verdict:
//                         good → true, bad → false, null when none decides) and, where a deciding verdict
//                         marked one, `first_failure` (seconds into the episode, null: it never fails)
//   meta/tasks.jsonl      task_index, task
//   meta/episodes_stats.jsonl  per episode, min / max / mean / std / count of each frame column (v2.1 loads
//                         them; the cameras' pixel statistics are not computed: no frame is decoded)
//   data/chunk-000/episode_000000.parquet   per frame: timestamp, frame_index, episode_index, index,
//                         task_index, next.success (true on the last frame of a successful episode)
//   videos/chunk-000/<camera>/episode_000000.mp4   each camera's stored video, byte for byte
// Everything is written into `<out>.partial/` and put in place on commit; an abort leaves nothing. The
// frames' states and actions are not kept at import, so the Parquet files hold the frame index columns only.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { ItemRecord } from '../../../../shared/domain';
import { readBody } from '../../../../shared/labelBodies';
import { videosOf, type VideoRef } from '../../../../shared/videos';
import { invalidInput } from '../../base/errors';
import { imageStoreOf } from '../../images/store';
import type { Db } from '../../store/db';
import { headLoader, type HeadLabel } from '../../store/labels';
import { videoFile, videoStoreDir } from '../../videos/store';
import { forEachPage, itemPass } from '../base/itemPass';
import { decidingLabels, decideVerdict } from '../base/resolve';
import type { FormatWriter } from '../descriptor';
import type { RecordWriter } from '../recordWriter';
import { fillTemplate } from '../sources/lerobot';

export const DATA_PATH = 'data/chunk-{episode_chunk:03d}/episode_{episode_index:06d}.parquet';
export const VIDEO_PATH = 'videos/chunk-{episode_chunk:03d}/{video_key}/episode_{episode_index:06d}.mp4';
const CHUNK_SIZE = 1000;
/** The most frames an episode's Parquet file is written with (about 9 hours at 30 fps): a length beyond it is not believed. */
export const MAX_EPISODE_FRAMES = 1_000_000;
const frameCount = (n: unknown): number | null => (Number.isInteger(n) && (n as number) >= 0 && (n as number) <= MAX_EPISODE_FRAMES ? (n as number) : null);

/** One episode as the pass hands it to the writer. */
export interface EpisodeRecord {
  tasks: string[];
  /** Frames; null when neither the item nor its videos say. */
  length: number | null;
  fps: number | null;
  robotType: string | null;
  cameras: { key: string; video: VideoRef }[];
  success: boolean | null;
  /** undefined: no first failure was marked; null: marked as never failing. */
  firstFailure?: number | null;
}

/** The episode an item is, or null when it is not one: one response holding stored videos (a pair of clips is not). */
export function episodeOf(item: ItemRecord, success: boolean | null, firstFailure: number | null | undefined): EpisodeRecord | null {
  const response = item.responses.length === 1 ? item.responses[0] : undefined;
  if (!response) return null;
  const parts = videosOf(response.content).filter((p) => p.video);
  if (!parts.length) return null;
  const cameras = parts.map((p, i) => ({ key: p.origin.kind === 'column' ? p.origin.column : `observation.images.video_${i}`, video: p.video! }));
  const m = item.metadata;
  const fps = typeof m.fps === 'number' && m.fps > 0 ? m.fps : (cameras[0]!.video.fps ?? null);
  const length = frameCount(m.length) ?? frameCount(cameras[0]!.video.frames);
  const tasks = typeof item.prompt === 'string' && !/^Episode \d+ \(the dataset gives no task text\)$/.test(item.prompt) ? item.prompt.split('\n').filter((t) => t.trim() !== '') : [];
  return { tasks, length, fps, robotType: response.model, cameras, success, ...(firstFailure !== undefined ? { firstFailure } : {}) };
}

const isVerdict = (l: HeadLabel) => l.choice === 'good' || l.choice === 'bad';

/** The deciding verdict as success, and the first failure the deciding labels that gave it marked (newest first). */
export function decideEpisode(labels: readonly HeadLabel[], annotator?: string): { success: boolean | null; firstFailure?: number | null; conflict: boolean } {
  const decided = decideVerdict(labels, annotator);
  if (decided.skip) return { success: null, conflict: decided.skip === 'conflict' };
  const agreeing = decidingLabels(labels, isVerdict, annotator).filter((l) => l.choice === decided.verdict);
  for (const label of agreeing) {
    const failure = readBody('verdict', label.body).first_failure?.A;
    if (failure !== undefined) return { success: decided.verdict === 'good', firstFailure: failure, conflict: false };
  }
  return { success: decided.verdict === 'good', conflict: false };
}

/** A LeRobot dataset folder written as episodes come, its meta files on commit. */
export class LeRobotWriter implements RecordWriter {
  lines = 0;
  private readonly partial: string;
  private readonly episodes: string[] = [];
  private readonly stats: string[] = [];
  private readonly tasks = new Map<string, number>();
  private readonly cameraFeatures = new Map<string, Record<string, unknown>>();
  private cameraKeys: string | null = null;
  private fps: number | null = null;
  private robotType: string | null = null;
  private frames = 0;
  /** Episodes left out because their cameras are not the first episode's. */
  otherCameras = 0;

  private constructor(
    readonly out: string,
    private readonly store: string,
  ) {
    this.partial = `${out}.partial`;
  }

  static open(out: string, store: string): LeRobotWriter {
    if (existsSync(out) && !(statSync(out).isDirectory() && readdirSync(out).length === 0))
      throw invalidInput(`${out} already exists: a LeRobot export writes a new dataset folder; name a folder that is not there yet.`);
    rmSync(`${out}.partial`, { recursive: true, force: true });
    mkdirSync(join(`${out}.partial`, 'meta'), { recursive: true });
    return new LeRobotWriter(out, store);
  }

  write(value: unknown): void {
    const episode = value as EpisodeRecord;
    const keys = episode.cameras.map((c) => c.key).join('\n');
    if (this.cameraKeys === null) this.cameraKeys = keys;
    else if (keys !== this.cameraKeys) {
      this.otherCameras++;
      return;
    }
    const index = this.lines;
    this.fps ??= episode.fps;
    this.robotType ??= episode.robotType;
    const fps = this.fps ?? 30;
    const length = episode.length ?? Math.min(MAX_EPISODE_FRAMES, Math.max(1, Math.round((episode.cameras[0]!.video.duration ?? 0) * fps)));
    const values = { episode_chunk: Math.floor(index / CHUNK_SIZE), episode_index: index };
    const taskIndexes = episode.tasks.map((t) => this.tasks.get(t) ?? this.tasks.set(t, this.tasks.size).get(t)!);
    const frame = Array.from({ length }, (_, i) => i);
    const columns: [string, 'FLOAT' | 'INT64' | 'BOOLEAN', number[]][] = [
      ['timestamp', 'FLOAT', frame.map((i) => i / fps)],
      ['frame_index', 'INT64', frame],
      ['episode_index', 'INT64', frame.map(() => index)],
      ['index', 'INT64', frame.map((i) => this.frames + i)],
      ['task_index', 'INT64', frame.map(() => taskIndexes[0] ?? 0)],
      ['next.success', 'BOOLEAN', frame.map((i) => (episode.success === true && i === length - 1 ? 1 : 0))],
    ];
    const data = parquetWriteBuffer({
      columnData: columns.map(([name, type, values]) => ({ name, type, data: type === 'INT64' ? values.map(BigInt) : type === 'BOOLEAN' ? values.map((v) => v === 1) : values })),
    });
    this.stats.push(JSON.stringify({ episode_index: index, stats: Object.fromEntries(columns.map(([name, , values]) => [name, columnStats(values)])) }));
    this.put(fillTemplate(DATA_PATH, values), (path) => writeFileSync(path, Buffer.from(data)));
    for (const camera of episode.cameras) {
      this.put(fillTemplate(VIDEO_PATH, { ...values, video_key: camera.key }), (path) => copyFileSync(videoFile(this.store, camera.video.sha256), path));
      if (!this.cameraFeatures.has(camera.key)) this.cameraFeatures.set(camera.key, cameraFeature(camera.video, fps));
    }
    this.frames += length;
    this.episodes.push(
      JSON.stringify({ episode_index: index, tasks: episode.tasks, length, success: episode.success, ...(episode.firstFailure !== undefined ? { first_failure: episode.firstFailure } : {}) }),
    );
    this.lines++;
  }

  private put(relative: string, write: (path: string) => void): void {
    const path = join(this.partial, relative);
    mkdirSync(dirname(path), { recursive: true });
    write(path);
  }

  async commit(): Promise<void> {
    const count = this.lines;
    const scalar = (dtype: string) => ({ dtype, shape: [1], names: null });
    const info = {
      codebase_version: 'v2.1',
      robot_type: this.robotType,
      total_episodes: count,
      total_frames: this.frames,
      total_tasks: this.tasks.size,
      total_videos: count * this.cameraFeatures.size,
      total_chunks: Math.max(1, Math.ceil(count / CHUNK_SIZE)),
      chunks_size: CHUNK_SIZE,
      fps: this.fps ?? 30,
      splits: { train: `0:${count}` },
      data_path: DATA_PATH,
      video_path: VIDEO_PATH,
      features: {
        ...Object.fromEntries(this.cameraFeatures),
        timestamp: scalar('float32'),
        frame_index: scalar('int64'),
        episode_index: scalar('int64'),
        index: scalar('int64'),
        task_index: scalar('int64'),
        'next.success': scalar('bool'),
      },
    };
    const meta = join(this.partial, 'meta');
    writeFileSync(join(meta, 'info.json'), `${JSON.stringify(info, null, 4)}\n`);
    writeFileSync(join(meta, 'episodes.jsonl'), this.episodes.map((l) => `${l}\n`).join(''));
    writeFileSync(join(meta, 'episodes_stats.jsonl'), this.stats.map((l) => `${l}\n`).join(''));
    writeFileSync(join(meta, 'tasks.jsonl'), [...this.tasks].map(([task, i]) => `${JSON.stringify({ task_index: i, task })}\n`).join(''));
    if (existsSync(this.out)) rmSync(this.out, { recursive: true, force: true }); // an empty folder (open checked)
    renameSync(this.partial, this.out);
  }

  async abort(): Promise<void> {
    rmSync(this.partial, { recursive: true, force: true });
  }
}

/** LeRobot's statistics of one scalar frame column over an episode (each a list of one, as it writes them). */
function columnStats(values: number[]): Record<string, number[]> {
  const count = values.length;
  const mean = count ? values.reduce((a, b) => a + b, 0) / count : 0;
  const variance = count ? values.reduce((a, b) => a + (b - mean) ** 2, 0) / count : 0;
  const min = values.reduce((a, b) => Math.min(a, b), count ? Infinity : 0);
  const max = values.reduce((a, b) => Math.max(a, b), count ? -Infinity : 0);
  return { min: [min], max: [max], mean: [mean], std: [Math.sqrt(variance)], count: [count] };
}

function cameraFeature(video: VideoRef, fps: number): Record<string, unknown> {
  return {
    dtype: 'video',
    shape: [video.height ?? 0, video.width ?? 0, 3],
    names: ['height', 'width', 'channels'],
    info: { 'video.fps': video.fps ?? fps, 'video.height': video.height, 'video.width': video.width, 'video.channels': 3, 'video.codec': video.codec, 'video.is_depth_map': false, has_audio: video.audio },
  };
}

export const leRobotWriter: FormatWriter = {
  open: async (db: Db, _format: string, out: string) => LeRobotWriter.open(out, videoStoreDir(imageStoreOf(db))),
  async write(run): Promise<void> {
    const pass = itemPass(run);
    const writer = run.writer as LeRobotWriter;
    const loadVerdicts = headLoader(run.db, pass.projectId, undefined, 'verdict', true);
    let undecided = 0;
    let conflicts = 0;
    let notEpisodes = 0;
    let renumbered = false;
    await forEachPage(run.db, pass, ['verdict'], async (items, from, to) => {
      const verdicts = loadVerdicts(from, to);
      for (const item of items) {
        const decided = decideEpisode(verdicts.get(item.id) ?? [], pass.annotator);
        const episode = episodeOf(item, decided.success, decided.firstFailure);
        if (!episode) {
          notEpisodes++;
          continue;
        }
        if (decided.success === null && decided.conflict) conflicts++;
        else if (decided.success === null) undecided++;
        if (item.metadata.episode_index !== writer.lines) renumbered = true;
        writer.write(episode);
      }
    });
    if (notEpisodes) run.notes.extra.push(`${notEpisodes} item(s) are not episodes (one response holding stored videos): left out`);
    if (writer.otherCameras) run.notes.extra.push(`${writer.otherCameras} episode(s) whose cameras differ from the first episode’s were left out (a LeRobot dataset has one set of cameras)`);
    if (undecided || conflicts) run.notes.extra.push(`${undecided + conflicts} episode(s) have "success": null in meta/episodes.jsonl (${undecided} without a verdict, ${conflicts} whose people disagree)`);
    if (renumbered) run.notes.extra.push('episodes are numbered 0… in the order written (a LeRobot dataset’s indexes run without gaps), not by their imported episode_index');
  },
};
