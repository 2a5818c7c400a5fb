// An import run as a job (a worker with its own connection, or inline where there is none), its lines read
// told to the pages as `import` events: how the page's text, an upload and a dataset folder are imported.
import type { ApiOutputs } from '../../../shared/api';
import type { Task } from '../tasks/protocol';
import { runTask } from '../tasks/run';
import type { ServiceContext } from './context';

export function runImportTask({ db, jobs, events, options }: ServiceContext, task: Extract<Task, { kind: 'import' | 'importFile' }>): Promise<ApiOutputs['importContent']> {
  return jobs.runTask({
    dbPath: options.dbPath,
    task,
    inline: (hooks) => runTask(db, task, hooks) as Promise<ApiOutputs['importContent']>,
    onProgress: (progress) => {
      if ('linesRead' in progress) events.emit('event', { type: 'import', project: task.project, linesRead: progress.linesRead });
    },
  });
}
