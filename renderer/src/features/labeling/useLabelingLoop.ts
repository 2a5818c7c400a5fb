// The one labeling loop of Compare, Rank and Verdict: which item is on screen and the next one fetched
// ahead (shown in the key's own handler once it answered: one render), walking the screen's queue (the
// next item without this annotator's judgement, → / ← over all of them, an item by its id), saving through
// the shared outbox (retried while the host is away, kept on this machine meanwhile), undo (the host's
// undoLabel of the task: a new revision restoring the one replaced), the rationale and region marks, the
// item's ratings and critiques (features/rubrics useItemNotes), and its model pre-labels. A screen gives
// only its task's decision (judgements.ts) and draws it.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ItemView } from '../../../../shared/api';
import type { RegionMark } from '../../../../shared/regions';
import { api, errorMessage } from '../../api';
import { afterPaint } from '../../components/renderAhead';
import { prefetchItemImages } from '../../components/images/prefetch';
import { decisionOf, endOfQueue, loadMine, mineOfRequest, requestOf, type Decision, type Loaded, type Mine, type Shape } from './judgements';
import { fitsShape, neighbourOfShape, nextUnjudged, viewIdOf } from './itemsOfShape';
import { useLoopOutbox } from './outbox';
import { useLoopNotes, usePrelabelsAhead } from './loopExtras';
import { useLoopEdits } from './loopEdits';

export type Phase = 'loading' | 'ready' | 'done' | 'empty' | 'error' | 'elsewhere';
export type { Decision, Loaded, Mine };

export interface LoopOptions {
  project: string;
  annotator: string;
  task: Shape;
  /** The item asked for by its address; else the first without this annotator's judgement. */
  startItemId?: number;
  /** A saved view's name: its items are the queue (route.ts `view`), not the screen's whole one. */
  view?: string;
  /** Counts a write in the header at once (+1 for an item without a judgement); returns "settled". */
  countWrite: (delta: number) => () => void;
  /** The judgement in words (the undo line: "back to Left better"), or null for none. */
  describe: (loaded: Loaded) => string | null;
  /** Ratings and critiques under the responses (Compare, Verdict), named by `sideName`. */
  notes?: { sideName(letter: string): string };
  /** Model pre-labels loaded with each item and the next (Compare): emptied when `version` moves. */
  prelabels?: { version: number };
  /** Told about the next item as soon as its prefetch arrives (the screen renders its text ahead). */
  onPrefetched?: (next: ItemView) => void;
}

interface UndoEntry {
  itemId: number;
  itemNumber: number;
  words: string;
}

export function useLabelingLoop(o: LoopOptions) {
  const { project, annotator, task, startItemId, view } = o;
  /** The saved view's id once the first item's effect found it by its name (nextItem walks it by id). */
  const viewId = useRef<string | undefined>(undefined);
  const opts = useRef(o);
  opts.current = o;
  const outbox = useLoopOutbox(project, annotator, o.countWrite);
  const { say, update, isPending, pendingFor, enqueue } = outbox;
  const [shown, setShown] = useState<Loaded | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [elsewhere, setElsewhere] = useState<ItemView | null>(null);
  const [rationale, setRationale] = useState('');
  const [regions, setRegions] = useState<RegionMark[]>([]);
  const shownRef = useRef<Loaded | null>(null);
  const rationaleRef = useRef('');
  const regionsRef = useRef<RegionMark[]>([]);
  const shownAt = useRef(performance.now());
  /** The next item's request; `ready` once it answered, so the key shows it in its own handler (one render). */
  const prefetch = useRef<{ seq: number; promise: Promise<Loaded | null>; ready?: Loaded | null } | null>(null);
  const stopPrefetchStart = useRef<() => void>(() => undefined);
  const undoStack = useRef<UndoEntry[]>([]);
  const moving = useRef(false);
  const alive = useRef(true);
  const pre = usePrelabelsAhead(project, o.prelabels?.version ?? 0, Boolean(o.prelabels));
  const { show: showPrelabels, prefetch: prefetchPrelabels } = pre;
  const notes = useLoopNotes(project, annotator, shown, phase, o.notes);
  // Read through a ref: the notes are a new object each render, and the loop's callbacks stay the same.
  const notesRef = useRef(notes);
  notesRef.current = notes;

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      stopPrefetchStart.current();
    };
  }, []);

  const load = useCallback((item: ItemView) => loadMine(task, project, annotator, item, pendingFor(item.id, task)), [task, project, annotator, pendingFor]);

  const startPrefetch = useCallback(
    (current: ItemView) => {
      const promise = nextUnjudged(project, annotator, task, current.seq, (id) => id === current.id || isPending(id), viewId.current)
        .then((next) => (next ? load(next) : null))
        .catch(() => null);
      const entry: NonNullable<typeof prefetch.current> = { seq: current.seq, promise };
      prefetch.current = entry;
      void promise.then((next) => {
        entry.ready = next;
        if (!next || !alive.current) return;
        // The next item's images, pre-labels, ratings and critiques load while this one is judged.
        prefetchItemImages(project, next.item);
        prefetchPrelabels(next.item.id);
        notesRef.current.prefetch(next.item.id);
        opts.current.onPrefetched?.(next.item);
      });
    },
    [project, annotator, task, isPending, load, prefetchPrelabels],
  );

  const show = useCallback(
    (next: Loaded) => {
      shownRef.current = next;
      setShown(next);
      rationaleRef.current = next.mine?.rationale ?? '';
      setRationale(rationaleRef.current);
      regionsRef.current = next.mine?.regions ?? [];
      setRegions(regionsRef.current);
      showPrelabels(next.item.id);
      shownAt.current = performance.now();
      setPhase('ready');
      stopPrefetchStart.current();
      // Asked once this item is painted: the request's own work stays out of the key's frame.
      stopPrefetchStart.current = afterPaint(() => startPrefetch(next.item));
    },
    [startPrefetch, showPrelabels],
  );

  const finish = useCallback(() => {
    shownRef.current = null;
    setShown(null);
    setPhase('done');
  }, []);

  // First item: the one asked for (sent to its own screen when it has another shape), or the first unjudged.
  // Asked again only when the screen asks for another project, annotator or item (never on a new callback).
  const firstSteps = useRef({ load, show });
  firstSteps.current = { load, show };
  useEffect(() => {
    const { load, show } = firstSteps.current;
    let cancelled = false;
    setPhase('loading');
    (async () => {
      viewId.current = undefined;
      if (view !== undefined) {
        const id = await viewIdOf(project, view);
        if (cancelled) return;
        if (id === null) throw new Error(`The project has no saved view named “${view}” (it may have been renamed or deleted). Go back to the whole queue, or open the view from the Items screen.`);
        viewId.current = id;
      }
      const first = startItemId !== undefined ? await api.getItem({ project, annotator, itemId: startItemId }) : await nextUnjudged(project, annotator, task, undefined, undefined, viewId.current);
      if (cancelled) return;
      if (first && !fitsShape(task, first.responses.length)) {
        setElsewhere(first);
        setPhase('elsewhere');
        return;
      }
      if (first) {
        const loaded = await load(first);
        if (!cancelled) show(loaded);
        return;
      }
      const any = await neighbourOfShape(project, annotator, task, undefined, 'next', viewId.current);
      if (!cancelled) setPhase(any ? 'done' : 'empty');
    })().catch((error) => {
      if (cancelled) return;
      setLoadError(errorMessage(error));
      setPhase('error');
    });
    return () => {
      cancelled = true;
    };
  }, [project, annotator, task, startItemId, view]);

  /** Queues a save and counts it in the header meanwhile (the counters are read again once it lands). */
  const send = useCallback(
    (loaded: Loaded, decision: Decision, words: string, common: { rationale: string; prelabelVisible: boolean }, newlyJudged = false) => {
      const request = requestOf(task, loaded.item, decision, {
        project,
        annotator,
        ...common,
        regions: regionsRef.current,
        timeMs: Math.max(0, Math.round(performance.now() - shownAt.current)),
      });
      loaded.mine = mineOfRequest(request);
      const done = opts.current.countWrite(newlyJudged ? 1 : 0);
      const saving = outbox.save(request, words, loaded.item.position);
      void saving.finally(done).catch(() => undefined);
      return saving;
    },
    [task, project, annotator, outbox],
  );

  const advance = useCallback(
    async (from: ItemView) => {
      const skip = (id: number) => id === from.id || isPending(id);
      const ahead = prefetch.current?.seq === from.seq ? prefetch.current : null;
      // Already answered: shown at once, in the key's own handler, so the key's state and the next item
      // render together in one pass instead of two.
      if (ahead?.ready && !skip(ahead.ready.item.id)) return show(ahead.ready);
      let next = ahead ? await ahead.promise : null;
      // The prefetch goes around to earlier gaps; it may name an item whose save is still on its way.
      if (!next || skip(next.item.id)) {
        next = await nextUnjudged(project, annotator, task, from.seq, skip, viewId.current)
          .then((found) => (found ? load(found) : null))
          .catch(() => null);
      }
      if (!alive.current || shownRef.current?.item !== from) return;
      if (next) show(next);
      else finish();
    },
    [project, annotator, task, isPending, load, show, finish],
  );

  /** Saves the decision about the item on screen and moves on; false when nothing was saved. */
  const judge = useCallback(
    (decision: Decision, words: string, prelabelVisible = false): boolean => {
      const current = shownRef.current;
      if (!current || moving.current) return false;
      const { item } = current;
      if (!fitsShape(task, item.responses.length)) {
        say({ text: `Item has ${item.responses.length} responses; this screen does not judge it`, itemNumber: item.position, state: 'info' });
        return false;
      }
      // Required criteria first: nothing is saved while one has no value, and the ratings say which.
      if (!notesRef.current.mayLeave('choose')) return false;
      undoStack.current.push({ itemId: item.id, itemNumber: item.position, words });
      void send(current, decision, words, { rationale: rationaleRef.current, prelabelVisible }, current.mine === null).catch(() => undefined);
      notesRef.current.judged();
      moving.current = true;
      void advance(item).finally(() => {
        moving.current = false;
      });
      return true;
    },
    [task, say, send, advance],
  );

  const { flushRationale, editRegions, editRationale } = useLoopEdits({ task, project, annotator, shownRef, rationaleRef, regionsRef, setRationale, setRegions, send, outbox });

  /** Opens the item `find` answers, or says `none`. */
  const open = useCallback(
    async (find: () => Promise<ItemView | null>, none: string) => {
      let target: Loaded | null = null;
      try {
        const item = await find();
        target = item ? await load(item) : null;
      } catch (error) {
        say({ text: 'Could not open the item', itemNumber: null, state: 'failed', error: errorMessage(error) });
        return;
      }
      if (!alive.current) return;
      if (target) show(target);
      else say({ text: none, itemNumber: null, state: 'info' });
    },
    [load, show, say],
  );

  /** → / ←: the neighbour of the screen's shape, judged or not (→ waits for a required criterion). */
  const go = useCallback(
    (direction: 'next' | 'previous') => {
      if (direction === 'next' && !notesRef.current.mayLeave('next')) return Promise.resolve();
      if (direction === 'previous') notesRef.current.flush();
      flushRationale();
      const seq = shownRef.current?.item.seq;
      return open(() => neighbourOfShape(project, annotator, task, seq, direction, viewId.current), endOfQueue(task, direction));
    },
    [project, annotator, task, flushRationale, open],
  );

  /** Takes back the last judgement made here (or the one on screen): the host's undo of the task. */
  const undoJudgement = useCallback(async () => {
    const current = shownRef.current;
    let entry = undoStack.current.pop();
    if (!entry && current && decisionOf(task, current)) {
      entry = { itemId: current.item.id, itemNumber: current.item.position, words: opts.current.describe(current) ?? 'label' };
    }
    if (!entry) {
      say({ text: 'Nothing to undo', itemNumber: null, state: 'info' });
      return;
    }
    const { itemId, itemNumber, words } = entry;
    const id = say({ text: `Undoing “${words}”`, itemNumber, state: 'saving' });
    // What the undo restores is known only from its answer: the counters are read once it lands.
    const settled = opts.current.countWrite(0);
    try {
      await enqueue(itemId, () => api.undoLabel({ project, annotator, itemId, task }));
      const back = await api.getItem({ project, annotator, itemId });
      const loaded = back ? await load(back) : null;
      const now = loaded?.mine ? opts.current.describe(loaded) : null;
      update(id, { text: `Undid “${words}” — ${now ? `back to ${now}` : 'now unlabeled'}`, state: 'saved' });
      if (alive.current && loaded) show(loaded);
    } catch (error) {
      update(id, { text: `Undo of “${words}”`, state: 'failed', error: errorMessage(error) });
    } finally {
      settled();
    }
  }, [project, annotator, task, say, update, enqueue, load, show]);

  /** Ctrl+Z: a rating when that was the last thing done here ('rating'), else the last judgement ('judgement'). */
  const undo = useCallback((): 'rating' | 'judgement' => {
    if (notesRef.current.undoRating(shownRef.current?.item.id)) return 'rating';
    void undoJudgement();
    return 'judgement';
  }, [undoJudgement]);

  return {
    shown,
    item: shown?.item ?? null,
    mine: shown?.mine ?? null,
    phase,
    loadError,
    elsewhere,
    rationale,
    editRationale,
    flushRationale,
    regions,
    editRegions,
    judge,
    go,
    undo,
    outbox,
    notes,
    prelabels: pre.shown,
    loadPrelabels: pre.load,
    peekPrelabels: pre.peek,
  };
}

export type LabelingLoop = ReturnType<typeof useLabelingLoop>;
