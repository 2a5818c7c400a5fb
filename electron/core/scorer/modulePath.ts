// Where this code runs from: a .ts file (tsx, vitest) or a bundle in out/ (CommonJS from esbuild,
// where import.meta.url is empty and __filename is the bundle).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function currentModuleFile(): string {
  if (typeof __filename === 'string' && __filename) return __filename;
  return fileURLToPath(import.meta.url);
}

/**
 * The worker_threads entry: worker.ts beside this file when running from source, otherwise the
 * bundled scorer-worker.mjs beside the bundle. `isTypeScript` says whether it needs tsx to load.
 */
export function workerEntryPath(): { path: string; isTypeScript: boolean } {
  const here = currentModuleFile();
  const dir = dirname(here);
  if (here.endsWith('.ts')) return { path: join(dir, 'worker.ts'), isTypeScript: true };
  const built = join(dir, 'scorer-worker.mjs');
  if (!existsSync(built)) throw new Error(`The scoring worker is missing: expected ${built} beside the program`);
  return { path: built, isTypeScript: false };
}
