// Keeps the WAL from growing without end while the app's own connection never checkpoints (a save must
// not pay for copying a bulk writer's pages): every few seconds it looks at the WAL's size and, past a
// threshold, folds it into the database on a task worker's connection, off the annotator's path.
import { statSync } from 'node:fs';
import { startTask } from './client';

const EVERY_MS = 5_000;
const WAL_BYTES = 32 * 1024 * 1024;

export function startCheckpointer(dbPath: string): () => void {
  if (dbPath === ':memory:' || dbPath === '') return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    let size = 0;
    try {
      size = statSync(`${dbPath}-wal`).size;
    } catch {
      return;
    }
    if (size < WAL_BYTES) return;
    try {
      running = true;
      startTask(dbPath, { kind: 'checkpoint' }).promise.then(
        () => (running = false),
        () => (running = false),
      );
    } catch {
      // No worker here (an unbundled run): the WAL is folded in when the database closes.
      running = false;
    }
  }, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
