// What an item's side panel (ratings, critiques) loads from the host, once per item: the answer is kept
// and shared by every ask for that item, a failed one is forgotten (asked again next time), and the next
// item's can be loaded ahead while this one is worked on.
import { useCallback, useRef } from 'react';

type ItemAsk = { project: string; annotator: string; itemId: number };

export function useItemLoads<T>(project: string, annotator: string, load: (ask: ItemAsk) => Promise<T>) {
  const loads = useRef(new Map<number, Promise<T>>());
  /** Answers already in, so a screen can draw an item loaded ahead in the same render as the item. */
  const answers = useRef(new Map<number, T>());
  const loadRef = useRef(load);
  loadRef.current = load;
  const fetchItem = useCallback(
    (itemId: number) => {
      let promise = loads.current.get(itemId);
      if (!promise) {
        promise = loadRef.current({ project, annotator, itemId });
        loads.current.set(itemId, promise);
        promise.then(
          (answer) => loads.current.has(itemId) && answers.current.set(itemId, answer),
          () => loads.current.delete(itemId),
        );
      }
      return promise;
    },
    [project, annotator],
  );
  /** Loads an item ahead (the next one while this one is worked on). */
  const prefetch = useCallback((itemId: number) => void fetchItem(itemId).catch(() => undefined), [fetchItem]);
  /** Forgets an item's answer: the next ask loads it again. */
  const forget = useCallback((itemId: number) => {
    loads.current.delete(itemId);
    answers.current.delete(itemId);
  }, []);
  /** The item's answer when it is in already (else undefined: ask with fetchItem). */
  const peek = useCallback((itemId: number) => answers.current.get(itemId), []);
  return { fetchItem, prefetch, forget, peek };
}
