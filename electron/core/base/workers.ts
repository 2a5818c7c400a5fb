// Starts a worker_threads worker, from TypeScript source or from the bundle. Source runs (tests,
// `node --import tsx`) start the .ts entry through tsx's tsImport: a worker does not inherit the
// parent's loader hooks, and `execArgv: ['--import', 'tsx']` does not apply them to the entry file on
// Node 20. Bundled runs start `<builtName>` beside the bundle (scripts/build.mjs puts every worker there).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** This code's own file: a .ts file (tsx, vitest) or a bundle in out/ (CommonJS: import.meta.url is empty). */
export function currentModuleFile(): string {
  if (typeof __filename === 'string' && __filename) return __filename;
  return fileURLToPath(import.meta.url);
}

/**
 * Where a worker's entry is: `sourceFile` (relative to electron/core, e.g. 'scorer/worker.ts') when
 * running from source, otherwise `<builtName>` beside the bundle. `isTypeScript`: it needs tsx to load.
 */
export function workerEntry(sourceFile: string, builtName: string): { path: string; isTypeScript: boolean } {
  const here = currentModuleFile();
  const dir = dirname(here);
  // This file lives in electron/core/base/; sourceFile is relative to electron/core.
  if (here.endsWith('.ts')) return { path: join(dir, '..', sourceFile), isTypeScript: true };
  const built = join(dir, builtName);
  if (!existsSync(built)) throw new Error(`A worker is missing: expected ${built} beside the program`);
  return { path: built, isTypeScript: false };
}

function tsxBootstrap(workerPath: string): string {
  const api = createRequire(currentModuleFile()).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs');
  const url = JSON.stringify(pathToFileURL(workerPath).href);
  return `import(${JSON.stringify(pathToFileURL(api).href)}).then((tsx) => tsx.tsImport(${url}, ${url}))` + '.catch((e) => { process.nextTick(() => { throw e; }); });';
}

/** Starts the worker; throws (synchronously) when its entry cannot be found. */
export function startWorker(sourceFile: string, builtName: string, workerData: unknown): Worker {
  const entry = workerEntry(sourceFile, builtName);
  return entry.isTypeScript ? new Worker(tsxBootstrap(entry.path), { eval: true, workerData }) : new Worker(entry.path, { workerData });
}
