// Saves in the background, the way the compare screen saves labels: each save waits in localStorage (the
// outbox) until the host confirms it, is retried while the host cannot be reached, and is sent again after a
// reload. One item's saves go strictly in order. The revision id is made by the caller (UUIDv7), so a save
// sent twice (an answer lost on the way back) is stored once. Under the labeling loop's saves (Compare,
// Rank, Verdict and Steps: features/labeling/outbox.ts) and the ratings' and critiques'; each keeps its
// own storage key and the shape of what it stores.
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, isRetryable } from '../api';

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

/** Where a save belongs (read from the save itself). */
export interface SaveTarget {
  project: string;
  annotator: string;
  itemId: number;
  id?: string | null;
}

/** One save waiting in the outbox: the feature's own fields (P) plus the outbox's. */
export type Pending<P extends object> = P & { key: string; words: string; itemNumber: number };

export interface OutboxOptions<P extends object, R> {
  /** The localStorage key the outbox lives under. */
  storageKey: string;
  /** Where a save belongs. */
  target: (payload: P) => SaveTarget;
  /** Sends one save to the host. */
  send: (payload: P) => Promise<R>;
  /** Whether a newer queued save carries an older one's change too (then the older one is not sent). */
  supersedes?: (newer: P, older: P) => boolean;
  /** Called after the host confirmed a save, while the screen is open. */
  onSaved?: (saved: R, payload: P) => void;
  /** Told of each save a previous session left, as it is sent again (the screen counts it once it lands). */
  onReplay?: (delivery: Promise<unknown>) => void;
}

function readOutbox<P extends object>(storageKey: string): Pending<P>[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(storageKey) ?? '[]') as Pending<P>[];
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}
function writeOutbox<P extends object>(storageKey: string, list: Pending<P>[]): void {
  if (list.length) localStorage.setItem(storageKey, JSON.stringify(list));
  else localStorage.removeItem(storageKey);
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

export function useOutbox<P extends object, R>(project: string, annotator: string, options: OutboxOptions<P, R>) {
  const [status, setStatus] = useState<Status | null>(null);
  const [unsaved, setUnsaved] = useState(0);
  const seq = useRef(0);
  const chains = useRef(new Map<number, Promise<unknown>>());
  /** Items with a save on its way, by outbox key. */
  const waiting = useRef(new Map<string, number>());
  const wakers = useRef(new Set<() => void>());
  const alive = useRef(true);
  const opts = useRef(options);
  opts.current = options;
  const { storageKey } = options;

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

  const deliver = useCallback(
    (pending: Pending<P>, statusId: number) =>
      enqueue(opts.current.target(pending).itemId, async (): Promise<R | null> => {
        const { key, words, itemNumber } = pending;
        const drop = () => writeOutbox(storageKey, readOutbox<P>(storageKey).filter((p) => p.key !== key));
        for (let attempt = 1; ; attempt++) {
          const { supersedes } = opts.current;
          if (supersedes) {
            const box = readOutbox<P>(storageKey);
            const mine = box.findIndex((p) => p.key === key);
            // A newer save is queued behind this one that carries this change too.
            if (mine >= 0 && box.slice(mine + 1).some((p) => supersedes(p, pending))) {
              writeOutbox(storageKey, box.filter((p) => p.key !== key));
              track(key, null);
              return null;
            }
          }
          try {
            const saved = await opts.current.send(pending);
            drop();
            track(key, null);
            update(statusId, { state: 'saved', error: undefined, retryInMs: undefined });
            if (alive.current) opts.current.onSaved?.(saved, pending);
            return saved;
          } catch (error) {
            if (!isRetryable(error)) {
              // Refused for a reason retrying cannot fix: loud, and not kept.
              drop();
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
    [enqueue, track, update, storageKey],
  );

  /** Saves in the background; the promise settles when the host has it (or refused it). */
  const save = useCallback(
    (payload: P, words: string, itemNumber: number) => {
      const t = opts.current.target(payload);
      const key = `${t.id ?? ''}\u0000${Date.now()}\u0000${Math.random()}`;
      const pending = { ...payload, key, words, itemNumber } as Pending<P>;
      writeOutbox(storageKey, [...readOutbox<P>(storageKey), pending]);
      track(key, t.itemId);
      return deliver(pending, say({ text: words, itemNumber, state: 'saving' }));
    },
    [say, deliver, track, storageKey],
  );

  /** Replays saves a previous session could not confirm (the page was closed or the host was down). */
  useEffect(() => {
    const mine = readOutbox<P>(storageKey).filter((p) => {
      const t = opts.current.target(p);
      return t.project === project && t.annotator === annotator;
    });
    for (const p of mine) {
      track(p.key, opts.current.target(p).itemId);
      const delivery = deliver(p, say({ text: p.words, itemNumber: p.itemNumber, state: 'saving' }));
      opts.current.onReplay?.(delivery);
      void delivery.catch(() => undefined);
    }
  }, [project, annotator, deliver, say, track, storageKey]);

  /** Whether a save of this item is still on its way. */
  const isPending = useCallback((itemId: number) => [...waiting.current.values()].includes(itemId), []);

  /** The newest save of this item still waiting in the outbox that passes `match` (shown over what the host answered). */
  const pendingFor = useCallback(
    (itemId: number, match: (payload: P) => boolean = () => true): P | null => {
      const box = readOutbox<P>(storageKey).filter((p) => {
        const t = opts.current.target(p);
        return t.project === project && t.annotator === annotator && t.itemId === itemId && match(p);
      });
      return box.length ? box[box.length - 1]! : null;
    },
    [project, annotator, storageKey],
  );

  /** Resolves once this item's queued writes are done (saved or refused). */
  const settled = useCallback(
    (itemId: number) =>
      (chains.current.get(itemId) ?? Promise.resolve()).then(
        () => undefined,
        () => undefined,
      ),
    [],
  );

  const retryNow = useCallback(() => {
    for (const wake of [...wakers.current]) wake();
  }, []);

  return { status, say, update, unsaved, save, enqueue, isPending, pendingFor, settled, retryNow };
}

/**
 * An outbox of saves that each hold an item's whole sheet (ratings, critiques): a save is stored as
 * `{ input }`, and one that a newer save of the same item overtook while waiting is not sent.
 */
export function useSheetOutbox<I extends SaveTarget, R>(project: string, annotator: string, storageKey: string, send: (input: I) => Promise<R>) {
  const box = useOutbox<{ input: I }, R>(project, annotator, {
    storageKey,
    target: (p) => p.input,
    send: (p) => send(p.input),
    supersedes: (newer, older) => newer.input.project === older.input.project && newer.input.annotator === older.input.annotator && newer.input.itemId === older.input.itemId,
  });
  const { save: saveShared, pendingFor: pendingShared } = box;
  const save = useCallback((input: I, words: string, itemNumber: number) => saveShared({ input }, words, itemNumber), [saveShared]);
  /** The newest save of this item still waiting (shown over what the host answered). */
  const pendingFor = useCallback((itemId: number): I | null => pendingShared(itemId)?.input ?? null, [pendingShared]);
  const { status, say, unsaved, settled, retryNow } = box;
  return { status, say, unsaved, save, pendingFor, settled, retryNow };
}
