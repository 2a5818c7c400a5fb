// One judge run over a project's items: as many items in flight as the engine serves at once (parallel
// context sequences), every answer checked with zod before it is stored (as a save is), bounded in tokens
// and time, results written per item, progress and an estimate reported, and a cancel that stops at once
// (answers in flight are dropped, nothing half-made is stored).
import { uuidv7 } from '../../../shared/ids';
import type { JudgeParams } from '../../../shared/api/judges';
import { answerJsonSchema, answerTokenBudget, readAnswer, type JudgeAnswer, type JudgeKind } from '../../../shared/judgeAnswers';
import type { Db } from '../store/db';
import { iterateItems } from '../store/items';
import { appendJudgeResults, type JudgeResultDraft } from '../store/judges';
import { writeNow } from '../store/write';
import type { JudgeEngine } from './engine';
import type { PromptTemplate } from './prompts';
import { itemJobs, resultOf, type ItemContext, type ItemJob } from './requests';

export interface JudgeRunOptions {
  projectId: number;
  kind: JudgeKind;
  engine: JudgeEngine;
  template: PromptTemplate & { version: number };
  params: JudgeParams;
  context: ItemContext;
  /** At most this many items (in the project's order). */
  limit?: number;
  /** Only these items. */
  itemIds?: ReadonlySet<number>;
}

export interface JudgeRunProgress {
  done: number;
  total: number;
  etaMs: number | null;
}

export interface JudgeRunSummary {
  runId: string;
  items: number;
  results: number;
  failed: number;
  skipped: number;
  tokens: number;
  ms: number;
  cancelled: boolean;
}

export interface JudgeRunHooks {
  onProgress?: (progress: JudgeRunProgress) => void;
  signal?: AbortSignal;
}

function collectJobs(db: Db, options: JudgeRunOptions): ItemJob[] {
  const jobs: ItemJob[] = [];
  let items = 0;
  for (const item of iterateItems(db, options.projectId, 500, options.itemIds)) {
    if (options.limit !== undefined && items >= options.limit) break;
    items++;
    jobs.push(...itemJobs(options.kind, item, options.template, options.context, options.params));
  }
  return jobs;
}

export async function runJudge(db: Db, options: JudgeRunOptions, hooks: JudgeRunHooks = {}): Promise<JudgeRunSummary> {
  const { engine, params, kind } = options;
  const runId = uuidv7();
  const all = collectJobs(db, options);
  const jobs = all.filter((j) => !j.skip);
  const skipped = all.length - jobs.length;
  const summary: JudgeRunSummary = { runId, items: new Set(jobs.map((j) => j.item.id)).size, results: 0, failed: 0, skipped, tokens: 0, ms: 0, cancelled: false };
  const started = Date.now();
  const { temperature, topK, topP, seed } = params;
  const named = { temperature, topK, topP, textMax: params.textMax, maxTokens: params.maxTokens ?? null, timeoutMs: params.timeoutMs };
  let done = 0;
  let next = 0;

  const judgeOne = async (job: ItemJob): Promise<JudgeResultDraft | null> => {
    const t0 = Date.now();
    const answers: JudgeAnswer[] = [];
    let tokens = 0;
    let error: string | null = null;
    for (const request of job.requests) {
      if (hooks.signal?.aborted) return null;
      try {
        const reply = await engine.answer({
          system: options.template.system,
          user: request.user,
          schema: answerJsonSchema(request.shape),
          sampling: { temperature, topK, topP, seed },
          maxTokens: params.maxTokens ?? answerTokenBudget(request.shape),
          timeoutMs: params.timeoutMs,
          signal: hooks.signal,
        });
        tokens += reply.tokens;
        if (reply.stopped === 'cancelled' || hooks.signal?.aborted) return null;
        if (reply.stopped) {
          error = reply.stopped === 'timeout' ? `no answer within ${params.timeoutMs} ms` : 'the answer reached the token limit before it was complete';
          break;
        }
        const read = readAnswer(request.shape, reply.text);
        if (!read.ok) {
          error = `the answer was refused: ${read.error}`;
          break;
        }
        answers.push(read.answer);
      } catch (caught) {
        if (hooks.signal?.aborted) return null;
        error = caught instanceof Error ? caught.message : String(caught);
        break;
      }
    }
    const fields = error ? resultOf(kind, []) : resultOf(kind, answers);
    return {
      runId, projectId: options.projectId, itemId: job.item.id, response: job.response, kind, engine: engine.kind, modelName: engine.name, modelHash: engine.hash,
      templateVersion: options.template.version, rubricVersion: job.rubricVersion, params: named, seed, ...fields, error, tokens, ms: Date.now() - t0,
    };
  };

  const worker = async () => {
    while (next < jobs.length && !hooks.signal?.aborted) {
      const job = jobs[next++]!;
      const result = await judgeOne(job);
      if (!result) continue;
      writeNow(db, () => appendJudgeResults(db, [result]));
      summary.results++;
      if (result.error) summary.failed++;
      summary.tokens += result.tokens;
      done++;
      const elapsed = Date.now() - started;
      hooks.onProgress?.({ done, total: jobs.length, etaMs: done ? Math.round((elapsed / done) * (jobs.length - done)) : null });
    }
  };
  hooks.onProgress?.({ done: 0, total: jobs.length, etaMs: null });
  await Promise.all(Array.from({ length: Math.min(engine.parallel, Math.max(1, jobs.length)) }, worker));
  summary.cancelled = Boolean(hooks.signal?.aborted);
  summary.ms = Date.now() - started;
  return summary;
}
