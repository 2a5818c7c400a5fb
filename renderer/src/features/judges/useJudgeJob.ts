// The newest judge job of a project, kept current from the host's job events, with a slow poll while
// one runs (an event stream can drop or start late). The page never waits on a run.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobInfo } from '../../../../shared/api';
import { api, subscribeEvents } from '../../api';

const POLL_MS = 1000;

export function useJudgeJob(project: string): { job: JobInfo | null; track(job: JobInfo): void } {
  const [job, setJob] = useState<JobInfo | null>(null);
  const current = useRef<JobInfo | null>(null);
  const track = useCallback(
    (incoming: JobInfo) => {
      if (incoming.kind !== 'judge' || incoming.project !== project) return;
      const known = current.current;
      if (known && known.id === incoming.id && known.state !== 'running' && incoming.state === 'running') return;
      if (known && known.id !== incoming.id && incoming.startedAt < known.startedAt) return;
      current.current = incoming;
      setJob(incoming);
    },
    [project],
  );
  useEffect(() => {
    const refresh = () =>
      api
        .listJobs({})
        .then((list) => [...list].reverse().forEach(track))
        .catch(() => undefined);
    refresh();
    const off = subscribeEvents((event) => {
      if (event.type === 'job' && event.job) track(event.job as JobInfo);
    });
    const timer = setInterval(() => {
      if (current.current?.state === 'running') refresh();
    }, POLL_MS);
    return () => {
      off();
      clearInterval(timer);
    };
  }, [track]);
  return { job, track };
}
