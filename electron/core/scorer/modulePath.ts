// Where this code runs from: a .ts file (tsx, vitest) or a bundle in out/ (CommonJS from esbuild,
// where import.meta.url is empty and __filename is the bundle).
import { workerEntry } from '../base/workers';

export { currentModuleFile } from '../base/workers';

/**
 * The worker_threads entry: worker.ts beside this file when running from source, otherwise the
 * bundled scorer-worker.mjs beside the bundle. `isTypeScript` says whether it needs tsx to load.
 */
export function workerEntryPath(): { path: string; isTypeScript: boolean } {
  return workerEntry('scorer/worker.ts', 'scorer-worker.mjs');
}
