// Datasets: import (preview, run as a job), the items table, export (as a job), project figures.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ApiOutputs } from '../../../shared/api';
import { previewHead } from '../formats/index';
import { exportsDir } from '../paths';
import { listItemRows } from '../store/itemList';
import * as projects from '../store/projects';
import { projectStats } from '../store/stats';
import { runTask } from '../tasks/run';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireProject } from './guards';

type DatasetOps = 'previewImport' | 'importContent' | 'listItems' | 'exportProject' | 'stats';

export function datasetsHandlers({ db, jobs, events, options }: ServiceContext): FeatureHandlers<DatasetOps> {
  return {
    previewImport: ({ head, format }) => previewHead(head, format),
    importContent: async ({ project, fileName, content, format, skipInvalid, createProject }) => {
      if (createProject) projects.ensureProject(db, project);
      else requireProject(db, project);
      const sha256 = createHash('sha256').update(content).digest('hex');
      // A worker with its own connection does the work; this thread only awaits it.
      const task = { kind: 'import' as const, project, fileName, content, sha256, format, skipInvalid };
      return jobs.runTask({
        dbPath: options.dbPath,
        task,
        inline: (hooks) => runTask(db, task, hooks) as Promise<ApiOutputs['importContent']>,
        onProgress: (progress) => {
          if ('linesRead' in progress) events.emit('event', { type: 'import', project, linesRead: progress.linesRead });
        },
      });
    },
    listItems: ({ project, afterSeq, offset, limit, annotator }) => listItemRows(db, requireProject(db, project).id, { afterSeq, offset, limit }, annotator),
    exportProject: ({ project, format, out, annotator }) => {
      requireProject(db, project);
      const target = out ?? join(exportsDir(), `${project.replace(/[^\w.-]+/g, '_')}-${format}-${Date.now()}.jsonl`);
      const task = { kind: 'export' as const, project, format, out: target, annotator };
      return jobs.runTask({
        dbPath: options.dbPath,
        task,
        inline: (hooks) => runTask(db, task, hooks) as Promise<ApiOutputs['exportProject']>,
      });
    },
    stats: ({ project }) => projectStats(db, requireProject(db, project)),
  };
}
