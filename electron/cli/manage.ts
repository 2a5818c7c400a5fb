// `arbiter backup` and `arbiter projects [rename OLD NEW | delete NAME]`: copies of the database, and
// the project changes that the app's project picker makes, for scripts.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { invalidInput } from '../core/errors';
import { backupTo, openDb } from '../core/store/db';
import * as projects from '../core/store/projects';
import { overviewNow } from '../core/service/screenTotals';
import { taskLine } from '../../shared/api';
import { checkProjectName } from './options';
import { dbPathFrom, parse, UsageError, withDb, type CliIo } from './io';

type Command = (argv: string[], io: CliIo) => Promise<number>;

/** `yyyymmdd-hhmmss` (UTC), as in the copies made before a migration. */
function stamp(at = new Date()): string {
  return at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** `<db>.backup-<yyyymmdd-hhmmss>.sqlite`; a second backup within the same second gets `-2`, `-3`… */
export function defaultBackupPath(dbPath: string, at = new Date()): string {
  const base = `${dbPath}.backup-${stamp(at)}`;
  let candidate = `${base}.sqlite`;
  for (let n = 2; existsSync(candidate); n++) candidate = `${base}-${n}.sqlite`;
  return candidate;
}

/**
 * Where a delete keeps the database as it was: `backups/` beside it, named as the service names it
 * (electron/core/service/projects.ts), so the app and the CLI leave the same trail.
 */
function deleteBackupPath(dbPath: string, project: string, at = new Date()): string {
  const file = `before-delete-${project.replace(/[^\w.-]+/g, '_')}-${at.toISOString().replace(/[-:]/g, '').slice(0, 15)}.sqlite`;
  return join(dirname(dbPath), 'backups', file);
}

export const backupCommand: Command = async (argv, io) => {
  const { values, positionals } = parse(argv, { out: { type: 'string' } });
  if (positionals.length) throw new UsageError('backup takes no arguments besides --out FILE');
  if (values.out !== undefined && (typeof values.out !== 'string' || values.out.trim() === '')) throw new UsageError('--out needs a file name');
  const dbPath = dbPathFrom(values);
  if (!existsSync(dbPath)) throw invalidInput(`There is no database at ${dbPath}; nothing to back up.`);
  const target = typeof values.out === 'string' ? resolve(values.out) : defaultBackupPath(dbPath);
  if (target === dbPath) throw invalidInput(`${target} is the database itself; choose another file.`);
  // Read-only: the copy is of the database as it is (no migration first), and this changes nothing.
  const db = openDb(dbPath, { readonly: true });
  try {
    backupTo(db, target);
  } finally {
    db.close();
  }
  io.out(JSON.stringify({ backup: target, bytes: statSync(target).size }));
  return 0;
};

const renameCommand: Command = async (argv, io) => {
  const { values, positionals } = parse(argv, {});
  if (positionals.length !== 2) throw new UsageError('rename takes two names: OLD NEW');
  const from = checkProjectName(positionals[0]!, 'OLD');
  const to = checkProjectName(positionals[1]!, 'NEW');
  return withDb(values, (db) => {
    const summary = projects.summarize(db, projects.renameProject(db, from, to));
    io.out(JSON.stringify({ renamed: from, ...summary }));
    return 0;
  });
};

const deleteCommand: Command = async (argv, io) => {
  const { values, positionals } = parse(argv, { yes: { type: 'boolean', short: 'y', default: false } });
  if (positionals.length !== 1) throw new UsageError('delete takes one name: NAME [--yes]');
  const name = checkProjectName(positionals[0]!, 'NAME');
  const yes = values.yes === true;
  const ask = io.ask;
  if (!yes && !ask) throw new UsageError('delete asks before it deletes, and stdin is not a terminal: pass --yes');
  const dbPath = dbPathFrom(values);
  return withDb(values, async (db) => {
    const row = projects.requireProject(db, name);
    const items = row.item_count;
    if (!yes) {
      const answer = await ask!(`Delete project ${row.name} and its ${items} item${items === 1 ? '' : 's'}? A backup is written first. [y/N] `);
      if (!/^\s*y(es)?\s*$/i.test(answer)) {
        io.err('Nothing was deleted.');
        return 1;
      }
    }
    const backup = backupTo(db, deleteBackupPath(dbPath, row.name));
    const id = projects.markDeleting(db, row.name);
    await projects.deleteProjectRows(db, id);
    io.out(JSON.stringify({ deleted: row.name, items, backup }));
    return 0;
  });
};

const listCommand: Command = async (argv, io) => {
  const { values, positionals } = parse(argv, { json: { type: 'boolean', default: false } });
  if (positionals.length) throw new UsageError(`projects takes rename OLD NEW, delete NAME [--yes], or nothing (to list); not "${positionals[0]}"`);
  return withDb(values, (db) => {
    const list = projects.projectRows(db).map((row) => overviewNow(db, row));
    if (values.json) io.out(JSON.stringify(list));
    // Per task, each over its own items: "pairs 3/10 · ranks 1/4 · steps 2/5".
    else for (const p of list) io.out(`${p.name}\t${p.items} item${p.items === 1 ? '' : 's'}\t${taskLine(p.tasks)}`);
    return 0;
  });
};

export const projectsCommand: Command = async (argv, io) => {
  const [sub, ...rest] = argv;
  if (sub === 'rename') return renameCommand(rest, io);
  if (sub === 'delete') return deleteCommand(rest, io);
  if (sub === 'list') return listCommand(rest, io);
  return listCommand(argv, io);
};
