// The CLI's start-up loads no native module it does not use: onnxruntime-node and sharp (~200 ms of an
// `arbiter stats` on a busy machine, docs/benchmarks.md) load on first use, through base/native.ts; pg
// (bundled) with the first hub connection (hub/connect.ts).
// Run in a child process (a fresh module cache) through tsx, as the sources run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const url = (path: string) => pathToFileURL(join(root, path)).href;

/** The native packages in the child's module cache after running `script` (an ES module body). */
function loadedAfter(script: string): string[] {
  const probe = `
    import { createRequire } from 'node:module';
    ${script}
    const cache = Object.keys(createRequire(import.meta.url).cache);
    const names = ['onnxruntime-node', 'pg', 'sharp'].filter((n) => cache.some((p) => p.includes('/node_modules/' + n + '/')));
    console.log(JSON.stringify(names));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as string[];
}

describe('native modules load on first use', () => {
  it('the whole CLI (every command module) loads none of onnxruntime-node, pg and sharp', () => {
    expect(loadedAfter(`await import(${JSON.stringify(url('electron/cli/main.ts'))});`)).toEqual([]);
  });

  it('they load when asked for, and are the packages themselves', () => {
    const script = `
      const native = await import(${JSON.stringify(url('electron/core/base/native.ts'))});
      if (typeof native.onnxRuntime().InferenceSession?.create !== 'function') throw new Error('no onnxruntime');
      if (typeof native.sharpModule() !== 'function') throw new Error('no sharp');`;
    expect(loadedAfter(script).sort()).toEqual(['onnxruntime-node', 'sharp']);
  });
});
