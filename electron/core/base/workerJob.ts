// One client for a job in a worker thread, the one a scoring job (scorer/jobClient.ts) and an import,
// export or other task (tasks/client.ts) both start through: the worker gets a cancel flag (an Int32 the
// job reads between batches), its progress is passed on, and the promise settles once, with the worker's
// result, its error, or what the job says of a worker that failed or ended before answering.
import type { ApiErrorShape } from '../../../shared/api';
import { ArbiterError } from './errors';
import { startWorker } from './workers';

/** What a job's worker sends: progress, its result, or its error. */
export type WorkerJobMessage<P, R> = { type: 'progress'; progress: P } | { type: 'done'; result: R } | { type: 'error'; error: ApiErrorShape };

export interface WorkerJobHandle<R> {
  promise: Promise<R>;
  /** Asks the job to stop (it reads the flag between batches, chunks or items). */
  cancel(): void;
}

export interface WorkerJob<R> {
  /** The worker's source file under electron/core, and its bundled name (base/workers.ts startWorker). */
  source: string;
  bundle: string;
  /** What the worker is given beside the cancel flag. */
  input: object;
  onProgress?: (progress: never) => void;
  /** Its worker's answer of an error, as the job throws it. */
  error?: (error: ApiErrorShape) => Error;
  /** The job's name in the sentence of a worker that failed or stopped ("the scoring worker"). */
  what: string;
  /** A worker that ended before answering after a cancel: the job's result then (a scoring job's cancelled: true), else it is an error. */
  cancelled?: () => R;
  /** Whether a worker that answered is left to end by itself (an import still checkpoints the WAL after it answers). */
  leaveWhenDone?: boolean;
  /** After a cancel, how long the job may take to stop before its thread is ended; unset: it is left to stop. */
  cancelGraceMs?: number;
}

export function startWorkerJob<R>(job: WorkerJob<R>): WorkerJobHandle<R> {
  const cancelFlag = new SharedArrayBuffer(4);
  const worker = startWorker(job.source, job.bundle, { ...job.input, cancelFlag });
  const onProgress = job.onProgress as ((progress: unknown) => void) | undefined;
  let settled = false;
  let killTimer: NodeJS.Timeout | null = null;
  const promise = new Promise<R>((resolve, reject) => {
    const finish = (fn: () => void, stop = true) => {
      if (settled) return;
      settled = true;
      if (killTimer) clearTimeout(killTimer);
      fn();
      if (stop) void worker.terminate();
    };
    worker.on('message', (message: WorkerJobMessage<unknown, R>) => {
      if (message.type === 'progress') onProgress?.(message.progress);
      else if (message.type === 'done') finish(() => resolve(message.result), !job.leaveWhenDone);
      else finish(() => reject(job.error ? job.error(message.error) : new ArbiterError(message.error.code, message.error.message, message.error.details)));
    });
    worker.on('error', (error) => finish(() => reject(new ArbiterError('internal', `The ${job.what} failed: ${error.message}`))));
    worker.on('exit', (code) => {
      const cancelled = job.cancelled && Atomics.load(new Int32Array(cancelFlag), 0) !== 0;
      if (cancelled) finish(() => resolve(job.cancelled!()));
      else finish(() => reject(new ArbiterError('internal', `The ${job.what} stopped unexpectedly (exit code ${code})`)));
    });
  });
  return {
    promise,
    cancel() {
      Atomics.store(new Int32Array(cancelFlag), 0, 1);
      if (job.cancelGraceMs !== undefined && !settled && !killTimer) {
        killTimer = setTimeout(() => void worker.terminate(), job.cancelGraceMs);
        killTimer.unref();
      }
    },
  };
}
