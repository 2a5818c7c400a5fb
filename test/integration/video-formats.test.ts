// The video formats (issue 24, item 2), read and written through the registry with real SQLite files and
// clips ffmpeg makes here. VideoGen-RewardBench / VideoAlign pair CSV (test/fixtures/formats/video/
// videoalign.csv, written from KwaiVGI/VideoAlign's README and example.csv): detected from its columns,
// each row a pair of stored videos with the file's winners as the source labels (the video-generation
// rubric's per-criterion winners, and Overall as the pairwise choice); written back with the same columns and winners, the videos beside
// the CSV byte for byte, and read back again to the same items.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isVideoPart, type VideoPart } from '../../shared/videos';
import type { ChatMessage, ContentPart } from '../../shared/domain';
import { exportProject, importFile } from '../../electron/core/formats';
import { csvChunks } from '../../electron/core/formats/sources/csv';
import { chunkLines } from '../../electron/core/formats/sources/chunk';
import { openDb, type Db } from '../../electron/core/store/db';
import { iterateItems } from '../../electron/core/store/items';
import { headLoader } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing, makeClip } from '../helpers/videoClips';

const skip = skipOrFail('video-formats', ffmpegMissing());
const FIXTURE = join(__dirname, '..', 'fixtures', 'formats', 'video', 'videoalign.csv');

let dir: string;
let db: Db;
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

beforeAll(() => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'arbiter-video-formats-'));
  mkdirSync(join(dir, 'set', 'videos'), { recursive: true });
  copyFileSync(FIXTURE, join(dir, 'set', 'pairs.csv'));
  for (const n of [1, 2, 3]) makeClip(join(dir, 'set', 'videos'), `example_${n}_A.mp4`, { codec: 'h264', fps: 24, seconds: 1, source: n === 1 ? 'testsrc2' : `color=c=0x${n}0${n}0${n}0` });
  for (const n of [1, 2]) makeClip(join(dir, 'set', 'videos'), `example_${n}_B.webm`, { codec: 'vp9', fps: 30, seconds: 1, source: n === 1 ? 'testsrc' : 'color=c=blue' });
  db = openDb(join(dir, 'arbiter.db'));
});

afterAll(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const videosOfItems = (project: string) =>
  [...iterateItems(db, requireProject(db, project).id)].map((i) => ({
    item: i,
    videos: i.responses.map((r) => (r.content as ChatMessage[]).flatMap((m) => (m.content as ContentPart[]).filter(isVideoPart))[0] as VideoPart),
  }));

/** Each item's pairwise choice and its rating sheet's per-criterion winners (the source annotator's), with the rubric named. */
function winnersOf(project: string) {
  const id = requireProject(db, project).id;
  const choices = headLoader(db, id, undefined, 'pairwise')(0, 100);
  const sheets = headLoader(db, id, undefined, 'rubric', true)(0, 100);
  return [...iterateItems(db, id)].map((i) => {
    const sheet = sheets.get(i.id)![0]!.body as { rubric: string; criterion_winner: Record<string, string> };
    return [choices.get(i.id)![0]!.choice, sheet.rubric, sheet.criterion_winner];
  });
}

const WINNERS = [
  ['B', 'video-generation', { visual_quality: 'B', motion_quality: 'B', text_alignment: 'A', overall: 'B' }],
  ['A', 'video-generation', { visual_quality: 'tie', motion_quality: 'tie', text_alignment: 'A', overall: 'A' }],
  ['tie', 'video-generation', { visual_quality: 'A', motion_quality: 'tie', text_alignment: 'tie', overall: 'tie' }],
];

describe('CSV source', () => {
  it('reads quoted fields, doubled quotes, commas and line breaks inside quotes, CRLF, a BOM', async () => {
    if (skip) return;
    const path = join(dir, 'odd.csv');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, '\uFEFFa,b,c\r\n1,"x, ""y""",\r\n2,"two\nlines",z\n');
    const lines: string[] = [];
    let first = true;
    for await (const chunk of csvChunks(path, createHash('sha256'))) {
      lines.push(...chunkLines(chunk, first));
      first = false;
    }
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { a: '1', b: 'x, "y"', c: '' },
      { a: '2', b: 'two\nlines', c: 'z' },
    ]);
  });
});

describe.skipIf(skip)('VideoGen-RewardBench / VideoAlign pair CSV', () => {
  it('imports each row as a pair of stored videos with the file’s per-criterion winners', async () => {
    const summary = await importFile(db, { path: join(dir, 'set', 'pairs.csv'), project: 'va', createProject: true });
    expect(summary.format).toBe('videoalign');
    expect(summary.items).toBe(3);
    const items = videosOfItems('va');
    expect(items[0]!.item.prompt).toBe('A girl in a pink dress walks to the chair in a warm, cozy bedroom and sits on it.');
    expect(items[1]!.item.prompt).toContain('light and shadow "mysterious"');
    expect(items.map((i) => i.item.responses.map((r) => r.model))).toEqual([
      ['gen-alpha', 'gen-beta'],
      ['gen-beta', 'gen-gamma'],
      ['gen-gamma', 'gen-beta'],
    ]);
    const [a, b] = items[0]!.videos;
    expect(a!.video).toMatchObject({ sha256: sha(join(dir, 'set/videos/example_1_A.mp4')), codec: 'h264', fps: 24, frames: 24 });
    expect(b!.video).toMatchObject({ sha256: sha(join(dir, 'set/videos/example_1_B.webm')), codec: 'vp9', fps: 30 });
    expect(b!.origin).toEqual({ kind: 'path', path: './videos/example_1_B.webm' });
    expect(items[0]!.item.metadata).toEqual({ fps_A: '24.0', num_frames_A: '24.0', fps_B: '30.0', num_frames_B: '30.0' });
    expect(winnersOf('va')).toEqual(WINNERS);
  });

  it('exports the same columns and winners, the videos beside the CSV byte for byte, and reads back to the same pairs', async () => {
    const out = join(dir, 'exports', 'back.csv');
    const summary = await exportProject(db, { project: 'va', format: 'videoalign', out });
    expect(summary.written).toBe(3);
    const text = readFileSync(out, 'utf8');
    const [header, ...rows] = text.trimEnd().split('\n');
    expect(header).toBe('path_A,path_B,A_model,B_model,prompt,VQ,MQ,TA,Overall,fps_A,num_frames_A,fps_B,num_frames_B');
    const a1 = sha(join(dir, 'set/videos/example_1_A.mp4'));
    const b1 = sha(join(dir, 'set/videos/example_1_B.webm'));
    expect(rows[0]).toBe(`back_images/${a1}.mp4,back_images/${b1}.webm,gen-alpha,gen-beta,"A girl in a pink dress walks to the chair in a warm, cozy bedroom and sits on it.",B,B,A,B,24.0,24.0,30.0,30.0`);
    expect(rows[1]).toContain(',"The camera follows an explorer through an abandoned building at night, light and shadow ""mysterious"".",same,same,A,A,');
    expect(rows[2]).toContain(',A,same,same,same,');
    for (const [name, hash] of [['example_1_A.mp4', a1], ['example_1_B.webm', b1]] as const)
      expect(readFileSync(join(dirname(out), 'back_images', `${hash}.${name.split('.').pop()}`)).equals(readFileSync(join(dir, 'set/videos', name)))).toBe(true);
    const again = await importFile(db, { path: out, project: 'va2', createProject: true });
    expect(again.items).toBe(3);
    const first = videosOfItems('va');
    const second = videosOfItems('va2');
    expect(second.map((i) => i.videos.map((v) => v.video!.sha256))).toEqual(first.map((i) => i.videos.map((v) => v.video!.sha256)));
    expect(winnersOf('va2')).toEqual(WINNERS);
  });

  it('refuses a row whose winner is not A, B or same, naming the column', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'set', 'bad.csv'), 'path_A,path_B,prompt,VQ\nvideos/example_1_A.mp4,videos/example_2_A.mp4,a prompt,C\n');
    const error = (await importFile(db, { path: join(dir, 'set', 'bad.csv'), project: 'bad', createProject: true }).catch((e: unknown) => e)) as { errors: { line: number; reason: string }[] };
    expect(error.errors).toEqual([{ line: 1, reason: 'VQ: "C" is not a winner (A, B or same)' }]);
  });
});

describe.skipIf(skip)('text-to-video preference JSONL (trl-video)', () => {
  it('reads video_url parts and {"type": "video"} placeholders with a videos column, writes placeholders and paths, reads back the same bytes', async () => {
    const { writeFileSync } = await import('node:fs');
    const chosen = (part: unknown) => [{ role: 'assistant', content: [part] }];
    writeFileSync(
      join(dir, 'set', 't2v.jsonl'),
      [
        JSON.stringify({ prompt: 'a red ball bouncing', chosen: chosen({ type: 'video_url', video_url: { url: 'videos/example_1_A.mp4' } }), rejected: chosen({ type: 'video_url', video_url: { url: 'videos/example_1_B.webm' } }) }),
        JSON.stringify({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'a calm lake' }] }], chosen: chosen({ type: 'video' }), rejected: chosen({ type: 'video' }), videos: ['videos/example_2_A.mp4', 'videos/example_2_B.webm'] }),
      ].join('\n') + '\n',
    );
    const summary = await importFile(db, { path: join(dir, 'set', 't2v.jsonl'), project: 't2v', createProject: true });
    expect(summary.format).toBe('trl-video');
    expect(summary.items).toBe(2);
    const items = videosOfItems('t2v');
    expect(items.map((i) => i.videos.map((v) => v.video!.sha256))).toEqual([
      [sha(join(dir, 'set/videos/example_1_A.mp4')), sha(join(dir, 'set/videos/example_1_B.webm'))],
      [sha(join(dir, 'set/videos/example_2_A.mp4')), sha(join(dir, 'set/videos/example_2_B.webm'))],
    ]);
    expect(items[1]!.videos[1]!.origin).toEqual({ kind: 'column', column: 'videos', index: 1, path: 'videos/example_2_B.webm' });
    const out = join(dir, 'exports', 't2v-back.jsonl');
    const exported = await exportProject(db, { project: 't2v', format: 'trl-video', out });
    expect(exported.written).toBe(2);
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(rows[0].chosen).toEqual([{ role: 'assistant', content: [{ type: 'video' }] }]);
    expect(rows[0].videos).toEqual([`t2v-back_images/${items[0]!.videos[0]!.video!.sha256}.mp4`, `t2v-back_images/${items[0]!.videos[1]!.video!.sha256}.webm`]);
    expect(readFileSync(join(dir, 'exports', rows[1].videos[1])).equals(readFileSync(join(dir, 'set/videos/example_2_B.webm')))).toBe(true);
    const again = await importFile(db, { path: out, project: 't2v2', createProject: true });
    expect(again.items).toBe(2);
    expect(videosOfItems('t2v2').map((i) => i.videos.map((v) => v.video!.sha256))).toEqual(items.map((i) => i.videos.map((v) => v.video!.sha256)));
  });

  it('says when placeholders and the videos column do not match', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'set', 'short.jsonl'), JSON.stringify({ prompt: 'p', chosen: [{ role: 'assistant', content: [{ type: 'video' }] }], rejected: [{ role: 'assistant', content: [{ type: 'video' }] }], videos: ['videos/example_1_A.mp4'] }) + '\n');
    const error = (await importFile(db, { path: join(dir, 'set', 'short.jsonl'), project: 'short', createProject: true }).catch((e: unknown) => e)) as { errors: { reason: string }[] };
    expect(error.errors[0]!.reason).toBe('rejected[0]: a {"type": "video"} placeholder, but "videos" has only 1 entry');
  });
});

describe.skipIf(skip)('LeRobot dataset episodes (lerobot)', () => {
  it('imports a dataset folder: one item per episode, its task, every camera’s video in one response, success as a verdict', async () => {
    const { writeFileSync } = await import('node:fs');
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    // Laid out as LeRobot v2.1 writes it (meta/info.json's data_path and video_path templates, chunk 000).
    const root = join(dir, 'so101_pick');
    mkdirSync(join(root, 'meta'), { recursive: true });
    const info = {
      codebase_version: 'v2.1',
      robot_type: 'so101',
      total_episodes: 2,
      fps: 24,
      chunks_size: 1000,
      data_path: 'data/chunk-{episode_chunk:03d}/episode_{episode_index:06d}.parquet',
      video_path: 'videos/chunk-{episode_chunk:03d}/{video_key}/episode_{episode_index:06d}.mp4',
      features: {
        'observation.images.top': { dtype: 'video', shape: [48, 64, 3] },
        'observation.images.wrist': { dtype: 'video', shape: [48, 64, 3] },
        action: { dtype: 'float32', shape: [6] },
        'next.success': { dtype: 'bool', shape: [1] },
      },
    };
    writeFileSync(join(root, 'meta', 'info.json'), JSON.stringify(info, null, 2));
    writeFileSync(join(root, 'meta', 'tasks.jsonl'), JSON.stringify({ task_index: 0, task: 'Pick up the red cube and place it in the bowl.' }) + '\n');
    writeFileSync(join(root, 'meta', 'episodes.jsonl'), [0, 1].map((i) => JSON.stringify({ episode_index: i, tasks: ['Pick up the red cube and place it in the bowl.'], length: 24 })).join('\n') + '\n');
    for (const episode of [0, 1]) {
      const name = `episode_${String(episode).padStart(6, '0')}`;
      mkdirSync(join(root, 'data', 'chunk-000'), { recursive: true });
      const frames = 24;
      writeFileSync(
        join(root, 'data', 'chunk-000', `${name}.parquet`),
        Buffer.from(
          parquetWriteBuffer({
            columnData: [
              { name: 'frame_index', data: Array.from({ length: frames }, (_, i) => i), type: 'INT32' },
              { name: 'next.success', data: Array.from({ length: frames }, (_, i) => episode === 0 && i === frames - 1), type: 'BOOLEAN' },
            ],
          }),
        ),
      );
      for (const camera of ['observation.images.top', 'observation.images.wrist']) {
        mkdirSync(join(root, 'videos', 'chunk-000', camera), { recursive: true });
        makeClip(join(root, 'videos', 'chunk-000', camera), `${name}.mp4`, { codec: 'h264', fps: 24, seconds: 1, source: camera.endsWith('top') ? 'testsrc2' : `color=c=0x${episode ? '336699' : '996633'}` });
      }
    }
    const summary = await importFile(db, { path: root, project: 'robot', createProject: true });
    expect(summary.format).toBe('lerobot');
    expect(summary.items).toBe(2);
    const items = [...iterateItems(db, requireProject(db, 'robot').id)];
    expect(items.map((i) => [i.externalId, i.prompt, i.responses.length, i.responses[0]!.model])).toEqual([
      ['episode_000000', 'Pick up the red cube and place it in the bowl.', 1, 'so101'],
      ['episode_000001', 'Pick up the red cube and place it in the bowl.', 1, 'so101'],
    ]);
    const parts = (items[0]!.responses[0]!.content as ChatMessage[])[0]!.content as ContentPart[];
    expect(parts[0]).toEqual({ type: 'text', text: 'Episode 0 · 24 frames at 24 fps · 2 cameras' });
    const videos = parts.filter(isVideoPart);
    expect(videos.map((v) => v.origin)).toEqual([
      { kind: 'column', column: 'observation.images.top', index: 0, path: 'videos/chunk-000/observation.images.top/episode_000000.mp4' },
      { kind: 'column', column: 'observation.images.wrist', index: 1, path: 'videos/chunk-000/observation.images.wrist/episode_000000.mp4' },
    ]);
    expect(videos[1]!.video!.sha256).toBe(sha(join(root, 'videos/chunk-000/observation.images.wrist/episode_000000.mp4')));
    const verdicts = headLoader(db, requireProject(db, 'robot').id, undefined, 'verdict')(0, 10);
    expect(items.map((i) => verdicts.get(i.id)?.[0]?.choice)).toEqual(['good', 'bad']);
  });
});

describe.skipIf(skip)('video question answering with a reasoning chain (video-qa, Video-R1’s shape)', () => {
  it('reads the video and question as the prompt, the reasoning as steps with the answer last; writes the labels and the video back', async () => {
    const { writeFileSync } = await import('node:fs');
    // As Video-R1-COT-165k writes a line (tulerfeng/Video-R1): problem, options, process in <think>, solution in <answer>, path, data_type.
    const line = (id: number, labels?: (number | null)[]) =>
      JSON.stringify({
        problem_id: id,
        problem: 'Which way does the pattern move?',
        data_type: 'video',
        problem_type: 'multiple choice',
        options: ['A. left', 'B. right'],
        process: '<think>The bars shift between the first and the last frame.\n\nThey move towards the right edge.\n\nSo the pattern moves right.</think>',
        solution: '<answer>B</answer>',
        path: `videos/example_${id}_A.mp4`,
        data_source: 'synthetic',
        ...(labels ? { step_labels: labels } : {}),
      });
    writeFileSync(join(dir, 'set', 'qa.jsonl'), `${line(1)}\n${line(2, [1, 1, -1, null])}\n`);
    const summary = await importFile(db, { path: join(dir, 'set', 'qa.jsonl'), project: 'qa', createProject: true });
    expect(summary.format).toBe('video-qa');
    expect(summary.items).toBe(2);
    const items = [...iterateItems(db, requireProject(db, 'qa').id)];
    const prompt = items[0]!.prompt as ChatMessage[];
    expect((prompt[0]!.content as ContentPart[]).map((p) => p.type)).toEqual(['video', 'text']);
    expect((prompt[0]!.content as ContentPart[])[1]).toEqual({ type: 'text', text: 'Which way does the pattern move?\n\nA. left\nB. right' });
    expect(items[0]!.responses[0]!.steps).toEqual(['The bars shift between the first and the last frame.', 'They move towards the right edge.', 'So the pattern moves right.', '<answer>B</answer>']);
    const steps = headLoader(db, requireProject(db, 'qa').id, undefined, 'steps', true)(0, 10);
    expect(steps.get(items[0]!.id)).toBeUndefined();
    expect((steps.get(items[1]!.id)![0]!.body as { steps: Record<string, unknown> }).steps).toEqual({ A: [1, 1, -1, null] });

    const out = join(dir, 'exports', 'qa-back.jsonl');
    const exported = await exportProject(db, { project: 'qa', format: 'video-qa', out });
    expect(exported.written).toBe(1);
    const row = JSON.parse(readFileSync(out, 'utf8').trim());
    expect(row).toMatchObject({ problem_id: '2', problem: 'Which way does the pattern move?', options: ['A. left', 'B. right'], data_type: 'video', solution: '<answer>B</answer>', step_labels: [1, 1, -1, null], first_wrong_step: 2 });
    expect(row.process).toBe('<think>The bars shift between the first and the last frame.\n\nThey move towards the right edge.\n\nSo the pattern moves right.</think>');
    expect(readFileSync(join(dir, 'exports', row.path)).equals(readFileSync(join(dir, 'set/videos/example_2_A.mp4')))).toBe(true);
    const again = await importFile(db, { path: out, project: 'qa2', createProject: true });
    expect(again.format).toBe('video-qa');
    const back = [...iterateItems(db, requireProject(db, 'qa2').id)][0]!;
    expect(back.responses[0]!.steps).toEqual(items[1]!.responses[0]!.steps);
  });
});
