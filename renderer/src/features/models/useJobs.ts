// Score jobs as the host reports them: the newest job of each project, kept current from the host's
// job events, with a slow poll as a fallback while one runs (an event stream can drop or start late).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobInfo } from '../../../../shared/api';
import { api, subscribeEvents } from '../../api';

const POLL_MS = 2000;

/** Whether `incoming` should replace `known` as what we show for its project. */
function newer(known: JobInfo | undefined, incoming: JobInfo): boolean {
  if (!known) return true;
  if (known.id !== incoming.id) return incoming.startedAt >= known.startedAt;
  // A late "running" snapshot (the answer to startScoring, a poll) must not undo a finished state.
  if (known.state !== 'running' && incoming.state === 'running') return false;
  return true;
}

export interface Jobs {
  /** The newest job per project. */
  byProject: ReadonlyMap<string, JobInfo>;
  /** Counts jobs that have finished (done, cancelled or failed) since the app opened: new scores may exist. */
  finished: number;
  track(job: JobInfo): void;
}

export function useJobs(): Jobs {
  const [byProject, setByProject] = useState<ReadonlyMap<string, JobInfo>>(new Map());
  const [finished, setFinished] = useState(0);
  const current = useRef(byProject);

  const track = useCallback((job: JobInfo) => {
    // Imports and exports run as jobs too; their own panels follow them.
    if (job.kind !== 'score') return;
    const known = current.current.get(job.project);
    if (!newer(known, job)) return;
    if (known?.id === job.id && known.state === 'running' && job.state !== 'running') setFinished((n) => n + 1);
    const next = new Map(current.current);
    next.set(job.project, job);
    current.current = next;
    setByProject(next);
  }, []);

  const refresh = useCallback(() => {
    api
      .listJobs({})
      .then((list) => {
        // Oldest first, so the newest of each project ends up kept.
        for (const job of [...list].reverse()) track(job);
      })
      .catch(() => {
        /* the next poll or event will do */
      });
  }, [track]);

  useEffect(() => {
    const unsubscribe = subscribeEvents((event) => {
      if (event.type === 'job' && event.job && typeof event.job === 'object') track(event.job as JobInfo);
    });
    refresh();
    return unsubscribe;
  }, [track, refresh]);

  const running = [...byProject.values()].some((j) => j.state === 'running');
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [running, refresh]);

  return { byProject, finished, track };
}
