// What an import or export task does, on whichever connection it is given: in a task worker (./worker.ts)
// normally, or on the host's own thread when no worker can start.
import type { ApiOutputs } from '../../../shared/api';
import { readFile, rm } from 'node:fs/promises';
import { exportProject, importFile, importLabelsLines, importLines } from '../formats/index';
import type { LabelsImportResult } from '../formats/exchange/labels';
import { syncProject, type SyncSummary } from '../hub/sync';
import { readLines } from '../formats/jsonl';
import { readItemPart, readPeoplePart, readReviewPart, type ItemPart, type PeoplePart, type ReviewPart } from '../review/itemFacts';
import { uncertaintyOrder } from '../review/priority';
import type { EvaluationFigures } from '../review/evaluation/engine';
import { evaluateFigures } from '../review/evaluation/inputs';
import { buildReview, type Review } from '../review/report';
import { visibleItemIds, type ShapeCounts } from '../store/items';
import { projectShapes } from '../store/shapes';
import { modelPairRewards } from '../store/review';
import { checkpoint, type Db } from '../store/db';
import { requireProject } from '../store/projects';
import type { Task, TaskProgress } from './protocol';

export interface TaskHooks {
  onProgress?: (progress: TaskProgress) => void;
  isCancelled?: () => boolean;
}

export async function runTask(db: Db, task: Task, hooks: TaskHooks = {}): Promise<ApiOutputs['importContent'] | ApiOutputs['exportProject'] | Review | EvaluationFigures | Int32Array | LabelsImportResult | ShapeCounts | SyncSummary | ItemPart | PeoplePart | ReviewPart | null> {
  if (task.kind === 'hubSync') return syncProject(db, { project: task.project, url: task.url, password: task.password, isCancelled: hooks.isCancelled });
  if (task.kind === 'checkpoint') {
    checkpoint(db);
    return null;
  }
  if (task.kind === 'review') return buildReview(db, requireProject(db, task.project));
  if (task.kind === 'evaluate') return evaluateFigures(db, requireProject(db, task.project).id);
  if (task.kind === 'mergeLabels')
    return importLabelsLines(db, { project: task.project, fileName: task.fileName, lines: () => readLines(task.path, task.fileName), onProgress: (linesRead) => hooks.onProgress?.({ linesRead, total: null }), isCancelled: hooks.isCancelled });
  if (task.kind === 'shapeCounts') return projectShapes(db, requireProject(db, task.project).id);
  if (task.kind === 'itemFacts') {
    const project = requireProject(db, task.project);
    return task.part === 'items' ? readItemPart(db, project.id) : task.part === 'people' ? readPeoplePart(db, project.id, task.n) : readReviewPart(db, project, task.n);
  }
  if (task.kind === 'uncertainOrder') {
    const project = requireProject(db, task.project);
    return db.transaction(() => uncertaintyOrder(visibleItemIds(db, project.id), modelPairRewards(db, project.id))).deferred();
  }
  if (task.kind === 'importFile') {
    const summary = await importFile(db, {
      path: task.path,
      displayName: task.fileName,
      project: task.project,
      format: task.format,
      skipInvalid: task.skipInvalid,
      createProject: task.createProject,
      onProgress: (linesRead) => hooks.onProgress?.({ linesRead, total: null }),
      isCancelled: hooks.isCancelled,
      // The upload's copy sits in the uploads folder, with no images beside it.
      imagesDir: task.imagesDir ?? null,
      fileDir: null,
    });
    const { errors, formatReason: _reason, ...rest } = summary;
    // The rejected lines come back as text for the UI to offer as a download; the file beside the upload goes.
    let rejects: string | null = null;
    if (summary.rejectsFile) {
      rejects = await readFile(summary.rejectsFile, 'utf8');
      await rm(summary.rejectsFile, { force: true });
    }
    return { ...rest, file: task.fileName, rejectsFile: null, errors, rejects };
  }
  if (task.kind === 'export') {
    return exportProject(db, {
      project: task.project,
      format: task.format,
      out: task.out,
      annotator: task.annotator,
      neutral: task.neutral,
      rankingPairs: task.rankingPairs,
      fromRatings: task.fromRatings,
      adjudicatedOnly: task.adjudicatedOnly,
      minAgreement: task.minAgreement,
      images: task.images,
      items: task.items ? new Set(task.items) : undefined,
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
    createProject: task.createProject,
    onProgress: (linesRead) => hooks.onProgress?.({ linesRead, total: lines.length }),
    isCancelled: hooks.isCancelled,
    imagesDir: task.imagesDir ?? null,
  });
  return { ...summary, errors, rejects: rejects.length ? rejects.join('\n') + '\n' : null };
}
