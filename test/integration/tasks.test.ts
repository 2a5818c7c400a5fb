// Imports and exports through the service run as jobs in a task worker with its own connection: same
// answers as the inline path, progress on job events, and cancellation that leaves nothing behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobInfo } from '../../shared/api';
import { ArbiterError } from '../../electron/core/base/errors';
import { exportProject } from '../../electron/core/formats';
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { tempDir } from '../helpers/tmp';

const FIXTURES = join(__dirname, '..', 'fixtures', 'formats');

function setup() {
  const dir = tempDir();
  // The service writes exports into <data dir>/exports; keep them in this test's folder.
  vi.stubEnv('ARBITER_HOME', dir);
  const dbPath = join(dir, 'arbiter.db');
  const db = openDb(dbPath);
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
  const jobEvents: JobInfo[] = [];
  service.events.on('event', (event: { type: string; job?: JobInfo }) => {
    if (event.type === 'job') jobEvents.push(event.job!);
  });
  return { dir, db, dbPath, service, jobEvents };
}

const counts = (db: ReturnType<typeof openDb>) => ({
  items: db.prepare('SELECT COUNT(*) FROM item').pluck().get(),
  labels: db.prepare('SELECT COUNT(*) FROM label').pluck().get(),
  imports: db.prepare('SELECT COUNT(*) FROM import_file').pluck().get(),
});

/** Short valid trl lines, each its own item. */
function manyLines(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(JSON.stringify({ prompt: `p${i}`, chosen: `c${i}`, rejected: `r${i}` }));
  return lines.join('\n') + '\n';
}

async function waitForJob(service: ArbiterService, kind: JobInfo['kind'], check: (job: JobInfo) => boolean = () => true): Promise<JobInfo> {
  for (let i = 0; i < 400; i++) {
    const job = (await service.dispatch('listJobs', {})).find((j) => j.kind === kind && check(j));
    if (job) return job;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no ${kind} job`);
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('import and export jobs', () => {
  it('importContent runs as an import job and answers as before', async () => {
    const { db, service, jobEvents } = setup();
    // The worker starts: no fallback to this thread.
    const warn = vi.spyOn(console, 'warn');
    const content = readFileSync(join(FIXTURES, 'trl.jsonl'), 'utf8');
    const summary = await service.dispatch('importContent', { project: 'p', fileName: 'trl.jsonl', content, createProject: true });
    expect(summary).toMatchObject({ project: 'p', format: 'trl', file: 'trl.jsonl', rejected: 0, errors: [], rejects: null });
    expect(summary.items).toBeGreaterThan(0);
    expect(counts(db).items).toBe(summary.items);
    const jobs = await service.dispatch('listJobs', {});
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ kind: 'import', project: 'p', state: 'done', error: null });
    expect(jobEvents[0]).toMatchObject({ kind: 'import', state: 'running' });
    expect(jobEvents.at(-1)).toMatchObject({ kind: 'import', state: 'done' });
    expect(warn).not.toHaveBeenCalled();
  });

  it('a malformed file still answers invalid_file with every line, and changes nothing', async () => {
    const { db, service } = setup();
    await service.dispatch('createProject', { name: 'p' });
    const content = readFileSync(join(FIXTURES, 'malformed.jsonl'), 'utf8');
    const error = await service.dispatch('importContent', { project: 'p', fileName: 'malformed.jsonl', content, format: 'trl' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArbiterError);
    expect((error as ArbiterError).code).toBe('invalid_file');
    const details = (error as ArbiterError).details as { line: number; reason: string }[];
    expect(Array.isArray(details)).toBe(true);
    expect(details.length).toBeGreaterThan(1);
    expect((error as ArbiterError).message).toBe(`${details.length} invalid line(s) in malformed.jsonl; nothing was imported.`);
    expect(counts(db)).toEqual({ items: 0, labels: 0, imports: 0 });
    expect((await service.dispatch('listJobs', {}))[0]).toMatchObject({ kind: 'import', state: 'failed' });
  });

  it('each screen counts only the items it walks: pairs, rankings, single responses; an import updates the counts', async () => {
    const { service } = setup();
    const shaped = (n: number, responses: number, tag: string) =>
      Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${tag}${i}`, prompt: `${tag} ${i}?`, responses: Array.from({ length: responses }, (_, r) => ({ text: `${tag} ${i} answer ${r}` })) }));
    const content = [...shaped(3, 2, 'pair'), ...shaped(2, 3, 'rank'), ...shaped(1, 1, 'one')].join('\n') + '\n';
    await service.dispatch('importContent', { project: 'p', fileName: 'mixed.jsonl', content, format: 'arbiter', createProject: true });
    const total = async (task: 'pairwise' | 'ranking' | 'verdict' | 'steps' | 'rubric') => (await service.dispatch('progress', { project: 'p', annotator: 'alice', task })).total;
    expect([await total('pairwise'), await total('ranking'), await total('verdict'), await total('steps'), await total('rubric')]).toEqual([3, 2, 1, 1, 6]);
    await service.dispatch('importContent', { project: 'p', fileName: 'more.jsonl', content: shaped(2, 2, 'more').join('\n') + '\n', format: 'arbiter' });
    expect(await total('pairwise')).toBe(5);
  });

  it('exportProject writes the same file as the inline export', async () => {
    const { db, dir, service } = setup();
    const content = readFileSync(join(FIXTURES, 'trl.jsonl'), 'utf8');
    await service.dispatch('importContent', { project: 'p', fileName: 'trl.jsonl', content, createProject: true });
    for (const format of ['trl', 'arbiter', 'labels'] as const) {
      const inline = join(dir, `inline-${format}.jsonl`);
      const summary = await service.dispatch('exportProject', { project: 'p', format });
      const expected = await exportProject(db, { project: 'p', format, out: inline });
      // The API answers the file's name in the exports folder, never a path.
      expect(summary).toEqual({ ...expected, out: expect.stringMatching(new RegExp(`^p-${format}-[\\w-]+\\.jsonl$`)) });
      expect(readFileSync(join(dir, 'exports', summary.out), 'utf8')).toBe(readFileSync(inline, 'utf8'));
    }
    const jobs = await service.dispatch('listJobs', {});
    expect(jobs.filter((j) => j.kind === 'export').map((j) => j.state)).toEqual(['done', 'done', 'done']);
  });

  it('cancelling a large import rolls it back and marks the job cancelled', async () => {
    const { db, service } = setup();
    await service.dispatch('importContent', { project: 'p', fileName: 'small.jsonl', content: manyLines(3), createProject: true });
    const before = counts(db);
    const call = service.dispatch('importContent', { project: 'p', fileName: 'big.jsonl', content: manyLines(200_000), format: 'trl' }).catch((e: unknown) => e);
    const job = await waitForJob(service, 'import', (j) => j.state === 'running');
    await service.dispatch('cancelJob', { jobId: job.id });
    const error = await call;
    expect(error).toBeInstanceOf(ArbiterError);
    expect((error as ArbiterError).message).toMatch(/cancelled/);
    expect((error as ArbiterError).details).toEqual({ cancelled: true });
    expect(counts(db)).toEqual(before);
    expect((await service.dispatch('listJobs', {})).find((j) => j.id === job.id)).toMatchObject({ state: 'cancelled' });
  }, 60_000);

  it('cancelling an export leaves no file', async () => {
    const { db, dir, service } = setup();
    await service.dispatch('importContent', { project: 'p', fileName: 'big.jsonl', content: manyLines(100_000), createProject: true });
    expect(counts(db).items).toBe(100_000);
    const call = service.dispatch('exportProject', { project: 'p', format: 'arbiter' }).catch((e: unknown) => e);
    const job = await waitForJob(service, 'export', (j) => j.state === 'running');
    await service.dispatch('cancelJob', { jobId: job.id });
    const error = await call;
    expect(error).toBeInstanceOf(ArbiterError);
    expect((error as ArbiterError).message).toMatch(/cancelled/);
    expect(existsSync(join(dir, 'exports')) ? readdirSync(join(dir, 'exports')) : []).toEqual([]);
    expect((await service.dispatch('listJobs', {})).find((j) => j.id === job.id)).toMatchObject({ state: 'cancelled' });
  }, 60_000);
});
