// VideoFeedback / VideoScore multi-aspect ratings (issue 24, item 2), read and written through the registry
// with a real SQLite file and clips ffmpeg makes here. The fixture (test/fixtures/formats/video/
// videofeedback.jsonl, written from the TIGER-Lab/VideoFeedback dataset card: SOURCES.md) is detected from
// its columns; each row is an item with its video as the one response and the five scores as the `source`
// annotator's ratings under the rubric "videofeedback"; a person's ratings decide the export, which writes
// the same fields in the same order with the video beside the file byte for byte, and reads back the same.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ContentPart } from '../../shared/domain';
import { VIDEO_FEEDBACK_RUBRIC } from '../../shared/rubricTemplates';
import { isVideoPart, type VideoPart } from '../../shared/videos';
import { exportProject, importFile } from '../../electron/core/formats';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb, type Db } from '../../electron/core/store/db';
import { iterateItems } from '../../electron/core/store/items';
import { headLoader } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing, makeClip } from '../helpers/videoClips';

const skip = skipOrFail('video-feedback', ffmpegMissing());
const FIXTURE = join(__dirname, '..', 'fixtures', 'formats', 'video', 'videofeedback.jsonl');

let dir: string;
let db: Db;
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(() => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'arbiter-video-feedback-'));
  mkdirSync(join(dir, 'set', 'videos'), { recursive: true });
  copyFileSync(FIXTURE, join(dir, 'set', 'vf.jsonl'));
  makeClip(join(dir, 'set', 'videos'), '7000001.mp4', { codec: 'h264', fps: 24, seconds: 1 });
  makeClip(join(dir, 'set', 'videos'), '7000002.webm', { codec: 'vp9', fps: 30, seconds: 1, source: 'color=c=blue' });
  db = openDb(join(dir, 'arbiter.db'));
});

afterAll(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const videoOf = (content: unknown) => (content as ChatMessage[]).flatMap((m) => (m.content as ContentPart[]).filter(isVideoPart))[0] as VideoPart;

/** Each item's source ratings (rubric name, ratings of A). */
function sourceRatings(project: string) {
  const id = requireProject(db, project).id;
  const sheets = headLoader(db, id, undefined, 'rubric', true)(0, 1000);
  return [...iterateItems(db, id)].map((i) => {
    const body = sheets.get(i.id)!.find((l) => l.annotator === 'source')!.body as { rubric: string; ratings: Record<string, unknown> };
    return [body.rubric, body.ratings.A];
  });
}

describe.skipIf(skip)('VideoFeedback / VideoScore multi-aspect ratings (videofeedback)', () => {
  it('imports the rows: one video per item, the five scores as ratings under the videofeedback rubric, an URL kept', async () => {
    const summary = await importFile(db, { path: join(dir, 'set', 'vf.jsonl'), project: 'vf', createProject: true });
    expect(summary.format).toBe('videofeedback');
    expect(summary.items).toBe(3);
    const items = [...iterateItems(db, requireProject(db, 'vf').id)];
    expect(items.map((i) => [i.externalId, i.prompt, i.responses.length])).toEqual([
      ['7000001', 'A corgi runs along a sunny beach, waves rolling in behind it.', 1],
      ['7000002', 'Time-lapse of clouds over a mountain lake at dusk.', 1],
      ['r000003', 'A chef slices a tomato on a wooden board.', 1],
    ]);
    expect(videoOf(items[0]!.responses[0]!.content).video!.sha256).toBe(sha(join(dir, 'set', 'videos', '7000001.mp4')));
    expect(videoOf(items[1]!.responses[0]!.content).video!.mime).toBe('video/webm');
    expect(videoOf(items[2]!.responses[0]!.content)).toMatchObject({ origin: { kind: 'url' }, unavailable: 'not available offline: http URL' });
    expect(sourceRatings('vf')).toEqual([
      ['videofeedback', { visual_quality: 3, temporal_consistency: 2, dynamic_degree: 3, text_to_video_alignment: 4, factual_consistency: 2 }],
      ['videofeedback', { visual_quality: 4, temporal_consistency: 4, dynamic_degree: 1, text_to_video_alignment: 3, factual_consistency: 4 }],
      ['videofeedback', { visual_quality: 4, temporal_consistency: 4, dynamic_degree: 3, text_to_video_alignment: 4, factual_consistency: 4 }],
    ]);
    const criteria = db.prepare("SELECT v.criteria FROM rubric r JOIN rubric_version v ON v.rubric_id = r.id WHERE r.name = 'videofeedback'").pluck().get() as string;
    expect((JSON.parse(criteria) as { key: string; scale: unknown }[]).map((c) => [c.key, c.scale])).toEqual(VIDEO_FEEDBACK_RUBRIC.criteria.map((c) => [c.key, { type: 'likert', min: 1, max: 4 }]));
  });

  it('exports a person’s ratings over the file’s, the fields in their order, the video beside the file byte for byte; reads back the same', async () => {
    const service = new ArbiterService(db, { dbPath: join(dir, 'arbiter.db'), transport: 'http', version: 't', defaultAnnotator: 'ann' });
    const first = [...iterateItems(db, requireProject(db, 'vf').id)][0]!;
    const sheet = await service.dispatch('getRatingSheet', { project: 'vf', annotator: 'alice', itemId: first.id });
    const version = sheet.rubric?.version ?? 1;
    const mine = { visual_quality: 2, temporal_consistency: 1, dynamic_degree: 4, text_to_video_alignment: null, factual_consistency: 1 };
    await service.dispatch('saveRatings', { project: 'vf', annotator: 'alice', itemId: first.id, rubric: 'videofeedback', version, ratings: { A: mine } });
    const out = join(dir, 'out', 'vf.jsonl');
    const summary = await exportProject(db, { project: 'vf', format: 'videofeedback', out, annotator: 'alice' });
    expect(summary.written).toBe(1);
    const all = join(dir, 'out', 'all.jsonl');
    expect((await exportProject(db, { project: 'vf', format: 'videofeedback', out: all })).written).toBe(3);
    const rows = lines(all);
    const source = lines(join(dir, 'set', 'vf.jsonl'));
    expect(rows.map((r) => Object.keys(r))).toEqual(source.map((r) => Object.keys(r)));
    expect(rows[0]).toMatchObject({ id: '7000001', 'visual quality': 2, 'temporal consistency': 1, 'dynamic degree': 4, 'text-to-video alignment': null, 'factual consistency': 1 });
    expect(rows[0]!.conversations).toEqual(source[0]!.conversations);
    expect(rows[0]!.images).toEqual(source[0]!.images);
    for (const i of [1, 2]) expect(rows[i]).toEqual({ ...source[i], 'video link': rows[i]!['video link'] });
    expect(rows[2]!['video link']).toBe(source[2]!['video link']);
    for (const [i, name] of [[0, '7000001.mp4'], [1, '7000002.webm']] as const) {
      const link = rows[i]!['video link'] as string;
      expect(link).toMatch(/^all_images\/[0-9a-f]{64}\.(mp4|webm)$/);
      expect(sha(join(dirname(all), link))).toBe(sha(join(dir, 'set', 'videos', name)));
    }
    const again = await importFile(db, { path: all, project: 'vf2', createProject: true });
    expect(again).toMatchObject({ format: 'videofeedback', items: 3 });
    const back = sourceRatings('vf2');
    // Not applicable is written as null, which reads back as not rated.
    expect(back[0]).toEqual(['videofeedback', { visual_quality: 2, temporal_consistency: 1, dynamic_degree: 4, factual_consistency: 1 }]);
    expect(back.slice(1)).toEqual(sourceRatings('vf').slice(1));
    const videos = (p: string) => [...iterateItems(db, requireProject(db, p).id)].map((i) => videoOf(i.responses[0]!.content).video?.sha256 ?? null);
    expect(videos('vf2')).toEqual(videos('vf'));
  });

  it('refuses a score outside 1–4, a missing prompt or video link, with a sentence naming the field and line', async () => {
    const path = join(dir, 'set', 'bad.jsonl');
    const ok = { id: 'x', 'text prompt': 'p', 'video link': 'videos/7000001.mp4' };
    writeFileSync(path, [{ ...ok, 'visual quality': 5 }, { ...ok, 'dynamic degree': 2.5 }, { ...ok, 'text prompt': '' }, { id: 'y', 'text prompt': 'p', 'video link': { path: 'v.mp4' } }].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const error = (await importFile(db, { path, project: 'bad', createProject: true }).catch((e: unknown) => e)) as { details: { line: number; reason: string }[] };
    expect(error.details).toEqual([
      { line: 1, reason: 'visual quality: expected a whole number from 1 to 4, got 5' },
      { line: 2, reason: 'dynamic degree: expected a whole number from 1 to 4, got 2.5' },
      { line: 3, reason: 'text prompt: empty (the prompt the video was generated from)' },
      { line: 4, reason: 'video link: expected text, got object (the video’s path relative to the file, or its URL)' },
    ]);
  });

  it('reads the dataset’s Parquet shape (int64 scores, a list of frame names) the same way', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const path = join(dir, 'set', 'vf.parquet');
    const columnData = [
      { name: 'id', data: ['7000009'], type: 'STRING' as const },
      { name: 'text prompt', data: ['A kite over a field.'], type: 'STRING' as const },
      { name: 'video link', data: ['videos/7000001.mp4'], type: 'STRING' as const },
      ...['visual quality', 'temporal consistency', 'dynamic degree', 'text-to-video alignment', 'factual consistency'].map((name, i) => ({ name, data: [BigInt(1 + (i % 4))], type: 'INT64' as const })),
    ];
    writeFileSync(path, Buffer.from(parquetWriteBuffer({ columnData })));
    expect(await importFile(db, { path, project: 'vfp', createProject: true })).toMatchObject({ format: 'videofeedback', items: 1 });
    expect(sourceRatings('vfp')).toEqual([['videofeedback', { visual_quality: 1, temporal_consistency: 2, dynamic_degree: 3, text_to_video_alignment: 4, factual_consistency: 1 }]]);
  });
});
