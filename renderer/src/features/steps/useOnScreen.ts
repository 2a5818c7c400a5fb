// Keeps an editor open on a step whole on screen: its list no taller than the step list's visible height
// allows (with the editor's other lines, a severity prompt among them), and the step list scrolled so the
// editor's bottom is above the key bar. A turn card's list grows as the virtual list measures it, so this
// is done again over the next frames until the editor is in view.
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

export function useOnScreen(root: RefObject<HTMLElement | null>, list: RefObject<HTMLElement | null>, key: string): void {
  useLayoutEffect(() => {
    const el = root.current;
    if (!el) return;
    let frames = 0;
    let id = 0;
    const again = () => {
      if (!fit(el, list.current) && ++frames < 10) id = requestAnimationFrame(again);
    };
    fit(el, list.current);
    // The step list keeps its current step in view in the same commit; this runs after it.
    id = requestAnimationFrame(again);
    return () => cancelAnimationFrame(id);
  }, [key]);
}
