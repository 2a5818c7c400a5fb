// Starts a score job in a worker thread and gives back its result promise and a cancel switch (the one
// worker-job client: base/workerJob.ts).
import { startWorkerJob } from '../base/workerJob';
import type { ScoreJobOptions, ScoreJobResult, ScoreProgress } from './types';
import type { WorkerInput } from './workerProtocol';

export interface ScoreJobHandle {
  promise: Promise<ScoreJobResult>;
  /** Asks the job to stop after the batch in flight; the promise then resolves with cancelled: true. */
  cancel(): void;
}

/** If a cancelled job has not stopped by then (a huge batch on a slow CPU), the thread is ended. */
const CANCEL_GRACE_MS = 30_000;

export function startScoreJob(options: ScoreJobOptions & { onProgress?: (progress: ScoreProgress) => void }): ScoreJobHandle {
  const { onProgress, ...jobOptions } = options;
  const input: Omit<WorkerInput, 'cancelFlag'> = { options: jobOptions };
  return startWorkerJob<ScoreJobResult>({
    source: 'scorer/worker.ts',
    bundle: 'scorer-worker.mjs',
    input,
    onProgress,
    what: 'scoring worker',
    cancelled: () => ({ project: jobOptions.project, cancelled: true, models: [] }),
    cancelGraceMs: CANCEL_GRACE_MS,
  });
}
