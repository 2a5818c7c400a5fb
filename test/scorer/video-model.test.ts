// Video reward models (issue 24, item 6): frames sampled at a set rate and decoded by the ffmpeg binary that
// ships in @ffmpeg-installer (nothing fetched), preprocessed as images, a model folder whose pixel_values
// is a frame stack checked and probed, and score jobs over text-to-video pairs whose rewards equal a plain-JS
// forward pass on frames decoded by Debian's ffmpeg (an independent decoder). Clips are made by the test.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectModelFolder, prelabelsForItem, startScoreJob } from '../../electron/core/scorer';
import { sigmoid } from '../../electron/core/scorer/prelabel';
import { textModelCannotRead } from '../../electron/core/scorer/unscorable';
import { decodeFrames, decodeFramesBySeeking, ffmpegBinary, samplingRate, VideoReadError } from '../../electron/core/scorer/videoFrames';
import { framesToTensor } from '../../electron/core/scorer/videoModel';
import { parsePreprocessorConfig } from '../../electron/core/scorer/imageInputs';
import type { Db } from '../../electron/core/store/db';
import { videoRewardJs } from '../../scripts/lib/onnx-video-builder.mjs';
import { clipPreprocessorConfig } from '../../scripts/lib/onnx-image-builder.mjs';
import { ffmpegMissing } from '../helpers/videoClips';
import { skipOrFail } from '../helpers/required';
import { addItems, makeDb, tempDir } from './helpers';
import { colourClip, referenceFrames, storedVideoPart, videoPromptIds, videoResponse, writeVideoModelFolder } from './videoHelpers';

const open: Db[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

const skip = skipOrFail('video-model', ffmpegMissing());

/** The mean of each channel of frame `k` of RGB frames `w` × `h`. */
function frameMeans(rgb: Uint8Array, w: number, h: number, k: number): [number, number, number] {
  const sums = [0, 0, 0];
  const bytes = w * h * 3;
  for (let i = k * bytes; i < (k + 1) * bytes; i += 3) for (let c = 0; c < 3; c++) sums[c]! += rgb[i + c]!;
  return sums.map((s) => s / (w * h)) as [number, number, number];
}

const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 40 && b! < 40;
const isBlue = ([r, g, b]: number[]) => b! > 200 && r! < 40 && g! < 40;

describe.skipIf(skip)('frames decoded by the packaged ffmpeg', () => {
  it('is the binary inside the npm package, not one on PATH', () => {
    expect(ffmpegBinary()).toMatch(/node_modules[\\/]@ffmpeg-installer[\\/][a-z0-9]+-[a-z0-9]+[\\/]ffmpeg(\.exe)?$/);
  });

  it('samples at the set rate from the start, and a short video repeats its last frame', async () => {
    const dir = tempDir('arbiter-video-');
    const clip = colourClip(dir, 'red-blue.mp4', ['red', 'blue']);
    // 2 fps over a 2 s clip: t = 0, 0.5 (red), 1, 1.5 (blue).
    const four = await decodeFrames(clip, { frames: 4, fps: 2, width: 64, height: 48 });
    expect(four.decoded).toBe(4);
    expect([0, 1, 2, 3].map((k) => (isRed(frameMeans(four.rgb, 64, 48, k)) ? 'red' : isBlue(frameMeans(four.rgb, 64, 48, k)) ? 'blue' : 'other'))).toEqual(['red', 'red', 'blue', 'blue']);
    // Six asked of a clip that has four at 2 fps: the last (blue) fills frames 5 and 6.
    const six = await decodeFrames(clip, { frames: 6, fps: 2, width: 64, height: 48 });
    expect(six.decoded).toBe(4);
    expect(isBlue(frameMeans(six.rgb, 64, 48, 4)) && isBlue(frameMeans(six.rgb, 64, 48, 5))).toBe(true);
  });

  it('lowers the rate so the frames span a longer clip (VP9 in WebM too)', async () => {
    expect(samplingRate(2, 4, 8)).toBe(0.5);
    expect(samplingRate(2, 4, 1)).toBe(2);
    expect(samplingRate(2, 4, null)).toBe(2);
    const dir = tempDir('arbiter-video-');
    const clip = colourClip(dir, 'four.webm', ['red', 'red', 'blue', 'blue'], { webm: true });
    const { rgb } = await decodeFrames(clip, { frames: 4, fps: samplingRate(2, 4, 4), width: 64, height: 48 });
    expect([0, 1, 2, 3].map((k) => isBlue(frameMeans(rgb, 64, 48, k)))).toEqual([false, false, true, true]);
  });

  it('samples a long clip by seeking: the same frames as one pass, each decoded from the key frame before it', async () => {
    const dir = tempDir('arbiter-video-');
    const clip = colourClip(dir, 'long.mp4', ['red', 'blue'], { secondsEach: 20 });
    // 4 frames over 40 s: 0.1 fps, ticks at 0, 10, 20, 30 s.
    const request = { frames: 4, fps: samplingRate(2, 4, 40), width: 64, height: 48 };
    const seeking = await decodeFramesBySeeking(clip, request);
    expect(seeking.decoded).toBe(4);
    expect([0, 1, 2, 3].map((k) => isBlue(frameMeans(seeking.rgb, 64, 48, k)))).toEqual([false, false, true, true]);
    expect(isRed(frameMeans(seeking.rgb, 64, 48, 0))).toBe(true);
    const onePass = await decodeFrames(clip, request);
    expect(Buffer.from(seeking.rgb).equals(Buffer.from(onePass.rgb))).toBe(true);
    // Ticks past the end (headers that overstate the duration): the last frame decoded repeats.
    const past = await decodeFramesBySeeking(clip, { ...request, fps: 1 / 15 });
    expect(past.decoded).toBe(3);
    expect(Buffer.from(past.rgb.subarray(3 * 64 * 48 * 3)).equals(Buffer.from(past.rgb.subarray(2 * 64 * 48 * 3, 3 * 64 * 48 * 3)))).toBe(true);
  });

  it('opens the stored file only: a playlist naming a URL or another file, or bytes that are no video, give no frames', async () => {
    const dir = tempDir('arbiter-video-');
    // A stored "video" that is an HLS playlist naming a server the test runs: ffmpeg must not ask it anything.
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const playlist = join(dir, 'list');
    writeFileSync(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nhttp://127.0.0.1:${port}/a.ts\n#EXT-X-ENDLIST\n`);
    try {
      await expect(decodeFrames(playlist, { frames: 2, fps: 2, width: 64, height: 48 })).rejects.toThrow(VideoReadError);
    } finally {
      server.close();
    }
    expect(asked).toEqual([]);
    // A playlist naming another file on the disk (an MPEG-TS clip ffmpeg could decode): refused, not read.
    const segment = join(dir, 'seg.ts');
    const made = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=red:size=64x48:rate=24:duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mpegts', segment]);
    expect(made.status).toBe(0);
    const local = join(dir, 'local-list');
    writeFileSync(local, `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${segment}\n#EXT-X-ENDLIST\n`);
    await expect(decodeFrames(local, { frames: 2, fps: 2, width: 64, height: 48 })).rejects.toThrow(/no frame could be decoded \(ffmpeg: .*not on whitelist/);
    const junk = join(dir, 'junk');
    writeFileSync(junk, Buffer.alloc(4096, 7));
    await expect(decodeFrames(junk, { frames: 2, fps: 2, width: 64, height: 48 })).rejects.toThrow(/no frame could be decoded/);
  });
});

describe.skipIf(skip)('a video model folder', () => {
  it('loads a frame stack graph as a video model: frames from the graph, the rate from arbiter-model.json', async () => {
    const fixed = await inspectModelFolder(writeVideoModelFolder(join(tempDir(), 'v'), { frames: 4, manifest: { video: { fps: 1 } } }).dir);
    expect(fixed.inputMode).toBe('video');
    expect(fixed.image).toMatchObject({ shape: ['batch', 4, 3, 32, 32], video: { frames: 4, fps: 1 }, readsPrompt: true });
    const dynamic = await inspectModelFolder(writeVideoModelFolder(join(tempDir(), 'v'), { frames: 'frames' }).dir);
    expect(dynamic.image!.video).toEqual({ frames: 8, fps: 2 });
  });

  it('refuses a frame count the graph does not take, and a video section on an image model', async () => {
    await expect(inspectModelFolder(writeVideoModelFolder(join(tempDir(), 'v'), { frames: 4, manifest: { video: { frames: 6 } } }).dir)).rejects.toThrow(
      'arbiter-model.json video.frames is 6, but model.onnx input "pixel_values" takes 4 frames',
    );
    await expect(inspectModelFolder(writeVideoModelFolder(join(tempDir(), 'v'), { manifest: { video: { fpz: 1 } } }).dir)).rejects.toThrow(/arbiter-model.json is invalid: video/);
  });
});

describe.skipIf(skip)('score jobs with a video model', () => {
  it('scores text-to-video pairs in a worker: the rewards of the frames an independent decoder gives, P(A better) = sigmoid(rA − rB)', async () => {
    const folder = writeVideoModelFolder(join(tempDir(), 'v'), { frames: 4 });
    const { db, dbPath, projectId } = makeDb([]);
    open.push(db);
    const dir = tempDir('arbiter-video-');
    const clips = {
      red: colourClip(dir, 'red.mp4', ['red']),
      blue: colourClip(dir, 'blue.mp4', ['blue']),
      pattern: colourClip(dir, 'pattern.mp4', 'pattern', { secondsEach: 3 }),
      redBlue: colourClip(dir, 'red-blue.webm', ['red', 'blue'], { webm: true }),
    };
    const video = (file: string) => videoResponse(storedVideoPart(dbPath, file));
    const prompts = ['a red car', 'a blue sea', 'a car driving along a road', 'two plus two'];
    const pairs: (keyof typeof clips)[][] = [['red', 'blue'], ['red', 'blue'], ['pattern', 'redBlue']];
    const ids = addItems(db, projectId, [
      ...pairs.map((pair, k) => ({ prompt: prompts[k]!, responses: pair.map((name) => video(clips[name])) })),
      { prompt: prompts[3]!, responses: [{ content: 'four' }, { content: 'five' }] },
      // A ranking of four clips: a reward for each.
      { prompt: 'a photo of the road', responses: (['blue', 'pattern', 'red', 'redBlue'] as const).map((name) => video(clips[name])) },
    ]);
    const [run] = (await startScoreJob({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' }).promise).models;
    // Each (prompt, video) once: 6 in the pairs, 4 in the ranking.
    expect(run).toMatchObject({ scored: 10, cached: 0, unscorable: 2 });
    expect(run!.unscorableReasons).toEqual([
      { reason: 'the response is text, not a video: a video reward model scores generated videos', count: 2, examples: ['item extra-3, response A', 'item extra-3, response B'], byDesign: 'text responses (a video reward model scores generated videos)' },
    ]);

    // Each reward is the model's forward pass on frames decoded and resized by Debian's ffmpeg, sampled the same way.
    const image = { input: 'pixel_values', height: 32, width: 32, preprocess: parsePreprocessorConfig(clipPreprocessorConfig(32)).preprocess };
    const durations = { red: 1, blue: 1, pattern: 3, redBlue: 2 };
    const expected = (prompt: string, name: keyof typeof clips) => {
      const pixels = new Float32Array(4 * 3 * 32 * 32);
      // 64 × 48 frames, the shortest edge to 32: 42 × 32 (int(32 · 64 / 48)), then the 32 × 32 centre crop.
      framesToTensor(referenceFrames(clips[name], samplingRate(2, 4, durations[name]), 4, 42, 32), 42, 32, 4, image, pixels, 0);
      return videoRewardJs(folder.weights, pixels, 4, videoPromptIds(folder, prompt));
    };
    for (const [k, itemId] of ids.slice(0, 3).entries()) {
      const [model] = prelabelsForItem(db, projectId, itemId).models;
      model!.rewards.forEach((r, i) => expect(r, `item ${k}, response ${i}`).toBeCloseTo(expected(prompts[k]!, pairs[k]![i]!), 2));
      expect(model!.pAB).toBeCloseTo(sigmoid(model!.rewards[0]! - model!.rewards[1]!), 12);
    }
    const [red, blue] = ids.slice(0, 2).map((id) => prelabelsForItem(db, projectId, id).models[0]!);
    expect(red).toMatchObject({ vote: 'A' });
    expect(red!.pAB).toBeGreaterThan(0.9);
    expect(blue).toMatchObject({ vote: 'B' });
    // The ranking: with no colour word the reddest clip ranks first (the image model's rule), each reward the reference's.
    const ranking = prelabelsForItem(db, projectId, ids[4]!).models[0]!.rewards as number[];
    (['blue', 'pattern', 'red', 'redBlue'] as const).forEach((name, i) => expect(ranking[i], name).toBeCloseTo(expected('a photo of the road', name), 2));
    expect(ranking.indexOf(Math.max(...ranking))).toBe(2);
    // Scored again: every input is cached, nothing decoded.
    const [again] = (await startScoreJob({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' }).promise).models;
    expect(again).toMatchObject({ scored: 0, cached: 10 });
  });

  it('a video that cannot be decoded makes its response unscorable with the reason; the job goes on', async () => {
    const folder = writeVideoModelFolder(join(tempDir(), 'v'), { frames: 4 });
    const { db, dbPath, projectId } = makeDb([]);
    open.push(db);
    const dir = tempDir('arbiter-video-');
    const good = storedVideoPart(dbPath, colourClip(dir, 'red.mp4', ['red']));
    const junkFile = join(dir, 'junk.mp4');
    writeFileSync(junkFile, Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(2000, 3)]));
    const junk = { ...storedVideoPart(dbPath, junkFile), video: { ...storedVideoPart(dbPath, junkFile).video!, width: 64, height: 48 } };
    const offline = { type: 'video', origin: { kind: 'url', url: 'https://example.com/a.mp4' }, unavailable: 'not available offline: http URL' } as const;
    const itemIds = addItems(db, projectId, [
      { prompt: 'a red car', responses: [videoResponse(good), videoResponse(junk)] },
      { prompt: 'a red car', responses: [videoResponse(offline), videoResponse(good)] },
    ]);
    const [run] = (await startScoreJob({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' }).promise).models;
    expect(run).toMatchObject({ scored: 1, unscorable: 2 });
    const reasons = Object.fromEntries(run!.unscorableReasons.map((r) => [r.examples.join(' / '), r.reason]));
    expect(reasons['item extra-0, response B']).toMatch(/^its video could not be decoded into frames \(damaged, or a codec the decoder lacks\): no frame could be decoded/);
    expect(reasons['item extra-1, response A']).toBe('its video is not available offline: http URL, so there are no frames to score');
    expect(prelabelsForItem(db, projectId, itemIds[0]!).models[0]!.rewards).toEqual([expect.any(Number), null]);
  });

  it('a text model says a video response is not for it, as a note by design', () => {
    const part = { type: 'video', origin: { kind: 'path', path: 'a.mp4' }, unavailable: 'not stored' };
    expect(textModelCannotRead('a red car', [{ role: 'assistant', content: [part] }] as never)).toBe(
      'the responses are videos, which a text model cannot see: load a video reward model (docs/models.md, "Video reward models")',
    );
  });
});
