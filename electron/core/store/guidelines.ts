// Guidelines: one markdown document per project. project.guidelines holds the current text (one row to
// read while labeling); guidelines_revision keeps every saved text, numbered per project, so a save made
// from a stale editor is told apart from a save on top of the newest (migration 0004).
import type { Db } from './db';

export interface GuidelinesRow {
  text: string;
  /** 0 while nothing was ever saved. */
  revision: number;
  updatedAt: string | null;
  author: string | null;
}

export function readGuidelines(db: Db, projectId: number): GuidelinesRow {
  const text = (db.prepare('SELECT guidelines FROM project WHERE id = ?').pluck().get(projectId) as string | undefined) ?? '';
  const last = db
    .prepare('SELECT revision, created_at, author FROM guidelines_revision WHERE project_id = ? ORDER BY revision DESC LIMIT 1')
    .get(projectId) as { revision: number; created_at: string; author: string | null } | undefined;
  return { text, revision: last?.revision ?? 0, updatedAt: last?.created_at ?? null, author: last?.author ?? null };
}

/** A saved revision's text, or null when there is no such revision. */
export function guidelinesRevision(db: Db, projectId: number, revision: number): GuidelinesRow | null {
  const row = db
    .prepare('SELECT text, revision, created_at, author FROM guidelines_revision WHERE project_id = ? AND revision = ?')
    .get(projectId, revision) as { text: string; revision: number; created_at: string; author: string | null } | undefined;
  return row ? { text: row.text, revision: row.revision, updatedAt: row.created_at, author: row.author } : null;
}

/** Appends a revision and makes it the current text. Call inside a write transaction. */
export function appendGuidelines(db: Db, projectId: number, text: string, author: string | null): GuidelinesRow {
  const now = new Date().toISOString();
  const next = ((db.prepare('SELECT MAX(revision) FROM guidelines_revision WHERE project_id = ?').pluck().get(projectId) as number | null) ?? 0) + 1;
  db.prepare('INSERT INTO guidelines_revision (project_id, revision, text, author, created_at) VALUES (?, ?, ?, ?, ?)').run(projectId, next, text, author, now);
  db.prepare('UPDATE project SET guidelines = ? WHERE id = ?').run(text, projectId);
  return { text, revision: next, updatedAt: now, author };
}
