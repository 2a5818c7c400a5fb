// Runs one of test/python's check scripts with the TRL venv's Python, datasets' cache in the test's own
// folder, and says what it printed when it fails. The script prints "<what> checks: N of N passed".
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';

export function runPythonChecks(python: string, script: string, args: string[], workDir: string, passed: string): { stdout: string } {
  const run = spawnSync(python, [script, ...args], {
    cwd: join(__dirname, '..', '..'),
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, HF_HOME: join(workDir, 'hf'), OMP_NUM_THREADS: '2', PYTHONDONTWRITEBYTECODE: '1' },
  });
  const said = `${run.stdout}\n${run.stderr}`;
  expect(run.error, said).toBeUndefined();
  expect(run.status, said).toBe(0);
  expect(run.stdout, said).toContain(passed);
  return { stdout: run.stdout };
}
