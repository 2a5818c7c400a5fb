// The search index of a database upgraded to it (migration 12) is built in the background, as a job with
// progress: short steps on this thread (store/searchIndex.ts buildSearchIndex: ~20 ms each, the write lock
// tried, never waited for), with the event loop free between them, so the app answers meanwhile and a
// save goes first. What a step wrote is committed with how far the build came, so a killed app resumes
// where it stopped the next time it opens the database.
import { buildSearchIndex, searchBuildState } from '../store/searchIndex';
import type { ServiceContext } from './context';

/** The pause between steps, and after a step found the write lock taken. */
const BETWEEN_MS = 5;
const BUSY_MS = 50;

/** Starts the build when the database has items not indexed yet; returns how to stop it. */
export function startSearchBuild(context: Pick<ServiceContext, 'db' | 'jobs'>, options: { maxItems?: number; maxMs?: number } = {}): { stop: () => void; finished: Promise<void> } {
  const { db } = context;
  const first = searchBuildState(db);
  if (!first) return { stop: () => undefined, finished: Promise.resolve() };
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let settle = () => undefined as void;
  const job = context.jobs.track(
    'index',
    '',
    () => {
      stopped = true;
    },
    first,
  );
  const finished = new Promise<void>((resolve) => {
    settle = resolve;
    const step = () => {
      timer = null;
      if (stopped || !db.open) {
        job.end('cancelled');
        resolve();
        return;
      }
      let state: ReturnType<typeof buildSearchIndex>;
      try {
        state = buildSearchIndex(db, options);
      } catch (error) {
        job.end('failed', error instanceof Error ? error.message : String(error));
        resolve();
        return;
      }
      if (state === null) {
        job.progress(first.total, first.total);
        job.end('done');
        resolve();
        return;
      }
      if (state !== 'busy') job.progress(state.done, state.total);
      timer = setTimeout(step, state === 'busy' ? BUSY_MS : BETWEEN_MS);
      timer.unref?.();
    };
    timer = setTimeout(step, BETWEEN_MS);
    timer.unref?.();
  });
  return {
    stop: () => {
      stopped = true;
      if (timer) {
        clearTimeout(timer);
        timer = null;
        job.end('cancelled');
        settle();
      }
    },
    finished,
  };
}
