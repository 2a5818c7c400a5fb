// Step saves in the background, as the compare screen saves labels: each save waits in localStorage
// (the outbox) until the host confirms it, is retried while the host cannot be reached, and is sent
// again after a reload. Saves of one item go strictly in order; a save that a newer one of the same
// response overtook while waiting is not sent (each save holds the whole judgement, so nothing is lost).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LabelRevision } from '../../../../shared/domain';
import { api, errorMessage, isRetryable } from '../../api';
import type { SaveInput } from './judgement';

export type SaveState = 'saving' | 'saved' | 'failed';

/** The status line: what was last done, in words, and whether it is on disk. */
export interface Status {
  id: number;
  text: string;
  itemNumber: number | null;
  state: SaveState | 'info';
  error?: string;
  retryInMs?: number;
}

interface Pending {
  key: string;
  input: SaveInput;
  words: string;
  itemNumber: number;
}

const OUTBOX_KEY = 'arbiter.pendingSteps';

function readOutbox(): Pending[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(OUTBOX_KEY) ?? '[]') as Pending[];
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}
function writeOutbox(list: Pending[]): void {
  if (list.length) localStorage.setItem(OUTBOX_KEY, JSON.stringify(list));
  else localStorage.removeItem(OUTBOX_KEY);
}
const sameResponse = (a: SaveInput, b: SaveInput) =>
  a.project === b.project && a.annotator === b.annotator && a.itemId === b.itemId && a.response === b.response;

/** Waits, unless "retry now" wakes every waiting save first. */
const sleep = (ms: number, wakers: Set<() => void>) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      wakers.delete(done);
      resolve();
    }
    wakers.add(done);
  });

export function useStepsOutbox(project: string, annotator: string, onSaved?: (saved: LabelRevision, input: SaveInput) => void) {
  const [status, setStatus] = useState<Status | null>(null);
  const [unsaved, setUnsaved] = useState(0);
  const seq = useRef(0);
  const chains = useRef(new Map<number, Promise<unknown>>());
  const waiting = useRef(new Map<string, number>());
  const wakers = useRef(new Set<() => void>());
  const alive = useRef(true);
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const say = useCallback((s: Omit<Status, 'id'>) => {
    const id = ++seq.current;
    setStatus({ ...s, id });
    return id;
  }, []);
  const update = useCallback((id: number, patch: Partial<Status>) => {
    setStatus((s) => (s && s.id === id ? { ...s, ...patch } : s));
  }, []);

  const track = useCallback((key: string, on: boolean) => {
    if (on) waiting.current.set(key, 1);
    else waiting.current.delete(key);
    setUnsaved(waiting.current.size);
  }, []);

  /** Runs one item's writes strictly in order (saves, then a split or merge…). */
  const enqueue = useCallback(<T,>(itemId: number, op: () => Promise<T>): Promise<T> => {
    const before = chains.current.get(itemId) ?? Promise.resolve();
    const next = before.catch(() => undefined).then(op);
    chains.current.set(itemId, next);
    void next
      .finally(() => {
        if (chains.current.get(itemId) === next) chains.current.delete(itemId);
      })
      .catch(() => undefined);
    return next;
  }, []);

  const send = useCallback(
    (pending: Pending, statusId: number) =>
      enqueue(pending.input.itemId, async () => {
        const { key, input, words, itemNumber } = pending;
        for (let attempt = 1; ; attempt++) {
          const box = readOutbox();
          const mine = box.findIndex((p) => p.key === key);
          // A newer save of the same response is queued behind this one: it carries this change too.
          if (mine >= 0 && box.slice(mine + 1).some((p) => sameResponse(p.input, input))) {
            writeOutbox(box.filter((p) => p.key !== key));
            track(key, false);
            return null;
          }
          try {
            const saved = await api.saveSteps(input);
            writeOutbox(readOutbox().filter((p) => p.key !== key));
            track(key, false);
            update(statusId, { state: 'saved', error: undefined, retryInMs: undefined });
            if (alive.current) onSavedRef.current?.(saved, input);
            return saved;
          } catch (error) {
            if (!isRetryable(error)) {
              // Refused for a reason retrying cannot fix (the steps changed since, say): loud, and not kept.
              writeOutbox(readOutbox().filter((p) => p.key !== key));
              track(key, false);
              setStatus({ id: ++seq.current, text: words, itemNumber, state: 'failed', error: errorMessage(error) });
              throw error;
            }
            const delay = Math.min(15_000, 500 * 2 ** Math.min(attempt - 1, 5));
            setStatus({ id: statusId, text: words, itemNumber, state: 'failed', error: errorMessage(error), retryInMs: delay });
            await sleep(delay, wakers.current);
            if (!alive.current) return null; // the screen closed: the save stays in the outbox for next time
            update(statusId, { state: 'saving', retryInMs: undefined });
          }
        }
      }),
    [enqueue, track, update],
  );

  /** Saves one judgement in the background; the returned promise settles when the host has it (or refused it). */
  const save = useCallback(
    (input: SaveInput, words: string, itemNumber: number) => {
      const key = `${input.id ?? ''}\u0000${Date.now()}\u0000${Math.random()}`;
      const pending: Pending = { key, input, words, itemNumber };
      writeOutbox([...readOutbox(), pending]);
      track(key, true);
      const statusId = say({ text: words, itemNumber, state: 'saving' });
      return send(pending, statusId);
    },
    [say, send, track],
  );

  /** Replays saves a previous session could not confirm (the page was closed or the host was down). */
  useEffect(() => {
    const mine = readOutbox().filter((p) => p.input.project === project && p.input.annotator === annotator);
    for (const p of mine) {
      track(p.key, true);
      void send(p, say({ text: p.words, itemNumber: p.itemNumber, state: 'saving' })).catch(() => undefined);
    }
  }, [project, annotator, send, say, track]);

  /** The newest save still waiting for this response, if any (shown over what the host answered). */
  const pendingFor = useCallback(
    (itemId: number, response: number): SaveInput | null => {
      const box = readOutbox().filter((p) => p.input.project === project && p.input.annotator === annotator && p.input.itemId === itemId && p.input.response === response);
      return box.length ? box[box.length - 1]!.input : null;
    },
    [project, annotator],
  );

  const retryNow = useCallback(() => {
    for (const wake of [...wakers.current]) wake();
  }, []);

  return { status, say, update, unsaved, save, enqueue, pendingFor, retryNow };
}
