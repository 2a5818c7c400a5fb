// The judges through the service, as the app and the browser host call it: templates versioned per
// project, the GGUF found in the models folder beside the database, a run as a job (progress, estimate,
// the call returns at once), pre-labels per item, a taken critique's edit distance, and `arbiter judge`.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArbiterService } from '../../electron/core/service';
import type { Db } from '../../electron/core/store/db';
import { judgeResults } from '../../electron/core/store/judges';
import { runCli } from '../../electron/cli/main';
import { pairProject } from '../helpers/project';
import { writeTinyGguf } from '../helpers/tinyGguf';

let service: ArbiterService;
let db: Db;
let dbPath: string;
let ids: number[];
let projectId: number;
let dir: string;

beforeAll(() => {
  process.env.ARBITER_JUDGE_THREADS = '1';
  dir = mkdtempSync(join(tmpdir(), 'arbiter-judges-'));
  dbPath = join(dir, 'a.db');
  mkdirSync(join(dir, 'models'));
  writeTinyGguf(join(dir, 'models', 'tiny.gguf'));
  const made = pairProject(dbPath, { items: 3, texts: (i) => [`left ${i}`, `right ${i}`], annotator: 'ann' });
  ({ service, db, ids } = made);
  projectId = made.project.id;
});
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const params = { seed: 5, textMax: 12, temperature: 0.8 };

describe('judges through the service', () => {
  it('templates: built-in until saved, an edit makes the next version, the same text keeps it', async () => {
    const before = await service.dispatch('listJudgeTemplates', { project: 'p' });
    expect(before.find((t) => t.kind === 'pairwise')).toMatchObject({ version: 0, versions: 0 });
    const prompt = before.find((t) => t.kind === 'pairwise')!.prompt;
    expect(await service.dispatch('saveJudgeTemplate', { project: 'p', kind: 'pairwise', system: 'Be fair.', prompt })).toEqual({ version: 1, created: true });
    expect(await service.dispatch('saveJudgeTemplate', { project: 'p', kind: 'pairwise', system: 'Be fair.', prompt })).toEqual({ version: 1, created: false });
    expect(await service.dispatch('saveJudgeTemplate', { project: 'p', kind: 'pairwise', system: 'Be fair!', prompt })).toEqual({ version: 2, created: true });
  });

  it('lists the GGUF files of the models folder, and refuses a path outside it in the browser host', async () => {
    expect(await service.dispatch('listJudgeModels', {})).toEqual([{ name: 'tiny.gguf', size: expect.any(Number) }]);
    await expect(service.dispatch('startJudging', { project: 'p', kind: 'pairwise', model: '/etc/passwd.gguf' })).rejects.toThrow(/models folders/);
  });

  it('a run is a job: the call returns at once, progress and an estimate follow, results are pre-labels', async () => {
    const job = await service.dispatch('startJudging', { project: 'p', kind: 'pairwise', model: 'tiny.gguf', template: 1, params, parallel: 2 });
    // At once: the call answers before the first item is judged (a call that waited for the run would
    // answer with it done), and the job is left running on its own.
    expect(job).toMatchObject({ kind: 'judge', state: 'running', done: 0 });
    expect((await service.dispatch('listJobs', {})).find((j) => j.id === job.id)?.judge).toBeUndefined();
    await service.jobs.settle();
    const done = (await service.dispatch('listJobs', {})).find((j) => j.id === job.id)!;
    expect(done, done.error ?? '').toMatchObject({ state: 'done', done: 3, total: 3, judge: { items: 3, results: 3, failed: 0 } });
    const pre = await service.dispatch('judgePrelabels', { project: 'p', itemId: ids[0]! });
    expect(pre).toHaveLength(1);
    expect(pre[0]).toMatchObject({ kind: 'pairwise', templateVersion: 1, seed: 5, modelName: 'tiny.gguf' });
    expect(pre[0]!.modelHash).toMatch(/^[0-9a-f]{64}$/);
    expect(['A', 'B', 'tie']).toContain(pre[0]!.verdict);
  });

  it('a critique taken from the judge and edited: the edit distance is recorded against the saved revision', async () => {
    const pre = (await service.dispatch('judgePrelabels', { project: 'p', itemId: ids[0]! }))[0]!;
    const edited = `${pre.critique} and more`;
    const revision = await service.dispatch('saveCritique', { project: 'p', annotator: 'ann', itemId: ids[0]!, critiques: { A: edited } });
    const noted = await service.dispatch('noteJudgeCritique', { project: 'p', annotator: 'ann', itemId: ids[0]!, resultId: pre.id, revisionId: revision.id, letter: 'A' });
    expect(noted.distance).toBe(' and more'.length);
    const row = db.prepare('SELECT distance, judge_length AS j, final_length AS f FROM judge_critique_edit').get() as { distance: number; j: number; f: number };
    expect(row).toEqual({ distance: 9, j: [...pre.critique!].length, f: [...edited].length });
    await expect(service.dispatch('noteJudgeCritique', { project: 'p', annotator: 'ann', itemId: ids[1]!, resultId: pre.id, revisionId: revision.id, letter: 'A' })).rejects.toThrow(/No judge critique/);
  });

  it('the server engine: nothing set, nothing sent; the key is never read back', async () => {
    await expect(service.dispatch('startJudging', { project: 'p', kind: 'pairwise', model: 'server' })).rejects.toThrow(/no server set/);
    expect(await service.dispatch('getJudgeEngine', { project: 'p' })).toBeNull();
    await service.dispatch('setJudgeEngine', { project: 'p', engine: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-secret', model: 'm' } });
    expect(await service.dispatch('getJudgeEngine', { project: 'p' })).toEqual({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', hasKey: true });
    await service.dispatch('setJudgeEngine', { project: 'p', engine: null });
    expect(await service.dispatch('getJudgeEngine', { project: 'p' })).toBeNull();
  });

  it('arbiter judge runs the same judge from the command line and prints the run', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['judge', '--project', 'p', '--model', 'tiny.gguf', '--task', 'outcome', '--limit', '1', '--seed', '9', '--text-max', '10', '--parallel', '1', '--db', dbPath], { out: (l) => out.push(l), err: (l) => err.push(l), ask: async () => 'no' });
    expect(code, err.join('\n')).toBe(0);
    const summary = JSON.parse(out[0]!) as { results: number; failed: number; runId: string };
    expect(summary).toMatchObject({ task: 'outcome', items: 1, results: 2, failed: 0 });
    expect(judgeResults(db, projectId, { runId: summary.runId }).map((r) => r.seed)).toEqual([9, 9]);
    expect(await runCli(['judge', '--project', 'p', '--model', 'tiny.gguf', '--task', 'poem', '--db', dbPath], { out: () => undefined, err: () => undefined, ask: async () => 'no' })).not.toBe(0);
  });
});
