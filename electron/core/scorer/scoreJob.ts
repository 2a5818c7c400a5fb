// The scoring job: for each model, find the project's responses not yet scored, tokenize them a
// chunk at a time, run length-sorted batches, and write each batch's scores in one transaction.
// It runs the same inline (CLI) or in a worker thread (app), with its own database connection.
import { notFound } from '../base/errors';
import { openDb, relaxDurability, type Db } from '../store/db';
import { iterateItems } from '../store/items';
import { projectSegmentation, requireProject } from '../store/projects';
import { lengthSortedBatches, padBatch } from './batching';
import { encodeExample, inputHash, responseInput, type EncodedExample } from './inputs';
import { loadModel, type LoadedModel } from './loadModel';
import { fileSignatures, hashModelFolder } from './modelFolder';
import { readScores } from './readout';
import { runBatch } from './session';
import { getModel, scoreCache, scoreWriter, updateStoredModel, upsertModel, type ModelRow, type NewScore } from '../store/models';
import { noScoreReason, responseName, textModelCannotRead, UnscorableLog } from './unscorable';
import { imageStoreOf } from '../images/store';
import { scoreImagePass } from './imageJob';
import { scoreVideoPass } from './videoJob';
import type { ExampleScore } from './readout';
import type { ModelRunSummary, ProviderName, ProviderRequest, ScoreJobOptions, ScoreJobResult, ScoreProgress } from './types';

export const DEFAULT_BATCH_SIZE = 16;
const PROGRESS_INTERVAL_MS = 250;
const WRITE_ROWS = 512;
const WRITE_INTERVAL_MS = 1000;
const CPU_BATCH_TOKENS = 2048;
/** Most videos in one batch: each holds its decoded frames until the batch runs. */
const VIDEO_BATCH = 4;

/** Responses tokenized before batching: enough to sort into well-filled batches, few enough to bound memory. */
export function chunkSizeFor(batchSize: number): number {
  return Math.max(1024, batchSize * 64);
}

/**
 * Most padded tokens in one batch. On CPU, batching long rows buys nothing (each row's matrices are
 * already large) and costs cache: a batch's attention scores grow as rows × length², so long rows
 * go in smaller batches (16 rows up to 128 tokens, 4 rows of 512). Accelerators get full batches.
 */
export function batchTokenBudget(batchSize: number, maxLength: number, provider: ProviderName): number {
  const full = batchSize * maxLength;
  return provider === 'cpu' ? Math.min(full, CPU_BATCH_TOKENS) : full;
}

export interface JobHooks {
  onProgress?: (progress: ScoreProgress) => void;
  isCancelled?: () => boolean;
}

interface PendingExample {
  hash: string;
  itemId: number;
  responseIndex: number;
  example: EncodedExample;
  /** How the summary names it, should it get no score. */
  where: string;
}

/** Adds (or finds) the model for a loaded folder; same files → same row. */
export async function registerModel(db: Db, loaded: LoadedModel, name?: string): Promise<ModelRow> {
  const hash = await hashModelFolder(loaded.folder.dir);
  const stored = { spec: loaded.spec, userManifest: loaded.folder.manifest, files: loaded.folder.files, description: loaded.description };
  return upsertModel(db, { name: name ?? loaded.description.name, hash, dir: loaded.folder.dir, kind: loaded.spec.kind, stored }, name !== undefined);
}

/** Opens an added model's folder, making sure its files are still the ones that were added. */
async function openAddedModel(db: Db, row: ModelRow, provider: ProviderRequest, threads?: number): Promise<LoadedModel> {
  const loaded = await loadModel(row.dir, provider, threads);
  const same = JSON.stringify(fileSignatures(row.dir)) === JSON.stringify(row.stored.files);
  if (!same) {
    if ((await hashModelFolder(row.dir)) !== row.hash) {
      await loaded.session.release();
      throw new Error(`The files in ${row.dir} changed since model "${row.name}" was added; add the folder again to score with the new files`);
    }
    updateStoredModel(db, row.id, { files: loaded.folder.files });
  }
  return loaded;
}

export async function runScoreJob(options: ScoreJobOptions, hooks: JobHooks = {}): Promise<ScoreJobResult> {
  const db = openDb(options.dbPath);
  // Scores are a cache that can be recomputed: this connection trades the per-commit fsync of
  // synchronous=FULL (the app's rule for labels) for WAL's NORMAL, still safe against a crash of the app.
  relaxDurability(db);
  try {
    const project = requireProject(db, options.project);
    const provider = options.provider ?? 'auto';
    const targets: (number | string)[] = [...(options.modelIds ?? []), ...(options.dirs ?? [])];
    if (!targets.length) throw new Error('Choose at least one model to score with');
    const models: ModelRunSummary[] = [];
    let cancelled = false;
    for (const [modelIndex, target] of targets.entries()) {
      if (hooks.isCancelled?.()) {
        cancelled = true;
        break;
      }
      let row: ModelRow;
      let loaded: LoadedModel;
      if (typeof target === 'number') {
        const found = getModel(db, target);
        if (!found) throw notFound(`No model with id ${target}`);
        row = found;
        loaded = await openAddedModel(db, row, provider, options.threads);
      } else {
        loaded = await loadModel(target, provider, options.threads);
        row = await registerModel(db, loaded);
      }
      try {
        const run = await scoreWithModel(db, project.id, row, loaded, { modelIndex, modelCount: targets.length, batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE }, hooks);
        models.push(run.summary);
        cancelled = run.cancelled;
      } finally {
        await loaded.session.release();
      }
      if (cancelled) break;
    }
    return { project: options.project, cancelled, models };
  } finally {
    db.close();
  }
}

interface RunContext {
  modelIndex: number;
  modelCount: number;
  batchSize: number;
}

async function scoreWithModel(
  db: Db,
  projectId: number,
  row: ModelRow,
  loaded: LoadedModel,
  ctx: RunContext,
  hooks: JobHooks,
): Promise<{ summary: ModelRunSummary; cancelled: boolean }> {
  const { spec, session, folder, report } = loaded;
  const started = performance.now();
  let failed = 0; // responses that could not be encoded: counted as done, not written
  const summary: ModelRunSummary = { modelId: row.id, name: row.name, hash: row.hash, provider: report, scored: 0, cached: 0, truncated: 0, unscorable: 0, tokens: 0, seconds: 0, unscorableReasons: [] };
  const unscorable = new UnscorableLog();
  const progress = (phase: ScoreProgress['phase'], total: number): ScoreProgress => {
    const seconds = (performance.now() - started) / 1000;
    const done = summary.scored + failed;
    const rate = seconds > 0 ? done / seconds : 0;
    return {
      phase,
      model: row.name,
      modelIndex: ctx.modelIndex,
      modelCount: ctx.modelCount,
      done,
      total,
      cached: summary.cached,
      itemsPerSecond: rate,
      tokensPerSecond: seconds > 0 ? summary.tokens / seconds : 0,
      etaSeconds: rate > 0 ? (total - done) / rate : null,
      provider: report.used,
    };
  };

  // Pass 1: what is left to score (equal inputs are scored once). A process model scores the steps the
  // step screen shows (the newest stored segmentation, else the project's cut), which are in the hash.
  const segmentation = projectSegmentation(db, projectId);
  const isCached = scoreCache(db, row.id);
  const pending = new Set<string>();
  for (const item of iterateItems(db, projectId)) {
    for (const index of item.responses.keys()) {
      const hash = inputHash(spec.kind, responseInput(item, index, segmentation));
      if (isCached(hash)) summary.cached++;
      else pending.add(hash);
    }
  }
  const total = pending.size;
  hooks.onProgress?.(progress('preparing', total));

  const write = scoreWriter(db, row.id, report.used);
  // Scores are committed in groups (a commit per small batch would cost more than tiny models take to run).
  let unwritten: NewScore[] = [];
  let lastWrite = performance.now();
  const flush = () => {
    if (unwritten.length) write(unwritten);
    unwritten = [];
    lastWrite = performance.now();
  };
  updateStoredModel(db, row.id, { lastProvider: report });
  const chunkSize = chunkSizeFor(ctx.batchSize);
  const tokenBudget = batchTokenBudget(ctx.batchSize, spec.maxLength, report.used);
  let lastReport = performance.now();
  let cancelled = false;

  // A response that gets no score and is not written (tried again by the next job).
  const skip = (reason: string, where: string) => {
    summary.unscorable++;
    failed++;
    unscorable.add(reason, where);
    summary.unscorableReasons = unscorable.reasons;
  };
  // A batch's scores: queued for writing (a null reward too, with its reason), counted, progress reported.
  const recordBatch = (rows: { hash: string; itemId: number; responseIndex: number; where: string }[], scores: ExampleScore[], tokens: number) => {
    rows.forEach((p, k) => {
      const score = scores[k]!;
      unwritten.push({ contentHash: p.hash, itemId: p.itemId, responseIndex: p.responseIndex, reward: score.reward, stepScores: score.stepScores });
      if (score.noScore) unscorable.add(noScoreReason(score.noScore, spec), p.where);
    });
    if (unwritten.length >= WRITE_ROWS || performance.now() - lastWrite >= WRITE_INTERVAL_MS) flush();
    summary.scored += rows.length;
    summary.tokens += tokens;
    summary.unscorable += scores.filter((s) => s.reward === null).length;
    summary.unscorableReasons = unscorable.reasons;
    if (performance.now() - lastReport >= PROGRESS_INTERVAL_MS) {
      lastReport = performance.now();
      hooks.onProgress?.(progress('scoring', total));
    }
  };

  if (spec.image) {
    // Image models: each response's image and its prompt's tokens (imageJob.ts); video models: each
    // response's sampled frames (videoJob.ts), a few videos a batch (a batch holds every frame decoded).
    const pass = spec.image.video ? scoreVideoPass : scoreImagePass;
    const batchSize = spec.image.video ? Math.min(ctx.batchSize, VIDEO_BATCH) : ctx.batchSize;
    cancelled = await pass(iterateItems(db, projectId), imageStoreOf(db), spec, session, folder.tokenizer, batchSize, {
      pending,
      hashOf: (item, index) => inputHash(spec.kind, responseInput(item, index, segmentation)),
      where: responseName,
      skip,
      scored: recordBatch,
      truncated: () => summary.truncated++,
      isCancelled: () => hooks.isCancelled?.() ?? false,
    });
    flush();
    summary.seconds = (performance.now() - started) / 1000;
    hooks.onProgress?.(progress('done', total));
    return { summary, cancelled };
  }

  const scoreChunk = async (chunk: PendingExample[]) => {
    const batches = lengthSortedBatches(chunk.map((p) => p.example.ids.length), ctx.batchSize, tokenBudget);
    for (const indexes of batches) {
      if (hooks.isCancelled?.()) {
        cancelled = true;
        return;
      }
      const rows = indexes.map((i) => chunk[i]!);
      const batch = padBatch(rows.map((p) => p.example), spec.inputs, spec.padTokenId, spec.paddingSide);
      const out = await runBatch(session, batch, spec.output.name);
      recordBatch(rows, readScores(spec, out, batch, rows.map((p) => p.example)), batch.realTokens);
    }
  };

  // Pass 2: tokenize a chunk, score it, repeat (bounded memory on any project size).
  // Tokenizing the next batch while one runs would not overlap: onnxruntime-node's session.run is a
  // synchronous native call on this thread (wrapped in setImmediate), and its thread pool already
  // has every core. Tokenization costs a small share of a transformer's inference, so it stays serial.
  let chunk: PendingExample[] = [];
  outer: for (const item of iterateItems(db, projectId)) {
    for (const responseIndex of item.responses.keys()) {
      const input = responseInput(item, responseIndex, segmentation);
      // Hashed again rather than remembered: memory stays flat, and an input changed since pass 1 is not mislabelled.
      const hash = inputHash(spec.kind, input);
      if (!pending.delete(hash)) continue;
      const cannot = textModelCannotRead(item.prompt, item.responses[responseIndex]!.content);
      if (cannot) {
        skip(cannot, responseName(item, responseIndex));
        continue;
      }
      try {
        const example = encodeExample(spec, folder.tokenizer, input);
        if (example.truncated) summary.truncated++;
        chunk.push({ hash, itemId: item.id, responseIndex, example, where: responseName(item, responseIndex) });
      } catch (error) {
        // One response the template cannot render (say, roles out of order) must not stop the job.
        skip(`its input for the model could not be built: ${(error as Error).message}`, responseName(item, responseIndex));
      }
      if (chunk.length >= chunkSize) {
        await scoreChunk(chunk);
        chunk = [];
        if (cancelled) break outer;
      }
    }
  }
  if (!cancelled && chunk.length) await scoreChunk(chunk);
  flush();
  summary.seconds = (performance.now() - started) / 1000;
  hooks.onProgress?.(progress('done', total));
  return { summary, cancelled };
}
