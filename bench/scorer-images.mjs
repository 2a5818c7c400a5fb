// The image case of bench/scorer.mjs (--images): an image reward model over text-to-image pairs whose
// images are in the image store. Reported as images/s:
//   arbiter job       the whole job (read items, hash, read each image from the store, decode, resize
//                     as Pillow does, crop, normalise, tokenize the prompt, batch, run, write), with the
//                     next batch decoding while one runs;
//   (a) bare run loop session.run over the same batches, pixel values and tokens made beforehand, on a
//                     session opened the same way (inference alone);
//   (b) preprocessing decode + resize + crop + normalise, one image after another (no model).
// Each runs --reps times back to back in a rotating order; the figures are the medians.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { imageFile, imageStoreDir, putImage } from '../electron/core/images/store.ts';
import { preprocessImage } from '../electron/core/scorer/imageInputs.ts';
import { encodePromptText, runImageBatch } from '../electron/core/scorer/imageModel.ts';
import { loadModel } from '../electron/core/scorer/loadModel.ts';
import { runScoreJob } from '../electron/core/scorer/scoreJob.ts';
import { openDb } from '../electron/core/store/db.ts';
import { itemInserter } from '../electron/core/store/itemInsert.ts';
import { createProject } from '../electron/core/store/projects.ts';

const PROMPT_WORDS = 'a red apple on the table blue sky over the sea green tree in a field photo painting of a cat and a dog at sunset'.split(' ');

function prompt(seed) {
  let x = (seed * 2654435761) % 4294967296;
  const out = [];
  for (let i = 0; i < 8; i++) {
    x = (x * 1664525 + 1013904223) % 4294967296;
    out.push(PROMPT_WORDS[x % PROMPT_WORDS.length]);
  }
  return out.join(' ');
}

/** A size² PNG of its own (gradients, a seeded colour, hard edges): what a generator might hand back, compressed alike. */
async function picture(size, seed) {
  const raw = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const edge = ((x >> 5) + (y >> 5) + seed) % 7 === 0 ? 80 : 0;
      const at = (y * size + x) * 3;
      raw[at] = ((x * 255) / size + seed * 37 + edge) % 256;
      raw[at + 1] = ((y * 255) / size + seed * 11) % 256;
      raw[at + 2] = ((x + y) * 2 + seed * 53) % 256;
    }
  }
  return sharp(raw, { raw: { width: size, height: size, channels: 3 } }).png().toBuffer();
}

async function makeProject(dir, items, size) {
  const dbPath = join(dir, 'bench-images.db');
  const db = openDb(dbPath);
  const project = createProject(db, 'bench');
  const insert = itemInserter(db, project.id);
  const store = imageStoreDir(dbPath);
  const rows = [];
  for (let i = 0; i < items; i++) {
    const responses = [];
    for (const k of [0, 1]) {
      const bytes = await picture(size, i * 2 + k);
      const sha256 = putImage(store, bytes);
      responses.push({ content: [{ role: 'assistant', content: [{ type: 'image', image: { sha256, mime: 'image/png', width: size, height: size, bytes: bytes.length }, origin: { kind: 'inline' } }] }], model: null, steps: null });
    }
    rows.push({ externalId: `b-${i}`, prompt: prompt(i), responses, reference: null, metadata: {} });
  }
  db.transaction(() => rows.forEach((r) => insert.insert(r)))();
  db.close();
  return { dbPath, store, rows };
}

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

export async function imageBench(arg) {
  const ITEMS = arg('items', 200);
  const SIZE = arg('size', 512);
  const BATCH = arg('batch', 16);
  const REPS = arg('reps', 3);
  const at = process.argv.indexOf('--provider');
  const provider = at > 0 ? process.argv[at + 1] : 'cpu';
  const root = resolve(import.meta.dirname, '..');
  const modelArg = process.argv.indexOf('--model');
  const modelDir = modelArg > 0 ? resolve(process.argv[modelArg + 1]) : join(root, 'resources', 'models', 'demo-image');
  if (!existsSync(join(modelDir, 'model.onnx'))) execFileSync(process.execPath, [join(root, 'scripts', 'gen-demo-models.mjs')], { stdio: 'inherit' });
  const tmp = mkdtempSync(join(tmpdir(), 'arbiter-bench-images-'));
  try {
    const { dbPath, store, rows } = await makeProject(tmp, ITEMS, SIZE);
    const loaded = await loadModel(modelDir, provider);
    const { spec, session, folder, report } = loaded;
    const image = spec.image;
    if (!image) throw new Error(`${modelDir} is not an image model`);
    const files = rows.flatMap((r) => r.responses.map((x) => imageFile(store, x.content[0].content[0].image.sha256)));
    const prompts = rows.flatMap((r) => r.responses.map(() => encodePromptText(spec, folder.tokenizer, r.prompt)));
    const plane = 3 * image.height * image.width;
    // Warm-up: a small job, and the batches' pixel values made once for the bare loop.
    const warm = join(tmp, 'warm.db');
    copyFileSync(dbPath, warm);
    execFileSync('cp', ['-r', `${dbPath}.images`, `${warm}.images`]);
    await runScoreJob({ dbPath: warm, project: 'bench', dirs: [modelDir], provider, batchSize: BATCH });
    const batches = [];
    for (let start = 0; start < files.length; start += BATCH) {
      const n = Math.min(BATCH, files.length - start);
      const pixels = new Float32Array(n * plane);
      for (let k = 0; k < n; k++) await preprocessImage(files[start + k], image.preprocess, image, pixels, k * plane);
      batches.push({ pixels, prompts: prompts.slice(start, start + n) });
    }

    const times = { arbiter: [], bare: [], preprocess: [] };
    let job;
    const measure = {
      async arbiter(rep) {
        const fresh = join(tmp, `run-${rep}.db`);
        copyFileSync(dbPath, fresh);
        execFileSync('cp', ['-r', `${dbPath}.images`, `${fresh}.images`]);
        const t = performance.now();
        job = await runScoreJob({ dbPath: fresh, project: 'bench', dirs: [modelDir], provider, batchSize: BATCH });
        return performance.now() - t;
      },
      async bare() {
        const t = performance.now();
        for (const b of batches) await runImageBatch(session, spec, image, b.pixels, b.prompts);
        return performance.now() - t;
      },
      async preprocess() {
        const out = new Float32Array(plane);
        const t = performance.now();
        for (const file of files) await preprocessImage(file, image.preprocess, image, out, 0);
        return performance.now() - t;
      },
    };
    const names = Object.keys(measure);
    for (let rep = 0; rep < REPS; rep++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(rep + k) % names.length];
        times[name].push(await measure[name](rep));
      }
    }
    await session.release();
    const n = files.length;
    const rate = (name) => n / (median(times[name]) / 1000);
    const run = job.models[0];
    console.log(`${modelDir.replace(`${root}/`, '')}: pixel input [batch, 3, ${image.height}, ${image.width}], ${spec.inputs.length ? 'reads the prompt' : 'image only'}; ${provider} (${report.used}), batch ${BATCH}, median of ${REPS} reps`);
    console.log(`${n} images of ${SIZE} × ${SIZE} (PNG) in ${ITEMS} text-to-image pairs; the job scored ${run.scored}, ${run.unscorable} unscorable`);
    const line = (label, name) => console.log(`${label.padEnd(40)} ${rate(name).toFixed(1).padStart(8)} images/s ${(median(times[name]) / 1000).toFixed(2).padStart(7)} s`);
    line('arbiter job (store → scores in db)', 'arbiter');
    line('(a) bare session.run loop', 'bare');
    line('(b) preprocessing alone, one by one', 'preprocess');
    const serial = 1 / (1 / rate('bare') + 1 / rate('preprocess'));
    console.log(`(a) and (b) one after the other would give ${serial.toFixed(1)} images/s; the job gives ${(rate('arbiter') / serial).toFixed(2)}× that (decoding overlaps inference)`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
