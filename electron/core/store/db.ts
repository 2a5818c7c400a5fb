// Opens the SQLite file and brings it to the newest schema with numbered, plain-SQL migrations.
import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { appRoot } from '../paths';

export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
  /** Path to an Electron-ABI build of better-sqlite3, passed in by the Electron shell. */
  nativeBinding?: string;
}

export function listMigrations(): { version: number; name: string; sql: string }[] {
  const dir = join(appRoot(), 'migrations');
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((name) => ({ version: Number(name.slice(0, 4)), name, sql: readFileSync(join(dir, name), 'utf8') }));
}

export function openDb(path: string, options: OpenOptions = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, {
    readonly: options.readonly ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  db.pragma('busy_timeout = 5000');
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    // FULL: a label acknowledged to the annotator is on disk even if the machine loses power.
    db.pragma('synchronous = FULL');
  }
  db.pragma('foreign_keys = ON');
  if (!options.readonly) migrate(db);
  return db;
}

export function migrate(db: Db): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  let version = current;
  for (const migration of listMigrations()) {
    if (migration.version <= version) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
    version = migration.version;
  }
  return version;
}
