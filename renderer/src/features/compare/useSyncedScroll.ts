// Scrolling together: when one column scrolls, the other follows to the same fraction of its length,
// so the ends line up even when one response is much longer. Side by side only; stacked columns share
// one scroll already.
import { useEffect, type RefObject } from 'react';

/** `itemId`: the columns mount with the first item, so the listeners are set up again when it changes. */
export function useSyncedScroll(left: RefObject<HTMLElement | null>, right: RefObject<HTMLElement | null>, enabled: boolean, itemId: unknown): void {
  useEffect(() => {
    const a = left.current;
    const b = right.current;
    if (!enabled || !a || !b) return;
    // Where we last moved each column ourselves: its scroll event at that spot is our echo, not the user.
    const placed = new Map<HTMLElement, number>();
    const follow = (from: HTMLElement, to: HTMLElement) => () => {
      const echo = placed.get(from);
      if (echo !== undefined && Math.abs(from.scrollTop - echo) < 2) return;
      placed.delete(from);
      const range = from.scrollHeight - from.clientHeight;
      const toRange = to.scrollHeight - to.clientHeight;
      if (range <= 0 || toRange <= 0) return;
      const top = Math.round((from.scrollTop / range) * toRange);
      if (Math.abs(to.scrollTop - top) < 1) return;
      placed.set(to, top);
      to.scrollTop = top;
    };
    const fromA = follow(a, b);
    const fromB = follow(b, a);
    a.addEventListener('scroll', fromA, { passive: true });
    b.addEventListener('scroll', fromB, { passive: true });
    return () => {
      a.removeEventListener('scroll', fromA);
      b.removeEventListener('scroll', fromB);
    };
  }, [left, right, enabled, itemId]);
}
