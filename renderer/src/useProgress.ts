// The header's labeled count. It moves at the key, not after the save and a second round trip for
// the counters: each label write counts at once, and the counters the host keeps are read again once
// no write is in flight, so a fast run never shows a figure one or two saves behind. A screen that does
// not count its writes (steps, rubric ratings) is counted as its save lands: the host's label event of
// the project has the counters read again.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, subscribeEvents } from './api';
import type { Task } from '../../shared/domain';
import type { Progress } from './context';

/** `task`: the judgement the screen makes (each task has its own counters). */
export function useProgress(project: string | null, annotator: string, task: Task = 'pairwise') {
  const [progress, setProgress] = useState<Progress | null>(null);
  // Writes are counted per project and annotator: another project's figures start afresh.
  const key = `${project}\u0000${annotator}\u0000${task}`;
  const writes = useRef({ key, inFlight: 0, started: 0 });
  const request = useRef(0);
  const writesNow = useCallback(() => {
    if (writes.current.key !== key) writes.current = { key, inFlight: 0, started: 0 };
    return writes.current;
  }, [key]);

  /** Re-reads the counters; an answer that a newer write or read overtook is dropped. */
  const refreshProgress = useCallback(() => {
    if (!project || !annotator || writes.current.inFlight > 0) return;
    const mine = ++request.current;
    const startedBefore = writes.current.started;
    api
      .progress({ project, annotator, task })
      .then((answer) => {
        if (mine !== request.current || startedBefore !== writes.current.started) return;
        // The same figures the key counted already: the same object, so the header does not render again.
        setProgress((p) => (p && p.labeled === answer.labeledByMe && p.total === answer.total ? p : { labeled: answer.labeledByMe, total: answer.total }));
      })
      .catch(() => {
        /* the header keeps the last figures; screens report their own errors */
      });
  }, [project, annotator, task]);

  /** Counts a label write now (+1 for an item that had no label); call what it returns once the write settles. */
  const countLabelWrite = useCallback(
    (delta: number) => {
      const counted = writesNow();
      counted.inFlight++;
      counted.started++;
      if (delta) setProgress((p) => (p ? { ...p, labeled: Math.min(p.total, Math.max(0, p.labeled + delta)) } : p));
      let settled = false;
      return () => {
        if (settled) return;
        settled = true;
        counted.inFlight--;
        if (counted === writes.current) refreshProgress();
      };
    },
    [refreshProgress, writesNow],
  );

  useEffect(() => {
    setProgress(null);
    writesNow();
    refreshProgress();
  }, [writesNow, refreshProgress]);

  // Any label saved in this project (from any screen or task) may move the figures: read them again.
  useEffect(() => {
    if (!project) return;
    return subscribeEvents((event) => {
      if (event.type === 'label' && event.project === project) refreshProgress();
    });
  }, [project, refreshProgress]);

  return { progress, refreshProgress, countLabelWrite };
}
