// The one labeling loop of Compare, Rank and Verdict: walking the screen's queue (queueWalk.ts, which the
// step screen walks too: the next item without this annotator's judgement fetched ahead, → / ← over all
// of them, an item by its id), saving through the shared outbox (outbox.ts: retried while the host is
// away, kept on this machine meanwhile), undo (undoJudgement.ts), the rationale and region marks
// (loopEdits.ts), the item's ratings and critiques and its model pre-labels (loopExtras.ts). A screen
// gives only its task's decision (judgements.ts) and draws it.
import { useCallback, useRef, useState } from 'react';
import type { ItemView } from '../../../../shared/api';
import type { RegionMark } from '../../../../shared/regions';
import { api, errorMessage } from '../../api';
import { prefetchItemImages } from '../../components/images/prefetch';
import { endOfQueue, loadMine, mineOfRequest, requestOf, type Decision, type Loaded, type Mine, type Shape } from './judgements';
import { fitsShape, neighbourOfShape, nextUnjudged } from './itemsOfShape';
import { useLoopOutbox } from './outbox';
import { useLoopNotes, usePrelabelsAhead } from './loopExtras';
import { useLoopEdits } from './loopEdits';
import { useQueueWalk } from './queueWalk';
import { useUndoJudgement } from './undoJudgement';

export type { Phase } from './queueWalk';
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

export function useLabelingLoop(o: LoopOptions) {
  const { project, annotator, task, startItemId, view } = o;
  const opts = useRef(o);
  opts.current = o;
  const outbox = useLoopOutbox(project, annotator, o.countWrite);
  const { say, isPending, pendingFor, landed } = outbox;
  const [rationale, setRationale] = useState('');
  const [regions, setRegions] = useState<RegionMark[]>([]);
  const rationaleRef = useRef('');
  const regionsRef = useRef<RegionMark[]>([]);
  const shownAt = useRef(performance.now());
  const moving = useRef(false);
  const pre = usePrelabelsAhead(project, o.prelabels?.version ?? 0, Boolean(o.prelabels));
  const { show: showPrelabels, prefetch: prefetchPrelabels } = pre;

  const load = useCallback((item: ItemView) => loadMine(task, project, annotator, item, pendingFor(item.id, task)), [task, project, annotator, pendingFor]);

  // The screen's part of the walk (queueWalk.ts): items of its shape, the next without a judgement ahead.
  const walk = useQueueWalk<Loaded>(
    { project, annotator, task, startItemId, view },
    {
      first: async (viewId) => {
        const first = startItemId !== undefined ? await api.getItem({ project, annotator, itemId: startItemId }) : await nextUnjudged(project, annotator, task, undefined, undefined, viewId);
        if (first && !fitsShape(task, first.responses.length)) return { elsewhere: first };
        return first ? load(first) : null;
      },
      any: async (viewId) => Boolean(await neighbourOfShape(project, annotator, task, undefined, 'next', viewId)),
      // Two ahead: a key takes the next pair at once even while the host is still busy with the last save.
      depth: 2,
      ahead: (current, viewId, passed) =>
        nextUnjudged(project, annotator, task, current.item.seq, (id) => passed.includes(id) || isPending(id), viewId).then((next) => (next ? load(next) : null)),
      // The next item's images, pre-labels, ratings and critiques load while this one is judged.
      onAhead: (next) => {
        prefetchItemImages(project, next.item);
        prefetchPrelabels(next.item.id);
        notesRef.current.prefetch(next.item.id);
        opts.current.onPrefetched?.(next.item);
      },
      onShow: (next) => {
        rationaleRef.current = next.mine?.rationale ?? '';
        setRationale(rationaleRef.current);
        regionsRef.current = next.mine?.regions ?? [];
        setRegions(regionsRef.current);
        showPrelabels(next.item.id);
        shownAt.current = performance.now();
      },
    },
  );
  const { shown, shownRef, phase, viewId, alive, show, finish, askedAfter } = walk;
  const notes = useLoopNotes(project, annotator, shown, phase, o.notes);
  // Read through a ref: the notes are a new object each render, and the loop's callbacks stay the same.
  const notesRef = useRef(notes);
  notesRef.current = notes;

  const { remember, undoJudgement } = useUndoJudgement({ project, annotator, task, outbox, shownRef, alive, load, show, opts });

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
      const ahead = askedAfter(from);
      // Already answered: shown at once, in the key's own handler, so the key's state and the next item
      // render together in one pass instead of two.
      if (ahead?.ready && !skip(ahead.ready.item.id)) return show(ahead.ready);
      let next = ahead ? await ahead.promise : null;
      // The ask goes around to earlier gaps; it may name an item whose save is still on its way.
      const find = (passOver: (id: number) => boolean, skipped?: number[]) =>
        nextUnjudged(project, annotator, task, from.seq, passOver, viewId.current, skipped)
          .then((found) => (found ? load(found) : null))
          .catch(() => null);
      if (!next || skip(next.item.id)) {
        const skipped: number[] = [];
        next = await find(skip, skipped);
        // Nothing but items whose save is on its way: the host may serve one whatever the position (a
        // pending qualification serves its set in its own order), so the end is said only once it has them.
        if (!next && skipped.length) {
          await landed(skipped);
          next = await find(isPending);
        }
      }
      if (!alive.current || shownRef.current?.item !== from) return;
      if (next) show(next);
      else finish();
    },
    [project, annotator, task, isPending, landed, load, show, finish, askedAfter, viewId, alive, shownRef],
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
      remember({ itemId: item.id, itemNumber: item.position, words });
      void send(current, decision, words, { rationale: rationaleRef.current, prelabelVisible }, current.mine === null).catch(() => undefined);
      notesRef.current.judged();
      moving.current = true;
      void advance(item).finally(() => {
        moving.current = false;
      });
      return true;
    },
    [task, say, send, advance, remember, shownRef],
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
    [load, show, say, alive],
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
    [project, annotator, task, flushRationale, open, shownRef, viewId],
  );

  /** Ctrl+Z: a rating when that was the last thing done here ('rating'), else the last judgement ('judgement'). */
  const undo = useCallback((): 'rating' | 'judgement' => {
    if (notesRef.current.undoRating(shownRef.current?.item.id)) return 'rating';
    void undoJudgement();
    return 'judgement';
  }, [undoJudgement, shownRef]);

  return {
    shown,
    item: shown?.item ?? null,
    mine: shown?.mine ?? null,
    phase,
    loadError: walk.loadError,
    elsewhere: walk.elsewhere,
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
