// The step screen's keys are heard before the shell's: its `c` (correct), `m` (merge) and Esc (back to
// the compare screen) mean something else here than "Compare screen" / "Models screen". A key the
// screen uses is marked handled (preventDefault), so the shell leaves it alone; any other (`?`, `d`,
// `b`) goes on to the shell. Keys typed into a text box are never shortcuts.
import { useEffect, useRef } from 'react';
import { isTypingTarget } from './keys';

/** `handler` answers true for a key it used. */
export function useScreenKeys(handler: (event: KeyboardEvent) => boolean, enabled: boolean): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || isTypingTarget(event.target)) return;
      if (ref.current(event)) event.preventDefault();
    };
    // Capture on window: before the shell's own listener, whatever order the two were added in.
    window.addEventListener('keydown', listener, true);
    return () => window.removeEventListener('keydown', listener, true);
  }, [enabled]);
}
