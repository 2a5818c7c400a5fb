// worker_threads entry: makes one copy of the database (VACUUM INTO) on its own read-only connection, so
// the thread that serves saves never waits on it (a WAL snapshot: writers go on meanwhile). Started by
// ../backups.ts; bundled as backup-worker.mjs beside each bundle (scripts/build.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { backupTo, openDb } from './db';

export interface BackupWorkerInput {
  dbPath: string;
  target: string;
}

export type BackupWorkerMessage = { type: 'done' } | { type: 'error'; message: string; code: string };

function main(): void {
  const port = parentPort;
  if (!port) throw new Error('store/backupWorker.ts must run in a worker thread');
  const { dbPath, target } = workerData as BackupWorkerInput;
  let db: ReturnType<typeof openDb> | null = null;
  try {
    // The Electron shell names its Electron-ABI build of better-sqlite3 in the environment, which worker
    // threads share.
    db = openDb(dbPath, { readonly: true, nativeBinding: process.env.ARBITER_SQLITE_BINDING || undefined });
    backupTo(db, target);
    port.postMessage({ type: 'done' } satisfies BackupWorkerMessage);
  } catch (error) {
    const e = error as Error & { code?: string };
    port.postMessage({ type: 'error', message: e.message, code: typeof e.code === 'string' ? e.code : 'internal' } satisfies BackupWorkerMessage);
  } finally {
    db?.close();
  }
}

main();
