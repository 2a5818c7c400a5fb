// `arbiter backup` and `arbiter projects [rename OLD NEW | delete NAME]`: copies of the database, and
// the project changes that the app's project picker makes, for scripts.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { invalidInput } from '../core/base/errors';
import { backupBeforeDelete, copyDatabase, defaultBackupPath, rotateDefaultBackups, openDb, projects } from '../core/service/direct';
import { overviewNow } from '../core/service/screenTotals';
import { taskLine } from '../../shared/api';
import { checkProjectName } from './options';
import { dbPathFrom, parse, UsageError, withDb, type CliIo } from './io';

type Command = (argv: string[], io: CliIo) => Promise<number>;

export const backupCommand: Command = async (argv, io) => {
  const { values, positionals } = parse(argv, { out: { type: 'string' } });
  if (positionals.length) throw new UsageError('backup takes no arguments besides --out FILE');
  if (values.out !== undefined && (typeof values.out !== 'string' || values.out.trim() === '')) throw new UsageError('--out needs a file name');
  const dbPath = dbPathFrom(values);
  if (!existsSync(dbPath)) throw invalidInput(`There is no database at ${dbPath}; nothing to back up.`);
  const named = typeof values.out === 'string';
  const target = named ? resolve(values.out as string) : defaultBackupPath(dbPath);
  if (target === dbPath) throw invalidInput(`${target} is the database itself; choose another file.`);
  // Read-only: the copy is of the database as it is (no migration first), and this changes nothing.
  const db = openDb(dbPath, { readonly: true });
  try {
    await copyDatabase(db, dbPath, target, { offThread: false });
  } finally {
    db.close();
  }
  // Default-named copies are rotated (the newest N kept, ARBITER_BACKUPS_KEPT); a file you named is yours.
  if (!named) rotateDefaultBackups(dbPath, target);
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
    // The same trail as the app's delete: backups/ beside the database, the newest N kept.
    const backup = join(dirname(dbPath), 'backups', await backupBeforeDelete(db, dbPath, row.name, { offThread: false }));
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
