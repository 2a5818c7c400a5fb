// The items explorer (shared/api/items.ts): a page of items under a query with its facet counts
// (./itemsQuery.ts), saved views (store/views.ts: by name per project, shared through the team hub),
// the ids a query matches, and a selection's export.
import type { ItemSort, SavedView } from '../../../shared/api/items';
import { uuidv7 } from '../../../shared/ids';
import { parseQuery, QueryError } from '../../../shared/itemQuery';
import { invalidInput, notFound } from '../base/errors';
import type { Db } from '../store/db';
import { findView, listViews, mergeView } from '../store/views';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext } from './context';
import { exportToFolder } from './datasets';
import { requireProject } from './guards';
import { forgetItemFacts, matchingIds, runItemsQuery } from './itemsQuery';

type ItemsOps = 'queryItems' | 'listViews' | 'saveView' | 'deleteView' | 'matchingIds' | 'exportItems';

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

export function itemsHandlers(context: ServiceContext): FeatureHandlers<ItemsOps> {
  const { db, events } = context;
  // New model scores change the score facets: a finished scoring job drops the facts (as review's cache).
  events.on('event', (event: { type?: string; job?: { kind: string; state: string } }) => {
    if (event.type === 'job' && event.job?.kind === 'score' && event.job.state !== 'running') forgetItemFacts(db);
  });
  return {
    queryItems: (request) => runItemsQuery(db, request),
    listViews: ({ project }) => listViews(db, requireProject(db, project).id),
    saveView: ({ project, ...view }) => saveView(db, project, view),
    deleteView: ({ project, name }) => deleteView(db, project, name),
    matchingIds: ({ limit, ...request }) => matchingIds(db, request, limit),
    exportItems: async ({ project, format, ids, view, query, annotator, rankingPairs, images }) => {
      if ([ids, view, query].filter((x) => x !== undefined).length !== 1) throw invalidInput('exportItems takes one of ids (a selection), view (a saved view’s name) or query.');
      const chosen = ids ?? matchingIds(db, { project, query: query ?? '', view, annotator }, 10_000_000).ids;
      if (chosen.length === 0) throw notFound('No item matches: nothing to export.');
      return exportToFolder(context, { project, format, annotator, rankingPairs, images }, chosen);
    },
  };
}
