// Scorer throughput on the demo outcome model. Run from the repository root:
//   node --import tsx bench/scorer.mjs [--items 1500] [--batch 16] [--reps 3]
// It imports the TypeScript sources through tsx. Compares Arbiter's whole job (read items, hash,
// skip cache, tokenize, length-sorted batches, run, write) with
//   (a) a bare loop of session.run over the same batches, tokenized and padded beforehand (target ≥ 0.9×),
//   (b) scoring one response at a time, tokenizing each (target ≥ 1.5×).
// Each is run --reps times, interleaved, and the fastest run counts: on a shared machine the slow
// runs measure the neighbours, not the code.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { lengthSortedBatches, padBatch } from '../electron/core/scorer/batching.ts';
import { encodeExample } from '../electron/core/scorer/inputs.ts';
import { loadModel } from '../electron/core/scorer/loadModel.ts';
import { chunkSizeFor, runScoreJob } from '../electron/core/scorer/scoreJob.ts';
import { runBatch } from '../electron/core/scorer/session.ts';
import { openDb } from '../electron/core/store/db.ts';
import { iterateItems, itemInserter } from '../electron/core/store/items.ts';
import { createProject } from '../electron/core/store/projects.ts';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ITEMS = arg('items', 1500);
const BATCH = arg('batch', 16);
const REPS = arg('reps', 3);
const root = resolve(import.meta.dirname, '..');
const modelDir = join(root, 'resources', 'models', 'demo-outcome');
if (!existsSync(join(modelDir, 'model.onnx'))) execFileSync(process.execPath, [join(root, 'scripts', 'gen-demo-models.mjs')], { stdio: 'inherit' });

const WORDS = 'the answer is because we check each step so first compare the digits then add them and the result equals four which is correct maybe guess probably the sky is blue'.split(' ');
function text(seed, words) {
  let x = seed * 2654435761 % 4294967296;
  const out = [];
  for (let i = 0; i < words; i++) {
    x = (x * 1664525 + 1013904223) % 4294967296;
    out.push(WORDS[x % WORDS.length]);
  }
  return out.join(' ');
}

function makeProject(dir, n) {
  const dbPath = join(dir, `bench-${n}.db`);
  const db = openDb(dbPath);
  const project = createProject(db, 'bench');
  const insert = itemInserter(db, project.id);
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      // Lengths spread like real answers: mostly short, some long (up to the 512-token limit).
      const len = (k) => 8 + ((i * 37 + k * 101) % 97) * ((i + k) % 5 === 0 ? 5 : 1);
      insert.insert({ externalId: `b-${i}`, prompt: text(i, 12), responses: [0, 1].map((k) => ({ content: text(i * 3 + k, len(k)), model: null, steps: null })), reference: null, metadata: {} });
    }
  })();
  db.close();
  return dbPath;
}

const now = () => performance.now();
const tmp = mkdtempSync(join(tmpdir(), 'arbiter-bench-'));
try {
  // Warm-up: the first session and the first batches pay one-off costs (JIT, allocator, thread pool).
  await runScoreJob({ dbPath: makeProject(tmp, 100), project: 'bench', dirs: [modelDir], provider: 'cpu', batchSize: BATCH });

  const dbPath = makeProject(tmp, ITEMS);

  // The same inputs and the same batches as the job, prepared before the clock starts.
  const loaded = await loadModel(modelDir, 'cpu');
  const { spec, session, folder } = loaded;
  const db = openDb(dbPath, { readonly: true });
  const projectId = db.prepare('SELECT id FROM project').pluck().get();
  const examples = [];
  const tokenizeStart = now();
  for (const item of iterateItems(db, projectId)) for (const r of item.responses) examples.push(encodeExample(spec, folder.tokenizer, { prompt: item.prompt, response: r.content, steps: r.steps }));
  const tokenizeSeconds = (now() - tokenizeStart) / 1000;
  db.close();
  const chunk = chunkSizeFor(BATCH);
  const batches = [];
  for (let start = 0; start < examples.length; start += chunk) {
    const part = examples.slice(start, start + chunk);
    for (const idx of lengthSortedBatches(part.map((e) => e.ids.length), BATCH, BATCH * spec.maxLength)) {
      batches.push(padBatch(idx.map((i) => part[i]), spec.inputs, spec.padTokenId, spec.paddingSide));
    }
  }

  const best = { arbiter: Infinity, plain: Infinity, single: Infinity };
  let job;
  for (let rep = 0; rep < REPS; rep++) {
    const fresh = join(tmp, `run-${rep}.db`);
    copyFileSync(dbPath, fresh);
    let t = now();
    job = await runScoreJob({ dbPath: fresh, project: 'bench', dirs: [modelDir], provider: 'cpu', batchSize: BATCH });
    best.arbiter = Math.min(best.arbiter, (now() - t) / 1000);

    t = now();
    for (const b of batches) await runBatch(session, b, spec.output.name);
    best.plain = Math.min(best.plain, (now() - t) / 1000);

    // One response at a time, tokenized as it goes.
    const db2 = openDb(dbPath, { readonly: true });
    t = now();
    for (const item of iterateItems(db2, projectId)) {
      for (const r of item.responses) {
        const e = encodeExample(spec, folder.tokenizer, { prompt: item.prompt, response: r.content, steps: r.steps });
        await runBatch(session, padBatch([e], spec.inputs, spec.padTokenId, spec.paddingSide), spec.output.name);
      }
    }
    best.single = Math.min(best.single, (now() - t) / 1000);
    db2.close();
  }
  await session.release();
  const { scored, tokens } = job.models[0];
  const arbiterSeconds = best.arbiter;
  const plainSeconds = best.plain;
  const singleSeconds = best.single;
  const singles = examples.length;

  const row = (name, seconds, n) => `${name.padEnd(34)} ${(n / seconds).toFixed(1).padStart(9)} items/s ${(tokens / seconds).toFixed(0).padStart(10)} tokens/s ${seconds.toFixed(2).padStart(7)} s`;
  const padded = batches.reduce((a, b) => a + b.rows * b.width, 0);
  console.log(`demo-outcome, ${scored} responses, ${tokens} tokens (${((1 - tokens / padded) * 100).toFixed(1)}% padding), batch ${BATCH}, cpu, best of ${REPS}`);
  console.log(row('arbiter job (db → scores in db)', arbiterSeconds, scored));
  console.log(row('(a) bare session.run loop', plainSeconds, examples.length));
  console.log(row('(b) one response at a time', singleSeconds, singles));
  console.log(`${'tokenizing alone (read + encode, once)'.padEnd(34)} ${tokenizeSeconds.toFixed(2).padStart(52)} s`);
  const a = plainSeconds / arbiterSeconds;
  const b = singleSeconds / arbiterSeconds;
  console.log(`arbiter / bare loop     = ${a.toFixed(2)}× (target ≥ 0.9) ${a >= 0.9 ? 'ok' : 'BELOW TARGET'}`);
  console.log(`arbiter / one at a time = ${b.toFixed(2)}× (target ≥ 1.5) ${b >= 1.5 ? 'ok' : 'BELOW TARGET'}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
