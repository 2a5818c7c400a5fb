// A labels merge is atomic by visibility, like an item import (migration 0005). Its revisions are written
// in short batches carrying the merge's id (label.import_id) while its record is pending: no reader shows
// them (VISIBLE_LABEL), and the current labels they would make are staged in label_import_head, not
// label_head. When every revision is written, one short transaction marks the record 'applying' (from
// then on the merge counts as done) and applies the staged heads, counters and resolutions; a big merge
// applies them in further short batches, each with its counters, and a kill in between is finished at
// the next open. A merge that fails or is cancelled removes its revisions; one a kill cut short while
// pending is removed at the next open.
import { hostname } from 'node:os';
import type { Db } from './sqlite';
import { uuidv7 } from '../../../shared/ids';
import { beginBulkWrite, sleepSync, stepAsideForWaitingWriters, writeNow } from './write';
import { HEAD_COLUMNS, HEAD_UPDATES, HEAD_VALUES } from './headColumns';
import { deferLabelSearch, rewriteDeferredLabelSearch, touchedByHeads } from './labelSearch';

export interface PendingLabelImport {
  id: number;
  projectId: number;
}

const OWNER = `${hostname()}:${process.pid}`;

function ownerAlive(owner: string | null): boolean {
  if (!owner) return false;
  const host = owner.slice(0, owner.lastIndexOf(':'));
  const pid = Number(owner.slice(owner.lastIndexOf(':') + 1));
  if (host !== hostname()) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Staged heads applied per transaction: a few tens of ms, so a waiting save gets in between. */
const APPLY_BATCH = 5000;
/** Revisions deleted per transaction while removing a merge. */
const DELETE_BATCH = 5000;

/**
 * Writes one batch of a pending merge in its own transaction, committed without waiting for the disk
 * (synchronous = NORMAL, put back after the commit, before anything else runs on the connection): nothing
 * of a pending merge shows, one a crash cut short is removed at the next open, and the transaction that
 * completes it (completeLabelImport) commits with the connection's FULL, which makes every batch before
 * it durable too. An item import's batches commit the same way (store/imports.ts importSession).
 */
export function writeMergeBatch<T>(db: Db, fn: () => T): T {
  const synchronous = db.pragma('synchronous', { simple: true }) as number;
  db.pragma('synchronous = NORMAL');
  try {
    return writeNow(db, fn);
  } finally {
    db.pragma(`synchronous = ${synchronous}`);
  }
}

/** Starts a merge: its record, pending and owned by this process. */
export function beginLabelImport(db: Db, projectId: number, fileName: string): PendingLabelImport {
  const result = db
    .prepare("INSERT INTO label_import (project_id, file_name, state, owner, started_at) VALUES (?, ?, 'pending', ?, ?)")
    .run(projectId, fileName, OWNER, new Date().toISOString());
  return { id: Number(result.lastInsertRowid), projectId };
}

/** A revision a merge stages as the current label of its item, annotator and task. */
export interface StagedHead {
  itemId: number;
  annotatorId: number;
  task: string;
  seq: number;
  createdAt: string;
  id: string;
  done: boolean;
  choice: string | null;
}

/** Heads one statement of stageAll stages. */
const STAGED_PER_STATEMENT = 64;

/**
 * Prepared statements that write a pending merge's rows (inside the caller's write transaction):
 * stage(revision) stages it as the current label of its item, annotator and task when it is later by
 * (created_at, id) than what the merge staged there before; resolve(labelId, note) stages a resolution.
 */
export function labelImportStager(db: Db, pending: PendingLabelImport) {
  const head = db.prepare(
    `INSERT INTO label_import_head (import_id, item_id, annotator_id, task, label_seq, created_at, label_id, done, choice)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (import_id, item_id, annotator_id, task) DO UPDATE SET
       label_seq = excluded.label_seq, created_at = excluded.created_at, label_id = excluded.label_id, done = excluded.done, choice = excluded.choice
     WHERE excluded.created_at > label_import_head.created_at
        OR (excluded.created_at = label_import_head.created_at AND excluded.label_id > label_import_head.label_id)`,
  );
  // stageAll's statement: STAGED_PER_STATEMENT rows, each staged after the ones before it.
  const heads = db.prepare(
    `INSERT INTO label_import_head (import_id, item_id, annotator_id, task, label_seq, created_at, label_id, done, choice)
     VALUES ${Array.from({ length: STAGED_PER_STATEMENT }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
     ON CONFLICT (import_id, item_id, annotator_id, task) DO UPDATE SET
       label_seq = excluded.label_seq, created_at = excluded.created_at, label_id = excluded.label_id, done = excluded.done, choice = excluded.choice
     WHERE excluded.created_at > label_import_head.created_at
        OR (excluded.created_at = label_import_head.created_at AND excluded.label_id > label_import_head.label_id)`,
  );
  const resolution = db.prepare('INSERT OR IGNORE INTO label_import_resolution (import_id, label_id, note) VALUES (?, ?, ?)');
  const stage = (r: StagedHead): void => void head.run(pending.id, r.itemId, r.annotatorId, r.task, r.seq, r.createdAt, r.id, r.done ? 1 : 0, r.choice);
  return {
    stage,
    /** stage for many revisions, in their order: STAGED_PER_STATEMENT a statement. */
    stageAll(rows: readonly StagedHead[]): void {
      let at = 0;
      for (; at + STAGED_PER_STATEMENT <= rows.length; at += STAGED_PER_STATEMENT) {
        const params: unknown[] = [];
        for (let i = at; i < at + STAGED_PER_STATEMENT; i++) {
          const r = rows[i]!;
          params.push(pending.id, r.itemId, r.annotatorId, r.task, r.seq, r.createdAt, r.id, r.done ? 1 : 0, r.choice);
        }
        heads.run(params);
      }
      for (; at < rows.length; at++) stage(rows[at]!);
    },
    resolve(labelId: string, note: string): void {
      resolution.run(pending.id, labelId, note);
    },
  };
}

/**
 * Applies one batch of a merge's staged heads (those with rowid in (after, after + APPLY_BATCH]) with
 * their counters: a staged revision becomes current only when later by (created_at, id) than the current
 * one, so merges in any order end the same. Returns the last rowid it looked at, or null when none is left.
 */
function applyBatch(db: Db, importId: number, after: number): number | null {
  const last = db
    .prepare('SELECT MAX(rowid) FROM (SELECT rowid FROM label_import_head WHERE rowid > ? AND +import_id = ? ORDER BY rowid LIMIT ?)')
    .pluck()
    .get(after, importId, APPLY_BATCH) as number | null;
  if (last === null) return null;
  // By rowid range (the unary + keeps SQLite off the import_id index, which would visit every staged row).
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS merge_head (item_id INTEGER, annotator_id INTEGER, task TEXT, label_seq INTEGER, done INTEGER, choice TEXT,
             was_done INTEGER, human INTEGER, project_id INTEGER);
           CREATE TEMP TABLE IF NOT EXISTS merge_item (item_id INTEGER, task TEXT, project_id INTEGER, before INTEGER, PRIMARY KEY (item_id, task));
           DELETE FROM temp.merge_head; DELETE FROM temp.merge_item;`);
  db.prepare(
    `INSERT INTO temp.merge_head
     SELECT s.item_id, s.annotator_id, s.task, s.label_seq, s.done, s.choice, COALESCE(h.done, 0), a.kind = 'human', i.project_id
     FROM label_import_head s
     JOIN item i ON i.id = s.item_id
     JOIN annotator a ON a.id = s.annotator_id
     LEFT JOIN label_head h ON h.item_id = s.item_id AND h.annotator_id = s.annotator_id AND h.task = s.task
     LEFT JOIN label l ON l.seq = h.label_seq
     WHERE s.rowid > ? AND s.rowid <= ? AND +s.import_id = ?
       AND (h.label_seq IS NULL OR l.seq IS NULL OR l.created_at < s.created_at OR (l.created_at = s.created_at AND l.id < s.label_id))`,
  ).run(after, last, importId);
  // An item counts as labeled while at least one human has a current judgement on it: counted before and after.
  const humansDone = `(SELECT COUNT(*) > 0 FROM label_head h JOIN annotator a ON a.id = h.annotator_id
                       WHERE h.item_id = m.item_id AND h.task = m.task AND h.done = 1 AND a.kind = 'human')`;
  db.exec(`INSERT OR IGNORE INTO temp.merge_item (item_id, task, project_id, before)
           SELECT DISTINCT m.item_id, m.task, m.project_id, 0 FROM temp.merge_head m WHERE m.human = 1 AND m.done <> m.was_done;
           UPDATE temp.merge_item AS m SET before = ${humansDone};`);
  // The labels' search rows of the items these heads touch are written once each at the end of the batch,
  // not once per head by the triggers (store/labelSearch.ts, migration 19).
  deferLabelSearch(db).touch(touchedByHeads('temp.merge_head'));
  // The head's stats columns from the revision it now points at (store/headColumns.ts).
  db.exec(`INSERT INTO label_head (item_id, annotator_id, task, label_seq, done, choice, ${HEAD_COLUMNS})
           SELECT m.item_id, m.annotator_id, m.task, m.label_seq, m.done, m.choice, ${HEAD_VALUES} FROM temp.merge_head m JOIN label l ON l.seq = m.label_seq WHERE true
           ON CONFLICT (item_id, annotator_id, task) DO UPDATE SET label_seq = excluded.label_seq, done = excluded.done, choice = excluded.choice, ${HEAD_UPDATES};
           INSERT INTO progress (project_id, task, annotator_id, done)
           SELECT project_id, task, annotator_id, SUM(done - was_done) FROM temp.merge_head WHERE done <> was_done GROUP BY project_id, task, annotator_id
           ON CONFLICT (project_id, task, annotator_id) DO UPDATE SET done = done + excluded.done;
           INSERT INTO task_progress (project_id, task, labeled)
           SELECT project_id, task, SUM(${humansDone} - before) FROM temp.merge_item m WHERE true GROUP BY project_id, task
           ON CONFLICT (project_id, task) DO UPDATE SET labeled = labeled + excluded.labeled;
           DELETE FROM temp.merge_head; DELETE FROM temp.merge_item;`);
  rewriteDeferredLabelSearch(db);
  return last;
}

/** A lead's resolutions the merge carried become adjudications here (as store/review.ts linkAdjudication makes them). */
function applyResolutions(db: Db, importId: number): void {
  const rows = db.prepare('SELECT label_id, note FROM label_import_resolution WHERE import_id = ?').all(importId) as { label_id: string; note: string }[];
  const link = db.prepare(
    `INSERT INTO adjudication (id, item_id, task, label_seq, annotator_id, note, created_at)
     SELECT ?, item_id, task, seq, annotator_id, ?, created_at FROM label WHERE id = ?`,
  );
  for (const row of rows) link.run(uuidv7(), row.note, row.label_id);
}

function finish(db: Db, importId: number, revisions: number | null): void {
  db.prepare(`UPDATE label_import SET state = 'complete', owner = NULL${revisions === null ? '' : ', revisions = ?'} WHERE id = ?`).run(...(revisions === null ? [] : [revisions]), importId);
  // With no other merge pending or applying (this transaction holds the write lock, so none can start),
  // what is staged is this merge's alone: the tables are emptied whole, which SQLite does without visiting
  // each row (300k staged heads took 0.9 s one by one).
  const others = db.prepare("SELECT COUNT(*) FROM label_import WHERE state <> 'complete' AND id <> ?").pluck().get(importId) as number;
  if (others === 0) {
    db.exec('DELETE FROM label_import_head; DELETE FROM label_import_resolution;');
    return;
  }
  db.prepare('DELETE FROM label_import_head WHERE import_id = ?').run(importId);
  db.prepare('DELETE FROM label_import_resolution WHERE import_id = ?').run(importId);
}

function transaction(db: Db, fn: () => void): void {
  beginBulkWrite(db);
  try {
    fn();
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Makes a merge visible: one transaction marks it applying (its revisions show from then on) and applies
 * its resolutions and first batch of heads; a merge that stages more heads than a batch applies the rest
 * in further short transactions, each stepping aside for a waiting save.
 */
export async function completeLabelImport(db: Db, pending: PendingLabelImport, revisions: number, pause: () => Promise<void> = () => new Promise(setImmediate)): Promise<void> {
  let after: number | null = 0;
  transaction(db, () => {
    db.prepare("UPDATE label_import SET state = 'applying', revisions = ? WHERE id = ?").run(revisions, pending.id);
    applyResolutions(db, pending.id);
    after = applyBatch(db, pending.id, 0);
    if (after === null) finish(db, pending.id, null);
  });
  while (after !== null) {
    await pause();
    const from: number = after;
    transaction(db, () => {
      after = applyBatch(db, pending.id, from);
      if (after === null) finish(db, pending.id, null);
    });
  }
}

/**
 * Removes a pending merge's revisions in short batches, then its record (and what it staged). A merge
 * already applying counts as done and is not removed: it is finished by the next open (or returns false).
 */
export async function removeLabelImport(db: Db, pending: PendingLabelImport, pause: () => Promise<void> = () => new Promise(setImmediate)): Promise<boolean> {
  const state = db.prepare('SELECT state FROM label_import WHERE id = ?').pluck().get(pending.id) as string | undefined;
  if (state !== 'pending') return false;
  const batch = db.prepare(`DELETE FROM label WHERE seq IN (SELECT seq FROM label WHERE import_id = ? LIMIT ${DELETE_BATCH})`);
  for (;;) {
    let changes = 0;
    transaction(db, () => (changes = batch.run(pending.id).changes));
    if (changes < DELETE_BATCH) break;
    await pause();
  }
  transaction(db, () => void db.prepare('DELETE FROM label_import WHERE id = ?').run(pending.id));
  return true;
}

/**
 * At open, and before a merge: a merge a kill cut short while pending is removed (nothing of it was ever
 * shown); one left applying is finished, whoever started it (it counts as done, and applying a staged
 * head twice changes nothing: it is no longer later than the current one). Synchronous, batch by batch.
 * Returns how many it removed or finished.
 */
export function recoverLabelImports(db: Db): number {
  const rows = db.prepare("SELECT id, project_id, state, owner FROM label_import WHERE state <> 'complete'").all() as {
    id: number;
    project_id: number;
    state: 'pending' | 'applying';
    owner: string | null;
  }[];
  let recovered = 0;
  for (const row of rows) {
    if (row.state === 'pending' && ownerAlive(row.owner)) continue;
    recovered++;
    if (row.state === 'pending') {
      const batch = db.prepare(`DELETE FROM label WHERE seq IN (SELECT seq FROM label WHERE import_id = ? LIMIT ${DELETE_BATCH})`);
      while (db.transaction(() => batch.run(row.id).changes).immediate() === DELETE_BATCH) sleepSync(0.5);
      db.prepare('DELETE FROM label_import WHERE id = ?').run(row.id);
      continue;
    }
    let after: number | null = 0;
    while (after !== null) {
      stepAsideForWaitingWriters(db);
      const from: number = after;
      db.transaction(() => {
        after = applyBatch(db, row.id, from);
        if (after === null) finish(db, row.id, null);
      }).immediate();
    }
  }
  return recovered;
}
