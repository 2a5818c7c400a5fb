// Starts a score job in a worker thread and gives back its result promise and a cancel switch.
import { ArbiterError } from '../base/errors';
import { startWorker } from '../base/workers';
import type { ScoreJobOptions, ScoreJobResult, ScoreProgress } from './types';
import type { WorkerInput, WorkerMessage } from './workerProtocol';

export interface ScoreJobHandle {
  promise: Promise<ScoreJobResult>;
  /** Asks the job to stop after the batch in flight; the promise then resolves with cancelled: true. */
  cancel(): void;
}

/** If a cancelled job has not stopped by then (a huge batch on a slow CPU), the thread is ended. */
const CANCEL_GRACE_MS = 30_000;

export function startScoreJob(options: ScoreJobOptions & { onProgress?: (progress: ScoreProgress) => void }): ScoreJobHandle {
  const { onProgress, ...jobOptions } = options;
  const cancelFlag = new SharedArrayBuffer(4);
  const workerData: WorkerInput = { options: jobOptions, cancelFlag };
  const worker = startWorker('scorer/worker.ts', 'scorer-worker.mjs', workerData);
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
