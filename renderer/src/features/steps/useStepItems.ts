// Which item the step screen shows, and the next one fetched ahead: the labeling screens' queue walk
// (features/labeling/queueWalk.ts) over nextItem with task 'steps', so "unlabeled" means without this
// annotator's step labels. The screen's own part: an item comes with its steps (getSteps), its model
// pre-labels and the judges' (asked beside the steps, through the loop's pre-label cache), and the item
// ahead has its text rendered while the annotator reads, so → shows the next chain in the frame after the
// key: no round trip, no loading phase, no second render for the pre-labels.
import { useCallback, useRef } from 'react';
import type { ItemView, StepsView } from '../../../../shared/api';
import { api } from '../../api';
import { itemTexts, prepareAhead } from './ahead';
import { prefetchItemImages } from '../../components/images/prefetch';
import { usePrelabelsAhead } from '../labeling/loopExtras';
import { useQueueWalk } from '../labeling/queueWalk';
import { useJudgeLoads } from '../judges/judgeLoads';

export interface Loaded {
  item: ItemView;
  view: StepsView;
}

/**
 * `view`: a saved view's name, walked as the queue (issue 22 §5): its id is found once, by the first item's
 * look, and every nextItem of the walk names it.
 */
export function useStepItems(project: string, annotator: string, startItemId: number | undefined, scoresVersion: number, view?: string) {
  const prelabels = usePrelabelsAhead(project, scoresVersion, true);
  const { prefetch: prefetchPrelabels, show: showPrelabels } = prelabels;
  // The judges' pre-labels, asked beside the steps as the model pre-labels are (features/judges/judgeLoads.ts).
  const judges = useJudgeLoads(project, annotator);
  const prefetchJudges = judges.prefetch;
  /** Items written to in this session: a prefetched view of one of them may be older than what was saved. */
  const touched = useRef(new Set<number>());

  /** The item with its steps; its pre-labels are asked at the same time. */
  const withSteps = useCallback(
    async (item: ItemView | null): Promise<Loaded | null> => {
      if (!item) return null;
      prefetchPrelabels(item.id);
      prefetchJudges(item.id);
      return { item, view: await api.getSteps({ project, annotator, itemId: item.id }) };
    },
    [project, annotator, prefetchPrelabels, prefetchJudges],
  );
  const inView = (viewId: string | undefined) => (viewId === undefined ? {} : { viewId });

  const walk = useQueueWalk<Loaded>(
    { project, annotator, task: 'steps', startItemId, view },
    {
      // The one asked for, else the first without this annotator's step labels.
      first: (viewId) =>
        (startItemId !== undefined ? api.getItem({ project, annotator, itemId: startItemId, task: 'steps' }) : api.nextItem({ project, annotator, unlabeledOnly: true, task: 'steps', ...inView(viewId) })).then(withSteps),
      any: async (viewId) => Boolean(await api.nextItem({ project, annotator, unlabeledOnly: false, task: 'steps', ...inView(viewId) })),
      // → walks every item in file order (judged or not): the one after this is the one ahead.
      ahead: (from, viewId) => api.nextItem({ project, annotator, afterSeq: from.item.seq, direction: 'next', unlabeledOnly: false, task: 'steps', ...inView(viewId) }).then(withSteps),
      onAhead: (ahead) => {
        prefetchItemImages(project, ahead.item);
        return prepareAhead(itemTexts(ahead));
      },
      // Its pre-labels in the same render when they are in already.
      onShow: (next) => showPrelabels(next.item.id),
    },
  );
  const { shownRef, show, alive, viewId, askAhead } = walk;

  /** Next / previous item in file order; `unlabeledOnly`: the next without this annotator's step labels. Null when there is none. */
  const go = useCallback(
    async (direction: 'next' | 'previous', unlabeledOnly = false): Promise<'moved' | 'none'> => {
      const from = shownRef.current;
      let next: Loaded | null = null;
      // The next item was asked for when this one was painted (or is asked now, when the key came first).
      if (from && direction === 'next' && !unlabeledOnly) next = await askAhead(from).promise;
      if (next && touched.current.has(next.item.id)) next = await withSteps(next.item);
      if (!next || next.item.id === from?.item.id) {
        const item = await api.nextItem({ project, annotator, afterSeq: from?.item.seq, direction, unlabeledOnly, task: 'steps', ...inView(viewId.current) });
        next = item && item.id !== from?.item.id ? await withSteps(item) : null;
      }
      if (!alive.current || shownRef.current !== from) return 'moved';
      if (!next) return 'none';
      show(next);
      return 'moved';
    },
    [project, annotator, withSteps, show, askAhead, shownRef, alive, viewId],
  );

  /** Replaces the current item's steps view (after a split or merge). */
  const { replace } = walk;
  const replaceView = useCallback(
    (itemIdNow: number, view: StepsView) => {
      const now = shownRef.current;
      if (now && now.item.id === itemIdNow) replace({ item: now.item, view });
    },
    [shownRef, replace],
  );

  const markTouched = useCallback((id: number) => void touched.current.add(id), []);

  const loaded = walk.shown;
  const shownPrelabels = loaded && prelabels.shown?.itemId === loaded.item.id ? prelabels.shown : null;
  return { loaded, phase: walk.phase, loadError: walk.loadError, prelabels: shownPrelabels, judges, go, replaceView, markTouched };
}
