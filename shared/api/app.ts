// What the app is and where it runs.
import { z } from 'zod';

export const appSchemas = {
  appInfo: z.object({}).strict(),
} as const;

/** Names no path on this machine: the browser host's page is untrusted (the host prints where the data lives). */
export interface AppInfo {
  version: string;
  transport: 'ipc' | 'http';
  defaultAnnotator: string;
  /** A project to open on start: the demo `npm start` made on this launch (null otherwise). */
  openProject?: string | null;
}

export interface AppOutputs {
  appInfo: AppInfo;
}
