// What a project publishes to a team hub and a join writes back (core/hub/publish.ts, core/hub/join.ts),
// read and written here in SQLite: the file's own steps (segmentation version 1 of origin 'file'), the
// steps Arbiter or people cut later (every other version), items' own criteria, rubric versions and
// guidelines revisions with their numbers, and the images a project holds. A join writes each with the
// number it has on the hub, so a label line naming "version 2" of a rubric or of a response's steps means
// the same on every machine; a number already here with other content is a conflict, never overwritten.
import { criteriaHash } from './rubrics';
import { contentText } from '../../../shared/choices';
import { cutProblem } from '../../../shared/cuts';
import type { Content } from '../../../shared/domain';
import { responseLetter } from '../../../shared/letters';
import { canonicalJson, type Criterion } from '../../../shared/rubric';
import type { Db } from './sqlite';

const VISIBLE = 'i.seq < (SELECT visible_seq FROM project WHERE id = @project)';

/** The file's own steps of the responses of a page of items (ids in [low, high]), by `${itemId}:${idx}`. */
export function fileStepsBetween(db: Db, low: number, high: number): Map<string, string[]> {
  const rows = db
    .prepare("SELECT item_id, response_idx, steps FROM segmentation WHERE item_id BETWEEN ? AND ? AND version = 1 AND origin = 'file'")
    .all(low, high) as { item_id: number; response_idx: number; steps: string }[];
  return new Map(rows.map((r) => [`${r.item_id}:${r.response_idx}`, JSON.parse(r.steps) as string[]]));
}

export interface MadeSegmentation {
  itemUid: string;
  response: number;
  version: number;
  steps: string;
  origin: 'auto' | 'annotator';
  createdAt: string;
}

/** Every segmentation that is not the file's own (Arbiter's cut, people's splits and merges), in item order. */
export function* madeSegmentations(db: Db, projectId: number): Generator<MadeSegmentation> {
  const rows = db
    .prepare(
      `SELECT i.uid, s.response_idx, s.version, s.steps, s.origin, s.created_at FROM segmentation s JOIN item i ON i.id = s.item_id
       WHERE i.project_id = @project AND ${VISIBLE} AND s.origin <> 'file' ORDER BY i.seq, s.response_idx, s.version`,
    )
    .raw()
    .iterate({ project: projectId }) as Iterable<[string, number, number, string, MadeSegmentation['origin'], string]>;
  for (const [itemUid, response, version, steps, origin, createdAt] of rows) yield { itemUid, response, version, steps, origin, createdAt };
}

/** Items' own criteria as stored (JSON text), by item uid. */
export function* ownCriteria(db: Db, projectId: number): Generator<{ itemUid: string; criteria: string }> {
  const rows = db.prepare(`SELECT i.uid, i.criteria FROM item i WHERE i.project_id = @project AND ${VISIBLE} AND i.criteria IS NOT NULL ORDER BY i.seq`).raw().iterate({ project: projectId }) as Iterable<[string, string]>;
  for (const [itemUid, criteria] of rows) yield { itemUid, criteria };
}

export interface StoredRubricVersion {
  name: string;
  version: number;
  criteria: Criterion[];
  createdAt: string;
}

/** Every version of every rubric of the project (items' own, `item/<uid>`, too), by name and version. */
export function rubricVersionsOf(db: Db, projectId: number): StoredRubricVersion[] {
  const rows = db
    .prepare('SELECT r.name, v.version, v.criteria, v.created_at FROM rubric_version v JOIN rubric r ON r.id = v.rubric_id WHERE r.project_id = ? ORDER BY r.name, v.version')
    .all(projectId) as { name: string; version: number; criteria: string; created_at: string }[];
  return rows.map((r) => ({ name: r.name, version: r.version, criteria: JSON.parse(r.criteria) as Criterion[], createdAt: r.created_at }));
}

export interface GuidelinesRevisionRow {
  revision: number;
  text: string;
  author: string | null;
  createdAt: string;
}

export function guidelinesRevisionsOf(db: Db, projectId: number): GuidelinesRevisionRow[] {
  return db
    .prepare('SELECT revision, text, author, created_at AS createdAt FROM guidelines_revision WHERE project_id = ? ORDER BY revision')
    .all(projectId) as GuidelinesRevisionRow[];
}

/** Item ids by uid, for the project's visible items. */
export function itemIdsByUid(db: Db, projectId: number): Map<string, number> {
  const rows = db.prepare(`SELECT i.uid, i.id FROM item i WHERE i.project_id = @project AND ${VISIBLE}`).raw().all({ project: projectId }) as [string, number][];
  return new Map(rows);
}

export type Placed = 'added' | 'kept' | 'conflict';

/** Writes rubric version `version` of `name` with that number (call inside a write transaction). */
export function placeRubricVersion(db: Db, projectId: number, v: StoredRubricVersion): Placed {
  db.prepare('INSERT OR IGNORE INTO rubric (project_id, name, created_at) VALUES (?, ?, ?)').run(projectId, v.name, v.createdAt);
  const rubricId = db.prepare('SELECT id FROM rubric WHERE project_id = ? AND name = ?').pluck().get(projectId, v.name) as number;
  const hash = criteriaHash(v.criteria);
  const there = db.prepare('SELECT hash FROM rubric_version WHERE rubric_id = ? AND version = ?').pluck().get(rubricId, v.version) as string | undefined;
  if (there !== undefined) return there === hash ? 'kept' : 'conflict';
  db.prepare('INSERT INTO rubric_version (rubric_id, version, criteria, hash, created_at) VALUES (?, ?, ?, ?, ?)').run(rubricId, v.version, JSON.stringify(v.criteria), hash, v.createdAt);
  return 'added';
}

/**
 * Writes guidelines revision `revision` with that number, and makes the newest revision the current text
 * (call inside a write transaction). Revision 0 is a text saved with no revision (a project made with
 * guidelines): it becomes the current text where there is none.
 */
export function placeGuidelinesRevision(db: Db, projectId: number, g: GuidelinesRevisionRow): Placed {
  if (g.revision === 0) {
    const current = db.prepare('SELECT guidelines FROM project WHERE id = ?').pluck().get(projectId) as string;
    if (current === g.text) return 'kept';
    if (current !== '') return 'conflict';
    db.prepare('UPDATE project SET guidelines = ? WHERE id = ?').run(g.text, projectId);
    return 'added';
  }
  const there = db.prepare('SELECT text FROM guidelines_revision WHERE project_id = ? AND revision = ?').pluck().get(projectId, g.revision) as string | undefined;
  if (there !== undefined) return there === g.text ? 'kept' : 'conflict';
  db.prepare('INSERT INTO guidelines_revision (project_id, revision, text, author, created_at) VALUES (?, ?, ?, ?, ?)').run(projectId, g.revision, g.text, g.author, g.createdAt);
  const newest = db.prepare('SELECT text FROM guidelines_revision WHERE project_id = ? ORDER BY revision DESC LIMIT 1').pluck().get(projectId) as string;
  db.prepare('UPDATE project SET guidelines = ? WHERE id = ?').run(newest, projectId);
  return 'added';
}

/** Writes a segmentation version with its number (call inside a write transaction). `steps` is its JSON. */
export function placeSegmentation(db: Db, itemId: number, s: Omit<MadeSegmentation, 'itemUid' | 'origin'> & { origin: MadeSegmentation['origin'] | 'file' }): Placed {
  const there = db.prepare('SELECT steps FROM segmentation WHERE item_id = ? AND response_idx = ? AND version = ?').pluck().get(itemId, s.response, s.version) as string | undefined;
  if (there !== undefined) return sameJson(there, s.steps) ? 'kept' : 'conflict';
  db.prepare('INSERT INTO segmentation (item_id, response_idx, version, steps, origin, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(itemId, s.response, s.version, s.steps, s.origin, s.createdAt);
  return 'added';
}

/**
 * Why a cut pulled from the hub is refused, as a sentence naming it, or null: its steps must be a cut of
 * the response's text, or of the file's own steps where the file gave them apart from it (shared/cuts.ts,
 * the rule every stored cut follows), and only a lead (or the hub's
 * owner, who publishes) places the file's own steps or Arbiter's ('file', 'auto'); everyone else's are
 * splits and merges ('annotator'). `steps` is the parsed JSON, whatever it is.
 */
export function pulledCutProblem(db: Db, itemId: number, s: { response: number; version: number; steps: unknown; origin: string; byLead: boolean }): string | null {
  const row = db.prepare('SELECT i.external_id, i.uid, r.content FROM item i JOIN response r ON r.item_id = i.id AND r.idx = ? WHERE i.id = ?').get(s.response, itemId) as
    | { external_id: string | null; uid: string; content: string }
    | undefined;
  const where = `version ${s.version} of the steps of response ${responseLetter(s.response)} of item ${row?.external_id ?? row?.uid ?? itemId}`;
  if (!row) return `${where}: the item has no such response`;
  if (s.origin !== 'annotator' && !s.byLead) return `${where}: a cut of origin "${s.origin}" (the file's own or Arbiter's) pushed by someone who is not a lead`;
  const problem = cutProblem(contentText(JSON.parse(row.content) as Content), s.steps);
  if (problem === null) return null;
  // A file may give a response's steps apart from its text: a cut of those (a split of the file's own steps) is a cut too.
  const fileSteps = db.prepare("SELECT steps FROM segmentation WHERE item_id = ? AND response_idx = ? AND version = 1 AND origin = 'file'").pluck().get(itemId, s.response) as string | undefined;
  if (fileSteps !== undefined && cutProblem((JSON.parse(fileSteps) as string[]).join('\n'), s.steps) === null) return null;
  return `${where}: ${problem}`;
}

/** An item's own criteria (JSON text) where it has none yet (call inside a write transaction). */
export function placeOwnCriteria(db: Db, itemId: number, criteria: string): Placed {
  const there = db.prepare('SELECT criteria FROM item WHERE id = ?').pluck().get(itemId) as string | null;
  if (there !== null) return sameJson(there, criteria) ? 'kept' : 'conflict';
  db.prepare('UPDATE item SET criteria = ? WHERE id = ?').run(criteria, itemId);
  return 'added';
}

function sameJson(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return canonicalJson(JSON.parse(a)) === canonicalJson(JSON.parse(b));
  } catch {
    return false;
  }
}
