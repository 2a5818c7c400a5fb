// Gold in SQLite: the lead's marks on a file's own labels (migrations/0014_gold.sql) and the two kinds of
// gold judgement they and adjudications give. electron/core/review/gold.ts turns the rows into goldOf's
// answer; electron/core/service/gold.ts is the lead's action; the hub carries marks (core/hub/gold.ts).
import type { Task } from '../../../shared/domain';
import type { Db } from './sqlite';
import { VISIBLE } from './items';
import { NEWEST_ADJUDICATION } from './labels';

/** A task a mark names, or '*' (every task). */
export type GoldTask = Task | '*';

export interface GoldMarkDraft {
  id: string;
  itemId: number;
  task: GoldTask;
  gold: boolean;
  annotatorId: number;
  createdAt: string;
  hubSeq?: number | null;
}

/** Appends marks (inside the caller's write transaction); a mark whose id is here already is skipped. How many were new. */
export function appendGoldMarks(db: Db, marks: Iterable<GoldMarkDraft>): number {
  const insert = db.prepare('INSERT OR IGNORE INTO gold_mark (id, item_id, task, gold, annotator_id, created_at, hub_seq) VALUES (?, ?, ?, ?, ?, ?, ?)');
  let added = 0;
  for (const m of marks) added += insert.run(m.id, m.itemId, m.task, m.gold ? 1 : 0, m.annotatorId, m.createdAt, m.hubSeq ?? null).changes;
  return added;
}

/** The completed imports of a project, oldest first, with the seq range of the items each added. */
export function importRanges(db: Db, projectId: number): { id: number; fileName: string; firstSeq: number; endSeq: number }[] {
  const rows = db
    .prepare("SELECT id, file_name AS fileName, first_seq AS firstSeq FROM import_file WHERE project_id = ? AND state = 'complete' AND first_seq IS NOT NULL ORDER BY first_seq, id")
    .all(projectId) as { id: number; fileName: string; firstSeq: number }[];
  const visible = db.prepare('SELECT visible_seq FROM project WHERE id = ?').pluck().get(projectId) as number;
  return rows.map((r, i) => ({ ...r, endSeq: rows[i + 1]?.firstSeq ?? visible }));
}

/** The visible items an import added (by its record's id), in order; null when the project has no such import. */
export function importItemIds(db: Db, projectId: number, importId: number): number[] | null {
  const range = importRanges(db, projectId).find((r) => r.id === importId);
  if (!range) return null;
  return db
    .prepare(`SELECT i.id FROM item i WHERE i.project_id = @project AND ${VISIBLE} AND i.seq >= @low AND i.seq < @high ORDER BY i.seq`)
    .pluck()
    .all({ project: projectId, low: range.firstSeq, high: range.endSeq }) as number[];
}

/** Of these item ids, the ones that are visible items of the project. */
export function projectItemIds(db: Db, projectId: number, itemIds: number[]): number[] {
  return db
    .prepare(`SELECT i.id FROM item i WHERE i.project_id = @project AND ${VISIBLE} AND i.id IN (SELECT value FROM json_each(@ids)) ORDER BY i.seq`)
    .pluck()
    .all({ project: projectId, ids: JSON.stringify(itemIds) }) as number[];
}

/** The mark in force per item and task key ('*' or a task): the newest by (created_at, id). */
export function goldMarksInForce(db: Db, projectId: number): Map<number, Map<GoldTask, boolean>> {
  const rows = db
    .prepare(
      `SELECT g.item_id, g.task, g.gold FROM gold_mark g JOIN item i ON i.id = g.item_id
       WHERE i.project_id = @project AND ${VISIBLE} ORDER BY g.created_at, g.id`,
    )
    .raw()
    .iterate({ project: projectId }) as IterableIterator<[number, GoldTask, number]>;
  const marks = new Map<number, Map<GoldTask, { gold: boolean; order: number }>>();
  let order = 0;
  for (const [itemId, task, gold] of rows) {
    const perItem = marks.get(itemId) ?? new Map<GoldTask, { gold: boolean; order: number }>();
    perItem.set(task, { gold: gold === 1, order: order++ });
    marks.set(itemId, perItem);
  }
  // A task's own mark and an every-task mark: the newer decides; folded into one map per item.
  const folded = new Map<number, Map<GoldTask, boolean>>();
  for (const [itemId, perItem] of marks) {
    const all = perItem.get('*');
    const out = new Map<GoldTask, boolean>();
    if (all) out.set('*', all.gold);
    for (const [task, m] of perItem) if (task !== '*') out.set(task, all && all.order > m.order ? all.gold : m.gold);
    folded.set(itemId, out);
  }
  return folded;
}

/** A candidate gold judgement as stored: an adjudication's label, or a `source` annotator's current one. */
export interface GoldLabelRow {
  itemId: number;
  seq: number;
  externalId: string | null;
  task: Task;
  origin: 'adjudication' | 'file';
  choice: string | null;
  strength: number | null;
  ranking: string | null;
  body: string;
}

/** The newest adjudication of every item and task of the project (one task, when given), in item order. */
export function* adjudicationRows(db: Db, projectId: number, task?: Task): Generator<GoldLabelRow> {
  const rows = db
    .prepare(
      `SELECT d.item_id, i.seq, i.external_id, d.task, l.choice, l.strength, l.ranking, l.body FROM adjudication d
       JOIN label l ON l.seq = d.label_seq JOIN item i ON i.id = d.item_id
       WHERE i.project_id = @project AND ${VISIBLE} AND (@task IS NULL OR d.task = @task) AND ${NEWEST_ADJUDICATION}
       ORDER BY i.seq, d.task`,
    )
    .raw()
    .iterate({ project: projectId, task: task ?? null }) as IterableIterator<[number, number, string | null, Task, string | null, number | null, string | null, string]>;
  for (const [itemId, seq, externalId, t, choice, strength, ranking, body] of rows) yield { itemId, seq, externalId, task: t, origin: 'adjudication', choice, strength, ranking, body };
}

/** The `source` annotator's current labels on the items that carry a gold mark (one task, when given). */
export function* markedSourceRows(db: Db, projectId: number, task?: Task): Generator<GoldLabelRow> {
  const rows = db
    .prepare(
      `SELECT h.item_id, i.seq, i.external_id, h.task, l.choice, l.strength, l.ranking, l.body FROM label_head h
       JOIN annotator a ON a.id = h.annotator_id JOIN label l ON l.seq = h.label_seq JOIN item i ON i.id = h.item_id
       WHERE i.project_id = @project AND ${VISIBLE} AND a.kind = 'source' AND h.done = 1 AND (@task IS NULL OR h.task = @task)
         AND h.item_id IN (SELECT g.item_id FROM gold_mark g WHERE g.gold = 1)
       ORDER BY i.seq, h.task, l.seq`,
    )
    .raw()
    .iterate({ project: projectId, task: task ?? null }) as IterableIterator<[number, number, string | null, Task, string | null, number | null, string | null, string]>;
  for (const [itemId, seq, externalId, t, choice, strength, ranking, body] of rows) yield { itemId, seq, externalId, task: t, origin: 'file', choice, strength, ranking, body };
}

/** A mark as the hub carries it: the item by its uid, the lead by uuid. */
export interface GoldMarkLine {
  id: string;
  itemUid: string;
  task: GoldTask;
  gold: boolean;
  annotatorUuid: string;
  createdAt: string;
}

/** The project's marks not yet on the hub, oldest first, after local seq `afterSeq`. */
export function unsentGoldMarks(db: Db, projectId: number, limit = 1000, afterSeq = 0): (GoldMarkLine & { seq: number })[] {
  const rows = db
    .prepare(
      `SELECT g.seq, g.id, i.uid AS itemUid, g.task, g.gold, a.uuid AS annotatorUuid, g.created_at AS createdAt FROM gold_mark g
       JOIN item i ON i.id = g.item_id JOIN annotator a ON a.id = g.annotator_id
       WHERE g.hub_seq IS NULL AND g.seq > ? AND i.project_id = ? ORDER BY g.seq LIMIT ?`,
    )
    .all(afterSeq, projectId, limit) as (Omit<GoldMarkLine, 'gold'> & { gold: number; seq: number })[];
  return rows.map((r) => ({ ...r, gold: r.gold === 1 }));
}

/** Records where marks sit on the hub (after a push). */
export function setGoldMarkHubSeq(db: Db, placed: { id: string; hubSeq: number }[]): void {
  const update = db.prepare('UPDATE gold_mark SET hub_seq = ? WHERE id = ?');
  for (const p of placed) update.run(p.hubSeq, p.id);
}

/** The id of a visible item of the project by uid, or null. */
export function itemIdByUid(db: Db, projectId: number, uid: string): number | null {
  return (db.prepare('SELECT id FROM item WHERE project_id = ? AND uid = ?').pluck().get(projectId, uid) as number | undefined) ?? null;
}

/** How many of these items carry a current `source` label (of this task, or of any task). */
export function countWithSourceLabels(db: Db, itemIds: number[], task?: Task): number {
  return db
    .prepare(
      `SELECT COUNT(DISTINCT h.item_id) FROM label_head h JOIN annotator a ON a.id = h.annotator_id
       WHERE a.kind = 'source' AND h.done = 1 AND (@task IS NULL OR h.task = @task) AND h.item_id IN (SELECT value FROM json_each(@ids))`,
    )
    .pluck()
    .get({ ids: JSON.stringify(itemIds), task: task ?? null }) as number;
}

/** The hub's gold marks read up to, for a linked project. */
export function pulledGoldSeq(db: Db, projectId: number): number {
  return (db.prepare('SELECT pulled_gold_seq FROM hub_link WHERE project_id = ?').pluck().get(projectId) as number | undefined) ?? 0;
}

export function setPulledGoldSeq(db: Db, projectId: number, seq: number): void {
  db.prepare('UPDATE hub_link SET pulled_gold_seq = MAX(pulled_gold_seq, ?) WHERE project_id = ?').run(seq, projectId);
}

/** A mark pulled from the hub, checked: its item here by uid and its lead by uuid (made here if new). */
export interface PulledGoldMark extends GoldMarkLine {
  hubSeq: number;
  annotatorName: string;
}

/** Stores pulled marks (inside the caller's write transaction); a mark naming an item not here is skipped. How many were new, and the skipped. */
export function adoptGoldMarks(db: Db, projectId: number, marks: readonly PulledGoldMark[], annotatorId: (uuid: string, name: string) => number): { added: number; missingItems: number } {
  const place = db.prepare('UPDATE gold_mark SET hub_seq = ? WHERE id = ? AND hub_seq IS NULL');
  let added = 0;
  let missingItems = 0;
  for (const m of marks) {
    const itemId = itemIdByUid(db, projectId, m.itemUid);
    if (itemId === null) {
      missingItems++;
      continue;
    }
    const fresh = appendGoldMarks(db, [{ id: m.id, itemId, task: m.task, gold: m.gold, annotatorId: annotatorId(m.annotatorUuid, m.annotatorName), createdAt: m.createdAt, hubSeq: m.hubSeq }]);
    if (!fresh) place.run(m.hubSeq, m.id);
    added += fresh;
  }
  return { added, missingItems };
}
