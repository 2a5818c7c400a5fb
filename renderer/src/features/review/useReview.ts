// The review screen's reads: the report (a job on the host, cached there until labels change), the
// queue of one task with its filters, and the filters themselves, kept for the session so that coming
// back from an item finds the queue as it was left.
import { useCallback, useEffect, useRef, useState } from 'react';
import { QUEUE_REASONS, REVIEW_TASKS, type QueueReason, type QueueRow, type ReviewReport, type ReviewTask } from '../../../../shared/api';
import { api, errorMessage } from '../../api';

export interface QueueFilters {
  task: ReviewTask;
  reason: QueueReason | 'all';
  hideAdjudicated: boolean;
}

const filtersKey = (project: string) => `arbiter.review.${project}`;

/** The queue filters of a project for this session (the task comes from the address when it names one). */
export function readFilters(project: string): QueueFilters {
  try {
    const saved = JSON.parse(sessionStorage.getItem(filtersKey(project)) ?? '{}') as Partial<QueueFilters>;
    return {
      task: REVIEW_TASKS.includes(saved.task!) ? saved.task! : 'pairwise',
      reason: saved.reason === 'all' || QUEUE_REASONS.includes(saved.reason as QueueReason) ? saved.reason! : 'all',
      hideAdjudicated: saved.hideAdjudicated === true,
    };
  } catch {
    return { task: 'pairwise', reason: 'all', hideAdjudicated: false };
  }
}

export function saveFilters(project: string, filters: QueueFilters): void {
  sessionStorage.setItem(filtersKey(project), JSON.stringify(filters));
}

/** The row the queue had selected, so that Esc from an item comes back to it. */
const selectedKey = (project: string) => `arbiter.review.${project}.selected`;
export const readSelected = (project: string): number | null => Number(sessionStorage.getItem(selectedKey(project))) || null;
export const saveSelected = (project: string, itemId: number) => sessionStorage.setItem(selectedKey(project), String(itemId));

const PAGE = 500;

export interface QueueState {
  rows: QueueRow[];
  total: number | null;
  error: string | null;
  loading: boolean;
  /** Asks for the next page when the selection nears the end of what is loaded. */
  more(): void;
}

/** The disagreement queue of one task, most disputed first, a page of 500 at a time. */
export function useQueue(project: string, filters: QueueFilters, version: number): QueueState {
  // The rows are kept while the same list is read again (a new version: no flicker), but never shown under
  // other filters: after t, r or h the old task's rows are gone at once, so Enter cannot open one of them.
  const [list, setList] = useState<{ key: string; rows: QueueRow[]; total: number | null }>({ key: '', rows: [], total: null });
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const asked = useRef(0);
  const { task, reason, hideAdjudicated } = filters;
  const key = `${project}\u0000${task}\u0000${reason}\u0000${hideAdjudicated}`;
  const rows = list.key === key ? list.rows : NO_ROWS;
  const total = list.key === key ? list.total : null;

  useEffect(() => {
    let live = true;
    setLoading(true);
    setError(null);
    asked.current = 0;
    api
      .reviewQueue({ project, task, reason: reason === 'all' ? undefined : reason, includeAdjudicated: !hideAdjudicated, limit: PAGE })
      .then((page) => {
        if (live) setList({ key, rows: page.rows, total: page.total });
      })
      .catch((e) => live && setError(errorMessage(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [project, task, reason, hideAdjudicated, version, key]);

  const more = useCallback(() => {
    if (total === null || rows.length >= total || asked.current >= rows.length + PAGE) return;
    asked.current = rows.length + PAGE;
    const offset = rows.length;
    api
      .reviewQueue({ project, task, reason: reason === 'all' ? undefined : reason, includeAdjudicated: !hideAdjudicated, offset, limit: PAGE })
      .then((page) => setList((known) => (known.key === key && known.rows.length === offset ? { ...known, rows: [...known.rows, ...page.rows] } : known)))
      .catch((e) => setError(errorMessage(e)));
  }, [project, task, reason, hideAdjudicated, rows.length, total, key]);

  return { rows, total, error, loading: loading || list.key !== key, more };
}

const NO_ROWS: QueueRow[] = [];

export interface ReportState {
  report: ReviewReport | null;
  error: string | null;
  /** The host is computing the figures (a job on a task worker). */
  computing: boolean;
  recompute(): void;
  /** Reads the report again (after an adjudication: the host computes it only if labels changed). */
  reload(): void;
}

export function useReport(project: string): ReportState {
  const [report, setReport] = useState<ReviewReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [computing, setComputing] = useState(true);
  const run = useRef(0);

  const load = useCallback(
    (refresh: boolean) => {
      const id = ++run.current;
      setComputing(true);
      setError(null);
      api
        .reviewReport({ project, refresh })
        .then((r) => id === run.current && setReport(r))
        .catch((e) => id === run.current && setError(errorMessage(e)))
        .finally(() => id === run.current && setComputing(false));
    },
    [project],
  );

  useEffect(() => load(false), [load]);
  const recompute = useCallback(() => load(true), [load]);
  const reload = useCallback(() => load(false), [load]);
  return { report, error, computing, recompute, reload };
}
