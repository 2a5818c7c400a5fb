// worker_threads entry: runs one import or export on its own database connection and reports back, so
// the host's thread (Electron's main process) never waits on it. Started by ./client.ts; bundled as
// task-worker.mjs beside each bundle. Cancellation arrives through a shared flag.
import { parentPort, workerData } from 'node:worker_threads';
import { toErrorShape } from '../base/errors';
import { checkpoint, openDb } from '../store/db';
import type { TaskWorkerInput, TaskWorkerMessage } from './protocol';
import { runTask } from './run';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('tasks/worker.ts must run in a worker thread');
  const { dbPath, task, cancelFlag } = workerData as TaskWorkerInput;
  const flag = new Int32Array(cancelFlag);
  const post = (message: TaskWorkerMessage) => port.postMessage(message);
  let db: ReturnType<typeof openDb> | null = null;
  try {
    // The Electron shell names its Electron-ABI build of better-sqlite3 in the environment, which
    // worker threads share.
    db = openDb(dbPath, { nativeBinding: process.env.ARBITER_SQLITE_BINDING || undefined });
    const result = await runTask(db, task, {
      onProgress: (progress) => post({ type: 'progress', progress }),
      isCancelled: () => Atomics.load(flag, 0) !== 0,
    });
    post({ type: 'done', result });
    // The import committed without checkpointing its WAL (see importer.ts); fold it into the database
    // now, off the annotator's path, so no later label save pays for it.
    if (task.kind === 'import') checkpoint(db);
  } catch (error) {
    post({ type: 'error', error: toErrorShape(error) });
  } finally {
    db?.close();
  }
}

void main();
