// Rubrics: a name per project, and versions that never change once saved (a trigger refuses an UPDATE).
// A version's hash is of its canonical criteria (keys sorted at every depth), so saving the same content
// again, in whatever key order, keeps the newest version; changed content always adds the next version,
// whether or not labels use the one before. A rating revision names its version (label.rubric_version_id).
// An item's own criteria (item.criteria) are versioned as the rubric "item/<item uid>": a project
// rubric's name never has a slash, so the two cannot meet.
import { createHash } from 'node:crypto';
import { canonicalJson, type Criterion } from '../../../shared/rubric';
import type { Db } from './sqlite';
import { VISIBLE_LABEL } from './labels';

export interface RubricRow {
  id: number;
  name: string;
  createdAt: string;
}

export interface RubricVersionRow {
  id: number;
  rubricId: number;
  version: number;
  criteria: Criterion[];
  hash: string;
  createdAt: string;
}

export interface VersionCounts {
  labels: number;
  revisions: number;
}

export interface RubricListEntry {
  name: string;
  createdAt: string;
  latest: number;
  versions: { version: number; createdAt: string; criteria: number; labels: number; revisions: number }[];
}

/** The stored name of an item's own criteria. */
export const itemRubricName = (itemUid: string) => `item/${itemUid}`;

export function criteriaHash(criteria: Criterion[]): string {
  return createHash('sha256').update(canonicalJson(criteria)).digest('hex');
}

interface VersionRaw {
  id: number;
  rubric_id: number;
  version: number;
  criteria: string;
  hash: string;
  created_at: string;
}

const toVersion = (r: VersionRaw): RubricVersionRow => ({
  id: r.id,
  rubricId: r.rubric_id,
  version: r.version,
  criteria: JSON.parse(r.criteria) as Criterion[],
  hash: r.hash,
  createdAt: r.created_at,
});

const VERSION_COLUMNS = 'v.id, v.rubric_id, v.version, v.criteria, v.hash, v.created_at';

export function findRubric(db: Db, projectId: number, name: string): RubricRow | undefined {
  const row = db.prepare('SELECT id, name, created_at FROM rubric WHERE project_id = ? AND name = ?').get(projectId, name) as
    | { id: number; name: string; created_at: string }
    | undefined;
  return row ? { id: row.id, name: row.name, createdAt: row.created_at } : undefined;
}

/** The names of the project's rubrics (not items' own criteria), by name. */
export function rubricNames(db: Db, projectId: number): string[] {
  return db.prepare("SELECT name FROM rubric WHERE project_id = ? AND name NOT LIKE 'item/%' ORDER BY name").pluck().all(projectId) as string[];
}

/** A version of a rubric, or its newest when `version` is left out. */
export function rubricVersion(db: Db, rubricId: number, version?: number): RubricVersionRow | null {
  const row = (
    version === undefined
      ? db.prepare(`SELECT ${VERSION_COLUMNS} FROM rubric_version v WHERE v.rubric_id = ? ORDER BY v.version DESC LIMIT 1`).get(rubricId)
      : db.prepare(`SELECT ${VERSION_COLUMNS} FROM rubric_version v WHERE v.rubric_id = ? AND v.version = ?`).get(rubricId, version)
  ) as VersionRaw | undefined;
  return row ? toVersion(row) : null;
}

export function rubricVersionById(db: Db, id: number): (RubricVersionRow & { rubric: string }) | null {
  const row = db.prepare(`SELECT ${VERSION_COLUMNS}, r.name FROM rubric_version v JOIN rubric r ON r.id = v.rubric_id WHERE v.id = ?`).get(id) as
    | (VersionRaw & { name: string })
    | undefined;
  return row ? { ...toVersion(row), rubric: row.name } : null;
}

/**
 * Saves criteria (already checked and normalized) as the newest version of the project's rubric `name`,
 * made if new. The same content as the newest version keeps it (created: false); anything else is the
 * next version. Call inside a write transaction.
 */
export function saveRubricVersion(db: Db, projectId: number, name: string, criteria: Criterion[]): { version: RubricVersionRow; created: boolean } {
  const now = new Date().toISOString();
  db.prepare('INSERT OR IGNORE INTO rubric (project_id, name, created_at) VALUES (?, ?, ?)').run(projectId, name, now);
  const rubric = findRubric(db, projectId, name)!;
  const hash = criteriaHash(criteria);
  const latest = rubricVersion(db, rubric.id);
  if (latest && latest.hash === hash) return { version: latest, created: false };
  const next = (latest?.version ?? 0) + 1;
  const result = db
    .prepare('INSERT INTO rubric_version (rubric_id, version, criteria, hash, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(rubric.id, next, JSON.stringify(criteria), hash, now);
  return { version: { id: Number(result.lastInsertRowid), rubricId: rubric.id, version: next, criteria, hash, createdAt: now }, created: true };
}

/**
 * Labels per version: current ones (the head of their item, annotator and task, holding a judgement) and
 * every revision. One pass over the label table for the versions asked (label has no index on
 * rubric_version_id; a migration adding one would make this a lookup).
 */
export function versionCounts(db: Db, versionIds: number[]): Map<number, VersionCounts> {
  const counts = new Map<number, VersionCounts>();
  if (versionIds.length === 0) return counts;
  const rows = db
    .prepare(
      `SELECT l.rubric_version_id AS id, COUNT(*) AS revisions,
         SUM(EXISTS (SELECT 1 FROM label_head h WHERE h.item_id = l.item_id AND h.annotator_id = l.annotator_id AND h.task = l.task AND h.label_seq = l.seq AND h.done = 1)) AS labels
       FROM label l WHERE l.rubric_version_id IN (SELECT value FROM json_each(?)) AND ${VISIBLE_LABEL} GROUP BY l.rubric_version_id`,
    )
    .all(JSON.stringify(versionIds)) as { id: number; revisions: number; labels: number }[];
  for (const row of rows) counts.set(row.id, { labels: row.labels, revisions: row.revisions });
  return counts;
}

/** The project's rubrics (items' own criteria left out), by name, each with its versions oldest first. */
export function listRubrics(db: Db, projectId: number): RubricListEntry[] {
  const rows = db
    .prepare(
      `SELECT r.name, r.created_at AS rubric_created_at, v.id, v.version, v.created_at, json_array_length(v.criteria) AS criteria
       FROM rubric r JOIN rubric_version v ON v.rubric_id = r.id
       WHERE r.project_id = ? AND r.name NOT LIKE 'item/%' ORDER BY r.name, v.version`,
    )
    .all(projectId) as { name: string; rubric_created_at: string; id: number; version: number; created_at: string; criteria: number }[];
  const counts = versionCounts(
    db,
    rows.map((r) => r.id),
  );
  const byName = new Map<string, RubricListEntry>();
  for (const row of rows) {
    let entry = byName.get(row.name);
    if (!entry) byName.set(row.name, (entry = { name: row.name, createdAt: row.rubric_created_at, latest: 0, versions: [] }));
    const c = counts.get(row.id) ?? { labels: 0, revisions: 0 };
    entry.versions.push({ version: row.version, createdAt: row.created_at, criteria: row.criteria, labels: c.labels, revisions: c.revisions });
    entry.latest = row.version;
  }
  return [...byName.values()];
}

/** An item's own criteria as stored (JSON text), or null when it has none. */
export function itemCriteriaText(db: Db, itemId: number): string | null {
  return (db.prepare('SELECT criteria FROM item WHERE id = ?').pluck().get(itemId) as string | null | undefined) ?? null;
}

/** Writes an item's own criteria (checked and normalized). Call inside a write transaction. */
export function setItemCriteria(db: Db, itemId: number, criteria: Criterion[]): void {
  db.prepare('UPDATE item SET criteria = ? WHERE id = ?').run(JSON.stringify(criteria), itemId);
}

/** The version a rating revision was made under, by the revision's id. */
export function labelRubricVersion(db: Db, labelId: string): (RubricVersionRow & { rubric: string }) | null {
  const id = db.prepare('SELECT rubric_version_id FROM label WHERE id = ?').pluck().get(labelId) as number | null | undefined;
  return id == null ? null : rubricVersionById(db, id);
}

/** The name of the project's rubric in force (the one labeling rates with), or null (migration 0004). */
export function rubricInForce(db: Db, projectId: number): string | null {
  return (db.prepare('SELECT rubric FROM project WHERE id = ?').pluck().get(projectId) as string | null | undefined) ?? null;
}

/** Puts a project rubric in force, or none (null). Call inside a write transaction. */
export function setRubricInForce(db: Db, projectId: number, name: string | null): void {
  db.prepare('UPDATE project SET rubric = ? WHERE id = ?').run(name, projectId);
}
