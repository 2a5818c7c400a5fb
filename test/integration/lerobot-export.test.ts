// LeRobot export back (issue 24, item 2): a v2.1 dataset folder made here (test/helpers/leRobotFolder.ts) is
// imported, labeled by a person (a verdict and a first failure moment through the service, as the screen
// saves them), exported as a new dataset folder, and imported again: the same episodes, the same videos
// (sha256), the person's labels as the source's. The written Parquet files are read by hyparquet here and,
// where the Python environment of scripts/python-env.mjs is prepared, by pandas / pyarrow and `datasets`
// (test/python/lerobot_checks.py; LeRobot itself is not installable from the local package folders).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ContentPart } from '../../shared/domain';
import { isVideoPart } from '../../shared/videos';
import { exportProject, importFile } from '../../electron/core/formats';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb, type Db } from '../../electron/core/store/db';
import { iterateItems } from '../../electron/core/store/items';
import { headLoader } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { exportsDir } from '../../electron/core/base/paths';
import { startHost } from '../../electron/host/server';
import { trlEnv } from '../../scripts/python-env.mjs';
import { CAMERAS, episodeName, makeLeRobotFolder, TASK } from '../helpers/leRobotFolder';
import { runPythonChecks } from '../helpers/python';
import { skipOrFail } from '../helpers/required';
import { unzip } from '../helpers/zipEntries';
import { ffmpegMissing } from '../helpers/videoClips';

const skip = skipOrFail('lerobot-export', ffmpegMissing());
let dir: string;
let db: Db;
let service: ArbiterService;
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const shaOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

beforeAll(() => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'arbiter-lerobot-export-'));
  makeLeRobotFolder(join(dir, 'so101'), [true, false, true]);
  db = openDb(join(dir, 'arbiter.db'));
  service = new ArbiterService(db, { dbPath: join(dir, 'arbiter.db'), transport: 'http', version: 't', defaultAnnotator: 'ann' });
});

afterAll(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What an import made of each episode: its id, prompt, model, metadata, and each camera (origin path, sha256). */
function episodes(project: string) {
  return [...iterateItems(db, requireProject(db, project).id)].map((i) => ({
    externalId: i.externalId,
    prompt: i.prompt,
    model: i.responses[0]!.model,
    metadata: i.metadata,
    cameras: ((i.responses[0]!.content as ChatMessage[])[0]!.content as ContentPart[]).filter(isVideoPart).map((v) => [v.origin, v.video!.sha256]),
  }));
}

/** The source annotator's verdict and first failure per episode. */
function sourceVerdicts(project: string) {
  const id = requireProject(db, project).id;
  const verdicts = headLoader(db, id, undefined, 'verdict', true)(0, 1000);
  return [...iterateItems(db, id)].map((i) => {
    const label = verdicts.get(i.id)?.find((l) => l.annotator === 'source');
    return label ? [label.choice, (label.body as { first_failure?: unknown }).first_failure ?? null] : null;
  });
}

async function parquetRows(path: string) {
  const bytes = readFileSync(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = await parquetMetadataAsync(file);
  return parquetReadObjects({ file, metadata });
}

describe.skipIf(skip)('LeRobot export back (lerobot)', () => {
  it('imports, takes a person’s verdict and first failure, writes a dataset folder, and reads back the same', async () => {
    expect(await importFile(db, { path: join(dir, 'so101'), project: 'robot', createProject: true })).toMatchObject({ format: 'lerobot', items: 3 });
    expect(sourceVerdicts('robot')).toEqual([['good', null], ['bad', null], ['good', null]]);
    const [first, second] = [...iterateItems(db, requireProject(db, 'robot').id)];
    // alice: episode 0 failed after all, first at 0.5 s; episode 1 failed, first at 0.25 s.
    await service.dispatch('saveVerdict', { project: 'robot', annotator: 'alice', itemId: first!.id, verdict: 'bad' });
    await service.dispatch('saveMoments', { project: 'robot', annotator: 'alice', itemId: first!.id, task: 'verdict', firstFailure: { A: 0.5 } });
    await service.dispatch('saveVerdict', { project: 'robot', annotator: 'alice', itemId: second!.id, verdict: 'bad' });
    await service.dispatch('saveMoments', { project: 'robot', annotator: 'alice', itemId: second!.id, task: 'verdict', firstFailure: { A: 0.25 } });

    const out = join(dir, 'labeled');
    const summary = await exportProject(db, { project: 'robot', format: 'lerobot', out });
    expect(summary.written).toBe(3);
    expect(existsSync(`${out}.partial`)).toBe(false);
    const meta = (name: string) => readFileSync(join(out, 'meta', name), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(meta('episodes.jsonl')).toEqual([
      { episode_index: 0, tasks: [TASK], length: 24, success: false, first_failure: 0.5 },
      { episode_index: 1, tasks: [TASK], length: 24, success: false, first_failure: 0.25 },
      { episode_index: 2, tasks: [TASK], length: 24, success: true },
    ]);
    expect(meta('tasks.jsonl')).toEqual([{ task_index: 0, task: TASK }]);
    // LeRobot v2.1 loads per-episode statistics of the frame columns.
    const stats = meta('episodes_stats.jsonl') as { episode_index: number; stats: Record<string, Record<string, number[]>> }[];
    expect(stats.map((s) => s.episode_index)).toEqual([0, 1, 2]);
    expect(stats[2]!.stats.index).toEqual({ min: [48], max: [71], mean: [59.5], std: [Math.sqrt((24 * 24 - 1) / 12)], count: [24] });
    expect(stats[2]!.stats['next.success']).toMatchObject({ min: [0], max: [1], count: [24] });
    expect(Object.keys(stats[0]!.stats)).toEqual(['timestamp', 'frame_index', 'episode_index', 'index', 'task_index', 'next.success']);
    const info = JSON.parse(readFileSync(join(out, 'meta', 'info.json'), 'utf8')) as Record<string, unknown>;
    expect(info).toMatchObject({ codebase_version: 'v2.1', robot_type: 'so101', total_episodes: 3, total_frames: 72, total_videos: 6, fps: 24, splits: { train: '0:3' } });
    expect((info.features as Record<string, unknown>)[CAMERAS[0]]).toMatchObject({ dtype: 'video', shape: [48, 64, 3] });
    // Videos byte for byte; the frames' Parquet readable, next.success on the last frame of a success only.
    for (const e of [0, 1, 2])
      for (const camera of CAMERAS) expect(sha(join(out, 'videos', 'chunk-000', camera, `${episodeName(e)}.mp4`))).toBe(sha(join(dir, 'so101', 'videos', 'chunk-000', camera, `${episodeName(e)}.mp4`)));
    const rows = await parquetRows(join(out, 'data', 'chunk-000', `${episodeName(2)}.parquet`));
    expect(rows).toHaveLength(24);
    expect(rows[23]).toMatchObject({ frame_index: 23n, episode_index: 2n, index: 71n, task_index: 0n, 'next.success': true });
    expect(rows.slice(0, 23).every((r) => r['next.success'] === false)).toBe(true);

    expect(await importFile(db, { path: out, project: 'again', createProject: true })).toMatchObject({ format: 'lerobot', items: 3 });
    // The same episodes; only the metadata's `success`, what the file said, is now what the labels decided.
    const withoutSuccess = (list: ReturnType<typeof episodes>) => list.map((e) => ({ ...e, metadata: { ...e.metadata, success: undefined } }));
    expect(withoutSuccess(episodes('again'))).toEqual(withoutSuccess(episodes('robot')));
    expect(episodes('again').map((e) => e.metadata.success)).toEqual([false, false, true]);
    expect(sourceVerdicts('again')).toEqual([['bad', { A: 0.5 }], ['bad', { A: 0.25 }], ['good', null]]);

    const python = trlEnv({ install: false });
    if (!python.python) {
      console.log(`lerobot-export: the pandas / pyarrow check is skipped: ${python.reason}`);
      return;
    }
    const expectFile = join(dir, 'expect.json');
    const want = meta('episodes.jsonl').map((e, i) => ({ ...e, videos: Object.fromEntries(CAMERAS.map((c) => [c, sha(join(dir, 'so101', 'videos', 'chunk-000', c, `${episodeName(i)}.mp4`))])) }));
    writeFileSync(expectFile, JSON.stringify({ episodes: want }));
    const checked = runPythonChecks(python.python, 'test/python/lerobot_checks.py', [out, expectFile], dir, 'lerobot checks: 4 of 4 passed');
    console.log(checked.stdout.trim());
  }, 240_000);

  it('refuses to write into a folder that holds files, and leaves it as it was', async () => {
    const out = join(dir, 'so101');
    const before = sha(join(out, 'meta', 'info.json'));
    const error = (await exportProject(db, { project: 'robot', format: 'lerobot', out }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(`${out} already exists: a LeRobot export writes a new dataset folder; name a folder that is not there yet.`);
    expect(sha(join(out, 'meta', 'info.json'))).toBe(before);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('through the service and the browser host: a dataset folder in the exports folder, downloaded as one zip of it', async () => {
    const summary = await service.dispatch('exportProject', { project: 'robot', format: 'lerobot' });
    expect(summary.out).toMatch(/^robot-lerobot-\d{8}T\d{6}Z-[0-9a-f]{6}$/);
    expect(summary.note).toContain(`The download is ${summary.out}.zip: the dataset folder ${summary.out}/`);
    const folder = join(exportsDir(service.options.dbPath), summary.out);
    expect(existsSync(join(folder, 'meta', 'info.json'))).toBe(true);
    const running = await startHost({ service, rendererDir: join(__dirname, '..', '..', 'out', 'renderer'), port: 0 });
    try {
      const { ticket } = await service.dispatch('downloadTicket', { project: 'robot', file: summary.out });
      const response = await fetch(new URL(`/download/${ticket}`, running.url));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/zip');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${summary.out}.zip"`);
      const zip = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get('content-length')).toBe(String(zip.length));
      const entries = unzip(zip);
      const videos = [0, 1, 2].flatMap((e) => CAMERAS.map((c) => `videos/chunk-000/${c}/${episodeName(e)}.mp4`));
      const data = [0, 1, 2].map((e) => `data/chunk-000/${episodeName(e)}.parquet`);
      expect([...entries.keys()].sort()).toEqual([...data, 'meta/episodes.jsonl', 'meta/episodes_stats.jsonl', 'meta/info.json', 'meta/tasks.jsonl', ...videos].map((f) => `${summary.out}/${f}`).sort());
      for (const video of videos) expect(shaOf(entries.get(`${summary.out}/${video}`)!.bytes)).toBe(sha(join(dir, 'so101', video)));
    } finally {
      await running.close();
    }
    // videoalign's CSV is named .csv there (it was .jsonl).
    expect((await service.dispatch('exportProject', { project: 'robot', format: 'videoalign' })).out).toMatch(/\.csv$/);
  });
});
