// Judge throughput on CPU. Run from the repository root:
//   node --import tsx bench/judge.mjs [--items 24] [--parallel 2] [--threads 1] [--reps 3] [--text-max 48]
//       [--embedding 256] [--layers 4] [--model FILE.gguf]
// The model is a GGUF written by test/helpers/tinyGguf.ts (random weights, byte-level vocabulary; its
// size set by --embedding and --layers), or any GGUF given with --model. Compares, in the same process,
// on the same model, prompts, grammar, sampling and seed:
//   Arbiter: runJudge over a project's pairwise items (both orders per item, each answer checked with zod
//            and written to SQLite, results per item), through electron/core/judge/llama.ts;
//   bare:    a loop of node-llama-cpp's LlamaChatSession.promptWithMeta over the same prompts, with the
//            same JSON-schema grammar, on a context with the same number of parallel sequences.
// Tokens/s and items/s of each; the ratio Arbiter / bare (goal ≥ 0.9×). Each is run --reps times back to
// back in alternating order; the figures are the medians.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLlama, LlamaChatSession, LlamaLogLevel } from 'node-llama-cpp';
import { judgeParams } from '../shared/api/judges.ts';
import { answerJsonSchema, answerTokenBudget } from '../shared/judgeAnswers.ts';
import { openLlamaEngine } from '../electron/core/judge/llama.ts';
import { DEFAULT_TEMPLATES } from '../electron/core/judge/prompts.ts';
import { itemJobs } from '../electron/core/judge/requests.ts';
import { runJudge } from '../electron/core/judge/run.ts';
import { openDb } from '../electron/core/store/db.ts';
import { iterateItems } from '../electron/core/store/items.ts';
import { itemInserter } from '../electron/core/store/itemInsert.ts';
import { createProject } from '../electron/core/store/projects.ts';
import { writeTinyGguf } from '../test/helpers/tinyGguf.ts';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ITEMS = Number(arg('items', 24));
const PARALLEL = Number(arg('parallel', 2));
const THREADS = Number(arg('threads', 1));
const REPS = Number(arg('reps', 3));
const TEXT_MAX = Number(arg('text-max', 48));
const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-judge-'));
const modelPath = arg('model', null) ?? writeTinyGguf(join(dir, 'bench-judge.gguf'), { embedding: Number(arg('embedding', 256)), layers: Number(arg('layers', 4)), heads: 8, feedForward: 4 * Number(arg('embedding', 256)) });

const db = openDb(join(dir, 'bench.db'));
const project = createProject(db, 'bench');
const insert = itemInserter(db, project.id);
db.transaction(() => {
  for (let i = 0; i < ITEMS; i++)
    insert.insert({ externalId: `q${i}`, prompt: `Question ${i}: what is ${i} times ${i + 3}?`, responses: [{ content: `It is ${i * (i + 3)}.`, model: null, steps: null }, { content: `Roughly ${i * (i + 3) + 1}, I think.`, model: null, steps: null }], reference: null, metadata: {} });
})();
db.prepare('UPDATE project SET visible_seq = (SELECT MAX(seq) + 1 FROM item), item_count = ? WHERE id = ?').run(ITEMS, project.id);

const params = judgeParams.parse({ seed: 7, temperature: 0.8, textMax: TEXT_MAX, timeoutMs: 600_000 });
const template = { ...DEFAULT_TEMPLATES.pairwise, version: 0 };
const context = { segmentation: 'auto', rubric: null };
const requests = [...iterateItems(db, project.id)].flatMap((item) => itemJobs('pairwise', item, template, context, params)[0].requests);

async function arbiterRun(engine) {
  const summary = await runJudge(db, { projectId: project.id, kind: 'pairwise', engine, template, params, context });
  if (summary.failed) throw new Error(`${summary.failed} answers failed`);
  return { ms: summary.ms, tokens: summary.tokens, items: summary.items };
}

async function bareRun(llama, ctx) {
  const grammar = await llama.createGrammarForJsonSchema(answerJsonSchema({ kind: 'pairwise', textMax: TEXT_MAX }));
  const maxTokens = answerTokenBudget({ kind: 'pairwise', textMax: TEXT_MAX });
  const free = Array.from({ length: PARALLEL }, () => ctx.getSequence());
  let next = 0;
  let tokens = 0;
  const t0 = performance.now();
  await Promise.all(
    free.map(async (sequence) => {
      while (next < requests.length) {
        // One item's two orders on one sequence, as runJudge does.
        const pair = [requests[next++], requests[next++]];
        for (const request of pair) {
          await sequence.clearHistory();
          const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: template.system, autoDisposeSequence: false });
          await session.promptWithMeta(request.user, { grammar, maxTokens, temperature: params.temperature, topK: params.topK, topP: params.topP, seed: params.seed, onToken: (t) => (tokens += t.length) });
          session.dispose({ disposeSequence: false });
        }
      }
    }),
  );
  free.forEach((s) => s.dispose());
  return { ms: performance.now() - t0, tokens, items: ITEMS };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
const engine = await openLlamaEngine({ modelPath, parallel: PARALLEL, threads: THREADS, contextSize: 4096 });
const bareModel = await llama.loadModel({ modelPath });
const bareCtx = await bareModel.createContext({ sequences: PARALLEL, contextSize: 4096 * PARALLEL, threads: THREADS });
const runs = { arbiter: [], bare: [] };
for (let rep = 0; rep < REPS; rep++) {
  const order = rep % 2 ? ['arbiter', 'bare'] : ['bare', 'arbiter'];
  for (const which of order) {
    const run = which === 'arbiter' ? await arbiterRun(engine) : await bareRun(llama, bareCtx);
    runs[which].push(run);
    console.error(`rep ${rep + 1}/${REPS} ${which}: ${(run.ms / 1000).toFixed(1)} s, ${run.tokens} tokens, ${((run.tokens / run.ms) * 1000).toFixed(0)} tokens/s`);
  }
}
const figure = (list) => ({ ms: median(list.map((r) => r.ms)), tokensPerS: median(list.map((r) => (r.tokens / r.ms) * 1000)), itemsPerS: median(list.map((r) => (r.items / r.ms) * 1000)), tokens: median(list.map((r) => r.tokens)) });
const a = figure(runs.arbiter);
const b = figure(runs.bare);
const ratios = runs.arbiter.map((r, i) => (r.tokens / r.ms) / (runs.bare[i].tokens / runs.bare[i].ms));
const result = {
  model: modelPath.endsWith('bench-judge.gguf') ? `tiny GGUF (random, embedding ${arg('embedding', 256)}, ${arg('layers', 4)} layers)` : modelPath,
  items: ITEMS, answers: requests.length, parallel: PARALLEL, threads: THREADS, textMax: TEXT_MAX, reps: REPS,
  arbiter: a, bare: b, tokensPerSRatio: Number(median(ratios).toFixed(3)), itemsPerSRatio: Number((a.itemsPerS / b.itemsPerS).toFixed(3)),
};
console.log(JSON.stringify(result, null, 2));
console.log(`judge bench: Arbiter ${a.tokensPerS.toFixed(0)} tokens/s, ${a.itemsPerS.toFixed(2)} items/s; bare ${b.tokensPerS.toFixed(0)} tokens/s, ${b.itemsPerS.toFixed(2)} items/s; ratio ${result.tokensPerSRatio}× (goal ≥ 0.9×)`);
await engine.close();
await bareCtx.dispose();
await bareModel.dispose();
db.close();
rmSync(dir, { recursive: true, force: true });
