// Messages between a score job's worker thread and the thread that started it.
import type { ApiErrorShape } from '../../../shared/api';
import type { ScoreJobOptions, ScoreJobResult, ScoreProgress } from './types';

export interface WorkerInput {
  options: ScoreJobOptions;
  /** Int32 flag: set to 1 to ask the job to stop after the batch in flight. */
  cancelFlag: SharedArrayBuffer;
}

export type WorkerMessage =
  | { type: 'progress'; progress: ScoreProgress }
  | { type: 'done'; result: ScoreJobResult }
  | { type: 'error'; error: ApiErrorShape };
