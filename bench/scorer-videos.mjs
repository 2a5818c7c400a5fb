// Video pre-labels (issue 24, item 6): a video reward model (a frame stack) over text-to-video pairs whose
// clips (H.264 MP4, made here by Debian's ffmpeg) are in the video store, at 360p and 1080p. Reported as
// sampled frames per second (videos × frames each), each figure the median of --reps runs:
//   arbiter job      the whole score job (read items, hash, decode each video's sampled frames with the
//                    packaged ffmpeg, which resizes them, crop, normalise, tokenize, batch, run, write),
//                    the next batch decoding while one runs;
//   (a) decode       the packaged ffmpeg alone, one video after another, the same sampled frames resized;
//   (b) + preprocess (a) and each frame cropped and normalised into pixel values, one after another (no model);
//   (c) bare run     session.run over the same batches, pixel values made beforehand (inference alone);
//   (d) every frame  the packaged ffmpeg decoding every frame of each clip to nothing (-f null), for scale.
//
//   node --import tsx bench/scorer-videos.mjs [--videos 16] [--seconds 4] [--frames 8] [--fps 2] [--size 224] [--heights 360,1080] [--reps 2]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageStoreDir } from '../electron/core/images/store.ts';
import { resizedSize } from '../electron/core/scorer/imageInputs.ts';
import { encodePromptText } from '../electron/core/scorer/imageModel.ts';
import { loadModel } from '../electron/core/scorer/loadModel.ts';
import { runScoreJob } from '../electron/core/scorer/scoreJob.ts';
import { decodeFrames, ffmpegBinary, samplingRate } from '../electron/core/scorer/videoFrames.ts';
import { framePlane, framesToTensor, runVideoBatch } from '../electron/core/scorer/videoModel.ts';
import { openDb } from '../electron/core/store/db.ts';
import { itemInserter } from '../electron/core/store/itemInsert.ts';
import { createProject } from '../electron/core/store/projects.ts';
import { probeVideoFile } from '../electron/core/videos/probe.ts';
import { putVideoFile, videoStoreDir } from '../electron/core/videos/store.ts';
import { buildVocab, wordPieceTokenizerJson } from '../scripts/lib/onnx-builder.mjs';
import { clipPreprocessorConfig } from '../scripts/lib/onnx-image-builder.mjs';
import { buildVideoRewardModel, makeVideoRewardWeights } from '../scripts/lib/onnx-video-builder.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const VIDEOS = Number(arg('videos', 16));
const SECONDS = Number(arg('seconds', 4));
const FRAMES = Number(arg('frames', 8));
const FPS = Number(arg('fps', 2));
const SIZE = Number(arg('size', 224));
const HEIGHTS = String(arg('heights', '360,1080')).split(',').map(Number);
const REPS = Number(arg('reps', 2));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (fn) => {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
};

function modelFolder(dir) {
  mkdirSync(dir, { recursive: true });
  const vocab = buildVocab('a the red green blue car sky sea road of on'.split(' '));
  writeFileSync(join(dir, 'model.onnx'), buildVideoRewardModel(makeVideoRewardWeights({ vocab, size: SIZE }), { frames: FRAMES }));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(wordPieceTokenizerJson(vocab)));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ pad_token: '[PAD]', model_max_length: 77 }));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ pad_token_id: 0 }));
  writeFileSync(join(dir, 'preprocessor_config.json'), JSON.stringify(clipPreprocessorConfig(SIZE)));
  writeFileSync(join(dir, 'arbiter-model.json'), JSON.stringify({ video: { fps: FPS } }));
  return dir;
}

function clip(dir, k, height) {
  const width = Math.round((height * 16) / 9 / 2) * 2;
  const out = join(dir, `clip-${height}-${k}.mp4`);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=24:duration=${SECONDS}`, '-vf', `hue=h=${k * 23}`, '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '48', out]);
  return out;
}

async function benchHeight(root, height, modelDir) {
  const dir = join(root, String(height));
  mkdirSync(dir);
  const files = Array.from({ length: VIDEOS }, (_, k) => clip(dir, k, height));
  const dbPath = join(dir, 'bench.db');
  const db = openDb(dbPath);
  const project = createProject(db, 'bench');
  const insert = itemInserter(db, project.id);
  const store = videoStoreDir(imageStoreDir(dbPath));
  const parts = files.map((file) => ({ type: 'video', video: { ...putVideoFile(store, file), ...probeVideoFile(file) }, origin: { kind: 'path', path: file } }));
  for (let i = 0; i < VIDEOS; i += 2) {
    const responses = [parts[i], parts[i + 1] ?? parts[0]].map((p) => ({ content: [{ role: 'assistant', content: [p] }], model: null, steps: null }));
    insert.insert({ externalId: `v-${i}`, prompt: 'a red car on a road', responses, reference: null, metadata: {} });
  }
  const scored = VIDEOS + (VIDEOS % 2);
  const ref = parts[0].video;
  const rate = samplingRate(FPS, FRAMES, ref.duration);
  const loaded = await loadModel(modelDir, 'cpu');
  const image = loaded.spec.image;
  const size = resizedSize(ref.width, ref.height, image.preprocess.resize);
  const request = { frames: FRAMES, fps: rate, ...size };
  const stack = FRAMES * framePlane(image);
  const prompt = encodePromptText(loaded.spec, loaded.folder.tokenizer, 'a red car on a road');
  const batches = [];
  for (let i = 0; i < VIDEOS; i += 4) {
    const rows = Math.min(4, VIDEOS - i);
    const pixels = new Float32Array(rows * stack);
    for (let r = 0; r < rows; r++) {
      const { rgb } = await decodeFrames(files[i + r], request);
      framesToTensor(rgb, size.width, size.height, FRAMES, image, pixels, r * stack);
    }
    batches.push({ pixels, prompts: Array(rows).fill(prompt) });
  }
  const runs = { job: [], decode: [], preprocess: [], bare: [], every: [] };
  for (let rep = 0; rep < REPS; rep++) {
    db.prepare('DELETE FROM score').run();
    const perSecond = async (count, fn) => count / (await time(fn));
    runs.job.push(await perSecond(scored * FRAMES, () => runScoreJob({ dbPath, project: 'bench', dirs: [modelDir], provider: 'cpu' })));
    runs.decode.push(
      await perSecond(VIDEOS * FRAMES, async () => {
        for (const file of files) await decodeFrames(file, request);
      }),
    );
    runs.preprocess.push(
      await perSecond(VIDEOS * FRAMES, async () => {
        const pixels = new Float32Array(stack);
        for (const file of files) framesToTensor((await decodeFrames(file, request)).rgb, size.width, size.height, FRAMES, image, pixels, 0);
      }),
    );
    runs.bare.push(
      await perSecond(VIDEOS * FRAMES, async () => {
        for (const b of batches) await runVideoBatch(loaded.session, loaded.spec, image, b.pixels, b.prompts);
      }),
    );
    let decodedAll = 0;
    const seconds = await time(async () => {
      for (const file of files) {
        const run = spawnSync(ffmpegBinary(), ['-hide_banner', '-nostdin', '-i', file, '-an', '-f', 'null', '-'], { encoding: 'utf8' });
        decodedAll += Number(/frame=\s*(\d+)/.exec(run.stderr)?.[1] ?? 0);
      }
    });
    runs.every.push(decodedAll / seconds);
  }
  await loaded.session.release();
  db.close();
  const f = (xs) => median(xs).toFixed(0).padStart(6);
  console.log(`${String(height).padStart(4)}p (${ref.width} × ${ref.height}, ${ref.codec}, ${SECONDS} s at 24 fps; ${FRAMES} frames at ${rate} fps → ${SIZE} × ${SIZE})`);
  console.log(`  arbiter job        ${f(runs.job)} sampled frames/s   (${(median(runs.job) / FRAMES).toFixed(1)} videos/s)`);
  console.log(`  (a) decode         ${f(runs.decode)} sampled frames/s`);
  console.log(`  (b) + preprocess   ${f(runs.preprocess)} sampled frames/s`);
  console.log(`  (c) bare run       ${f(runs.bare)} sampled frames/s`);
  console.log(`  (d) every frame    ${f(runs.every)} decoded frames/s (ffmpeg -f null)`);
}

const root = mkdtempSync(join(tmpdir(), 'arbiter-bench-videos-'));
try {
  console.log(`${VIDEOS} videos, reps ${REPS}, decoder ${ffmpegBinary()}`);
  const modelDir = modelFolder(join(root, 'model'));
  for (const height of HEIGHTS) await benchHeight(root, height, modelDir);
} finally {
  rmSync(root, { recursive: true, force: true });
}
