// Scoring through the application's own doors: the CLI `score` and `export --format scores`, and the
// service's job API (worker thread, progress events, pre-labels), on the shipped demo models.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../shared/api';
import { importFile } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { buildNodeSide, ROOT } from '../helpers/host';
import { tempDir } from '../helpers/tmp';

const OUTCOME = join(ROOT, 'resources/models/demo-outcome');
const PROCESS = join(ROOT, 'resources/models/demo-process');
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function writePairs(dir: string, n: number): string {
  const file = join(dir, 'pairs.jsonl');
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ prompt: `Question ${i}: what is ${i} + ${i}?`, chosen: `Step 1: ${i} + ${i} = ${2 * i}.\nAnswer: ${2 * i}`, rejected: `It is ${2 * i + 1}.` }),
  );
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

function arbiter(args: string[]) {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), ...args], { encoding: 'utf8', env: { ...process.env, ARBITER_NO_DEMO: '1' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => buildNodeSide(), 120_000);

describe('arbiter score and the scores export', () => {
  it('scores with an ensemble, says which provider ran, re-scores nothing, exports one line per response', () => {
    const dir = tempDir();
    const db = join(dir, 'a.db');
    expect(arbiter(['import', writePairs(dir, 12), '--project', 'S', '--db', db]).code).toBe(0);

    const first = arbiter(['score', '--project', 'S', '--model', OUTCOME, '--model', PROCESS, '--db', db]);
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result.models).toHaveLength(2);
    for (const model of result.models) {
      expect(model.scored).toBe(24);
      expect(model.provider.used).toBe('cpu');
      // Where CUDA binaries are not installed (as here) auto says so rather than failing.
      if (process.platform === 'linux') expect(model.provider.skipped.map((s: { name: string }) => s.name)).toContain('cuda');
    }
    expect(first.stderr).toMatch(/ran on cpu/);

    const again = JSON.parse(arbiter(['score', '--project', 'S', '--db', db]).stdout);
    expect(again.models.map((m: { scored: number; cached: number }) => [m.scored, m.cached])).toEqual([
      [0, 24],
      [0, 24],
    ]);

    const out = join(dir, 'scores.jsonl');
    expect(arbiter(['export', '--project', 'S', '--format', 'scores', '--out', out, '--db', db]).code).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(48);
    const outcome = lines.filter((l) => l.model === 'demo-outcome');
    const processLines = lines.filter((l) => l.model === 'demo-process');
    expect(outcome.every((l) => typeof l.reward === 'number' && l.step_scores === null && l.provider === 'cpu')).toBe(true);
    expect(processLines.every((l) => Array.isArray(l.step_scores) && l.step_scores.length >= 1)).toBe(true);
    expect(new Set(lines.map((l) => `${l.item_uid}/${l.response}/${l.model}`)).size).toBe(48);
  });

  it('refuses a folder that is not a model, naming what is missing, and adds nothing', () => {
    const dir = tempDir();
    const db = join(dir, 'a.db');
    arbiter(['import', writePairs(dir, 2), '--project', 'S', '--db', db]);
    const notAModel = join(dir, 'empty-model');
    mkdirSync(notAModel);
    writeFileSync(join(notAModel, 'tokenizer.json'), '{}');
    const refused = arbiter(['score', '--project', 'S', '--model', notAModel, '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/model\.onnx/);
    expect(JSON.parse(arbiter(['models', '--json', '--db', db]).stdout)).toEqual([]);
  });
});

describe('scoring jobs in the service', () => {
  it('runs in a worker with progress events, then serves pre-labels computed from the rewards', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 'a.db');
    const db = openDb(dbPath);
    await importFile(db, { path: writePairs(dir, 30), project: 'J', createProject: true });
    const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'a' });
    // The browser host reads model folders from `models` beside the database, by name.
    cpSync(OUTCOME, join(dir, 'models', 'demo-outcome'), { recursive: true });
    cpSync(PROCESS, join(dir, 'models', 'demo-process'), { recursive: true });
    const description = await service.dispatch('inspectModel', { dir: 'demo-outcome' });
    expect(description).toMatchObject({ kind: 'outcome' });
    await service.dispatch('addModel', { dir: 'demo-outcome' });
    await service.dispatch('addModel', { dir: 'demo-process' });
    const events: JobInfo[] = [];
    service.events.on('event', (e: { type: string; job?: JobInfo }) => e.type === 'job' && events.push(e.job!));
    const job = await service.dispatch('startScoring', { project: 'J', provider: 'cpu', batchSize: 8 });
    expect(job.state).toBe('running');
    await expect(service.dispatch('startScoring', { project: 'J' })).rejects.toThrow(/already being scored/);
    await service.jobs.settle();
    const [finished] = await service.dispatch('listJobs', {});
    expect(finished).toMatchObject({ id: job.id, state: 'done' });
    expect(events.some((e) => e.progress && e.progress.done > 0)).toBe(true);
    expect(events.at(-1)?.state).toBe('done');

    const item = (await service.dispatch('nextItem', { project: 'J', annotator: 'a' }))!;
    const prelabels = await service.dispatch('prelabels', { project: 'J', itemId: item.id });
    expect(prelabels.models.map((m) => m.name).sort()).toEqual(['demo-outcome', 'demo-process']);
    for (const model of prelabels.models) {
      const [a, b] = model.rewards as number[];
      expect(model.pAB).toBeCloseTo(sigmoid(a! - b!), 10);
      expect(model.vote).toBe(model.pAB! > 0.5 ? 'A' : model.pAB! < 0.5 ? 'B' : 'tie');
    }
    const pabs = prelabels.models.map((m) => m.pAB!);
    const mean = pabs.reduce((s, p) => s + p, 0) / pabs.length;
    expect(prelabels.ensemble!.mean).toBeCloseTo(mean, 10);
    const processModel = prelabels.models.find((m) => m.kind === 'process')!;
    expect(processModel.steps![0]!.length).toBeGreaterThanOrEqual(1);
    db.close();
  });
});
