// One worker-job client (issue 21, section 3): a scoring job and an import / export task start their
// worker threads through base/workerJob.ts, which alone settles a job's promise, passes its progress on
// and handles a cancel; no other file starts a worker of its own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sources(full, out);
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

describe('the worker-job client', () => {
  it('is the only place a job starts a worker thread', () => {
    const starting = sources(join(ROOT, 'electron'))
      .filter((file) => /(?<!function )\bstartWorker\((?!\))/.test(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')))
      .map((file) => relative(ROOT, file))
      .sort();
    // The backup copy (store/backups.ts) is no job: one answer, no progress, no cancel.
    expect(starting).toEqual([join('electron', 'core', 'base', 'workerJob.ts'), join('electron', 'core', 'store', 'backups.ts')]);
    for (const client of ['scorer/jobClient.ts', 'tasks/client.ts']) expect(readFileSync(join(ROOT, 'electron', 'core', client), 'utf8'), client).toMatch(/\bstartWorkerJob\b/);
  });
});
