// Saved views of the items explorer (store/views.ts): a query and a sort by name per project. A save checks
// the query reads (shared/itemQuery.ts) and always wins over the view it replaces; a delete leaves a
// tombstone, so both travel through the team hub (service/teamSync.ts) as rows the newest of a name wins.
import type { ItemSort, SavedView } from '../../../shared/api/items';
import { uuidv7 } from '../../../shared/ids';
import { parseQuery, QueryError } from '../../../shared/itemQuery';
import { invalidInput, notFound } from '../base/errors';
import type { Db } from '../store/db';
import type { Walk } from '../store/nextItem';
import type { ProjectRow } from '../store/projects';
import { findView, findViewById, listViews as storedViews, mergeView } from '../store/views';
import { writeNow } from '../store/write';
import { requireProject } from './guards';
import { matchingIds } from './itemsQuery';

export function listViews(db: Db, project: string): SavedView[] {
  return storedViews(db, requireProject(db, project).id);
}

/** A time after `than` (so a save always wins over the view it replaces, even within a millisecond). */
function laterThan(than: string | undefined): string {
  const now = Date.now();
  const after = than ? Date.parse(than) + 1 : 0;
  return new Date(Math.max(now, after)).toISOString();
}

/** Creates or replaces a view by name; its query must read (shared/itemQuery.ts). */
export function saveView(db: Db, project: string, input: { name: string; query: string; sort: ItemSort; author?: string }): SavedView {
  const row = requireProject(db, project);
  try {
    parseQuery(input.query);
  } catch (error) {
    if (error instanceof QueryError) throw invalidInput(`The view's query cannot be read: ${error.message}.`);
    throw error;
  }
  return writeNow(db, () => {
    const current = findView(db, row.id, input.name);
    const view: SavedView = { id: current?.id ?? uuidv7(), name: input.name, query: input.query, sort: input.sort, updatedAt: laterThan(current?.updatedAt), author: input.author ?? null };
    mergeView(db, row.id, { ...view, deleted: false });
    return view;
  });
}

export function deleteView(db: Db, project: string, name: string): { deleted: boolean } {
  const row = requireProject(db, project);
  return writeNow(db, () => {
    const current = findView(db, row.id, name);
    if (!current || current.deleted) return { deleted: false };
    mergeView(db, row.id, { ...current, deleted: true, updatedAt: laterThan(current.updatedAt) });
    return { deleted: true };
  });
}


/** Items in a view's queue at most (a labeling walk holds their ids: 4 bytes each). */
const QUEUE_MAX = 10_000_000;
const queues = new WeakMap<Db, Map<string, Walk['order']>>();

/**
 * A saved view as a labeling queue (nextItem's viewId): its items in its sort order, as the view matched
 * them when the walk first asked; read again once the view is saved again. Items labeled since are skipped
 * by the walk itself (unlabeled only), so labeling does not reread the project's facts on every key.
 */
export function viewWalkOrder(db: Db, project: ProjectRow, viewId: string): Walk['order'] {
  const view = findViewById(db, project.id, viewId);
  if (!view || view.deleted) throw notFound(`The project “${project.name}” has no saved view with id ${viewId} (it may have been deleted).`);
  let byKey = queues.get(db);
  if (!byKey) queues.set(db, (byKey = new Map()));
  const key = `${project.id}:${view.id}:${view.updatedAt}`;
  const cached = byKey.get(key);
  if (cached) return cached;
  const { ids } = matchingIds(db, { project: project.name, query: '', view: view.name }, QUEUE_MAX);
  const itemIds = Int32Array.from(ids);
  const order: Walk['order'] = { kind: 'list', itemIds, position: new Map(ids.map((id, i) => [id, i])) };
  byKey.set(key, order);
  return order;
}
