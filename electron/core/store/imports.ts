// Imports are atomic by visibility, not by one long transaction. An import record is written first,
// marked pending and owned by the writing process; the import's rows are written in short batches with
// seqs from the record's first_seq on, where the project does not show them (its visible_seq is below);
// one short transaction then moves visible_seq past them, adds the counters and marks the record
// complete. A cancelled or failed import removes its rows in batches; one left by a crash (its owner
// process is gone) is removed the next time the database is opened. A project an import creates is
// part of it: it stays hidden (under a name no one can type, see importProject) until the import
// completes, and goes with the import's rows when it fails or was killed.
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import { DEFAULT_ERROR_TAGS, DEFAULT_PROJECT_SETTINGS, type ProjectSettings } from '../../../shared/domain';
import { conflict } from '../base/errors';
import { removeImportImages } from './images';
import { removeImportVideos } from './videos';
import type { Db } from './sqlite';
import { beginBulkWrite, sleepSync, writeNow, writerWaiting } from './write';

export interface PendingImport {
  id: number;
  projectId: number;
  firstSeq: number;
}

const OWNER = `${hostname()}:${process.pid}`;

function ownerAlive(owner: string | null): boolean {
  if (!owner) return false;
  const [host, pid] = [owner.slice(0, owner.lastIndexOf(':')), Number(owner.slice(owner.lastIndexOf(':') + 1))];
  // Another machine's process cannot be asked; a database on a shared drive is not supported anyway.
  if (host !== hostname()) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The name a project made by an import has until the import completes: it starts with a NUL, which no one types. */
const HIDDEN_PROJECT = '\u0000importing-';

/** Creates the project an import will fill, hidden from every list and look-up by name until completeImport reveals it. */
export function importProject(db: Db, name: string): { id: number } {
  if (db.prepare('SELECT 1 FROM project WHERE name = ?').get(name)) throw conflict(`A project named "${name}" already exists.`);
  const result = db
    .prepare('INSERT INTO project (name, created_at, guidelines, settings) VALUES (?, ?, ?, ?)')
    .run(`${HIDDEN_PROJECT}${randomUUID()}`, new Date().toISOString(), '', JSON.stringify(DEFAULT_PROJECT_SETTINGS));
  return { id: Number(result.lastInsertRowid) };
}

/** The formats a project's completed imports read, each once, in the order first imported. */
export function importFormats(db: Db, projectId: number): string[] {
  return db.prepare("SELECT format FROM import_file WHERE project_id = ? AND state = 'complete' GROUP BY format ORDER BY MIN(id)").pluck().all(projectId) as string[];
}

/** Whether a project is one an import made and has not completed yet. */
function hiddenProject(db: Db, projectId: number): boolean {
  const name = db.prepare('SELECT name FROM project WHERE id = ?').pluck().get(projectId) as string | undefined;
  return name !== undefined && name.startsWith(HIDDEN_PROJECT);
}

/** Removes a project an import made, once its rows are gone (a failed, cancelled or killed import). */
export function dropImportProject(db: Db, projectId: number): void {
  if (hiddenProject(db, projectId)) db.prepare('DELETE FROM project WHERE id = ?').run(projectId);
}

/** Starts an import into a project: one pending import per project at a time. */
export function beginImport(db: Db, projectId: number, fileName: string, format: string): PendingImport {
  // A crashed import's rows sit above visible_seq: they must go before new rows are made visible over them.
  removeStaleImports(db, projectId);
  return db.transaction(() => {
    const running = db.prepare("SELECT id, owner, first_seq FROM import_file WHERE project_id = ? AND state = 'pending'").all(projectId) as {
      id: number;
      owner: string | null;
      first_seq: number;
    }[];
    for (const other of running) {
      if (ownerAlive(other.owner)) throw conflict(`Another import into this project is still running (${other.owner === OWNER ? 'in this process' : `process ${other.owner}`}); wait for it to finish, or cancel it.`);
    }
    const firstSeq = db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 FROM item WHERE project_id = ?').pluck().get(projectId) as number;
    const result = db
      .prepare(
        "INSERT INTO import_file (project_id, sha256, file_name, format, imported_at, items, labels, state, owner, first_seq) VALUES (?, '', ?, ?, ?, 0, 0, 'pending', ?, ?)",
      )
      .run(projectId, fileName, format, new Date().toISOString(), OWNER, firstSeq);
    return { id: Number(result.lastInsertRowid), projectId, firstSeq };
  }).immediate();
}

export interface ImportCounts {
  sha256: string;
  format: string;
  /** The seq the next new item would have had: visible_seq moves there. */
  endSeq: number;
  items: number;
  labels: number;
  /** Source-label revisions written by this import for its new items, by annotator and task: the counters they move. */
  labelsBy: Map<string, number>;
  /** A project the import made (importProject): it takes this name now and is listed from then on. */
  projectName?: string;
  /**
   * The error tags the file's kind of items starts a project with (an agent's trajectories: the agent
   * taxonomy): taken by a project that had no items and still has the default tags.
   */
  errorTags?: string[];
}

/** Makes a pending import's rows visible and counts them, in one short transaction (run inside it). */
export function completeImport(db: Db, pending: PendingImport, counts: ImportCounts): void {
  if (counts.projectName !== undefined && hiddenProject(db, pending.projectId)) {
    if (db.prepare('SELECT 1 FROM project WHERE name = ?').get(counts.projectName))
      throw conflict(`A project named "${counts.projectName}" was created while the import ran; nothing was imported. Import into that project, or choose another name.`);
    db.prepare('UPDATE project SET name = ? WHERE id = ?').run(counts.projectName, pending.projectId);
  }
  if (counts.errorTags && counts.items > 0) startingTags(db, pending.projectId, counts.errorTags);
  db.prepare('UPDATE project SET visible_seq = MAX(visible_seq, ?), item_count = item_count + ? WHERE id = ?').run(counts.endSeq, counts.items, pending.projectId);
  const bump = db.prepare(
    `INSERT INTO progress (project_id, task, annotator_id, done) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id, task, annotator_id) DO UPDATE SET done = done + excluded.done`,
  );
  for (const [key, n] of counts.labelsBy) {
    const [annotatorId, task] = key.split('|');
    if (n) bump.run(pending.projectId, task, Number(annotatorId), n);
  }
  db.prepare("UPDATE import_file SET state = 'complete', owner = NULL, sha256 = ?, format = ?, items = ?, labels = ? WHERE id = ?").run(
    counts.sha256,
    counts.format,
    counts.items,
    counts.labels,
    pending.id,
  );
}

/** A project's first items set its error tags, where it has none yet and its tags are still the defaults. */
function startingTags(db: Db, projectId: number, errorTags: string[]): void {
  const row = db.prepare('SELECT item_count, settings FROM project WHERE id = ?').get(projectId) as { item_count: number; settings: string } | undefined;
  if (!row || row.item_count > 0) return;
  const settings = { ...DEFAULT_PROJECT_SETTINGS, ...(JSON.parse(row.settings) as Partial<ProjectSettings>) };
  if (JSON.stringify(settings.errorTags) !== JSON.stringify(DEFAULT_ERROR_TAGS)) return;
  db.prepare('UPDATE project SET settings = ? WHERE id = ?').run(JSON.stringify({ ...settings, errorTags }), projectId);
}

/** Rows deleted per transaction while removing an import: a few ms each, so saves slip in between. */
const DELETE_BATCH = 2000;

/**
 * Removes a pending import's rows in short batches (the items cascade to their responses, labels and
 * heads), then its record. Asynchronous between batches so a waiting save gets the write lock.
 */
export async function removeImport(db: Db, pending: PendingImport, pause: () => Promise<void> = () => new Promise(setImmediate)): Promise<void> {
  const batch = db.prepare(
    `DELETE FROM item WHERE id IN (SELECT id FROM item WHERE project_id = ? AND seq >= ? AND seq >= (SELECT visible_seq FROM project WHERE id = ?) LIMIT ${DELETE_BATCH})`,
  );
  for (;;) {
    const { changes } = db.transaction(() => batch.run(pending.projectId, pending.firstSeq, pending.projectId)).immediate();
    if (changes < DELETE_BATCH) break;
    await pause();
  }
  removeImportImages(db, pending.projectId, pending.firstSeq);
  removeImportVideos(db, pending.projectId, pending.firstSeq);
  db.prepare('DELETE FROM import_file WHERE id = ?').run(pending.id);
}

/** Pending imports whose process is gone: a crash or a kill left them. */
export function staleImports(db: Db, projectId?: number): PendingImport[] {
  const rows = db
    .prepare(`SELECT id, project_id, first_seq, owner FROM import_file WHERE state = 'pending'${projectId === undefined ? '' : ' AND project_id = ?'}`)
    .all(...(projectId === undefined ? [] : [projectId])) as {
    id: number;
    project_id: number;
    first_seq: number;
    owner: string | null;
  }[];
  return rows.filter((r) => !ownerAlive(r.owner)).map((r) => ({ id: r.id, projectId: r.project_id, firstSeq: r.first_seq ?? 0 }));
}

/** Removes what crashed imports left (synchronously, batch by batch: called when a database opens). */
export function removeStaleImports(db: Db, projectId?: number): number {
  const stale = staleImports(db, projectId);
  const batch = db.prepare(
    `DELETE FROM item WHERE id IN (SELECT id FROM item WHERE project_id = ? AND seq >= ? AND seq >= (SELECT visible_seq FROM project WHERE id = ?) LIMIT ${DELETE_BATCH})`,
  );
  for (const pending of stale) {
    while (db.transaction(() => batch.run(pending.projectId, pending.firstSeq, pending.projectId)).immediate().changes === DELETE_BATCH);
    removeImportImages(db, pending.projectId, pending.firstSeq);
    removeImportVideos(db, pending.projectId, pending.firstSeq);
    db.prepare('DELETE FROM import_file WHERE id = ?').run(pending.id);
    dropImportProject(db, pending.projectId);
  }
  return stale.length;
}

/**
 * The pending import's new items (seq from `firstSeq` on) whose external id another item of the project
 * has too (one from before, or another of the same file): how many, and the first few ids in file order.
 * One pass over the project's items against the set of the new ids.
 */
export function sharedExternalIds(db: Db, projectId: number, firstSeq: number, examples: number): { items: number; examples: string[] } {
  const rows = db
    .prepare(
      `SELECT external_id AS id, SUM(seq >= @first) AS fresh FROM item
       WHERE project_id = @project AND external_id IN (SELECT external_id FROM item WHERE project_id = @project AND seq >= @first AND external_id IS NOT NULL)
       GROUP BY external_id HAVING COUNT(*) > 1 ORDER BY MIN(CASE WHEN seq >= @first THEN seq END)`,
    )
    .all({ project: projectId, first: firstSeq }) as { id: string; fresh: number }[];
  let items = 0;
  for (const row of rows) items += row.fresh;
  return { items, examples: rows.slice(0, examples).map((r) => r.id) };
}

/** Whether a file with this content was imported into the project before (complete imports only). */
export function importedBefore(db: Db, projectId: number, sha256: string): boolean {
  return db.prepare("SELECT 1 FROM import_file WHERE project_id = ? AND sha256 = ? AND state = 'complete'").get(projectId, sha256) !== undefined;
}

/**
 * How long bulk work holds the write lock at most, and how long it then lets go. It commits sooner, after
 * the batch in progress, as soon as a save says it is waiting: few commits while nobody waits (each
 * rewrites the index pages it touched into the WAL), and a save waits for one batch at most.
 */
const HOLD_MS = 1000;
const YIELD_MS = 0.5;

/**
 * How large an import lets the WAL grow before it copies it into the database between two batches (a
 * PASSIVE checkpoint: it waits on no one, and the next batch then writes the WAL from its start again).
 * Without it the WAL held everything the import wrote until the import ended: a 10M-item file (3 GB of
 * JSON) had made a WAL of 28 GB and growing when it was stopped. 1 GiB: an import of 100k pairs (~250 MB
 * of database) never reaches it, so it pays nothing more; a checkpoint each 256 MiB cost it ~0.5 s of CPU
 * (7.3 → 7.9 s), since pages written again and again are copied at each checkpoint. Settable for tests.
 */
export const importWal = { checkpointBytes: 1024 * 1024 * 1024 };

/** The WAL file's size in bytes (0 for an in-memory database or no WAL yet). */
function walBytes(db: Db): number {
  if (db.memory) return 0;
  try {
    return statSync(`${db.name}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * The connection settings and transaction rhythm of an import. Batches are written with write(); the
 * transaction stays open across calls until a save is waiting or it has held the lock HOLD_MS, then
 * commits and yields YIELD_MS so the save gets in; release() commits what is open (before the import
 * waits on anything). Batches commit with synchronous=NORMAL: until the import completes nothing of it is
 * visible, and finish() commits with FULL, which syncs everything before it too.
 */
export function importSession(db: Db, cacheKib: number) {
  const saved = {
    cache: db.pragma('cache_size', { simple: true }) as number,
    foreignKeys: db.pragma('foreign_keys', { simple: true }) as number,
    autoCheckpoint: db.pragma('wal_autocheckpoint', { simple: true }) as number,
    synchronous: db.pragma('synchronous', { simple: true }) as number,
  };
  // A bigger page cache: the uid index takes keys in random order, and with SQLite's default 2 MB most
  // inserts into it would go back to disk.
  if (saved.cache > -cacheKib && saved.cache < cacheKib) db.pragma(`cache_size = -${cacheKib}`);
  // Every id an import writes comes from a row it just inserted or looked up, so foreign keys hold by
  // construction; checking them per row would cost an index lookup per key. The integration tests run
  // foreign_key_check after imports.
  db.pragma('foreign_keys = OFF');
  // The checkpoint (copying the WAL into the database) is left to the connection's close or the task
  // worker's background step, not run inside a batch while a save waits.
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('synchronous = NORMAL');
  let openedAt = -1;
  let ended = false;
  const commit = () => {
    if (openedAt < 0) return;
    db.exec('COMMIT');
    openedAt = -1;
    if (walBytes(db) >= importWal.checkpointBytes) db.pragma('wal_checkpoint(PASSIVE)');
    sleepSync(YIELD_MS);
  };
  // A WAL past its bound also ends the transaction, so that the commit's checkpoint can copy it.
  const due = () => openedAt >= 0 && (performance.now() - openedAt >= HOLD_MS || writerWaiting(db) || walBytes(db) >= importWal.checkpointBytes);
  return {
    write(fn: () => void): void {
      if (openedAt < 0) {
        beginBulkWrite(db);
        openedAt = performance.now();
      }
      try {
        fn();
      } catch (error) {
        db.exec('ROLLBACK');
        openedAt = -1;
        throw error;
      }
      if (due()) commit();
    },
    /**
     * Called before the import waits for its next chunk: commits if a save waits or the hold is long.
     * The next chunk is normally ready (the worker prepares ahead), so the lock is usually kept.
     */
    release(): void {
      if (due()) commit();
    },
    /** Commits what is open, whoever waits (before the import waits on something slow). */
    commitNow: commit,
    /** The last, durable transaction: what makes the import visible. */
    finish(fn: () => void): void {
      commit();
      db.pragma(`synchronous = ${saved.synchronous}`);
      writeNow(db, fn);
    },
    /** Rolls back what is open and restores the connection's settings; safe to call twice. */
    end(): void {
      if (ended) return;
      ended = true;
      if (openedAt >= 0 && db.inTransaction) db.exec('ROLLBACK');
      openedAt = -1;
      db.pragma(`cache_size = ${saved.cache}`);
      db.pragma(`foreign_keys = ${saved.foreignKeys}`);
      db.pragma(`wal_autocheckpoint = ${saved.autoCheckpoint}`);
      db.pragma(`synchronous = ${saved.synchronous}`);
    },
  };
}
