// What the app is and where it runs.
import { z } from 'zod';

export const appSchemas = {
  appInfo: z.object({}).strict(),
} as const;

export interface AppInfo {
  version: string;
  transport: 'ipc' | 'http';
  dbPath: string;
  defaultAnnotator: string;
  exportsDir: string;
}

export interface AppOutputs {
  appInfo: AppInfo;
}
