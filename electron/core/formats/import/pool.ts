// Starts the import worker and hands it chunks; results come back in the order asked. Any failure to
// start or run it is reported to the caller, which then prepares on its own thread: the worker only
// makes an import faster, never different.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ImportFormat } from '../../../../shared/formatNames';
import type { ImageSources } from '../../images/resolve';
import type { Chunk } from '../sources/chunk';
import type { ChunkResult } from './prepare';
import type { ImportWorkerData, ImportWorkerMessage, PrepareRequest } from './protocol';

function currentFile(): string {
  if (typeof __filename === 'string' && __filename) return __filename;
  return fileURLToPath(import.meta.url);
}

/**
 * worker.ts beside this file when running from source (started through tsx's tsImport, since a worker
 * does not inherit the parent's loader hooks on Node 20), else the bundled import-worker.mjs beside the
 * bundle; null when neither can be started.
 */
function workerScript(): { source: string; eval: boolean } | null {
  const here = currentFile();
  if (here.endsWith('.ts')) {
    try {
      const api = createRequire(here).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs');
      const url = JSON.stringify(pathToFileURL(join(dirname(here), 'worker.ts')).href);
      const source = `import(${JSON.stringify(pathToFileURL(api).href)}).then((tsx) => tsx.tsImport(${url}, ${url}))` + '.catch((e) => { process.nextTick(() => { throw e; }); });';
      return { source, eval: true };
    } catch {
      return null;
    }
  }
  const built = join(dirname(here), 'import-worker.mjs');
  return existsSync(built) ? { source: built, eval: false } : null;
}

interface Pending {
  resolve: (result: ChunkResult) => void;
  reject: (error: Error) => void;
}

export class ImportWorker {
  private ready = false;
  private failed = false;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private settleReady: (ready: boolean) => void = () => undefined;
  /** Resolves true once the worker has loaded, false if it stops first. */
  readonly whenReady = new Promise<boolean>((resolve) => (this.settleReady = resolve));

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: ImportWorkerMessage) => {
      if (message.type === 'ready') {
        this.ready = true;
        this.settleReady(true);
        return;
      }
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.type === 'result') pending.resolve(message.result);
      else pending.reject(new Error(message.message));
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the import worker stopped (exit code ${code})`)));
  }

  /** Starts a worker for one import; null where none can run. */
  static start(format: ImportFormat, images: ImageSources): ImportWorker | null {
    const script = workerScript();
    if (!script) return null;
    try {
      const workerData: ImportWorkerData = { format, images };
      return new ImportWorker(new Worker(script.source, { eval: script.eval, workerData }));
    } catch {
      return null;
    }
  }

  /** Whether it has loaded and can take chunks now. */
  get available(): boolean {
    return this.ready && !this.failed;
  }

  prepareChunk(chunk: Chunk, first: boolean, validateOnly: boolean): Promise<ChunkResult> {
    if (this.failed) return Promise.reject(new Error('the import worker has stopped'));
    const id = this.nextId++;
    const request: PrepareRequest = { id, chunk, first, validateOnly };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  close(): void {
    this.failed = true;
    this.settleReady(false);
    this.pending.clear();
    this.worker.removeAllListeners();
    // An error event after this point must not be unhandled.
    this.worker.on('error', () => undefined);
    void this.worker.terminate();
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.settleReady(false);
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
