// How the annotator reads the pair: the diff view (w), scrolling together (l), and the page keys.
// Space / PageDown scroll both columns a page (each its own page), or only the column that has the
// focus (click or Tab into it; Esc gives the keys back to both). With scrolling together on, the
// longer column takes the page and the other follows. Stacked columns share one scroll: it takes it.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { Content } from '../../../../shared/domain';
import { scrollByPage, scrollsItself } from '../../components/keys';
import { useStoredToggle } from '../../components/useStoredToggle';
import type { ColumnDiff } from './ResponseColumn';
import { diffSource } from './diffSource';
import { useSyncedScroll } from './useSyncedScroll';
import { wordDiff } from './wordDiff';

export function useReading(itemId: number | undefined) {
  const [diffOn, toggleDiff] = useStoredToggle('arbiter.diff', false);
  const [syncOn, toggleSync] = useStoredToggle('arbiter.syncScroll', false);
  const leftBody = useRef<HTMLDivElement>(null);
  const rightBody = useRef<HTMLDivElement>(null);
  const responses = useRef<HTMLDivElement>(null);
  useSyncedScroll(leftBody, rightBody, syncOn, itemId);

  // A new item opens at the top of both responses, not where the last one was left. Only a box that was
  // scrolled is put back: setting scrollTop lays the page out in the key's commit, ~4 ms a key with a pair
  // of videos on it (bench/video-loop.mjs --profile), and a box never scrolled is at the top already.
  const scrolled = useRef(new Set<Element>());
  useEffect(() => {
    const seen = (e: Event) => {
      if (e.target instanceof Element && [leftBody.current, rightBody.current, responses.current].includes(e.target as HTMLDivElement)) scrolled.current.add(e.target);
    };
    document.addEventListener('scroll', seen, { capture: true, passive: true });
    return () => document.removeEventListener('scroll', seen, { capture: true });
  }, []);
  useLayoutEffect(() => {
    for (const el of [leftBody.current, rightBody.current, responses.current]) if (el && scrolled.current.has(el)) el.scrollTop = 0;
    scrolled.current.clear();
  }, [itemId, diffOn]);

  const scrollPage = useCallback(
    (direction: 1 | -1) => {
      const columns = [leftBody.current, rightBody.current].filter((el): el is HTMLDivElement => scrollsItself(el));
      if (!columns.length) {
        if (scrollsItself(responses.current)) {
          scrolled.current.add(responses.current);
          scrollByPage(responses.current, direction);
        }
        return;
      }
      const focused = columns.find((c) => c.contains(document.activeElement));
      const range = (el: HTMLElement) => el.scrollHeight - el.clientHeight;
      const longer = columns.reduce((a, b) => (range(b) > range(a) ? b : a));
      const targets = focused ? [focused] : syncOn ? [longer] : columns;
      for (const el of targets) {
        scrolled.current.add(el);
        scrollByPage(el, direction);
      }
    },
    [syncOn],
  );

  /** Esc: a column that had the focus gives the page keys back to both. */
  const releaseColumn = useCallback(() => {
    const active = document.activeElement;
    for (const el of [leftBody.current, rightBody.current]) if (el && active instanceof HTMLElement && el.contains(active)) active.blur();
  }, []);

  return { diffOn, toggleDiff, syncOn, toggleSync, leftBody, rightBody, responses, scrollPage, releaseColumn };
}

/** Both columns' part of the diff view while it is on (a trajectory's tool calls included); computed once per pair. */
export function useColumnDiffs(on: boolean, left: Content | undefined, right: Content | undefined): { left: ColumnDiff; right: ColumnDiff } | null {
  return useMemo(() => {
    if (!on || left === undefined || right === undefined) return null;
    const found = wordDiff(diffSource(left), diffSource(right));
    return {
      left: { segments: found?.left ?? null, onlyHere: found?.onlyLeft ?? 0 },
      right: { segments: found?.right ?? null, onlyHere: found?.onlyRight ?? 0 },
    };
  }, [on, left, right]);
}
