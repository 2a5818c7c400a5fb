// Starts an import or export in a task worker and gives back its result promise and a cancel switch (the
// one worker-job client: base/workerJob.ts).
import type { LineError } from '../../../shared/domain';
import { ArbiterError, InvalidFileError } from '../base/errors';
import { startWorkerJob } from '../base/workerJob';
import type { Task, TaskProgress, TaskResult, TaskWorkerInput } from './protocol';

export interface TaskHandle<T extends Task> {
  promise: Promise<TaskResult<T>>;
  /** Asks the task to stop at its next chunk (import: rolled back) or item (export: no file left). */
  cancel(): void;
}

/** Throws (synchronously) if the worker cannot be started, e.g. its bundled file is missing. */
export function startTask<T extends Task>(dbPath: string, task: T, onProgress?: (progress: TaskProgress) => void): TaskHandle<T> {
  if (dbPath === ':memory:' || dbPath === '') throw new Error('an in-memory database cannot be opened by another thread');
  const input: Omit<TaskWorkerInput, 'cancelFlag'> = { dbPath, task };
  return startWorkerJob<TaskResult<T>>({
    source: 'tasks/worker.ts',
    bundle: 'task-worker.mjs',
    input,
    onProgress,
    error: (error) => rebuildError(task, error),
    what: `${task.kind} worker`,
    // On success the worker is left to end by itself: after an import it still checkpoints the WAL in
    // the background (see worker.ts). On failure it is stopped at once.
    leaveWhenDone: true,
  });
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
