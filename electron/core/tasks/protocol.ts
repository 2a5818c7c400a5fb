// Messages between the host's thread and a task worker (./worker.ts): one import or export per worker.
import type { ApiErrorShape, ApiOutputs } from '../../../shared/api';
import type { ExportFormat, ImportFormat } from '../../../shared/formatNames';

export type Task =
  | {
      kind: 'import';
      project: string;
      fileName: string;
      /** The file's whole text; the worker splits it into lines. */
      content: string;
      sha256: string;
      format: 'auto' | ImportFormat;
      skipInvalid: boolean;
    }
  | { kind: 'export'; project: string; format: ExportFormat; out: string; annotator?: string };

export type TaskResult<T extends Task> = T extends { kind: 'import' } ? ApiOutputs['importContent'] : ApiOutputs['exportProject'];

export interface TaskWorkerInput {
  dbPath: string;
  task: Task;
  /** Int32 flag: set to 1 to ask the task to stop at the next chunk (import) or item (export). */
  cancelFlag: SharedArrayBuffer;
}

export type TaskProgress = { linesRead: number; total: number } | { written: number; read: number };

export type TaskWorkerMessage =
  | { type: 'progress'; progress: TaskProgress }
  | { type: 'done'; result: ApiOutputs['importContent'] | ApiOutputs['exportProject'] }
  | { type: 'error'; error: ApiErrorShape };
