// Keeps an editor open on a step whole on screen: its list no taller than the step list's visible height
// allows (with the editor's other lines, a severity prompt among them), and the step list scrolled so the
// editor's bottom is above the key bar. A turn card grows as the virtual list measures it, and the list
// scrolls its current step into view again then, so this is done on every frame while the editor settles,
// and again whenever the editor or the list's content changes size.
import { useLayoutEffect, type RefObject } from 'react';

const MARGIN = 8;
const MIN_LIST = 72;
const MAX_LIST = 256;

function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const overflow = getComputedStyle(p).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && p.clientHeight > 0) return p;
  }
  return null;
}

/** Fits and scrolls once; true when the editor is whole in view. */
function fit(root: HTMLElement, list: HTMLElement | null): boolean {
  const box = scrollParent(root);
  if (!box) return true;
  const b = box.getBoundingClientRect();
  if (list) {
    const rest = root.offsetHeight - list.offsetHeight;
    list.style.maxHeight = `${Math.max(MIN_LIST, Math.min(MAX_LIST, b.height - rest - 3 * MARGIN))}px`;
  }
  const r = root.getBoundingClientRect();
  if (r.bottom > b.bottom - MARGIN) box.scrollTop += r.bottom - (b.bottom - MARGIN);
  else if (r.top < b.top + MARGIN) box.scrollTop -= b.top + MARGIN - r.top;
  const after = root.getBoundingClientRect();
  return after.bottom <= b.bottom && after.top >= b.top;
}

/** How long after an editor opens it is kept in view on every frame, whatever moves it. */
const SETTLE_MS = 2000;

export function useOnScreen(root: RefObject<HTMLElement | null>, list: RefObject<HTMLElement | null>, key: string): void {
  useLayoutEffect(() => {
    const el = root.current;
    if (!el) return;
    // The step list keeps its current step in view in the same commit, and scrolls again when the virtual
    // list measures the turn card (its height changes as the editor opens): until the editor has stood
    // still for a while, fit it on every frame rather than stopping at the first frame it was in view
    // (a later measure pushed it back under the key bar, and nothing brought it up again).
    const until = performance.now() + SETTLE_MS;
    let id = 0;
    const again = () => {
      fit(el, list.current);
      if (performance.now() < until) id = requestAnimationFrame(again);
    };
    fit(el, list.current);
    id = requestAnimationFrame(again);
    // After that, whenever the editor or the list's content changes size (a card measured late), fit again.
    const content = scrollParent(el)?.firstElementChild ?? null;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => fit(el, list.current));
    observer?.observe(el);
    if (content) observer?.observe(content);
    return () => {
      cancelAnimationFrame(id);
      observer?.disconnect();
    };
  }, [key]);
}
