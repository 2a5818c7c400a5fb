// node-llama-cpp installs offline and runs without building or downloading anything: its install script
// (which would fall back to downloading and compiling llama.cpp) is denied in allowScripts, the lock file
// names every platform package it lists (npm ci refuses a lock missing one, and the registry this project
// is built against serves only the Linux ones), and llama.cpp loads from the prebuilt CPU binary.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/host';

describe('node-llama-cpp install', () => {
  it('its install script is denied, and the lock file names each of its platform packages', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
    expect(pkg.allowScripts?.['node-llama-cpp']).toBe(false);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { optionalDependencies?: Record<string, string>; version?: string }> };
    const listed = Object.keys(lock.packages['node_modules/node-llama-cpp']!.optionalDependencies ?? {});
    expect(listed.length).toBeGreaterThan(5);
    const missing = listed.filter((name) => !lock.packages[`node_modules/${name}`]);
    expect(missing, 'npm ci fails on a lock file missing an optional platform package').toEqual([]);
  });

  it('loads llama.cpp from the prebuilt CPU binary, building nothing', () => {
    const script = "import('node-llama-cpp').then(async ({ getLlama, LlamaLogLevel }) => { const l = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error }); console.log(JSON.stringify({ type: l.buildType, gpu: l.gpu })); await l.dispose(); })";
    const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(run.stdout.trim() || '{}'), run.stderr).toEqual({ type: 'prebuilt', gpu: false });
  });
});
