// What every screen needs from the shell: who is labeling, where to go, how to count a label in the header.
// Not the progress figures themselves: they move at every key, and every screen's reader of the shell
// (the text views among them) would render again with them; the header takes them as a prop.
import { createContext, useContext } from 'react';
import type { AppInfo, JobInfo } from '../../shared/api';
import type { Route } from './route';

export interface Progress {
  labeled: number;
  total: number;
}

export interface Shell {
  appInfo: AppInfo | null;
  /** The open project (null on the projects screen): images in content are fetched by it. */
  project: string | null;
  annotator: string;
  setAnnotator(name: string): void;
  /** `replace`: the new address takes the old one's place in the history. */
  navigate(route: Route, replace?: boolean): void;
  /** Shortcuts are off while an overlay has the keyboard. */
  keysEnabled: boolean;
  /** Asks the header to re-read the progress figures (after an import, say). */
  refreshProgress(): void;
  /**
   * Counts a label write in the header at once: +1 for an item that had no label, 0 for a change or an
   * undo. Call what it returns when the write settles; the counters are read again then.
   */
  countLabelWrite(delta: number): () => void;
  /** The project's pre-label setting: hidden until the annotator chooses (blind) or shown up front (assist). */
  prelabelMode: PrelabelMode | null;
  setPrelabelMode(mode: PrelabelMode): void;
  /** The newest score job of the open project (running or finished), kept current from host events. */
  job: JobInfo | null;
  /** Records a job the screen just started or cancelled, before its first event arrives. */
  trackJob(job: JobInfo): void;
  /** Grows each time a score job finishes: cached pre-labels may be stale. */
  scoresVersion: number;
}

export type PrelabelMode = 'blind' | 'assist';

export const ShellContext = createContext<Shell | null>(null);

export function useShell(): Shell {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell outside the app shell');
  return shell;
}
