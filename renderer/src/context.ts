// What every screen needs from the shell: who is labeling, where to go, and the progress figures.
import { createContext, useContext } from 'react';
import type { AppInfo } from '../../shared/api';
import type { Route } from './route';

export interface Progress {
  labeled: number;
  total: number;
}

export interface Shell {
  appInfo: AppInfo | null;
  annotator: string;
  setAnnotator(name: string): void;
  navigate(route: Route): void;
  /** Shortcuts are off while an overlay has the keyboard. */
  keysEnabled: boolean;
  /** Asks the header to re-read the progress figures (after a label was saved or undone). */
  refreshProgress(): void;
  progress: Progress | null;
}

export const ShellContext = createContext<Shell | null>(null);

export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell outside the app shell');
  return shell;
}
