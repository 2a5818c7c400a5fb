// What an import or export task does, on whichever connection it is given: in a task worker (./worker.ts)
// normally, or on the host's own thread when no worker can start.
import type { ApiOutputs } from '../../../shared/api';
import { exportProject, importLines } from '../formats/index';
import type { Db } from '../store/db';
import type { Task, TaskProgress } from './protocol';

export interface TaskHooks {
  onProgress?: (progress: TaskProgress) => void;
  isCancelled?: () => boolean;
}

export async function runTask(db: Db, task: Task, hooks: TaskHooks = {}): Promise<ApiOutputs['importContent'] | ApiOutputs['exportProject']> {
  if (task.kind === 'export') {
    return exportProject(db, {
      project: task.project,
      format: task.format,
      out: task.out,
      annotator: task.annotator,
      onProgress: (written, read) => hooks.onProgress?.({ written, read }),
      isCancelled: hooks.isCancelled,
    });
  }
  const lines = task.content.split(/\r?\n/);
  const { summary, errors, rejects } = await importLines(db, {
    project: task.project,
    fileName: task.fileName,
    lines,
    sha256: task.sha256,
    format: task.format,
    skipInvalid: task.skipInvalid,
    onProgress: (linesRead) => hooks.onProgress?.({ linesRead, total: lines.length }),
    isCancelled: hooks.isCancelled,
  });
  return { ...summary, errors, rejects: rejects.length ? rejects.join('\n') + '\n' : null };
}
