// Saved views (migrations/0013_views.sql): a query and a sort by name per project. A delete leaves a
// tombstone so it can travel through the team hub; `mergeView` is the one rule every way in uses (a
// save here, a pull from the hub): the newest updated_at of a name wins, an older one changes nothing.
import type { ItemSort, SavedView } from '../../../shared/api/items';
import type { Db } from './db';

interface ViewRow {
  id: string;
  name: string;
  query: string;
  sort: string;
  author: string | null;
  updated_at: string;
  deleted: number;
}

export type StoredView = SavedView & { deleted: boolean };

const toView = (r: ViewRow): StoredView => ({
  id: r.id,
  name: r.name,
  query: r.query,
  sort: JSON.parse(r.sort) as ItemSort,
  updatedAt: r.updated_at,
  author: r.author,
  deleted: r.deleted === 1,
});

/** The project's views (not deleted), by name. */
export function listViews(db: Db, projectId: number): SavedView[] {
  const rows = db.prepare('SELECT * FROM item_view WHERE project_id = ? AND deleted = 0 ORDER BY name').all(projectId) as ViewRow[];
  return rows.map((r) => {
    const { deleted: _deleted, ...view } = toView(r);
    return view;
  });
}

/** Every view of the project, tombstones included, changed after `since` (the hub's push). */
export function viewsChangedSince(db: Db, projectId: number, since: string): StoredView[] {
  const rows = db.prepare('SELECT * FROM item_view WHERE project_id = ? AND updated_at > ? ORDER BY updated_at').all(projectId, since) as ViewRow[];
  return rows.map(toView);
}

export function findViewById(db: Db, projectId: number, id: string): StoredView | null {
  const row = db.prepare('SELECT * FROM item_view WHERE project_id = ? AND id = ?').get(projectId, id) as ViewRow | undefined;
  return row ? toView(row) : null;
}

export function findView(db: Db, projectId: number, name: string): StoredView | null {
  const row = db.prepare('SELECT * FROM item_view WHERE project_id = ? AND name = ?').get(projectId, name) as ViewRow | undefined;
  return row ? toView(row) : null;
}

/** Stores the view unless the project holds a newer one of its name. True when it was written. */
export function mergeView(db: Db, projectId: number, view: StoredView): boolean {
  const current = findView(db, projectId, view.name);
  if (current && (current.updatedAt > view.updatedAt || (current.updatedAt === view.updatedAt && current.id >= view.id))) return false;
  db.prepare(
    `INSERT INTO item_view (id, project_id, name, query, sort, author, updated_at, deleted)
     VALUES (@id, @project, @name, @query, @sort, @author, @updatedAt, @deleted)
     ON CONFLICT (project_id, name) DO UPDATE SET id = excluded.id, query = excluded.query, sort = excluded.sort,
       author = excluded.author, updated_at = excluded.updated_at, deleted = excluded.deleted`,
  ).run({ ...view, project: projectId, sort: JSON.stringify(view.sort), deleted: view.deleted ? 1 : 0 });
  return true;
}
