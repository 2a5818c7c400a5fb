// Statements prepared once per connection, for the reads the labeling loop makes on every key (the next
// item, the item, its labels, the project and annotator by name): better-sqlite3's prepare parses and
// plans the SQL each time, which was half the host's time for a next item at 1M items (docs/benchmarks.md).
// Only for statements run to completion (get, all, run), never iterated: a cached statement that is still
// iterating cannot run again. A statement's mode (pluck) is part of its key, so callers cannot change it.
import type { Statement } from 'better-sqlite3';
import type { Db } from './sqlite';

const caches = new WeakMap<Db, Map<string, Statement>>();

/** The connection's prepared statement for `sql` (plucking the first column when `pluck`). */
export function statement(db: Db, sql: string, pluck = false): Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const key = pluck ? `pluck\0${sql}` : sql;
  let prepared = cache.get(key);
  if (!prepared) {
    prepared = db.prepare(sql);
    if (pluck) prepared.pluck();
    cache.set(key, prepared);
  }
  return prepared;
}
