// Starts an import or export in a task worker and gives back its result promise and a cancel switch.
import type { LineError } from '../../../shared/domain';
import { ArbiterError, InvalidFileError } from '../base/errors';
import { startWorker } from '../base/workers';
import type { Task, TaskProgress, TaskResult, TaskWorkerInput, TaskWorkerMessage } from './protocol';

export interface TaskHandle<T extends Task> {
  promise: Promise<TaskResult<T>>;
  /** Asks the task to stop at its next chunk (import: rolled back) or item (export: no file left). */
  cancel(): void;
}

/** Throws (synchronously) if the worker cannot be started, e.g. its bundled file is missing. */
export function startTask<T extends Task>(dbPath: string, task: T, onProgress?: (progress: TaskProgress) => void): TaskHandle<T> {
  if (dbPath === ':memory:' || dbPath === '') throw new Error('an in-memory database cannot be opened by another thread');
  const cancelFlag = new SharedArrayBuffer(4);
  const workerData: TaskWorkerInput = { dbPath, task, cancelFlag };
  const worker = startWorker('tasks/worker.ts', 'task-worker.mjs', workerData);
  let settled = false;
  const promise = new Promise<TaskResult<T>>((resolve, reject) => {
    // On success the worker is left to end by itself: after an import it still checkpoints the WAL in
    // the background (see worker.ts). On failure it is stopped at once.
    const finish = (fn: () => void, stop = true) => {
      if (settled) return;
      settled = true;
      fn();
      if (stop) void worker.terminate();
    };
    worker.on('message', (message: TaskWorkerMessage) => {
      if (message.type === 'progress') onProgress?.(message.progress);
      else if (message.type === 'done') finish(() => resolve(message.result as TaskResult<T>), false);
      else finish(() => reject(rebuildError(task, message.error)));
    });
    worker.on('error', (error) => finish(() => reject(new ArbiterError('internal', `The ${task.kind} worker failed: ${error.message}`))));
    worker.on('exit', (code) => finish(() => reject(new ArbiterError('internal', `The ${task.kind} worker stopped unexpectedly (exit code ${code})`))));
  });
  return {
    promise,
    cancel() {
      Atomics.store(new Int32Array(cancelFlag), 0, 1);
    },
  };
}

/** The worker's error as the inline call would have thrown it (an invalid file keeps its lines). */
function rebuildError(task: Task, error: { code: ArbiterError['code']; message: string; details?: unknown }): ArbiterError {
  if (task.kind === 'import' && error.code === 'invalid_file' && Array.isArray(error.details)) return new InvalidFileError(task.fileName, error.details as LineError[]);
  return new ArbiterError(error.code, error.message, error.details);
}

/** Whether an error is a task stopping at the user's request. */
export function isCancelled(error: unknown): boolean {
  return error instanceof ArbiterError && typeof error.details === 'object' && error.details !== null && (error.details as { cancelled?: unknown }).cancelled === true;
}
