// The write lock, shared fairly. SQLite has one writer at a time; bulk work (imports, merges, deletes)
// holds it for a few tens of milliseconds at a time and then lets go for a moment, and a save waiting for
// it polls often enough to take it in that moment. SQLite's own busy handler sleeps ever longer between
// tries (up to 100 ms) and would keep missing such gaps; this loop tries every quarter millisecond.
import type { Db } from './db';

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` (fractions allowed): between write batches, where an await would not do. */
export function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

const POLL_MS = 0.25;
const GIVE_UP_MS = 10_000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED';
}

/** BEGIN IMMEDIATE, trying until the write lock is free (or 10 s have passed). */
export function beginWrite(db: Db): void {
  const deadline = performance.now() + GIVE_UP_MS;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    for (;;) {
      try {
        db.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!isBusy(error) || performance.now() > deadline) throw error;
        sleepSync(POLL_MS);
      }
    }
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}

/** Runs `fn` in a short write transaction that takes the lock as soon as it is free. */
export function writeNow<T>(db: Db, fn: () => T): T {
  beginWrite(db);
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
