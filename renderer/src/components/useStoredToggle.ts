// An on/off preference of this annotator on this machine (diff view, scrolling together), kept in
// localStorage so it survives a reload, like the theme.
import { useCallback, useEffect, useState } from 'react';

export function useStoredToggle(key: string, initial: boolean): [boolean, () => void] {
  const [on, setOn] = useState(() => {
    const stored = localStorage.getItem(key);
    return stored === null ? initial : stored === 'on';
  });
  useEffect(() => localStorage.setItem(key, on ? 'on' : 'off'), [key, on]);
  const toggle = useCallback(() => setOn((was) => !was), []);
  return [on, toggle];
}
