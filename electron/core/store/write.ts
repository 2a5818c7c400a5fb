// The write lock, shared fairly. SQLite has one writer at a time. Bulk work (imports, merges, deletes)
// holds it for a few tens of milliseconds at a time and lets go between batches. A save that finds the
// lock taken says so in a small "writer waiting" file beside the database, which bulk work in any
// process or thread checks before it takes the lock again and steps aside for: a save waits at most
// for the batch in progress, never behind the whole import. It polls for the lock every quarter
// millisecond (SQLite's own busy handler sleeps up to 100 ms between tries).
import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';
import type { Db } from './sqlite';

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks this thread for `ms` (fractions allowed): between write batches, where an await would not do. */
export function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

const POLL_MS = 0.25;
const GIVE_UP_MS = 10_000;
/** A waiting-writer file older than this was left by a process that died while waiting: ignored. */
const STALE_MS = 3_000;
/** Bulk work steps aside for a waiting writer this long at most. */
const STEP_ASIDE_MS = 250;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED';
}

function waitingFile(db: Db): string | null {
  return db.memory || !db.name ? null : `${db.name}-writer-waiting`;
}

function tryBegin(db: Db): boolean {
  try {
    db.exec('BEGIN IMMEDIATE');
    return true;
  } catch (error) {
    if (!isBusy(error)) throw error;
    return false;
  }
}

/** BEGIN IMMEDIATE, ahead of bulk work: trying until the write lock is free (or 10 s have passed). */
export function beginWrite(db: Db): void {
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  let flag: string | null = null;
  try {
    if (tryBegin(db)) return;
    flag = waitingFile(db);
    if (flag) closeSync(openSync(flag, 'a'));
    const deadline = performance.now() + GIVE_UP_MS;
    for (;;) {
      if (tryBegin(db)) return;
      if (performance.now() > deadline) throw Object.assign(new Error('The database stayed busy for 10 s; try again.'), { code: 'SQLITE_BUSY' });
      sleepSync(POLL_MS);
    }
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
    if (flag) {
      try {
        unlinkSync(flag);
      } catch {
        /* another waiter removed it first */
      }
    }
  }
}

/** Whether a save is waiting for the write lock right now (bulk work then commits early). */
export function writerWaiting(db: Db): boolean {
  const flag = waitingFile(db);
  if (!flag) return false;
  try {
    return Date.now() - statSync(flag).mtimeMs <= STALE_MS;
  } catch {
    return false;
  }
}

/** Bulk work calls this before taking the lock again: it waits while a save is waiting. */
export function stepAsideForWaitingWriters(db: Db): void {
  const flag = waitingFile(db);
  if (!flag) return;
  const until = performance.now() + STEP_ASIDE_MS;
  for (;;) {
    let mtime: number;
    try {
      mtime = statSync(flag).mtimeMs;
    } catch {
      return;
    }
    if (Date.now() - mtime > STALE_MS || performance.now() > until) return;
    sleepSync(POLL_MS);
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

/** Begins a bulk write transaction, after any save that is waiting. */
export function beginBulkWrite(db: Db): void {
  stepAsideForWaitingWriters(db);
  beginWrite(db);
}
