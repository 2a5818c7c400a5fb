// Copies of the whole database that Arbiter makes itself, and how many of them it keeps. A project
// delete copies the database into backups/ beside it first; `arbiter backup` copies it beside the
// database. Each copy is written under a `.partial` name and renamed when whole, so a kill never leaves
// a half copy under a backup's name; after each new copy the oldest are removed until the newest N are
// left (limit backupsKept: ARBITER_BACKUPS_KEPT, default 5). Files of other names are never touched.
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ArbiterError } from '../base/errors';
import { limit } from '../base/limits';
import { startWorker } from '../base/workers';
import type { BackupWorkerInput, BackupWorkerMessage } from './backupWorker';
import { backupTo, type Db } from './db';

/** `yyyymmdd-hhmmss` (UTC): the stamp of `arbiter backup`'s copies and of the copies before a migration. */
export function stamp(at = new Date()): string {
  return at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** `yyyymmddThhmmss` (UTC): the stamp of the copies before a delete. */
function deleteStamp(at = new Date()): string {
  return at.toISOString().replace(/[-:]/g, '').slice(0, 15);
}

/** `<base>.sqlite`, or `<base>-2.sqlite`, `-3`… when that name (or a copy being written to it) exists. */
export function freeName(base: string): string {
  const taken = (path: string) => existsSync(path) || existsSync(`${path}.partial`);
  let candidate = `${base}.sqlite`;
  for (let n = 2; taken(candidate); n++) candidate = `${base}-${n}.sqlite`;
  return candidate;
}

/** Where `arbiter backup` puts a copy by default: `<db>.backup-<yyyymmdd-hhmmss>.sqlite` beside it. */
export function defaultBackupPath(dbPath: string, at = new Date()): string {
  return freeName(`${dbPath}.backup-${stamp(at)}`);
}

/** Where a delete keeps the database as it was: `backups/before-delete-<project>-<yyyymmddThhmmss>.sqlite`. */
export function deleteBackupPath(dbPath: string, project: string, at = new Date()): string {
  return freeName(join(dirname(dbPath), 'backups', `before-delete-${project.replace(/[^\w.-]+/g, '_')}-${deleteStamp(at)}`));
}

const DELETE_COPY = /^before-delete-.+-(\d{8}T\d{6})(?:-(\d+))?\.sqlite$/;

function defaultCopyPattern(dbPath: string): RegExp {
  const name = basename(dbPath).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${name}\\.backup-(\\d{8}-\\d{6})(?:-(\\d+))?\\.sqlite$`);
}

/** A `.partial` copy nobody has written to for this long was cut short by a crash or a kill. */
const STALE_PARTIAL_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the oldest copies in `dir` whose names match `pattern` until `keep` are left (oldest by the
 * stamp in the name, then by the -N suffix, then by modification time), and `.partial` leftovers of
 * such copies untouched for a day. `made`, the copy just written, always stays (whatever the clock said
 * when it was named) and counts as the newest. Returns the paths removed.
 */
export function rotate(dir: string, pattern: RegExp, keep = limit('backupsKept'), made?: string): string[] {
  if (!existsSync(dir)) return [];
  const copies: { path: string; key: string; mtime: number }[] = [];
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name.endsWith('.partial') && pattern.test(name.slice(0, -'.partial'.length))) {
      const mtime = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - mtime > STALE_PARTIAL_MS) {
        rmSync(path, { force: true });
        removed.push(path);
      }
      continue;
    }
    const match = pattern.exec(name);
    if (!match) continue;
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info?.isFile() || path === made) continue;
    copies.push({ path, key: `${match[1]!.replace(/\D/g, '')}-${(match[2] ?? '1').padStart(6, '0')}`, mtime: info.mtimeMs });
  }
  copies.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.mtime - b.mtime || (a.path < b.path ? -1 : 1)));
  const room = made && existsSync(made) ? keep - 1 : keep;
  for (const copy of copies.slice(0, Math.max(0, copies.length - room))) {
    rmSync(copy.path, { force: true });
    removed.push(copy.path);
  }
  return removed;
}

/** Keeps the newest copies in backups/ beside the database. */
export function rotateDeleteBackups(dbPath: string, made?: string): string[] {
  return rotate(join(dirname(dbPath), 'backups'), DELETE_COPY, undefined, made);
}

/** Keeps the newest of `arbiter backup`'s default-named copies beside the database. */
export function rotateDefaultBackups(dbPath: string, made?: string): string[] {
  return rotate(dirname(dbPath), defaultCopyPattern(dbPath), undefined, made);
}

/** Copies the database on a worker's own read-only connection; the caller's thread stays free. */
function copyOffThread(dbPath: string, target: string): Promise<void> {
  const input: BackupWorkerInput = { dbPath, target };
  const worker = startWorker('store/backupWorker.ts', 'backup-worker.mjs', input);
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.on('message', (message: BackupWorkerMessage) =>
      finish(() => (message.type === 'done' ? resolve() : reject(new ArbiterError(message.code === 'conflict' ? 'conflict' : 'internal', message.message)))),
    );
    worker.on('error', (error) => finish(() => reject(new ArbiterError('internal', `The backup could not be made: ${error.message}`))));
    worker.on('exit', (code) => finish(() => reject(new ArbiterError('internal', `The backup worker stopped unexpectedly (exit code ${code}).`))));
  });
}

/**
 * A whole copy of the database at `target`, written as `<target>.partial` and renamed when complete.
 * `offThread`: on a worker (the app and the browser host, whose thread serves saves), else on `db`'s
 * connection (the command line, or where no worker can start).
 */
export async function copyDatabase(db: Db, dbPath: string, target: string, { offThread = true } = {}): Promise<void> {
  if (existsSync(target)) throw new ArbiterError('conflict', `${target} already exists; choose another name.`);
  const partial = `${target}.partial`;
  try {
    let done = false;
    if (offThread && dbPath !== ':memory:' && dbPath !== '') {
      try {
        await copyOffThread(dbPath, partial);
        done = true;
      } catch (error) {
        if (existsSync(partial)) throw error;
        // No worker could start (or it failed before writing): copy on this connection instead.
        console.warn(`arbiter: the backup worker failed (${(error as Error).message}); copying on this thread.`);
      }
    }
    if (!done) backupTo(db, partial);
    if (existsSync(target)) throw new ArbiterError('conflict', `${target} already exists; choose another name.`);
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/**
 * Copies the database into backups/ before a project is deleted, then keeps the newest N there.
 * Returns the copy's file name (the page learns no folder).
 */
export async function backupBeforeDelete(db: Db, dbPath: string, project: string, options: { offThread?: boolean } = {}): Promise<string> {
  const target = deleteBackupPath(dbPath, project);
  await copyDatabase(db, dbPath, target, options);
  rotateDeleteBackups(dbPath, target);
  return basename(target);
}
