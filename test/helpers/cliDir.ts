// A temporary folder for one test file, removed after it, and `arbiter` run in-process on a database in
// it: what the tests that drive the command line (and Python after it) share.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { runCli } from '../../electron/cli/main';

export interface CliDir {
  /** The folder (set in beforeAll). */
  readonly dir: string;
  /** Runs `arbiter …args --db <dir>/arbiter.db`, expects exit code 0 (the message holds stderr), returns stdout lines. */
  cli(args: string[]): Promise<string[]>;
}

export function useCliDir(prefix: string): CliDir {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    get dir() {
      return dir;
    },
    async cli(args) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli([...args, '--db', join(dir, 'arbiter.db')], { out: (l) => out.push(l), err: (l) => err.push(l), ask: async () => 'no' });
      expect(code, `arbiter ${args.join(' ')}\n${err.join('\n')}`).toBe(0);
      return out;
    },
  };
}
