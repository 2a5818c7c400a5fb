// Where Arbiter keeps its files, and where its read-only resources live, for source and built runs alike.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository (or packaged app) root: the first ancestor that holds migrations/. */
export function appRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'migrations')) && existsSync(join(dir, 'resources'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('Arbiter cannot find its migrations/ and resources/ folders next to the program');
}

export function dataDir(): string {
  if (process.env.ARBITER_HOME) return resolve(process.env.ARBITER_HOME);
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Arbiter');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Arbiter');
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'arbiter');
}

/** The desktop app's database; `ARBITER_DB` overrides it, `--db` overrides both. */
export function defaultDbPath(): string {
  return process.env.ARBITER_DB ? resolve(process.env.ARBITER_DB) : join(dataDir(), 'arbiter.db');
}

/**
 * Where the app writes exports before they leave (a download, or the desktop app's save dialog): the
 * `exports` folder beside the database in use, so each database (`--db`) keeps its own.
 */
export function exportsDir(dbPath: string): string {
  if (dbPath === ':memory:' || dbPath === '') return join(dataDir(), 'exports');
  return join(dirname(resolve(dbPath)), 'exports');
}
