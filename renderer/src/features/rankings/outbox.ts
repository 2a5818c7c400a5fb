// Ranking and verdict saves in the background, the way the compare screen saves labels: each save waits in
// localStorage (the outbox) until the host confirms it, is retried while the host cannot be reached, and
// is sent again after a reload. One item's saves go strictly in order. The revision id is made here
// (UUIDv7), so a save sent twice (an answer lost on the way back) is stored once.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiInput } from '../../../../shared/api';
import { api, errorMessage, isRetryable } from '../../api';

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

export type SaveRequest = { kind: 'ranking'; input: ApiInput<'saveRanking'> } | { kind: 'verdict'; input: ApiInput<'saveVerdict'> };

interface Pending {
  key: string;
  request: SaveRequest;
  words: string;
  itemNumber: number;
}

export const OUTBOX_KEY = 'arbiter.pendingRankings';

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

const send = (request: SaveRequest) => (request.kind === 'ranking' ? api.saveRanking(request.input) : api.saveVerdict(request.input));

export function useOutbox(project: string, annotator: string) {
  const [status, setStatus] = useState<Status | null>(null);
  const [unsaved, setUnsaved] = useState(0);
  const seq = useRef(0);
  const chains = useRef(new Map<number, Promise<unknown>>());
  /** Items with a save on its way, by outbox key. */
  const waiting = useRef(new Map<string, number>());
  const wakers = useRef(new Set<() => void>());
  const alive = useRef(true);

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
  /** Updates a status only if nothing newer replaced it. */
  const update = useCallback((id: number, patch: Partial<Status>) => {
    setStatus((s) => (s && s.id === id ? { ...s, ...patch } : s));
  }, []);

  const track = useCallback((key: string, itemId: number | null) => {
    if (itemId !== null) waiting.current.set(key, itemId);
    else waiting.current.delete(key);
    setUnsaved(waiting.current.size);
  }, []);

  /** Runs one item's writes strictly in order. */
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

  const deliver = useCallback(
    (pending: Pending, statusId: number) =>
      enqueue(pending.request.input.itemId, async () => {
        const { key, request, words, itemNumber } = pending;
        for (let attempt = 1; ; attempt++) {
          try {
            const saved = await send(request);
            writeOutbox(readOutbox().filter((p) => p.key !== key));
            track(key, null);
            update(statusId, { state: 'saved', error: undefined, retryInMs: undefined });
            return saved;
          } catch (error) {
            if (!isRetryable(error)) {
              // Refused for a reason retrying cannot fix: loud, and not kept.
              writeOutbox(readOutbox().filter((p) => p.key !== key));
              track(key, null);
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

  /** Saves in the background; the promise settles when the host has it (or refused it). */
  const save = useCallback(
    (request: SaveRequest, words: string, itemNumber: number) => {
      const key = `${request.input.id ?? ''}\u0000${Date.now()}\u0000${Math.random()}`;
      const pending: Pending = { key, request, words, itemNumber };
      writeOutbox([...readOutbox(), pending]);
      track(key, request.input.itemId);
      return deliver(pending, say({ text: words, itemNumber, state: 'saving' }));
    },
    [say, deliver, track],
  );

  /** Replays saves a previous session could not confirm (the page was closed or the host was down). */
  useEffect(() => {
    const mine = readOutbox().filter((p) => p.request.input.project === project && p.request.input.annotator === annotator);
    for (const p of mine) {
      track(p.key, p.request.input.itemId);
      void deliver(p, say({ text: p.words, itemNumber: p.itemNumber, state: 'saving' })).catch(() => undefined);
    }
  }, [project, annotator, deliver, say, track]);

  /** Whether a save of this item is still on its way. */
  const isPending = useCallback((itemId: number) => [...waiting.current.values()].includes(itemId), []);

  /** The newest save of this item still waiting in the outbox (shown over what the host answered). */
  const pendingFor = useCallback(
    (itemId: number): SaveRequest | null => {
      const box = readOutbox().filter((p) => p.request.input.project === project && p.request.input.annotator === annotator && p.request.input.itemId === itemId);
      return box.length ? box[box.length - 1]!.request : null;
    },
    [project, annotator],
  );

  /** Resolves once this item's queued writes are done (saved or refused). */
  const settled = useCallback((itemId: number) => (chains.current.get(itemId) ?? Promise.resolve()).then(
    () => undefined,
    () => undefined,
  ), []);

  const retryNow = useCallback(() => {
    for (const wake of [...wakers.current]) wake();
  }, []);

  return { status, say, update, unsaved, save, isPending, pendingFor, settled, retryNow };
}
