// Projects: a name, guidelines and settings; everything else hangs off a project. Counts come from
// counters kept in the write transactions (item_count, task_progress), never from scanning.
import { DEFAULT_PROJECT_SETTINGS, type ProjectSettings, type ProjectSummary, type Task } from '../../../shared/domain';
import { conflict, notFound } from '../base/errors';
import type { Db } from './db';
import { statement } from './statements';
import { writeNow } from './write';

export interface ProjectRow {
  id: number;
  name: string;
  created_at: string;
  settings: string;
  item_count: number;
}

const PROJECT_COLUMNS = 'id, name, created_at, settings, item_count';

export function findProject(db: Db, name: string): ProjectRow | undefined {
  return statement(db, `SELECT ${PROJECT_COLUMNS} FROM project WHERE name = ? AND state = 'active'`).get(name) as ProjectRow | undefined;
}

export function requireProject(db: Db, name: string): ProjectRow {
  const row = findProject(db, name);
  if (!row) {
    const known = (db.prepare("SELECT name FROM project WHERE state = 'active' AND unicode(name) <> 0 ORDER BY name LIMIT 10").all() as { name: string }[]).map((r) => r.name);
    throw notFound(`No project named "${name}".${known.length ? ` Projects: ${known.join(', ')}.` : ' There are no projects yet.'}`);
  }
  return row;
}

export function createProject(db: Db, name: string, guidelines = ''): ProjectRow {
  if (db.prepare('SELECT 1 FROM project WHERE name = ?').get(name)) throw conflict(`A project named "${name}" already exists.`);
  db.prepare('INSERT INTO project (name, created_at, guidelines, settings) VALUES (?, ?, ?, ?)').run(
    name,
    new Date().toISOString(),
    guidelines,
    JSON.stringify(DEFAULT_PROJECT_SETTINGS),
  );
  return requireProject(db, name);
}

export function ensureProject(db: Db, name: string): ProjectRow {
  return findProject(db, name) ?? createProject(db, name);
}

export function projectSettings(row: ProjectRow): ProjectSettings {
  return { ...DEFAULT_PROJECT_SETTINGS, ...(JSON.parse(row.settings) as Partial<ProjectSettings>) };
}

/** The project's segmentation method (how a response with no stored steps is cut), by project id. */
export function projectSegmentation(db: Db, projectId: number): ProjectSettings['segmentation'] {
  const settings = db.prepare('SELECT settings FROM project WHERE id = ?').pluck().get(projectId) as string | undefined;
  if (settings === undefined) return DEFAULT_PROJECT_SETTINGS.segmentation;
  return { ...DEFAULT_PROJECT_SETTINGS, ...(JSON.parse(settings) as Partial<ProjectSettings>) }.segmentation;
}

export function updateSettings(db: Db, name: string, patch: Partial<ProjectSettings>): ProjectSettings {
  const row = requireProject(db, name);
  const settings = { ...projectSettings(row), ...patch };
  db.prepare('UPDATE project SET settings = ? WHERE id = ?').run(JSON.stringify(settings), row.id);
  return settings;
}

/** Items with a current judgement of the task by at least one human: what "progress" means. */
export function countLabeled(db: Db, projectId: number, task: Task = 'pairwise'): number {
  return (db.prepare('SELECT labeled FROM task_progress WHERE project_id = ? AND task = ?').pluck().get(projectId, task) as number | undefined) ?? 0;
}

export function summarize(db: Db, row: ProjectRow): ProjectSummary {
  return { name: row.name, createdAt: row.created_at, items: row.item_count, labeled: countLabeled(db, row.id), settings: projectSettings(row) };
}

export function listProjects(db: Db): ProjectSummary[] {
  return projectRows(db).map((row) => summarize(db, row));
}

/** The active projects' rows, by name (not a project an import is still making: its name starts with a NUL, see store/imports.ts). */
export function projectRows(db: Db): ProjectRow[] {
  return db.prepare(`SELECT ${PROJECT_COLUMNS} FROM project WHERE state = 'active' AND unicode(name) <> 0 ORDER BY name`).all() as ProjectRow[];
}

export function renameProject(db: Db, from: string, to: string): ProjectRow {
  const row = requireProject(db, from);
  if (from === to) return row;
  if (db.prepare('SELECT 1 FROM project WHERE name = ?').get(to)) throw conflict(`A project named "${to}" already exists; choose another name.`);
  db.prepare('UPDATE project SET name = ? WHERE id = ?').run(to, row.id);
  return requireProject(db, to);
}

/** Items deleted per transaction while a project goes. */
const DELETE_BATCH = 2000;

/**
 * Deletes a project without one long write: it is hidden at once (state 'deleting', its name freed),
 * then its items go in short batches, then the project row. A delete cut short by a crash is finished
 * by finishDeletes when the database next opens.
 */
export function markDeleting(db: Db, name: string): number {
  const row = requireProject(db, name);
  db.prepare("UPDATE project SET state = 'deleting', name = ? WHERE id = ?").run(`\u0000deleting-${row.id}`, row.id);
  return row.id;
}

export async function deleteProjectRows(db: Db, projectId: number, pause: () => Promise<void> = () => new Promise(setImmediate)): Promise<void> {
  const batch = db.prepare(`DELETE FROM item WHERE id IN (SELECT id FROM item WHERE project_id = ? LIMIT ${DELETE_BATCH})`);
  while (writeNow(db, () => batch.run(projectId)).changes === DELETE_BATCH) await pause();
  writeNow(db, () => db.prepare('DELETE FROM project WHERE id = ?').run(projectId));
}

/** Projects whose delete was under way when the app stopped. */
export function deletingProjects(db: Db): number[] {
  return db.prepare("SELECT id FROM project WHERE state = 'deleting'").pluck().all() as number[];
}

/** Removes a project an import made for itself, when that import failed and left it empty. */
export function dropIfEmpty(db: Db, projectId: number): void {
  writeNow(db, () => db.prepare('DELETE FROM project WHERE id = ? AND NOT EXISTS (SELECT 1 FROM item WHERE project_id = ?)').run(projectId, projectId));
}
