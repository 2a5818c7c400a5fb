// The project's team hub status, kept live from the host's events: a 'team' event (connected, a sync
// started or ended, a failure) reads it again at once; a save ('label') moves the waiting count, read
// again a moment later (one read for a burst of saves). A clock tick keeps "12 s ago" and the retry
// countdown current.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TeamStatus } from '../../../../shared/api';
import { api, errorMessage, subscribeEvents } from '../../api';

const AFTER_SAVE_MS = 400;
const TICK_MS = 5000;

export interface TeamState {
  status: TeamStatus | null;
  error: string | null;
  reload(): void;
  /** Grows with each 'team' event that pulled something (the review figures may have moved). */
  pulls: number;
  now: number;
}

export function useTeamStatus(project: string, annotator?: string): TeamState {
  const [status, setStatus] = useState<TeamStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pulls, setPulls] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const run = useRef(0);

  const reload = useCallback(() => {
    const id = ++run.current;
    api
      .teamStatus({ project, ...(annotator ? { annotator } : {}) })
      .then((s) => {
        if (id !== run.current) return;
        setStatus(s);
        setError(null);
      })
      .catch((e) => id === run.current && setError(errorMessage(e)));
  }, [project, annotator]);

  useEffect(() => {
    reload();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const unsubscribe = subscribeEvents((event) => {
      if (event.project !== project) return;
      if (event.type === 'team') {
        if ((typeof event.pulled === 'number' && event.pulled > 0) || (typeof event.items === 'number' && event.items > 0)) setPulls((n) => n + 1);
        reload();
      } else if (event.type === 'label' && !timer) {
        timer = setTimeout(() => {
          timer = null;
          reload();
        }, AFTER_SAVE_MS);
      }
    });
    const tick = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => {
      unsubscribe();
      clearInterval(tick);
      if (timer) clearTimeout(timer);
    };
  }, [project, reload]);

  return { status, error, reload, pulls, now };
}

/** "just now", "12 s ago", "3 min ago", "2 h ago", else the date. */
export function agoWords(iso: string | null, now: number): string {
  if (!iso) return 'never';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return new Date(iso).toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** "in 8 s", "in 2 min". */
export function inWords(iso: string | null, now: number): string {
  if (!iso) return '';
  const s = Math.max(0, Math.round((new Date(iso).getTime() - now) / 1000));
  return s < 60 ? `in ${s} s` : `in ${Math.round(s / 60)} min`;
}
