// Long work runs as a job in a worker thread: scoring (the annotator goes on labeling), and imports and
// exports (whose API calls await the job, so the host's thread stays free). The registry keeps each job's
// latest progress and outcome and announces every change on the service's events.
import type { EventEmitter } from 'node:events';
import type { JobInfo } from '../../../shared/api';
import { ArbiterError, notFound } from '../base/errors';
import { startScoreJob } from '../scorer/index';
import type { ScoreJobOptions } from '../scorer/index';
import { isCancelled, startTask } from './client';
import type { Task, TaskProgress, TaskResult } from './protocol';
import type { TaskHooks } from './run';
import type { JudgeRunProgress, JudgeRunSummary } from '../judge/run';
import { uuidv7 } from '../../../shared/ids';

/** The tasks people see as jobs (a checkpoint is housekeeping, started by the checkpointer). */
type JobTask = Exclude<Task, { kind: 'checkpoint' }>;

export interface TaskOptions<T extends JobTask> {
  dbPath: string;
  task: T;
  /** Runs the task on this thread instead, when no worker can start. */
  inline: (hooks: TaskHooks) => Promise<TaskResult<T>>;
  onProgress?: (progress: TaskProgress) => void;
}

/** How often progress events go out at most; a worker may report far more often. */
const PROGRESS_EVERY_MS = 200;

export class JobRegistry {
  private readonly jobs = new Map<string, { info: JobInfo; cancel: () => void }>();

  constructor(private readonly events: EventEmitter) {}

  list(): JobInfo[] {
    return [...this.jobs.values()].map((j) => j.info).sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1));
  }

  startScoring(options: ScoreJobOptions): JobInfo {
    const running = this.list().find((j) => j.kind === 'score' && j.state === 'running' && j.project === options.project);
    if (running) throw new ArbiterError('conflict', `Project "${options.project}" is already being scored (job ${running.id}); cancel it first.`);
    const info = newJob('score', options.project);
    const announceProgress = this.throttledAnnouncer(info);
    const handle = startScoreJob({
      ...options,
      onProgress: (progress) => {
        info.progress = progress;
        announceProgress(progress.phase === 'done');
      },
    });
    this.jobs.set(info.id, { info, cancel: handle.cancel });
    handle.promise.then(
      (result) => {
        info.result = result;
        info.state = result.cancelled ? 'cancelled' : 'done';
        info.finishedAt = new Date().toISOString();
        this.announce(info);
      },
      (error: unknown) => {
        info.state = 'failed';
        info.error = error instanceof Error ? error.message : String(error);
        info.finishedAt = new Date().toISOString();
        this.announce(info);
      },
    );
    this.announce(info);
    return info;
  }

  /**
   * Runs a judge over a project as a job on this thread: llama.cpp decodes on its own native threads and a
   * server answers over the network, so the thread only waits on promises. Cancel aborts the signal.
   */
  startJudging(project: string, run: (signal: AbortSignal, onProgress: (p: JudgeRunProgress) => void) => Promise<JudgeRunSummary>): JobInfo {
    const running = this.list().find((j) => j.kind === 'judge' && j.state === 'running' && j.project === project);
    if (running) throw new ArbiterError('conflict', `A judge is already running on project "${project}" (job ${running.id}); cancel it first.`);
    const info: JobInfo = { ...newJob('judge', project), done: 0, total: null, etaMs: null };
    const controller = new AbortController();
    const announceProgress = this.throttledAnnouncer(info);
    this.jobs.set(info.id, { info, cancel: () => controller.abort() });
    run(controller.signal, (p) => {
      info.done = p.done;
      info.total = p.total;
      info.etaMs = p.etaMs;
      announceProgress(p.done === p.total);
    }).then(
      (summary) => {
        info.judge = summary;
        info.state = summary.cancelled ? 'cancelled' : 'done';
      },
      (error: unknown) => {
        info.state = 'failed';
        info.error = error instanceof Error ? error.message : String(error);
      },
    ).finally(() => {
      info.finishedAt = new Date().toISOString();
      this.announce(info);
    });
    this.announce(info);
    return info;
  }

  /**
   * Runs an import or export as a job and resolves with its result; rejects with its error (cancelled:
   * a 'conflict' whose details say `cancelled: true`).
   */
  async runTask<T extends JobTask>(options: TaskOptions<T>): Promise<TaskResult<T>> {
    const { task } = options;
    const info: JobInfo = { ...newJob(task.kind === 'export' || task.kind === 'review' ? task.kind : task.kind === 'uncertainOrder' || task.kind === 'shapeCounts' || task.kind === 'itemFacts' || task.kind === 'evaluate' ? 'review' : 'import', task.project), done: 0, total: null, ...(task.kind === 'export' ? { written: 0 } : {}) };
    const announceProgress = this.throttledAnnouncer(info);
    const onProgress = (progress: TaskProgress) => {
      if ('linesRead' in progress) {
        info.done = progress.linesRead;
        info.total = progress.total;
      } else {
        info.done = progress.read;
        info.written = progress.written;
      }
      options.onProgress?.(progress);
      announceProgress();
    };
    let promise: Promise<TaskResult<T>>;
    let cancel: () => void;
    try {
      const handle = startTask(options.dbPath, task, onProgress);
      promise = handle.promise;
      cancel = handle.cancel;
    } catch (error) {
      console.warn(`arbiter: the ${task.kind} worker cannot start (${error instanceof Error ? error.message : String(error)}); running it on this thread.`);
      let cancelled = false;
      cancel = () => {
        cancelled = true;
      };
      promise = options.inline({ onProgress, isCancelled: () => cancelled });
    }
    this.jobs.set(info.id, { info, cancel });
    this.announce(info);
    try {
      const result = await promise;
      info.state = 'done';
      return result;
    } catch (error) {
      info.state = isCancelled(error) ? 'cancelled' : 'failed';
      info.error = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      info.finishedAt = new Date().toISOString();
      this.announce(info);
    }
  }

  /**
   * A job the caller runs itself, step by step on this thread (the search index's build after an
   * upgrade): it reports progress and its end through the handle, and `cancel` stops it.
   */
  track(kind: JobInfo['kind'], project: string, cancel: () => void, start: { done: number; total: number | null } = { done: 0, total: null }) {
    const info: JobInfo = { ...newJob(kind, project), ...start };
    const announceProgress = this.throttledAnnouncer(info);
    this.jobs.set(info.id, { info, cancel });
    this.announce(info);
    return {
      info,
      progress: (done: number, total: number) => {
        info.done = done;
        info.total = total;
        announceProgress();
      },
      end: (state: 'done' | 'failed' | 'cancelled', error?: string) => {
        info.state = state;
        info.error = error ?? null;
        info.finishedAt = new Date().toISOString();
        this.announce(info);
      },
    };
  }

  cancel(jobId: string): JobInfo {
    const job = this.jobs.get(jobId);
    if (!job) throw notFound(`No job ${jobId}.`);
    if (job.info.state === 'running') job.cancel();
    return job.info;
  }

  /** Waits for every running job (tests, and a clean shutdown). */
  async settle(): Promise<void> {
    while (this.list().some((j) => j.state === 'running')) await new Promise((r) => setTimeout(r, 50));
  }

  /** Announces a job's progress at most every PROGRESS_EVERY_MS, unless forced (its last report). */
  private throttledAnnouncer(info: JobInfo): (force?: boolean) => void {
    let lastSent = 0;
    return (force = false) => {
      const now = Date.now();
      if (!force && now - lastSent < PROGRESS_EVERY_MS) return;
      lastSent = now;
      this.announce(info);
    };
  }

  private announce(info: JobInfo): void {
    this.events.emit('event', { type: 'job', job: { ...info } });
  }
}

function newJob(kind: JobInfo['kind'], project: string): JobInfo {
  return {
    id: uuidv7(),
    kind,
    project,
    state: 'running',
    startedAt: new Date().toISOString(),
    finishedAt: null,
    progress: null,
    result: null,
    error: null,
  };
}
