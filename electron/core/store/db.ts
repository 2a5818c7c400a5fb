// Opens the SQLite file and brings it to the newest schema with numbered, plain-SQL migrations. Before a
// migration touches a database that holds data, a copy of it is made beside it (VACUUM INTO), named by
// its old schema version and the date; a database written by a newer Arbiter is refused, not guessed at.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ArbiterError } from '../base/errors';
import { appRoot } from '../base/paths';
import { removeStaleImports } from './imports';
import { recoverLabelImports } from './labelImports';
import type { Db } from './sqlite';

export type { Db } from './sqlite';

export interface OpenOptions {
  readonly?: boolean;
  /** Path to an Electron-ABI build of better-sqlite3, passed in by the Electron shell. */
  nativeBinding?: string;
}

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(): Migration[] {
  const dir = join(appRoot(), 'migrations');
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((name) => ({ version: Number(name.slice(0, 4)), name, sql: readFileSync(join(dir, name), 'utf8') }));
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function openDb(path: string, options: OpenOptions = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, {
    readonly: options.readonly ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  try {
    db.pragma('busy_timeout = 5000');
    refuseNewer(db, path);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      // FULL: a label acknowledged to the annotator is on disk even if the machine loses power.
      db.pragma('synchronous = FULL');
    }
    db.pragma('foreign_keys = ON');
    if (!options.readonly) {
      migrate(db, path);
      // An import a crash or kill cut short left rows nobody can see: they go now.
      removeStaleImports(db);
      // A labels merge a kill cut short: removed while it was pending, finished once it was applying.
      recoverLabelImports(db);
    }
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function refuseNewer(db: Db, path: string): void {
  const version = schemaVersion(db);
  const known = Math.max(0, ...listMigrations().map((m) => m.version));
  if (version > known) {
    throw new ArbiterError(
      'invalid_input',
      `${path} was written by a newer Arbiter (schema ${version}; this version knows up to ${known}). ` +
        'Nothing was changed. Update Arbiter to open it, or open an older backup (see docs/data.md, "Backup and restore").',
    );
  }
}

/** `<db>.v<old version>-<yyyymmdd-hhmmss>.bak`: where the copy before a migration goes. */
export function migrationBackupPath(path: string, version: number, at = new Date()): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${path}.v${version}-${stamp}.bak`;
}

/** A consistent copy of the whole database into a new file (a WAL snapshot: writers go on meanwhile). */
export function backupTo(db: Db, target: string): string {
  if (existsSync(target)) throw new ArbiterError('conflict', `${target} already exists; choose another name.`);
  mkdirSync(dirname(target), { recursive: true });
  db.prepare('VACUUM INTO ?').run(target);
  return target;
}

export function migrate(db: Db, path = ':memory:'): number {
  const current = schemaVersion(db);
  const pending = listMigrations().filter((m) => m.version > current);
  // A database with data gets a copy before its schema changes; a new, empty one has nothing to lose.
  if (pending.length && current > 0 && path !== ':memory:') backupTo(db, migrationBackupPath(path, current));
  let version = current;
  for (const migration of pending) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
    version = migration.version;
  }
  return version;
}

/**
 * The app's own connection never checkpoints as part of a commit: with a bulk writer filling the WAL, a
 * label save would otherwise pay for copying it into the database. Checkpoints run off the annotator's
 * path instead (see checkpoint and the service's background checkpointer).
 */
export function deferCheckpoints(db: Db): void {
  db.pragma('wal_autocheckpoint = 0');
}

/** Copies what it can of the WAL into the database without waiting on anyone (PASSIVE). */
export function checkpoint(db: Db): void {
  db.pragma('wal_checkpoint(PASSIVE)');
}

/**
 * For bulk writers whose every commit is re-done on failure (a score job: scores are a cache): commits
 * without waiting for the disk. A crash may lose the last commits, never consistency.
 */
export function relaxDurability(db: Db): void {
  db.pragma('synchronous = NORMAL');
}

/** What `arbiter doctor` reports about a database. */
export function databaseFacts(db: Db): { integrity: unknown; sqlite: string; schema: number } {
  return {
    integrity: db.pragma('integrity_check', { simple: true }),
    sqlite: db.prepare('SELECT sqlite_version()').pluck().get() as string,
    schema: schemaVersion(db),
  };
}
