// Keyboard plumbing shared by the screens: shortcuts never fire while the annotator types, and the page
// keys (Space / Shift+Space, PageDown / PageUp) scroll long text.
import { useEffect, useRef } from 'react';

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes(type);
  }
  return false;
}

/**
 * Listens for keydown on the window; the handler sees every key not typed into a text box. With `first`,
 * it listens on the document while the event goes down (capture), so it sees a key before every
 * bubbling listener, whatever order they were added in (the header's screen keys are added before a
 * screen's): a mode that owns the keys for a while (rating) marks them handled there.
 */
export function useGlobalKeys(handler: (event: KeyboardEvent) => void, enabled = true, first = false): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (isTypingTarget(event.target)) return;
      ref.current(event);
    };
    const target: Window | Document = first ? document : window;
    target.addEventListener('keydown', listener as EventListener, first);
    return () => target.removeEventListener('keydown', listener as EventListener, first);
  }, [enabled, first]);
}

/** The digit a key stands for, from its physical position (Shift+1 types "!" but is still 1). */
export function digitOf(event: KeyboardEvent): number | null {
  const match = /^(?:Digit|Numpad)(\d)$/.exec(event.code);
  if (match) return Number(match[1]);
  if (/^\d$/.test(event.key)) return Number(event.key);
  return null;
}

// The element the last Tab (or Shift+Tab) moved the focus to; a click or a script focusing clears it.
// (:focus-visible cannot tell: Chromium turns it on for a clicked button as soon as a key is pressed.)
let tabbing = false;
let tabbedTo: EventTarget | null = null;
if (typeof window !== 'undefined') {
  window.addEventListener('keydown', (event) => (tabbing = event.key === 'Tab'), true);
  window.addEventListener(
    'focusin',
    (event) => {
      tabbedTo = tabbing ? event.target : null;
      tabbing = false;
    },
    true,
  );
}

/**
 * A control reached with Tab keeps Space for itself, as everywhere else. One that was clicked does
 * not: after clicking "Tie", Space must scroll, not label the next pair as a tie too.
 */
function spacePressesControl(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement) || target !== tabbedTo) return false;
  return target.closest('button, a[href], summary, select, input, [role="button"], [role="checkbox"], [role="switch"]') !== null;
}

/** Which way a page key scrolls: Space and PageDown down (1), Shift+Space and PageUp up (-1); else null. */
export function pageDirection(event: KeyboardEvent): 1 | -1 | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (event.key === 'PageDown') return 1;
  if (event.key === 'PageUp') return -1;
  if (event.key === ' ' && !spacePressesControl(event.target)) return event.shiftKey ? -1 : 1;
  return null;
}

/** Whether an element scrolls its own content (a column side by side; not once the columns stack). */
export function scrollsItself(el: HTMLElement | null): el is HTMLElement {
  if (!el) return false;
  const overflow = getComputedStyle(el).overflowY;
  return (overflow === 'auto' || overflow === 'scroll') && el.scrollHeight > el.clientHeight + 1;
}

/** Where each element's smooth scroll is heading, so a second key pressed mid-way adds a whole page. */
const heading = new WeakMap<HTMLElement, { top: number; at: number }>();

/** Scrolls by one page, keeping a few lines of the old page in view so the eye finds its place. */
export function scrollByPage(el: HTMLElement, direction: 1 | -1): void {
  const overlap = Math.min(72, el.clientHeight * 0.15);
  const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  const last = heading.get(el);
  // A smooth scroll can take longer than usual on a busy machine: until it reaches its target (or 1.5 s
  // pass), the next page is counted from the target, not from wherever the animation is.
  const moving = last !== undefined && performance.now() - last.at < 1500 && Math.abs(el.scrollTop - last.top) > 1;
  const from = moving ? last.top : el.scrollTop;
  const max = el.scrollHeight - el.clientHeight;
  const next = Math.max(0, Math.min(max, from + direction * Math.max(40, el.clientHeight - overlap)));
  // A page that stops within the overlap of either end goes to the end: after a short last page down, paging
  // back up would otherwise stop a few lines below the top.
  const top = next < overlap ? 0 : max - next < overlap ? max : next;
  heading.set(el, { top, at: performance.now() });
  el.scrollTo({ top, behavior: reduced ? 'auto' : 'smooth' });
}
