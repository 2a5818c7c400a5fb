// The loop both screens share: the item on screen and this annotator's judgement of it (a ranking, or a
// verdict), the next unjudged item prefetched, saves through the outbox, → / ← between items of the
// screen's shape, and Ctrl+Z (which saves the judgement the last save replaced, where there was one).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ItemView } from '../../../../shared/api';
import type { RegionMark } from '../../../../shared/regions';
import { uuidv7 } from '../../../../shared/ids';
import { api, errorMessage } from '../../api';
import { prefetchItemImages } from '../../components/images/prefetch';
import { useOutbox, type SaveRequest } from './outbox';
import { mineFrom, neighbourOfShape, nextUnjudged, fitsShape, type Mine, type Shape } from './itemsOfShape';

export interface Loaded {
  item: ItemView;
  mine: Mine | null;
}

export type Phase = 'loading' | 'ready' | 'done' | 'empty' | 'error' | 'elsewhere';

/** What a save holds: the ranking (groups, best first) or the verdict. */
export type Judgement = { ranking: number[][] } | { verdict: 'good' | 'bad' };

interface UndoEntry {
  itemId: number;
  itemNumber: number;
  words: string;
  before: Mine | null;
  describe: (mine: Mine) => string;
}

function mineOf(request: SaveRequest): Mine {
  const regions = request.input.regions ?? [];
  return request.kind === 'ranking'
    ? { ranking: request.input.ranking, verdict: null, rationale: request.input.rationale ?? '', regions }
    : { ranking: null, verdict: request.input.verdict, rationale: request.input.rationale ?? '', regions };
}

export function useJudgementLoop(
  project: string,
  annotator: string,
  shape: Shape,
  startItemId: number | undefined,
  /** Counts a write in the header at once (+1 for an item without a judgement); returns "settled". */
  countWrite: (delta: number) => () => void,
  /** The models' view is on screen before the judgement (assist mode): saved with each revision. */
  prelabelVisible = false,
) {
  const outbox = useOutbox(project, annotator);
  const countWriteRef = useRef(countWrite);
  countWriteRef.current = countWrite;
  const { save: queue, say, isPending, pendingFor, settled } = outbox;
  /** Queues a save and counts it in the header meanwhile (the counters are read again once it lands). */
  const send = useCallback(
    (req: SaveRequest, words: string, itemNumber: number, newlyJudged = false) => {
      const done = countWriteRef.current(newlyJudged ? 1 : 0);
      const saving = queue(req, words, itemNumber);
      void saving.finally(done).catch(() => undefined);
      return saving;
    },
    [queue],
  );
  const [shown, setShown] = useState<Loaded | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [elsewhere, setElsewhere] = useState<ItemView | null>(null);
  const [rationale, setRationale] = useState('');
  const shownRef = useRef<Loaded | null>(null);
  const rationaleRef = useRef('');
  const [regions, setRegions] = useState<RegionMark[]>([]);
  const regionsRef = useRef<RegionMark[]>([]);
  const shownAt = useRef(performance.now());
  const prefetch = useRef<{ seq: number; promise: Promise<Loaded | null> } | null>(null);
  const undoStack = useRef<UndoEntry[]>([]);
  const moving = useRef(false);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  /** The item with this annotator's judgement: the newest revision, or a save still in the outbox. */
  const load = useCallback(
    async (item: ItemView): Promise<Loaded> => {
      const waiting = pendingFor(item.id);
      if (waiting) return { item, mine: mineOf(waiting) };
      const history = await api.labelHistory({ project, itemId: item.id });
      return { item, mine: mineFrom(history, annotator, shape) };
    },
    [project, annotator, shape, pendingFor],
  );

  const startPrefetch = useCallback(
    (current: ItemView) => {
      const promise = nextUnjudged(project, annotator, shape, current.seq, (id) => id === current.id || isPending(id))
        .then((next) => {
          // The next item's images load (and decode) while this one is judged.
          prefetchItemImages(project, next);
          return next ? load(next) : null;
        })
        .catch(() => null);
      prefetch.current = { seq: current.seq, promise };
    },
    [project, annotator, shape, isPending, load],
  );

  const show = useCallback(
    (next: Loaded) => {
      shownRef.current = next;
      setShown(next);
      const text = next.mine?.rationale ?? '';
      rationaleRef.current = text;
      setRationale(text);
      regionsRef.current = next.mine?.regions ?? [];
      setRegions(regionsRef.current);
      shownAt.current = performance.now();
      setPhase('ready');
      startPrefetch(next.item);
    },
    [startPrefetch],
  );

  // First item: the one asked for (sent to its own screen when it has another shape), or the first unjudged.
  useEffect(() => {
    let cancelled = false;
    setPhase('loading');
    (async () => {
      const first = startItemId !== undefined ? await api.getItem({ project, annotator, itemId: startItemId }) : await nextUnjudged(project, annotator, shape, undefined);
      if (cancelled) return;
      if (first && !fitsShape(shape, first.responses.length)) {
        setElsewhere(first);
        setPhase('elsewhere');
        return;
      }
      if (first) {
        const loaded = await load(first);
        if (!cancelled) show(loaded);
        return;
      }
      const any = await neighbourOfShape(project, annotator, shape, undefined, 'next');
      if (!cancelled) setPhase(any ? 'done' : 'empty');
    })().catch((error) => {
      if (cancelled) return;
      setLoadError(errorMessage(error));
      setPhase('error');
    });
    return () => {
      cancelled = true;
    };
  }, [project, annotator, shape, startItemId, load, show]);

  const request = useCallback(
    (item: ItemView, judgement: Judgement, text: string): SaveRequest => {
      const common = {
        project,
        annotator,
        itemId: item.id,
        // Made here and kept in the outbox with the save: a retried save stores nothing twice.
        id: uuidv7(),
        rationale: text.trim() ? text : undefined,
        timeMs: Math.max(0, Math.round(performance.now() - shownAt.current)),
        prelabelVisible,
        ...(regionsRef.current.length ? { regions: regionsRef.current } : {}),
      };
      return 'ranking' in judgement
        ? { kind: 'ranking', input: { ...common, ranking: judgement.ranking, shownOrder: item.shownOrder } }
        : { kind: 'verdict', input: { ...common, verdict: judgement.verdict } };
    },
    [project, annotator, prelabelVisible],
  );

  const advance = useCallback(
    async (from: ItemView) => {
      const skip = (id: number) => id === from.id || isPending(id);
      let next = prefetch.current?.seq === from.seq ? await prefetch.current.promise : null;
      // The prefetch goes around to earlier gaps; it may name an item whose save is still on its way.
      if (!next || skip(next.item.id)) {
        next = await nextUnjudged(project, annotator, shape, from.seq, skip)
          .then((found) => (found ? load(found) : null))
          .catch(() => null);
      }
      if (!alive.current || shownRef.current?.item !== from) return;
      if (next) show(next);
      else {
        shownRef.current = null;
        setShown(null);
        setPhase('done');
      }
    },
    [project, annotator, shape, isPending, load, show],
  );

  /** Saves the judgement of the item on screen and moves on to the next unjudged one. */
  const judge = useCallback(
    (judgement: Judgement, words: string, describe: (mine: Mine) => string): boolean => {
      const current = shownRef.current;
      if (!current || moving.current) return false;
      const req = request(current.item, judgement, rationaleRef.current);
      const itemNumber = current.item.position;
      const before = current.mine;
      undoStack.current.push({ itemId: current.item.id, itemNumber, words, before, describe });
      current.mine = mineOf(req);
      void send(req, words, itemNumber, before === null).catch(() => undefined);
      moving.current = true;
      void advance(current.item).finally(() => {
        moving.current = false;
      });
      return true;
    },
    [request, send, advance],
  );

  /** A rationale edited after the judgement was saved goes in a new revision of the same judgement. */
  const flushRationale = useCallback(() => {
    const current = shownRef.current;
    if (!current?.mine) return;
    const text = rationaleRef.current;
    if (current.mine.rationale === text) return;
    const { ranking, verdict } = current.mine;
    const judgement: Judgement | null = ranking ? { ranking } : verdict ? { verdict } : null;
    if (!judgement) return;
    const req = request(current.item, judgement, text);
    current.mine = mineOf(req);
    void send(req, 'Rationale', current.item.position).catch(() => undefined);
  }, [request, send]);

  /**
   * Region marks changed (components/images/regions): kept with the item and saved with its judgement; once
   * it has one, a new revision of the same judgement with these marks (as a rationale edit is).
   */
  const editRegions = useCallback(
    (marks: RegionMark[], words: string) => {
      regionsRef.current = marks;
      setRegions(marks);
      const current = shownRef.current;
      if (!current) return;
      const { ranking, verdict } = current.mine ?? { ranking: null, verdict: null };
      const judgement: Judgement | null = ranking ? { ranking } : verdict ? { verdict } : null;
      if (!judgement) {
        say({ text: `${words} — saved with your ${shape === 'ranking' ? 'ranking' : 'verdict'}`, itemNumber: current.item.position, state: 'info' });
        return;
      }
      const req = request(current.item, judgement, current.mine!.rationale);
      current.mine = mineOf(req);
      void send(req, words, current.item.position).catch(() => undefined);
    },
    [request, send, say, shape],
  );

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

  const go = useCallback(
    (direction: 'next' | 'previous') => {
      flushRationale();
      const current = shownRef.current?.item;
      const what = shape === 'ranking' ? 'item to rank' : 'single-response item';
      return open(
        () => neighbourOfShape(project, annotator, shape, current?.seq, direction),
        direction === 'next' ? `This is the last ${what}` : `This is the first ${what}`,
      );
    },
    [project, annotator, shape, flushRationale, open],
  );

  /**
   * Undoes the last save made here: the judgement it replaced is saved again (a new revision). The API
   * cannot take a ranking or a verdict back to none (undoLabel is pairwise only): then the item is
   * opened again with the judgement kept, and the line says so.
   */
  const undo = useCallback(async () => {
    const entry = undoStack.current.pop();
    if (!entry) {
      say({ text: 'Nothing to undo', itemNumber: null, state: 'info' });
      return;
    }
    const { itemId, itemNumber, words, before, describe } = entry;
    let item: ItemView | null;
    try {
      await settled(itemId);
      item = await api.getItem({ project, annotator, itemId });
    } catch (error) {
      say({ text: `Undo of “${words}”`, itemNumber, state: 'failed', error: errorMessage(error) });
      return;
    }
    if (!item || !alive.current) return;
    if (!before) {
      show(await load(item));
      say({
        text: `“${words}” is kept: a ${shape === 'ranking' ? 'ranking' : 'verdict'} cannot be taken back to none yet. Change it here instead.`,
        itemNumber,
        state: 'info',
      });
      return;
    }
    const judgement: Judgement = before.ranking ? { ranking: before.ranking } : { verdict: before.verdict! };
    regionsRef.current = before.regions ?? [];
    const req = request(item, judgement, before.rationale);
    show({ item, mine: mineOf(req) });
    // The outbox's line says saving / saved / NOT SAVED, as for any save.
    void send(req, `Undid “${words}” — back to ${describe(mineOf(req))}`, itemNumber).catch(() => undefined);
  }, [project, annotator, shape, settled, load, show, say, request, send]);

  const editRationale = useCallback((text: string) => {
    rationaleRef.current = text;
    setRationale(text);
  }, []);

  return { shown, phase, loadError, elsewhere, rationale, editRationale, flushRationale, regions, editRegions, judge, go, undo, outbox };
}
