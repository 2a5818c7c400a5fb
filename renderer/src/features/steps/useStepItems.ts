// Which item the step screen shows, and the next one fetched ahead: the item, its steps (getSteps) and
// its model pre-labels, so → shows the next chain without a round trip. Items come from nextItem with
// task 'steps', so "unlabeled" means without this annotator's step labels.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ItemView, StepsView } from '../../../../shared/api';
import type { ItemPrelabels } from '../../../../shared/scoring';
import { api, errorMessage } from '../../api';

export interface Loaded {
  item: ItemView;
  view: StepsView;
}

export interface LoadedPrelabels {
  data: ItemPrelabels | null;
  error: string | null;
}

export type Phase = 'loading' | 'ready' | 'done' | 'empty' | 'error';

/** Pre-labels by item, asked once (a failure is asked again next time); emptied when `version` moves. */
function usePrelabels(project: string, version: number) {
  const cache = useRef(new Map<number, Promise<LoadedPrelabels>>());
  useEffect(() => {
    cache.current.clear();
  }, [version]);
  return useCallback(
    (itemId: number) => {
      let hit = cache.current.get(itemId);
      if (!hit) {
        hit = api.prelabels({ project, itemId }).then(
          (data) => ({ data, error: null }),
          (e: unknown) => {
            cache.current.delete(itemId);
            return { data: null, error: errorMessage(e) };
          },
        );
        cache.current.set(itemId, hit);
      }
      return hit;
    },
    [project],
  );
}

export function useStepItems(project: string, annotator: string, startItemId: number | undefined, scoresVersion: number) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [prelabels, setPrelabels] = useState<(LoadedPrelabels & { itemId: number }) | null>(null);
  const loadPrelabels = usePrelabels(project, scoresVersion);
  const current = useRef<Loaded | null>(null);
  const prefetch = useRef<{ seq: number; promise: Promise<Loaded | null> } | null>(null);
  const alive = useRef(true);
  /** Items written to in this session: a prefetched view of one of them may be older than what was saved. */
  const touched = useRef(new Set<number>());

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const withSteps = useCallback(
    async (item: ItemView | null): Promise<Loaded | null> => (item ? { item, view: await api.getSteps({ project, annotator, itemId: item.id }) } : null),
    [project, annotator],
  );

  const show = useCallback(
    (next: Loaded) => {
      current.current = next;
      setLoaded(next);
      setPhase('ready');
      const promise = api
        .nextItem({ project, annotator, afterSeq: next.item.seq, direction: 'next', unlabeledOnly: false, task: 'steps' })
        .then(withSteps)
        .catch(() => null);
      prefetch.current = { seq: next.item.seq, promise };
      void promise.then((ahead) => ahead && alive.current && void loadPrelabels(ahead.item.id));
    },
    [project, annotator, withSteps, loadPrelabels],
  );

  // The first item: the one asked for, else the first without this annotator's step labels.
  useEffect(() => {
    // The screen writes the item it shows into the URL: that is where we are already, not a new start.
    if (startItemId !== undefined && current.current?.item.id === startItemId) return;
    let cancelled = false;
    setPhase('loading');
    const first = startItemId !== undefined ? api.getItem({ project, annotator, itemId: startItemId }) : api.nextItem({ project, annotator, unlabeledOnly: true, task: 'steps' });
    first
      .then(withSteps)
      .then(async (found) => {
        if (cancelled) return;
        if (found) return show(found);
        const any = await api.nextItem({ project, annotator, unlabeledOnly: false, task: 'steps' });
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
  }, [project, annotator, startItemId, withSteps, show]);

  const itemId = loaded?.item.id;
  useEffect(() => {
    if (itemId === undefined) return;
    let cancelled = false;
    void loadPrelabels(itemId).then((result) => !cancelled && setPrelabels({ itemId, ...result }));
    return () => {
      cancelled = true;
    };
  }, [itemId, loadPrelabels]);

  /** Next / previous item in file order; `unlabeledOnly`: the next without this annotator's step labels. Null when there is none. */
  const go = useCallback(
    async (direction: 'next' | 'previous', unlabeledOnly = false): Promise<'moved' | 'none'> => {
      const from = current.current;
      const ahead = prefetch.current;
      let next: Loaded | null = null;
      if (from && direction === 'next' && !unlabeledOnly && ahead?.seq === from.item.seq) next = await ahead.promise;
      if (next && touched.current.has(next.item.id)) next = await withSteps(next.item);
      if (!next || next.item.id === from?.item.id) {
        const item = await api.nextItem({ project, annotator, afterSeq: from?.item.seq, direction, unlabeledOnly, task: 'steps' });
        next = item && item.id !== from?.item.id ? await withSteps(item) : null;
      }
      if (!alive.current || current.current !== from) return 'moved';
      if (!next) return 'none';
      show(next);
      return 'moved';
    },
    [project, annotator, withSteps, show],
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
  return { loaded, phase, loadError, prelabels: shownPrelabels, go, replaceView, markTouched };
}
