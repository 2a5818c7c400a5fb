// What the labeling loop keeps beside its item: the model pre-labels (asked with the item and ahead for the
// next, and, once answered, handed over in the same render as the item: no second render after the key),
// and the item's ratings and critiques (features/rubrics useItemNotes) for the screens that have them.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ItemShape } from '../../components/itemShape';
import type { LoadedPrelabels } from '../../components/prelabels';
import { api, errorMessage } from '../../api';
import { useItemNotes } from '../rubrics/useItemNotes';
import { useJudgeLoads } from '../judges/judgeLoads';
import type { Loaded } from './judgements';

export type ShownPrelabels = (LoadedPrelabels & { itemId: number }) | null;

interface Entry {
  promise: Promise<LoadedPrelabels>;
  /** Set once the answer is in, so an item shown after it has its pre-labels in the same render. */
  result?: LoadedPrelabels;
}

/** Pre-labels by item, asked once (a failure is asked again next time); emptied when `version` moves. */
export function usePrelabelsAhead(project: string, version: number, enabled: boolean) {
  const cache = useRef(new Map<number, Entry>());
  const seen = useRef(version);
  const [shown, setShown] = useState<ShownPrelabels>(null);
  const shownId = useRef<number | null>(null);

  const load = useCallback(
    (itemId: number): Promise<LoadedPrelabels> => {
      if (seen.current !== version) {
        seen.current = version;
        cache.current.clear();
      }
      let hit = cache.current.get(itemId);
      if (!hit) {
        const entry: Entry = {
          promise: api.prelabels({ project, itemId }).then(
            (data) => (entry.result = { data, error: null }),
            (e: unknown) => {
              cache.current.delete(itemId); // a failure is not remembered: the next look tries again
              return { data: null, error: errorMessage(e) };
            },
          ),
        };
        hit = entry;
        cache.current.set(itemId, hit);
      }
      return hit.promise;
    },
    [project, version],
  );

  /** The item now on screen: its pre-labels at once when they are in, else when they arrive. */
  const show = useCallback(
    (itemId: number) => {
      if (!enabled) return;
      shownId.current = itemId;
      const promise = load(itemId);
      const ready = cache.current.get(itemId)?.result;
      if (ready) return setShown({ itemId, ...ready });
      void promise.then((result) => {
        if (shownId.current === itemId) setShown({ itemId, ...result });
      });
    },
    [enabled, load],
  );

  const prefetch = useCallback((itemId: number) => void (enabled && load(itemId)), [enabled, load]);
  /** The item's pre-labels when they are in already (else undefined: ask with load). */
  const peek = useCallback((itemId: number) => (seen.current === version ? cache.current.get(itemId)?.result : undefined), [version]);
  return useMemo(() => ({ shown, show, load, prefetch, peek }), [shown, show, load, prefetch, peek]);
}

/** The item's ratings and critiques on screens that have them (Compare, Verdict); idle elsewhere (Rank). */
export function useLoopNotes(project: string, annotator: string, shown: Loaded | null, phase: string, options: { sideName(letter: string): string } | undefined) {
  const item = phase === 'ready' && options ? (shown?.item ?? null) : null;
  const order = item?.shownOrder.join(',');
  const shape: ItemShape | null = useMemo(
    () => (item ? { id: item.id, seq: item.seq, position: item.position, responses: item.responses.length, shownOrder: item.shownOrder } : null),
    // The shape stands for the item's identity: a new answer for the same item keeps it.
    [item?.id, item?.seq, item?.position, item?.responses.length, order],
  );
  const sideNameRef = useRef(options?.sideName);
  sideNameRef.current = options?.sideName;
  const sideName = useCallback((letter: string) => sideNameRef.current?.(letter) ?? letter, []);
  const notes = useItemNotes({ project, annotator, item: shape, sideName });
  // The judges' pre-labels, asked with the item and ahead for the next (features/judges/judgeLoads.ts).
  const judges = useJudgeLoads(project, annotator);
  const { ratings, critiques } = notes;
  const enabled = Boolean(options);
  const prefetch = (itemId: number) => {
    if (!enabled) return;
    ratings.prefetch(itemId);
    critiques.prefetch(itemId);
    judges.prefetch(itemId);
  };
  return { ...notes, prefetch, judges };
}
