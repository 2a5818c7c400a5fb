// Starts a score job in a worker thread and gives back its result promise and a cancel switch.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ArbiterError } from '../errors';
import { currentModuleFile, workerEntryPath } from './modulePath';
import type { ScoreJobOptions, ScoreJobResult, ScoreProgress } from './types';
import type { WorkerInput, WorkerMessage } from './workerProtocol';

export interface ScoreJobHandle {
  promise: Promise<ScoreJobResult>;
  /** Asks the job to stop after the batch in flight; the promise then resolves with cancelled: true. */
  cancel(): void;
}

/** If a cancelled job has not stopped by then (a huge batch on a slow CPU), the thread is ended. */
const CANCEL_GRACE_MS = 30_000;

/**
 * Source runs (tests, `node --import tsx`) start the .ts worker through tsx's tsImport: a worker does
 * not inherit the parent's loader hooks, and `execArgv: ['--import', 'tsx']` does not apply them to
 * the entry file on Node 20.
 */
function tsxBootstrap(workerPath: string): string {
  const api = createRequire(currentModuleFile()).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs');
  const url = JSON.stringify(pathToFileURL(workerPath).href);
  return `import(${JSON.stringify(pathToFileURL(api).href)}).then((tsx) => tsx.tsImport(${url}, ${url}))` + '.catch((e) => { process.nextTick(() => { throw e; }); });';
}

export function startScoreJob(options: ScoreJobOptions & { onProgress?: (progress: ScoreProgress) => void }): ScoreJobHandle {
  const { onProgress, ...jobOptions } = options;
  const cancelFlag = new SharedArrayBuffer(4);
  const entry = workerEntryPath();
  const workerData: WorkerInput = { options: jobOptions, cancelFlag };
  const worker = entry.isTypeScript ? new Worker(tsxBootstrap(entry.path), { eval: true, workerData }) : new Worker(entry.path, { workerData });
  let settled = false;
  let killTimer: NodeJS.Timeout | null = null;
  const promise = new Promise<ScoreJobResult>((resolve, reject) => {
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      if (killTimer) clearTimeout(killTimer);
      fn();
      void worker.terminate();
    };
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') onProgress?.(message.progress);
      else if (message.type === 'done') finish(() => resolve(message.result));
      else finish(() => reject(new ArbiterError(message.error.code, message.error.message, message.error.details)));
    });
    worker.on('error', (error) => finish(() => reject(new ArbiterError('internal', `The scoring worker failed: ${error.message}`))));
    worker.on('exit', (code) => {
      const cancelled = Atomics.load(new Int32Array(cancelFlag), 0) !== 0;
      if (cancelled) finish(() => resolve({ project: jobOptions.project, cancelled: true, models: [] }));
      else finish(() => reject(new ArbiterError('internal', `The scoring worker stopped unexpectedly (exit code ${code})`)));
    });
  });
  return {
    promise,
    cancel() {
      Atomics.store(new Int32Array(cancelFlag), 0, 1);
      if (!settled && !killTimer) {
        killTimer = setTimeout(() => void worker.terminate(), CANCEL_GRACE_MS);
        killTimer.unref();
      }
    },
  };
}
