// The queue walk every labeling screen shares (Compare, Rank and Verdict through useLabelingLoop, Steps
// through its useStepItems): the item on screen; the first one (the one the address names, else the first
// without this annotator's judgement, in a saved view's order when the address names a view); and the
// item a key would show next, asked once this one is painted and kept until a key takes it (shown in the
// key's own handler once it answered: one render, no round trip). With `depth: 2` (the labeling loop) the
// item after that one is asked as soon as the next answered, so a key never waits on a host still busy
// with the last save (bench:loop at 1M items). A screen gives only its task's part: how it finds and
// loads its items, and what it readies for the item ahead.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ItemView } from '../../../../shared/api';
import { errorMessage } from '../../api';
import { afterPaint } from '../../components/renderAhead';
import { viewIdOf } from './itemsOfShape';

export type Phase = 'loading' | 'ready' | 'done' | 'empty' | 'error' | 'elsewhere';

/** What the walk's first look found: an item of the screen, one for another screen, or none. */
export type FirstItem<L> = L | { elsewhere: ItemView } | null;

export interface WalkSteps<L extends { item: ItemView }> {
  /** The first item, in the saved view `viewId` when there is one. */
  first(viewId: string | undefined): Promise<FirstItem<L>>;
  /** Whether the walk holds any item at all (asked when `first` found none: 'done', else 'empty'). */
  any(viewId: string | undefined): Promise<boolean>;
  /**
   * The item a key would show after `from`, loaded; null at the end. `passed`: the ids it must not be
   * (`from`, and the item on screen when `from` is the one after it: asked two ahead, a walk that goes
   * around to earlier gaps could meet the item not judged yet).
   */
  ahead(from: L, viewId: string | undefined, passed: number[]): Promise<L | null>;
  /** The item ahead answered while `from` is still on screen: ready what it shows; may return a cancel. */
  onAhead(next: L): (() => void) | void;
  /** An item about to be shown: the screen's own state for it, set in the same render. */
  onShow?(next: L): void;
  /** Items asked ahead of the one on screen: 1 (the default), or 2. */
  depth?: 1 | 2;
}

export interface WalkStart {
  project: string;
  annotator: string;
  /** The task the screen judges: a new one starts the walk again. */
  task: string;
  startItemId?: number;
  /** A saved view's name (the address's `view`): its items are the queue, walked by its id. */
  view?: string;
}

interface Ahead<L> {
  seq: number;
  promise: Promise<L | null>;
  /** Set once the request answered, so a key shows it in its own handler. */
  ready?: L | null;
  /** onAhead has run for it (once it was the next item, answered, and the item on screen painted). */
  readied?: boolean;
}

export function useQueueWalk<L extends { item: ItemView }>({ project, annotator, task, startItemId, view }: WalkStart, steps: WalkSteps<L>) {
  const [shown, setShown] = useState<L | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [elsewhere, setElsewhere] = useState<ItemView | null>(null);
  const shownRef = useRef<L | null>(null);
  /** The saved view's id once the first look found it by its name (every nextItem of the walk names it). */
  const viewId = useRef<string | undefined>(undefined);
  const alive = useRef(true);
  /** The asks made, by the seq of the item each is after: the one on screen's, and (depth 2) its next's. */
  const aheads = useRef(new Map<number, Ahead<L>>());
  /** The item on screen once its frame is painted (the asks ahead wait for it). */
  const painted = useRef<L | null>(null);
  /** Cancels the ask not started yet (it waits for the paint), and what was readied for the item ahead. */
  const stopAsk = useRef<() => void>(() => undefined);
  const stopReady = useRef<() => void>(() => undefined);
  // Read through a ref: a screen's steps are a new object each render, and the walk's callbacks stay the same.
  const stepsRef = useRef(steps);
  stepsRef.current = steps;

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      stopAsk.current();
      stopReady.current();
    };
  }, []);

  const askRef = useRef<(from: L) => Ahead<L>>(() => {
    throw new Error('asked before the walk was set up');
  });
  /**
   * The item after the one on screen answered and that one is painted: ready what it shows (once), and at
   * depth 2 ask for the item after it.
   */
  const readyNext = useCallback((entry: Ahead<L>) => {
    const on = shownRef.current;
    if (!alive.current || !on || painted.current !== on || on.item.seq !== entry.seq || aheads.current.get(entry.seq) !== entry) return;
    if (entry.readied || entry.ready === undefined) return;
    entry.readied = true;
    const next = entry.ready;
    if (!next) return;
    stopReady.current();
    stopReady.current = stepsRef.current.onAhead(next) ?? (() => undefined);
    if ((stepsRef.current.depth ?? 1) > 1) askRef.current(next);
  }, []);

  /** The ask for the item after `from`: the one made already, else made now. */
  const askAhead = useCallback(
    (from: L): Ahead<L> => {
      const made = aheads.current.get(from.item.seq);
      if (made) return made;
      const on = shownRef.current;
      const passed = on && on.item.id !== from.item.id ? [from.item.id, on.item.id] : [from.item.id];
      const promise = stepsRef.current.ahead(from, viewId.current, passed).catch(() => null);
      const entry: Ahead<L> = { seq: from.item.seq, promise };
      aheads.current.set(entry.seq, entry);
      void promise.then((next) => {
        entry.ready = next;
        readyNext(entry);
      });
      return entry;
    },
    [readyNext],
  );
  askRef.current = askAhead;

  /** The ask made for the item after `from`, if one was (null when `from` is not where it was asked). */
  const askedAfter = useCallback((from: ItemView): Ahead<L> | null => aheads.current.get(from.seq) ?? null, []);

  /** Puts an item on screen; the one after it is asked once it is painted (the request stays out of the key's frame). */
  const show = useCallback(
    (next: L) => {
      stepsRef.current.onShow?.(next);
      shownRef.current = next;
      setShown(next);
      setPhase('ready');
      stopAsk.current();
      stopReady.current();
      stopReady.current = () => undefined;
      // Kept: the ask made after this item while it was the next one (depth 2); the others are for items passed.
      const kept = aheads.current.get(next.item.seq);
      aheads.current = new Map(kept ? [[kept.seq, kept]] : []);
      painted.current = null;
      stopAsk.current = afterPaint(() => {
        if (!alive.current || shownRef.current !== next) return;
        painted.current = next;
        readyNext(askAhead(next));
      });
    },
    [askAhead, readyNext],
  );

  /** The item on screen again, as it is now (a new answer for it): the ask ahead stays. */
  const replace = useCallback((next: L) => {
    if (painted.current === shownRef.current) painted.current = next;
    shownRef.current = next;
    setShown(next);
  }, []);

  const finish = useCallback(() => {
    shownRef.current = null;
    setShown(null);
    setPhase('done');
  }, []);

  // The first item. Asked again only when the screen asks for another project, annotator, task, item or
  // view (never on a new callback); the item the screen shows already (its address written) is no new start.
  useEffect(() => {
    if (startItemId !== undefined && shownRef.current?.item.id === startItemId) return;
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
      const first = await stepsRef.current.first(viewId.current);
      if (cancelled) return;
      if (first && 'elsewhere' in first) {
        setElsewhere(first.elsewhere);
        setPhase('elsewhere');
        return;
      }
      if (first) return show(first);
      const any = await stepsRef.current.any(viewId.current);
      if (!cancelled) setPhase(any ? 'done' : 'empty');
    })().catch((error) => {
      if (cancelled) return;
      setLoadError(errorMessage(error));
      setPhase('error');
    });
    return () => {
      cancelled = true;
    };
  }, [project, annotator, task, startItemId, view, show]);

  return { shown, shownRef, phase, loadError, elsewhere, viewId, alive, show, replace, finish, askAhead, askedAfter };
}
