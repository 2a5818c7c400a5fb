// Messages between the host's thread and a task worker (./worker.ts): one import or export per worker.
import type { ApiErrorShape, ApiOutputs } from '../../../shared/api';
import type { ExportFormat, ImportFormat, RankingPairs } from '../../../shared/formatNames';
import type { LabelsImportResult } from '../formats/exchange/labels';
import type { SyncSummary } from '../hub/sync';
import type { ItemPart, PeoplePart, ReviewPart } from '../review/itemFacts';
import type { EvaluationFigures } from '../review/evaluation/engine';
import type { Review } from '../review/report';
import type { ShapeCounts } from '../store/items';

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
      /** Make the project (hidden until the import completes) when there is none of that name. */
      createProject?: boolean;
      /** The folder the file's relative image paths are read from (text sent by a page has no folder of its own). */
      imagesDir?: string;
    }
  | {
      kind: 'importFile';
      project: string;
      /** The file on disk (an upload the service keeps in its uploads folder). */
      path: string;
      /** The name people know the file by, for FILE:LINE messages. */
      fileName: string;
      format: 'auto' | ImportFormat;
      skipInvalid: boolean;
      createProject: boolean;
      /** The folder the file's relative image paths are read from (an upload has no folder of its own). */
      imagesDir?: string;
    }
  | { kind: 'export'; project: string; format: ExportFormat; out: string; annotator?: string; neutral?: boolean; rankingPairs?: RankingPairs; fromRatings?: boolean; adjudicatedOnly?: boolean; minAgreement?: number; images?: 'refuse' | 'drop'; items?: number[] }
  /** Folds the WAL into the database on the worker's own connection, off the annotator's path. */
  | { kind: 'checkpoint' }
  /** Merges a teammate's labels file into a project. */
  | { kind: 'mergeLabels'; project: string; path: string; fileName: string }
  /** Agreement, consensus and the disagreement queues of a project (one read transaction). */
  | { kind: 'review'; project: string }
  /** People, models and judges measured on a project's gold (review/evaluation/engine.ts), off the thread that answers saves. */
  | { kind: 'evaluate'; project: string }
  /** The "most uncertain first" labeling order of a project: item ids. */
  | { kind: 'uncertainOrder'; project: string }
  /** How many items of each shape the project has (each screen's total). */
  | { kind: 'shapeCounts'; project: string }
  /** The items explorer's facts of a large project, one part (review/itemFacts.ts), off the thread that answers saves. */
  | { kind: 'itemFacts'; project: string; part: 'items' | 'people' | 'review'; n: number }
  /** One sync of a project with its team hub (core/hub/sync.ts), off the thread that answers saves. */
  | { kind: 'hubSync'; project: string; url: string; password?: string };

export type TaskResult<T extends Task> = T extends { kind: 'hubSync' }
  ? SyncSummary
  : T extends { kind: 'import' | 'importFile' }
  ? ApiOutputs['importContent']
  : T extends { kind: 'checkpoint' }
    ? null
    : T extends { kind: 'mergeLabels' }
      ? LabelsImportResult
      : T extends { kind: 'review' }
      ? Review
      : T extends { kind: 'evaluate' }
      ? EvaluationFigures
      : T extends { kind: 'uncertainOrder' }
        ? Int32Array
        : T extends { kind: 'shapeCounts' }
          ? ShapeCounts
          : T extends { kind: 'itemFacts' }
            ? ItemPart | PeoplePart | ReviewPart
            : ApiOutputs['exportProject'];

export interface TaskWorkerInput {
  dbPath: string;
  task: Task;
  /** Int32 flag: set to 1 to ask the task to stop at the next chunk (import) or item (export). */
  cancelFlag: SharedArrayBuffer;
}

export type TaskProgress = { linesRead: number; total: number | null } | { written: number; read: number };

export type TaskWorkerMessage =
  | { type: 'progress'; progress: TaskProgress }
  | { type: 'done'; result: ApiOutputs['importContent'] | ApiOutputs['exportProject'] | Review | EvaluationFigures | Int32Array | LabelsImportResult | ShapeCounts | SyncSummary | ItemPart | PeoplePart | ReviewPart | null }
  | { type: 'error'; error: ApiErrorShape };
