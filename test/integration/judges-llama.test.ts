// Real llama.cpp inference (node-llama-cpp's prebuilt CPU binary) on a tiny GGUF this test writes from
// the GGUF spec (test/helpers/tinyGguf.ts: random weights, byte-level vocabulary, a ChatML template in
// the file). Its answers are noise, and yet every kind's answer parses and passes its zod rules, because
// the JSON-schema grammar allows nothing else; a pairwise run asks in both orders and records a flip;
// the same seed gives the same answers; each result names the file's sha256, template version, params, seed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeParams } from '../../shared/api/judges';
import { readAnswer, type JudgeKind, type PairwiseAnswer } from '../../shared/judgeAnswers';
import type { JudgeEngine } from '../../electron/core/judge/engine';
import { openLlamaEngine } from '../../electron/core/judge/llama';
import { DEFAULT_TEMPLATES } from '../../electron/core/judge/prompts';
import { runJudge } from '../../electron/core/judge/run';
import type { Db } from '../../electron/core/store/db';
import { itemInserter } from '../../electron/core/store/itemInsert';
import { judgeResults } from '../../electron/core/store/judges';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';
import { writeTinyGguf } from '../helpers/tinyGguf';

const criteria = [
  { key: 'helpful', description: 'Answers the question', scale: { type: 'likert' as const, min: 1, max: 5 }, weight: 1, required: true },
  { key: 'safe', description: '', scale: { type: 'binary' as const }, weight: 1, required: true },
];

let db: Db;
let projectId: number;
let engine: JudgeEngine;
let modelPath: string;
const params = judgeParams.parse({ temperature: 0.9, seed: 42, textMax: 12, timeoutMs: 60_000 });

beforeAll(async () => {
  const dir = tempDir();
  modelPath = writeTinyGguf(join(dir, 'tiny-judge.gguf'));
  const made = pairProject(join(dir, 'a.db'), { items: 2, texts: (i) => [`Step 1: add ${i}\nStep 2: done`, `The answer is ${i + 1}.`], annotator: 'ann' });
  db = made.db;
  projectId = made.project.id;
  // A third item with one response: pairwise skips it, the per-response kinds judge it.
  itemInserter(db, projectId).insert({ externalId: 'solo', prompt: 'Solve 2+2', responses: [{ content: 'It is 4', model: null, steps: ['2+2', 'is 4'] }], reference: '4', metadata: {} });
  engine = await openLlamaEngine({ modelPath, parallel: 2, contextSize: 1024, threads: 1 });
}, 120_000);

afterAll(async () => {
  await engine?.close();
  db?.close();
});

function run(kind: JudgeKind, limit: number) {
  return runJudge(db, { projectId, kind, engine, template: { ...DEFAULT_TEMPLATES[kind], version: 1 }, params, context: { segmentation: 'auto', rubric: { version: 3, criteria } }, limit });
}

const errorsOf = (runId: string) => judgeResults(db, projectId, { runId }).map((r) => r.error).join('; ');

describe('judges on llama.cpp with a generated GGUF', () => {
  it('names the model file by its sha256', () => {
    expect(engine.hash).toBe(createHash('sha256').update(readFileSync(modelPath)).digest('hex'));
    expect(engine.name).toBe('tiny-judge.gguf');
  });

  it('pairwise: both orders, every answer parses, a flip is what the two verdicts say', async () => {
    const summary = await run('pairwise', 3);
    expect(summary, errorsOf(summary.runId)).toMatchObject({ items: 2, results: 2, failed: 0, skipped: 1, cancelled: false });
    const results = judgeResults(db, projectId, { runId: summary.runId });
    for (const r of results) {
      expect(r.error).toBeNull();
      expect(readAnswer({ kind: 'pairwise', textMax: 12 }, JSON.stringify(r.answer)).ok).toBe(true);
      expect(readAnswer({ kind: 'pairwise', textMax: 12 }, JSON.stringify(r.answerSwapped)).ok).toBe(true);
      const first = r.answer as PairwiseAnswer;
      const back = { A: 'B', B: 'A', tie: 'tie' }[(r.answerSwapped as PairwiseAnswer).verdict];
      expect(r.flipped).toBe(back !== first.verdict);
      expect(r.verdict).toBe(first.verdict);
      expect(r).toMatchObject({ modelHash: engine.hash, templateVersion: 1, seed: 42, params: { temperature: 0.9, topK: 40, topP: 0.95, textMax: 12 } });
      expect(r.tokens).toBeGreaterThan(0);
    }
  });

  it('the same seed gives the same answers', async () => {
    const a = judgeResults(db, projectId, { runId: (await run('pairwise', 2)).runId });
    const b = judgeResults(db, projectId, { runId: (await run('pairwise', 2)).runId });
    expect(b.map((r) => [r.answer, r.answerSwapped])).toEqual(a.map((r) => [r.answer, r.answerSwapped]));
  });

  it.each(['rubric', 'steps', 'outcome'] as const)('%s: one answer per response, each parses and passes zod', async (kind) => {
    const summary = await run(kind, 3);
    expect(summary.failed, errorsOf(summary.runId)).toBe(0);
    const results = judgeResults(db, projectId, { runId: summary.runId });
    expect(results).toHaveLength(5);
    for (const r of results) {
      expect(r.error).toBeNull();
      expect(r.answer).not.toBeNull();
      if (kind === 'rubric') {
        expect(r.rubricVersion).toBe(3);
        expect(Object.keys((r.answer as { criteria: object }).criteria)).toEqual(['helpful', 'safe']);
      }
      if (kind === 'steps') {
        const steps = (r.answer as { steps: { correct: boolean }[] }).steps;
        // Kept up to and including the first error.
        expect(r.firstError === null ? steps.every((s) => s.correct) : steps.length === r.firstError + 1 && !steps[r.firstError]!.correct).toBe(true);
      }
      if (kind === 'outcome') expect(['success', 'partial', 'failure']).toContain(r.outcome);
    }
  });

  it('a cancelled run stops and stores nothing half-made', async () => {
    const controller = new AbortController();
    const running = runJudge(db, { projectId, kind: 'outcome', engine, template: { ...DEFAULT_TEMPLATES.outcome, version: 1 }, params, context: { segmentation: 'auto', rubric: null } }, { signal: controller.signal, onProgress: () => undefined });
    controller.abort();
    const summary = await running;
    expect(summary.cancelled).toBe(true);
    for (const r of judgeResults(db, projectId, { runId: summary.runId })) expect(r.error === null && r.answer !== null).toBe(true);
  });
});
