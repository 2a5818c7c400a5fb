// Which turns of the trajectory on screen show their long results whole (`x`, or a click on the fold
// line). Belongs to one item and response: another one opens with everything folded.
import { useCallback, useRef, useState } from 'react';

const NONE: ReadonlySet<number> = new Set();

export function useUnfolded(at: string) {
  const [state, setState] = useState<{ at: string; open: ReadonlySet<number> }>({ at, open: NONE });
  const unfolded = state.at === at ? state.open : NONE;
  const atRef = useRef(at);
  atRef.current = at;
  const toggle = useCallback((index: number) => {
    setState((now) => {
      const open = new Set(now.at === atRef.current ? now.open : NONE);
      if (open.has(index)) open.delete(index);
      else open.add(index);
      return { at: atRef.current, open };
    });
  }, []);
  return { unfolded, toggle };
}
