// The items explorer (shared/api/items.ts): a page of items under a query with its facet counts
// (./itemsQuery.ts), saved views (./itemsViews.ts: by name per project, shared through the team hub),
// the ids a query matches, and a selection's export.
import { invalidInput, notFound } from '../base/errors';
import type { FeatureHandlers, ServiceContext } from './context';
import { exportToFolder } from './datasets';
import { itemFactsProvider } from './itemsFacts';
import { forgetItemFacts, matchingIds, runItemsQuery } from './itemsQuery';
import { deleteView, listViews, saveView } from './itemsViews';

type ItemsOps = 'queryItems' | 'listViews' | 'saveView' | 'deleteView' | 'matchingIds' | 'exportItems';

export function itemsHandlers(context: ServiceContext): FeatureHandlers<ItemsOps> {
  const { db, events } = context;
  const factsOf = itemFactsProvider(context);
  // New model scores change the score facets: a finished scoring job drops the facts (as review's cache).
  events.on('event', (event: { type?: string; job?: { kind: string; state: string } }) => {
    if (event.type === 'job' && event.job?.kind === 'score' && event.job.state !== 'running') forgetItemFacts(db);
  });
  return {
    queryItems: async (request) => runItemsQuery(db, request, await factsOf(request.project)),
    listViews: ({ project }) => listViews(db, project),
    saveView: ({ project, ...view }) => saveView(db, project, view),
    deleteView: ({ project, name }) => deleteView(db, project, name),
    matchingIds: async ({ limit, ...request }) => matchingIds(db, request, limit, await factsOf(request.project, { fresh: true })),
    exportItems: async ({ project, format, ids, view, query, annotator, rankingPairs, images, neutral, fromRatings, adjudicatedOnly, minAgreement }) => {
      if ([ids, view, query].filter((x) => x !== undefined).length !== 1) throw invalidInput('exportItems takes one of ids (a selection), view (a saved view’s name) or query.');
      const chosen = ids ?? matchingIds(db, { project, query: query ?? '', view, annotator }, 10_000_000, await factsOf(project, { fresh: true })).ids;
      if (chosen.length === 0) throw notFound('No item matches: nothing to export.');
      return exportToFolder(context, { project, format, annotator, rankingPairs, images, neutral, fromRatings, adjudicatedOnly, minAgreement }, chosen);
    },
  };
}
