// Which item the step screen shows, and the next one fetched ahead: the item, its steps (getSteps) and
// its model pre-labels (asked beside the steps), and its text rendered ahead while the annotator reads,
// so → shows the next chain in the frame after the key: no round trip, no loading phase, no second render
// for the pre-labels. Items come from nextItem with task 'steps', so "unlabeled" means without this
// annotator's step labels.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ItemView, StepsView } from '../../../../shared/api';
import type { ItemPrelabels } from '../../../../shared/scoring';
import { api, errorMessage } from '../../api';
import { afterPaint, itemTexts, prepareAhead } from './ahead';
import { prefetchItemImages } from '../../components/images/prefetch';
import { viewIdOf } from '../labeling/itemsOfShape';
import { useJudgeLoads } from '../judges/judgeLoads';

export interface Loaded {
  item: ItemView;
  view: StepsView;
}

export interface LoadedPrelabels {
  data: ItemPrelabels | null;
  error: string | null;
}

export type Phase = 'loading' | 'ready' | 'done' | 'empty' | 'error';

interface PrelabelEntry {
  promise: Promise<LoadedPrelabels>;
  /** Set once the answer is in, so an item shown after it can have its pre-labels in the same render. */
  result?: LoadedPrelabels;
}

/** Pre-labels by item, asked once (a failure is asked again next time); emptied when `version` moves. */
function usePrelabels(project: string, version: number) {
  const cache = useRef(new Map<number, PrelabelEntry>());
  useEffect(() => {
    cache.current.clear();
  }, [version]);
  const load = useCallback(
    (itemId: number) => {
      let hit = cache.current.get(itemId);
      if (!hit) {
        const entry: PrelabelEntry = {
          promise: api.prelabels({ project, itemId }).then(
            (data) => (entry.result = { data, error: null }),
            (e: unknown) => {
              cache.current.delete(itemId);
              return { data: null, error: errorMessage(e) };
            },
          ),
        };
        hit = entry;
        cache.current.set(itemId, hit);
      }
      return hit.promise;
    },
    [project],
  );
  const peek = useCallback((itemId: number) => cache.current.get(itemId)?.result ?? null, []);
  return { load, peek };
}

type ShownPrelabels = (LoadedPrelabels & { itemId: number }) | null;
/** The item's pre-labels as state, keeping the state as it is when it already says the same. */
const prelabelsOf = (itemId: number, result: LoadedPrelabels) => (was: ShownPrelabels) =>
  was && was.itemId === itemId && was.data === result.data && was.error === result.error ? was : { itemId, ...result };

/**
 * `view`: a saved view's name, walked as the queue (issue 22 §5): its id is found once, by the first item's
 * effect, and every nextItem of the walk names it.
 */
export function useStepItems(project: string, annotator: string, startItemId: number | undefined, scoresVersion: number, view?: string) {
  const viewId = useRef<string | undefined>(undefined);
  const inView = () => (viewId.current === undefined ? {} : { viewId: viewId.current });
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [prelabels, setPrelabels] = useState<ShownPrelabels>(null);
  const { load: loadPrelabels, peek: peekPrelabels } = usePrelabels(project, scoresVersion);
  // The judges' pre-labels, asked beside the steps as the model pre-labels are (features/judges/judgeLoads.ts).
  const judges = useJudgeLoads(project, annotator);
  const prefetchJudges = judges.prefetch;
  const current = useRef<Loaded | null>(null);
  const prefetch = useRef<{ seq: number; promise: Promise<Loaded | null> } | null>(null);
  const alive = useRef(true);
  /** Cancels the prefetch not started yet, and rendering the prefetched item's text ahead. */
  const stopPrefetch = useRef<() => void>(() => undefined);
  const stopAhead = useRef<() => void>(() => undefined);
  /** Items written to in this session: a prefetched view of one of them may be older than what was saved. */
  const touched = useRef(new Set<number>());

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      stopPrefetch.current();
      stopAhead.current();
    };
  }, []);

  /** The item with its steps; its pre-labels are asked at the same time. */
  const withSteps = useCallback(
    async (item: ItemView | null): Promise<Loaded | null> => {
      if (!item) return null;
      void loadPrelabels(item.id);
      prefetchJudges(item.id);
      return { item, view: await api.getSteps({ project, annotator, itemId: item.id }) };
    },
    [project, annotator, loadPrelabels, prefetchJudges],
  );

  /** The item after `from`, with its steps and pre-labels, asked once; its text is rendered ahead when it comes. */
  const prefetchAfter = useCallback(
    (from: Loaded) => {
      if (prefetch.current?.seq === from.item.seq) return prefetch.current.promise;
      stopPrefetch.current();
      const promise = api
        .nextItem({ project, annotator, afterSeq: from.item.seq, direction: 'next', unlabeledOnly: false, task: 'steps', ...inView() })
        .then(withSteps)
        .catch(() => null);
      prefetch.current = { seq: from.item.seq, promise };
      void promise.then((ahead) => {
        if (ahead && alive.current && prefetch.current?.promise === promise) {
          stopAhead.current = prepareAhead(itemTexts(ahead));
          prefetchItemImages(project, ahead.item);
        }
      });
      return promise;
    },
    [project, annotator, withSteps],
  );

  /** Shows an item, with its pre-labels in the same render when they are in; the next item is asked once this one is painted. */
  const show = useCallback(
    (next: Loaded) => {
      current.current = next;
      setLoaded(next);
      setPhase('ready');
      const known = peekPrelabels(next.item.id);
      if (known) setPrelabels(prelabelsOf(next.item.id, known));
      stopAhead.current();
      stopPrefetch.current();
      prefetch.current = null;
      stopPrefetch.current = afterPaint(() => {
        if (alive.current && current.current?.item.id === next.item.id) void prefetchAfter(current.current);
      });
    },
    [peekPrelabels, prefetchAfter],
  );

  // The first item: the one asked for, else the first without this annotator's step labels.
  useEffect(() => {
    // The screen writes the item it shows into the URL: that is where we are already, not a new start.
    if (startItemId !== undefined && current.current?.item.id === startItemId) return;
    let cancelled = false;
    setPhase('loading');
    const inViewNow = async () => {
      if (view === undefined) return {};
      const id = await viewIdOf(project, view);
      if (id === null) throw new Error(`The project has no saved view named “${view}” (it may have been renamed or deleted).`);
      viewId.current = id;
      return { viewId: id };
    };
    const first = inViewNow().then((walk) =>
      startItemId !== undefined ? api.getItem({ project, annotator, itemId: startItemId, task: 'steps' }) : api.nextItem({ project, annotator, unlabeledOnly: true, task: 'steps', ...walk }),
    );
    first
      .then(withSteps)
      .then(async (found) => {
        if (cancelled) return;
        if (found) return show(found);
        const any = await api.nextItem({ project, annotator, unlabeledOnly: false, task: 'steps', ...inView() });
        if (!cancelled) setPhase(any ? 'done' : 'empty');
      })
      .catch((error) => {
        if (cancelled) return;
        setLoadError(errorMessage(error));
        setPhase('error');
      });
    return () => {
      cancelled = true;
    };
  }, [project, annotator, startItemId, view, withSteps, show]);

  const itemId = loaded?.item.id;
  useEffect(() => {
    if (itemId === undefined) return;
    let cancelled = false;
    void loadPrelabels(itemId).then((result) => !cancelled && setPrelabels(prelabelsOf(itemId, result)));
    return () => {
      cancelled = true;
    };
  }, [itemId, loadPrelabels]);

  /** Next / previous item in file order; `unlabeledOnly`: the next without this annotator's step labels. Null when there is none. */
  const go = useCallback(
    async (direction: 'next' | 'previous', unlabeledOnly = false): Promise<'moved' | 'none'> => {
      const from = current.current;
      let next: Loaded | null = null;
      // The next item was asked for when this one was painted (or is asked now, when the key came first).
      if (from && direction === 'next' && !unlabeledOnly) next = await prefetchAfter(from);
      if (next && touched.current.has(next.item.id)) next = await withSteps(next.item);
      if (!next || next.item.id === from?.item.id) {
        const item = await api.nextItem({ project, annotator, afterSeq: from?.item.seq, direction, unlabeledOnly, task: 'steps', ...inView() });
        next = item && item.id !== from?.item.id ? await withSteps(item) : null;
      }
      if (!alive.current || current.current !== from) return 'moved';
      if (!next) return 'none';
      show(next);
      return 'moved';
    },
    [project, annotator, withSteps, show, prefetchAfter],
  );

  /** Replaces the current item's steps view (after a split or merge). */
  const replaceView = useCallback((itemIdNow: number, view: StepsView) => {
    const now = current.current;
    if (!now || now.item.id !== itemIdNow) return;
    const next = { item: now.item, view };
    current.current = next;
    setLoaded(next);
  }, []);

  const markTouched = useCallback((id: number) => void touched.current.add(id), []);

  const shownPrelabels = loaded && prelabels?.itemId === loaded.item.id ? prelabels : null;
  return { loaded, phase, loadError, prelabels: shownPrelabels, judges, go, replaceView, markTouched };
}
