// Projects: a name, guidelines and settings; everything else hangs off a project.
import { DEFAULT_PROJECT_SETTINGS, type ProjectSettings, type ProjectSummary } from '../../../shared/domain';
import { conflict, notFound } from '../errors';
import type { Db } from './db';

interface ProjectRow {
  id: number;
  name: string;
  created_at: string;
  settings: string;
}

export function findProject(db: Db, name: string): ProjectRow | undefined {
  return db.prepare('SELECT id, name, created_at, settings FROM project WHERE name = ?').get(name) as ProjectRow | undefined;
}

export function requireProject(db: Db, name: string): ProjectRow {
  const row = findProject(db, name);
  if (!row) {
    const known = (db.prepare('SELECT name FROM project ORDER BY name LIMIT 10').all() as { name: string }[]).map((r) => r.name);
    throw notFound(`No project named "${name}".${known.length ? ` Projects: ${known.join(', ')}.` : ' There are no projects yet.'}`);
  }
  return row;
}

export function createProject(db: Db, name: string, guidelines = ''): ProjectRow {
  if (findProject(db, name)) throw conflict(`A project named "${name}" already exists.`);
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

export function updateSettings(db: Db, name: string, patch: Partial<ProjectSettings>): ProjectSettings {
  const row = requireProject(db, name);
  const settings = { ...projectSettings(row), ...patch };
  db.prepare('UPDATE project SET settings = ? WHERE id = ?').run(JSON.stringify(settings), row.id);
  return settings;
}

/** Items with a current (non-cleared) label by at least one human: what "progress" means. */
export function countLabeled(db: Db, projectId: number): number {
  const row = db
    .prepare(
      `SELECT COUNT(DISTINCT h.item_id) AS n FROM label_head h
       JOIN item i ON i.id = h.item_id JOIN annotator a ON a.id = h.annotator_id
       WHERE i.project_id = ? AND a.kind = 'human' AND h.choice IS NOT NULL`,
    )
    .get(projectId) as { n: number };
  return row.n;
}

export function summarize(db: Db, row: ProjectRow): ProjectSummary {
  const items = (db.prepare('SELECT COUNT(*) AS n FROM item WHERE project_id = ?').get(row.id) as { n: number }).n;
  return { name: row.name, createdAt: row.created_at, items, labeled: countLabeled(db, row.id), settings: projectSettings(row) };
}

export function listProjects(db: Db): ProjectSummary[] {
  const rows = db.prepare('SELECT id, name, created_at, settings FROM project ORDER BY name').all() as ProjectRow[];
  return rows.map((row) => summarize(db, row));
}
