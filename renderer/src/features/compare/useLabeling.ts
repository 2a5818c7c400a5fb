// The labeling loop: which item is on screen, the prefetched next one, saving in the background with
// retries (a pending save is kept in localStorage until the host confirms it), undo and navigation.
import { uuidv7 } from '../../../../shared/ids';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiInput, ItemView, PairwiseRevision } from '../../../../shared/api';
import { describeScreenChoice, toScreenChoice, toSourceChoice, type ScreenChoice } from '../../../../shared/choices';
import type { Strength } from '../../../../shared/domain';
import type { RegionMark } from '../../../../shared/regions';
import { api, errorMessage, isRetryable } from '../../api';
import { afterPaint } from '../../components/renderAhead';

export type SaveState = 'saving' | 'saved' | 'failed';

/** What the decision bar says about the last thing the annotator did. */
export interface Notice {
  id: number;
  text: string;
  itemNumber: number | null;
  state: SaveState | 'info';
  error?: string;
  retryInMs?: number;
}

type SaveInput = ApiInput<'saveLabel'>;

const PENDING_KEY = 'arbiter.pendingSaves';

interface Pending {
  key: string;
  input: SaveInput;
  words: string;
  itemNumber: number;
}

function readPending(): Pending[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(PENDING_KEY) ?? '[]') as Pending[];
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}
function writePending(list: Pending[]): void {
  if (list.length) localStorage.setItem(PENDING_KEY, JSON.stringify(list));
  else localStorage.removeItem(PENDING_KEY);
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

export function describeLabel(label: PairwiseRevision | null, order: number[]): string | null {
  if (!label || !label.choice) return null;
  return describeScreenChoice(toScreenChoice(label.choice, label.shownOrder ?? order), label.strength);
}

export function useLabeling(
  project: string,
  annotator: string,
  startItemId: number | undefined,
  /** Counts a label write in the header at once (+1 for an item that had no label); returns "settled". */
  countWrite: (delta: number) => () => void,
  /** Told about the next item as soon as its prefetch arrives (the screen prefetches its pre-labels too). */
  onPrefetched?: (next: ItemView) => void,
) {
  const [item, setItem] = useState<ItemView | null>(null);
  const [phase, setPhase] = useState<'loading' | 'ready' | 'done' | 'empty' | 'error'>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [unsaved, setUnsaved] = useState(0);
  const [rationale, setRationale] = useState('');
  const [regions, setRegions] = useState<RegionMark[]>([]);
  const regionsRef = useRef<RegionMark[]>([]);

  const itemRef = useRef<ItemView | null>(null);
  const rationaleRef = useRef('');
  const shownAt = useRef(performance.now());
  /** The next item's request; `ready` once it answered, so the key shows it in its own handler (one render). */
  const prefetch = useRef<{ seq: number; promise: Promise<ItemView | null>; ready?: ItemView | null } | null>(null);
  const stopPrefetchStart = useRef<() => void>(() => undefined);
  const chains = useRef(new Map<number, Promise<unknown>>());
  const pendingIds = useRef(new Set<number>());
  const undoStack = useRef<{ itemId: number; words: string; itemNumber: number }[]>([]);
  const noticeSeq = useRef(0);
  const wakers = useRef(new Set<() => void>());
  const advancing = useRef(false);
  const alive = useRef(true);
  const countWriteRef = useRef(countWrite);
  countWriteRef.current = countWrite;
  const onPrefetchedRef = useRef(onPrefetched);
  onPrefetchedRef.current = onPrefetched;

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      stopPrefetchStart.current();
    };
  }, []);

  const say = useCallback((n: Omit<Notice, 'id'>) => {
    const id = ++noticeSeq.current;
    setNotice({ ...n, id });
    return id;
  }, []);
  /** Updates a notice only if nothing newer replaced it. */
  const update = useCallback((id: number, patch: Partial<Notice>) => {
    setNotice((n) => (n && n.id === id ? { ...n, ...patch } : n));
  }, []);

  /** Runs writes for one item strictly in order (save, then undo, then rationale…). */
  const enqueue = useCallback(<T,>(itemId: number, op: () => Promise<T>): Promise<T> => {
    const before = chains.current.get(itemId) ?? Promise.resolve();
    const next = before.catch(() => undefined).then(op);
    chains.current.set(itemId, next);
    void next.finally(() => {
      if (chains.current.get(itemId) === next) chains.current.delete(itemId);
    }).catch(() => undefined);
    return next;
  }, []);

  const startPrefetch = useCallback(
    (current: ItemView) => {
      const promise = api.nextItem({ project, annotator, afterSeq: current.seq, unlabeledOnly: true }).catch(() => null);
      const entry: NonNullable<typeof prefetch.current> = { seq: current.seq, promise };
      prefetch.current = entry;
      void promise.then((next) => {
        entry.ready = next;
        if (next && alive.current) onPrefetchedRef.current?.(next);
      });
    },
    [project, annotator],
  );

  const show = useCallback(
    (next: ItemView | null) => {
      itemRef.current = next;
      setItem(next);
      const text = next?.label?.body.rationale ?? '';
      rationaleRef.current = text;
      setRationale(text);
      regionsRef.current = next?.label?.body.regions ?? [];
      setRegions(regionsRef.current);
      shownAt.current = performance.now();
      stopPrefetchStart.current();
      if (next) {
        setPhase('ready');
        // Asked once this item is painted: the request's own work stays out of the key's frame.
        stopPrefetchStart.current = afterPaint(() => startPrefetch(next));
      }
    },
    [startPrefetch],
  );

  /** Saves one label, retrying while the host is unreachable; the input waits in localStorage meanwhile. */
  const persistLabel = useCallback(
    (input: SaveInput, words: string, itemNumber: number, newlyLabeled: boolean) => {
      const key = `${project}\u0000${annotator}\u0000${input.itemId}\u0000${Date.now()}\u0000${Math.random()}`;
      writePending([...readPending(), { key, input, words, itemNumber }]);
      pendingIds.current.add(input.itemId);
      setUnsaved(pendingIds.current.size);
      const noticeId = say({ text: words, itemNumber, state: 'saving' });
      const settled = countWriteRef.current(newlyLabeled ? 1 : 0);
      const saving = enqueue(input.itemId, async () => {
        for (let attempt = 1; ; attempt++) {
          try {
            const saved = await api.saveLabel(input);
            writePending(readPending().filter((p) => p.key !== key));
            pendingIds.current.delete(input.itemId);
            setUnsaved(pendingIds.current.size);
            update(noticeId, { state: 'saved', error: undefined, retryInMs: undefined });
            return saved;
          } catch (error) {
            if (!isRetryable(error)) {
              // The host refused this label for a reason retrying cannot fix: say so loudly, keep it listed.
              writePending(readPending().filter((p) => p.key !== key));
              pendingIds.current.delete(input.itemId);
              setUnsaved(pendingIds.current.size);
              setNotice({ id: ++noticeSeq.current, text: words, itemNumber, state: 'failed', error: errorMessage(error) });
              throw error;
            }
            const delay = Math.min(15_000, 500 * 2 ** Math.min(attempt - 1, 5));
            setNotice({ id: noticeId, text: words, itemNumber, state: 'failed', error: errorMessage(error), retryInMs: delay });
            await sleep(delay, wakers.current);
            if (!alive.current) return null; // the screen closed: the save stays queued in localStorage for next time
            update(noticeId, { state: 'saving', retryInMs: undefined });
          }
        }
      });
      void saving.finally(settled).catch(() => undefined);
      return saving;
    },
    [project, annotator, enqueue, say, update],
  );

  /** Replays saves a previous session could not confirm (the app was closed or the host was down). */
  useEffect(() => {
    const mine = readPending().filter((p) => p.input.project === project && p.input.annotator === annotator);
    if (!mine.length) return;
    writePending(readPending().filter((p) => !mine.includes(p)));
    // Whether these items had a label before is not known here: the counters are read once they land.
    for (const p of mine) void persistLabel(p.input, p.words, p.itemNumber, false).catch(() => undefined);
  }, [project, annotator, persistLabel]);

  // First item: the one asked for, or the first this annotator has not labeled.
  useEffect(() => {
    let cancelled = false;
    setPhase('loading');
    const first =
      startItemId !== undefined
        ? api.getItem({ project, annotator, itemId: startItemId })
        : api.nextItem({ project, annotator, unlabeledOnly: true });
    first
      .then(async (found) => {
        if (cancelled) return;
        if (found) return show(found);
        const any = await api.nextItem({ project, annotator, unlabeledOnly: false });
        if (cancelled) return;
        setPhase(any ? 'done' : 'empty');
      })
      .catch((error) => {
        if (cancelled) return;
        setLoadError(errorMessage(error));
        setPhase('error');
      });
    return () => {
      cancelled = true;
    };
  }, [project, annotator, startItemId, show]);

  /** Sends a rationale edited after the label was saved. */
  const flushRationale = useCallback(() => {
    const current = itemRef.current;
    if (!current?.label) return;
    const text = rationaleRef.current;
    if ((current.label.body.rationale ?? '') === text) return;
    const itemNumber = current.position;
    const noticeId = say({ text: 'Rationale', itemNumber, state: 'saving' });
    const label = current.label;
    current.label = { ...label, body: { ...label.body, rationale: text } };
    enqueue(current.id, () => api.saveRationale({ project, annotator, itemId: current.id, rationale: text }))
      .then(() => update(noticeId, { state: 'saved' }))
      .catch((error) => update(noticeId, { state: 'failed', error: errorMessage(error) }));
  }, [project, annotator, enqueue, say, update]);

  /**
   * Region marks changed (components/images/regions): kept with the item and saved with its choice; once
   * the item has a label, a new revision of the same choice with these marks (as a rationale edit is).
   */
  const editRegions = useCallback(
    (marks: RegionMark[], words: string) => {
      regionsRef.current = marks;
      setRegions(marks);
      const current = itemRef.current;
      if (!current) return;
      const itemNumber = current.position;
      const label = current.label;
      // A choice still on its way counts as made: the marks follow it in the item's queue of writes.
      if (!label && !pendingIds.current.has(current.id)) {
        say({ text: `${words} — saved with your choice`, itemNumber, state: 'info' });
        return;
      }
      const noticeId = say({ text: words, itemNumber, state: 'saving' });
      if (label) current.label = { ...label, body: { ...label.body, regions: marks } };
      enqueue(current.id, () => api.saveRegions({ project, annotator, itemId: current.id, task: 'pairwise', regions: marks }))
        .then(() => update(noticeId, { state: 'saved' }))
        .catch((error) => update(noticeId, { state: 'failed', error: errorMessage(error) }));
    },
    [project, annotator, enqueue, say, update],
  );

  const advance = useCallback(
    async (from: ItemView) => {
      const ahead = prefetch.current?.seq === from.seq ? prefetch.current : null;
      // Already answered: shown at once, in the key's own handler, so the key's state and the next item
      // render together in one pass instead of two.
      if (ahead?.ready && ahead.ready.id !== from.id && !pendingIds.current.has(ahead.ready.id)) return show(ahead.ready);
      let next = ahead ? await ahead.promise : null;
      // The prefetch wraps around to earlier gaps; it may name an item whose save is still on its way.
      if (!next || next.id === from.id || pendingIds.current.has(next.id)) {
        await (chains.current.get(from.id) ?? Promise.resolve()).catch(() => undefined);
        next = await api.nextItem({ project, annotator, afterSeq: from.seq, unlabeledOnly: true }).catch(() => null);
        if (next && (next.id === from.id || pendingIds.current.has(next.id))) next = null;
      }
      if (!alive.current || itemRef.current !== from) return;
      if (next) show(next);
      else {
        itemRef.current = null;
        setItem(null);
        setPhase('done');
      }
    },
    [project, annotator, show],
  );

  /** Saves a choice and moves on; false when nothing was saved (no item, still moving, not a pair). */
  const choose = useCallback(
    (screen: ScreenChoice, strength: Strength | null, prelabelVisible = false): boolean => {
      const current = itemRef.current;
      if (!current || advancing.current) return false;
      if (current.responses.length !== 2) {
        say({ text: `Item has ${current.responses.length} responses; pairwise labeling needs exactly 2`, itemNumber: current.position, state: 'info' });
        return false;
      }
      const pairwise = screen === 'left' || screen === 'right';
      const effective: Strength | null = pairwise ? (strength ?? 2) : null;
      const input: SaveInput = {
        project,
        annotator,
        itemId: current.id,
        // Made here, kept in the outbox with the label: a save retried after a lost answer stores nothing twice.
        id: uuidv7(),
        choice: toSourceChoice(screen, current.shownOrder),
        strength: effective,
        shownOrder: current.shownOrder,
        rationale: rationaleRef.current.trim() ? rationaleRef.current : undefined,
        timeMs: Math.max(0, Math.round(performance.now() - shownAt.current)),
        prelabelVisible,
        ...(regionsRef.current.length ? { regions: regionsRef.current } : {}),
      };
      const words = describeScreenChoice(screen, effective);
      const itemNumber = current.position;
      undoStack.current.push({ itemId: current.id, words, itemNumber });
      void persistLabel(input, words, itemNumber, current.label === null).catch(() => undefined);
      advancing.current = true;
      void advance(current).finally(() => {
        advancing.current = false;
      });
      return true;
    },
    [project, annotator, persistLabel, advance, say],
  );

  const undo = useCallback(async () => {
    const current = itemRef.current;
    let target = undoStack.current.pop();
    if (!target && current?.label) {
      target = { itemId: current.id, words: describeLabel(current.label, current.shownOrder) ?? 'label', itemNumber: current.position };
    }
    if (!target) {
      say({ text: 'Nothing to undo', itemNumber: null, state: 'info' });
      return;
    }
    const { itemId, words, itemNumber } = target;
    const noticeId = say({ text: `Undoing “${words}”`, itemNumber, state: 'saving' });
    // What the undo restores is known only from its answer: the counters are read once it lands.
    const settled = countWriteRef.current(0);
    try {
      await enqueue(itemId, () => api.undoLabel({ project, annotator, itemId }));
      const back = await api.getItem({ project, annotator, itemId });
      const now = back ? describeLabel(back.label, back.shownOrder) : null;
      update(noticeId, { text: `Undid “${words}” — ${now ? `back to ${now}` : 'now unlabeled'}`, state: 'saved' });
      if (alive.current && back) show(back);
    } catch (error) {
      update(noticeId, { text: `Undo of “${words}”`, state: 'failed', error: errorMessage(error) });
    } finally {
      settled();
    }
  }, [project, annotator, enqueue, say, update, show]);

  const go = useCallback(
    async (direction: 'next' | 'previous') => {
      const current = itemRef.current;
      flushRationale();
      let target: ItemView | null;
      try {
        if (!current) {
          target = await api.nextItem({ project, annotator, direction, unlabeledOnly: false });
        } else {
          target = await api.nextItem({ project, annotator, afterSeq: current.seq, direction, unlabeledOnly: false });
        }
      } catch (error) {
        say({ text: 'Could not open the item', itemNumber: null, state: 'failed', error: errorMessage(error) });
        return;
      }
      if (!alive.current) return;
      if (target) show(target);
      else say({ text: direction === 'next' ? 'This is the last item' : 'This is the first item', itemNumber: null, state: 'info' });
    },
    [project, annotator, flushRationale, show, say],
  );

  const editRationale = useCallback((text: string) => {
    rationaleRef.current = text;
    setRationale(text);
  }, []);

  const retryNow = useCallback(() => {
    for (const wake of [...wakers.current]) wake();
  }, []);

  return { item, phase, loadError, notice, unsaved, rationale, editRationale, flushRationale, regions, editRegions, choose, undo, go, retryNow, say };
}
