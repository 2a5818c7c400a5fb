// Videos stored and served (issue 24, item 1): every raw form a file holds (video_url, {type:'video', video},
// a path) becomes a stored part whose bytes are copied into the video store beside the database while
// they are hashed, once per video; an http URL is kept and never fetched; a file with broken headers is
// stored and says why; a file that is no video, or one outside the folder, is refused naming the line.
// Duration, frame rate, size and codec are probed from the headers. The browser host serves a stored
// video with HTTP Range (206) from a ticket, only the project's own. Clips are made here by ffmpeg.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ContentPart } from '../../shared/domain';
import { importNotes } from '../../shared/importNotes';
import { isVideoPart, type VideoPart } from '../../shared/videos';
import { exportProject, importFile } from '../../electron/core/formats';
import { imageStoreOf } from '../../electron/core/images/store';
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { iterateItems } from '../../electron/core/store/items';
import { requireProject } from '../../electron/core/store/projects';
import { projectHoldsVideo, projectVideoCount } from '../../electron/core/store/videos';
import { videoFile, videoStoreDir } from '../../electron/core/videos/store';
import { startHost, type RunningHost } from '../../electron/host/server';
import { serveVideo } from '../../electron/core/service/videos';
import { serveApp } from '../../electron/main/protocol';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing, makeClip } from '../helpers/videoClips';

const skip = skipOrFail('videos-store', ffmpegMissing());

let dir: string;
let service: ArbiterService;
let host: RunningHost;
const base = () => `http://127.0.0.1:${host.bound.port}`;
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const item = (id: string, ...parts: unknown[]) => JSON.stringify({ id, prompt: [{ role: 'user', content: [{ type: 'text', text: `clip ${id}` }, ...parts] }], responses: [{ text: 'a' }, { text: 'b' }] });

beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'arbiter-videos-'));
  mkdirSync(join(dir, 'clips'));
  makeClip(join(dir, 'clips'), 'a.mp4', { codec: 'h264', width: 96, height: 64, fps: 24, seconds: 2 });
  makeClip(join(dir, 'clips'), 'b.webm', { codec: 'vp9', width: 64, height: 48, fps: 30, seconds: 1, audio: true });
  makeClip(join(dir, 'clips'), 'c.webm', { codec: 'av1', width: 64, height: 48, fps: 12, seconds: 1 });
  makeClip(join(dir, 'clips'), 'd.mov', { codec: 'h264', container: 'mov', width: 32, height: 32, fps: 25, seconds: 1 });
  // Cut short: the moov box at the end is gone.
  writeFileSync(join(dir, 'clips', 'cut.mp4'), readFileSync(join(dir, 'clips', 'a.mp4')).subarray(0, 1500));
  writeFileSync(join(dir, 'clips', 'notes.mp4'), 'a text file named like a video\n');
  const dbPath = join(dir, 'arbiter.db');
  service = new ArbiterService(openDb(dbPath), { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
  host = await startHost({ service, rendererDir: join(dir, 'no-renderer'), port: 0 });
});

afterAll(async () => {
  await host?.close();
  service?.db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const parts = (project: string): Map<string, VideoPart[]> =>
  new Map(
    [...iterateItems(service.db, requireProject(service.db, project).id)].map((i) => [
      i.externalId!,
      (i.prompt as ChatMessage[]).flatMap((m) => (Array.isArray(m.content) ? (m.content as ContentPart[]) : []).filter(isVideoPart)),
    ]),
  );

describe.skipIf(skip)('videos: stored once by sha256, probed, served with Range', () => {
  let file: string;
  beforeEach(() => {
    file = join(dir, 'set.jsonl');
  });

  it('stores every form once, probes its headers, keeps http URLs unfetched and says a damaged file', async () => {
    writeFileSync(
      file,
      [
        item('url', { type: 'video_url', video_url: { url: 'clips/a.mp4' } }),
        item('hf', { type: 'video', video: 'clips/b.webm' }),
        item('path', { type: 'video', path: 'clips/c.webm' }, { type: 'video', video: { path: 'clips/d.mov' } }),
        item('again', { type: 'video_url', video_url: 'clips/a.mp4' }),
        item('web', { type: 'video_url', video_url: { url: 'https://videos.example.invalid/x.mp4' } }),
        item('cut', { type: 'video', video: 'clips/cut.mp4' }),
      ].join('\n') + '\n',
    );
    const summary = await importFile(service.db, { path: file, project: 'v', createProject: true });
    expect(summary.items).toBe(6);
    // The import's own words: videos, not images (a, b, c, d and the cut file).
    expect(summary.videoFiles).toBe(5);
    expect(importNotes(summary)).toEqual(['5 new items hold videos (url, hf, path, again, cut): 5 videos stored.']);
    const store = videoStoreDir(imageStoreOf(service.db));
    const byId = parts('v');
    const a = byId.get('url')![0]!;
    expect(a.video).toEqual({ sha256: sha(join(dir, 'clips/a.mp4')), mime: 'video/mp4', codec: 'h264', width: 96, height: 64, duration: 2, fps: 24, frames: 48, audio: false, bytes: readFileSync(join(dir, 'clips/a.mp4')).length });
    expect(a.origin).toEqual({ kind: 'path', path: 'clips/a.mp4' });
    expect(byId.get('hf')![0]!.video).toMatchObject({ mime: 'video/webm', codec: 'vp9', width: 64, height: 48, fps: 30, frames: 30, audio: true });
    expect(byId.get('path')!.map((p) => [p.video!.mime, p.video!.codec, p.video!.fps])).toEqual([
      ['video/webm', 'av1', 12],
      ['video/quicktime', 'h264', 25],
    ]);
    expect(byId.get('again')![0]!.video!.sha256).toBe(a.video!.sha256);
    expect(byId.get('web')![0]).toEqual({ type: 'video', origin: { kind: 'url', url: 'https://videos.example.invalid/x.mp4' }, unavailable: 'not available offline: http URL' });
    expect(byId.get('cut')![0]!.video!.damaged).toMatch(/no moov box/);
    // Byte for byte, once each: a, b, c, d and the cut file.
    for (const name of ['a.mp4', 'b.webm', 'c.webm', 'd.mov', 'cut.mp4']) expect(readFileSync(videoFile(store, sha(join(dir, 'clips', name)))).equals(readFileSync(join(dir, 'clips', name)))).toBe(true);
    expect(readdirSync(store, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())).toHaveLength(5);
    const project = requireProject(service.db, 'v');
    expect(projectVideoCount(service.db, project.id)).toBe(5);
    expect(projectHoldsVideo(service.db, project.id, a.video!.sha256)).toBe(true);
  });

  it('refuses a file that is no video and a path leaving the folder, naming the line', async () => {
    writeFileSync(file, [item('ok', { type: 'video', video: 'clips/a.mp4' }), item('text', { type: 'video', video: 'clips/notes.mp4' }), item('out', { type: 'video', video: '../x.mp4' }), item('abs', { type: 'video', video: '/etc/passwd' })].join('\n') + '\n');
    const error = (await importFile(service.db, { path: file, project: 'refused', createProject: true }).catch((e: unknown) => e)) as { errors: { line: number; reason: string }[] };
    expect(error.errors.map((e) => [e.line, e.reason])).toEqual([
      [2, expect.stringMatching(/^prompt message 1, part 2: clips\/notes.mp4: not a video Arbiter reads \(MP4, MOV, WebM or MKV\)/)],
      [3, expect.stringMatching(/^prompt message 1, part 2: \.\.\/x\.mp4: outside .* video paths may not leave it/)],
      [4, expect.stringMatching(/^prompt message 1, part 2: \/etc\/passwd: an absolute path; video paths must be relative/)],
    ]);
  });

  it('serves the bytes with HTTP Range from a ticket, the project’s own videos only', async () => {
    const a = parts('v').get('url')![0]!.video!;
    const bytes = readFileSync(join(dir, 'clips/a.mp4'));
    const { path } = await service.dispatch('videoAddress', { project: 'v', sha256: a.sha256 });
    expect(path).toMatch(/^\/videos\/[\w-]{32}$/);
    expect((await service.dispatch('videoAddress', { project: 'v', sha256: a.sha256 })).path).toBe(path);
    const whole = await fetch(`${base()}${path}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(`${base()}${path}`, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await fetch(`${base()}${path}`, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);
    const open = await fetch(`${base()}${path}`, { headers: { range: `bytes=${bytes.length - 5}-` } });
    expect(open.status).toBe(206);
    expect((await open.arrayBuffer()).byteLength).toBe(5);
    const past = await fetch(`${base()}${path}`, { headers: { range: `bytes=${bytes.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    expect((await fetch(`${base()}/videos/not-a-ticket`)).status).toBe(404);
    // Another project does not hold it: no ticket is handed out.
    await importFile(service.db, { path: join(dir, 'other.jsonl'), project: 'w', createProject: true }).catch(() => undefined);
    writeFileSync(join(dir, 'other.jsonl'), item('x', { type: 'video', video: 'clips/b.webm' }) + '\n');
    await importFile(service.db, { path: join(dir, 'other.jsonl'), project: 'w', createProject: true });
    await expect(service.dispatch('videoAddress', { project: 'w', sha256: a.sha256 })).rejects.toThrow(/holds no video/);
  });

  it('app:// answers the same ticket with the same ranges (the desktop window)', async () => {
    const a = parts('v').get('url')![0]!.video!;
    const bytes = readFileSync(join(dir, 'clips/a.mp4'));
    const { path } = await service.dispatch('videoAddress', { project: 'v', sha256: a.sha256 });
    const videos = (ticket: string, range: string | undefined) => serveVideo(service.db, service.imageStore, ticket, range);
    const ask = (range?: string) => serveApp(join(dir, 'no-renderer'), { url: `app://arbiter${path}`, method: 'GET', headers: new Headers(range ? { range } : {}) }, null, videos);
    const part = await ask('bytes=10-19');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
    const whole = await ask();
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await ask(`bytes=${bytes.length + 1}-`)).status).toBe(416);
    expect((await serveApp(join(dir, 'no-renderer'), { url: 'app://arbiter/videos/nope', method: 'GET' }, null, videos)).status).toBe(404);
  });

  it('exports the items back with their video parts as stored, and reads them back to the same bytes', async () => {
    const out = join(dir, 'back.jsonl');
    await exportProject(service.db, { project: 'v', format: 'arbiter', out });
    const again = openDb(join(dir, 'second.db'));
    try {
      const back = await importFile(again, { path: out, project: 'v2', createProject: true, imagesDir: dir }).catch((e: { errors?: unknown }) => {
        throw new Error(JSON.stringify(e.errors ?? e));
      });
      expect(back.items).toBe(6);
      const store = videoStoreDir(imageStoreOf(again));
      const a = sha(join(dir, 'clips/a.mp4'));
      expect(readFileSync(videoFile(store, a)).equals(readFileSync(join(dir, 'clips/a.mp4')))).toBe(true);
    } finally {
      again.close();
    }
  });
});
