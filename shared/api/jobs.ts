// Long work (import, export, scoring) as jobs with progress and cancel.
import { z } from 'zod';
import type { ScoreJobResult, ScoreProgress } from '../scoring';

export const jobsSchemas = {
  cancelJob: z.object({ jobId: z.string().min(1).max(100) }).strict(),
  listJobs: z.object({}).strict(),
} as const;

export interface JobInfo {
  id: string;
  /** score: startScoring; import, export: importContent and exportProject, whose calls await the job; index: the search index's build after an upgrade. */
  kind: 'score' | 'import' | 'export' | 'review' | 'index' | 'judge';
  project: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  startedAt: string;
  finishedAt: string | null;
  /** Score jobs only. */
  progress: ScoreProgress | null;
  /** Score jobs only; an import's or export's result is the answer to the call that started it. */
  result: ScoreJobResult | null;
  error: string | null;
  /** Import and export jobs: lines read (import) or items/revisions read (export) so far. */
  done?: number;
  /** Import: the content's line count; export: null (not counted ahead). */
  total?: number | null;
  /** Export jobs: lines written so far. */
  written?: number;
  /** Judge jobs: the estimated time left, from the pace so far (done and total count answers). */
  etaMs?: number | null;
  /** Judge jobs, once finished: what the run stored. */
  judge?: { runId: string; items: number; results: number; failed: number; skipped: number; tokens: number; ms: number; cancelled: boolean };
}

export interface JobsOutputs {
  cancelJob: JobInfo;
  listJobs: JobInfo[];
}
