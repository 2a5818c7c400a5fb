// The items explorer: one query (search text + facet clauses, shared/itemQuery.ts) over every task's
// judgements, sorted by any column both ways, paged by cursor, with each facet's values counted under
// the query; saved views (a query and a sort by name, per project, shared through the team hub); and
// what the page does to a selection (export it). The engine: electron/core/review/itemFacts.ts.
import { z } from 'zod';
import { EXPORT_FORMATS, RANKING_PAIRS } from '../formatNames';
import { SORT_COLUMNS, type SortColumn } from '../itemFacets';
import { QUERY_MAX, type Clause } from '../itemQuery';
import { annotatorName, itemId, projectName } from './common';
import type { ExportedFile, ItemListRow } from './datasets';

/** A saved view's name: shown in lists and typed after `--view`. */
export const viewName = z
  .string()
  .trim()
  .min(1, 'view name is empty')
  .max(120, 'view name is longer than 120 characters')
  .regex(/^[^\u0000-\u001f]+$/, 'view name has a control character');
export const itemSort = z.object({ column: z.enum(SORT_COLUMNS).default('seq'), desc: z.boolean().default(false) }).strict();
export type ItemSort = z.output<typeof itemSort>;
const queryText = z.string().max(QUERY_MAX, `a query is at most ${QUERY_MAX} characters`);

/** A view as it is stored and travels through the hub: validated by the same schema on every way in. */
export const savedViewSchema = z
  .object({
    /** UUIDv7, made where the view was first saved; the hub keys it by this. */
    id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'expected a view id (a lowercase UUID)'),
    name: viewName,
    query: queryText,
    sort: itemSort,
    /** ISO 8601 UTC: the newest save of a name wins on merge. */
    updatedAt: z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'expected an ISO 8601 UTC time with milliseconds (as toISOString writes it)'),
    /** Who saved it (an annotator's name), or null. */
    author: annotatorName.nullable(),
  })
  .strict();
export type SavedView = z.output<typeof savedViewSchema>;

export const itemsSchemas = {
  /**
   * A page of items: `query` (search text and facet clauses), or a saved `view` (its query, then `query`
   * narrows it further); `sort` by any column (file order breaks ties); `cursor` from the previous page's
   * `next`. `facets`: count each facet's values under the query (the page's side panel; off for a CLI page).
   */
  queryItems: z
    .object({
      project: projectName,
      query: queryText.default(''),
      view: viewName.optional(),
      sort: itemSort.optional(),
      cursor: z.string().max(400).optional(),
      limit: z.number().int().min(1).max(500).default(100),
      /** Whose labels `labeled.*=mine` and the "You" column mean. */
      annotator: annotatorName.optional(),
      facets: z.boolean().default(true),
    })
    .strict(),
  listViews: z.object({ project: projectName }).strict(),
  /** Creates or replaces the view of this name. */
  saveView: z.object({ project: projectName, name: viewName, query: queryText, sort: itemSort.default({ column: 'seq', desc: false }), author: annotatorName.optional() }).strict(),
  deleteView: z.object({ project: projectName, name: viewName }).strict(),
  /** The item ids a query or a view matches, in its sort order (a selection "select all matching"), at most `limit`. */
  matchingIds: z.object({ project: projectName, query: queryText.default(''), view: viewName.optional(), sort: itemSort.optional(), annotator: annotatorName.optional(), limit: z.number().int().min(1).max(1_000_000).default(100_000) }).strict(),
  /** Exports a selection (item ids), a view or a query, in any export format, into the exports folder (as exportProject). */
  exportItems: z
    .object({
      project: projectName,
      format: z.enum(EXPORT_FORMATS),
      ids: z.array(itemId).max(1_000_000).optional(),
      view: viewName.optional(),
      query: queryText.optional(),
      annotator: annotatorName.optional(),
      rankingPairs: z.enum(RANKING_PAIRS).optional(),
      images: z.enum(['refuse', 'drop']).optional(),
      /** As exportProject's: step formats' neutral steps, pairs from rubric ratings, the export filters. */
      neutral: z.boolean().optional(),
      fromRatings: z.boolean().optional(),
      adjudicatedOnly: z.boolean().optional(),
      minAgreement: z.number().min(0).max(1).optional(),
    })
    .strict(),
} as const;

export type QueryItemsRequest = z.output<typeof itemsSchemas.queryItems>;

/** One value of a facet with its count under the query; `clause` is the query text that selects it. */
export interface FacetValueCount {
  value: string;
  count: number;
  clause: string;
}

export interface FacetCount {
  /** The facet's full name (labeled.ranking, meta.category, score). */
  facet: string;
  kind: 'enum' | 'set' | 'number';
  /**
   * Counted over the items the query matches with this facet's own clauses left out (so the other
   * values of a facet in use still show what choosing them gives), as Argilla and Label Studio do.
   */
  values: FacetValueCount[];
  /** Values with a count not listed (an open facet lists its 50 largest). */
  more: number;
  /** Number facets: the range of the values counted (null when none). */
  range?: { min: number; max: number } | null;
  /**
   * The facet comes from the review's project-wide part (disagree, model_disagrees), which a large
   * project recomputes in the background after a label change: its counts are from before that change.
   */
  recomputing?: boolean;
}

/** A row: the items table's columns (every task's judgements) and the facts the facets count. */
export interface ItemsRow extends ItemListRow {
  shape: string;
  images: boolean;
  length: number;
  /** Models' mean P(A better) for a pair; null when not scored. */
  score: number | null;
  uncertainty: number | null;
  /** The tasks people split on (the disagree facet's values). */
  disputed: string[];
  /** The review's largest dispute of the item, 0 … 1 (the dispute sort). */
  dispute: number;
  annotators: string[];
  tags: string[];
  outcomes: string[];
  /** With search text: where it matched, a few fields, each in runs of plain text (hit or not); never HTML. */
  snippets?: { field: string; parts: { text: string; hit: boolean }[] }[];
}

export interface ItemsPage {
  /** Visible items in the project. */
  total: number;
  /** Items the query matches. */
  matching: number;
  /** The query as the engine read it (what a view saves): its search text and clauses. */
  query: { text: string; clauses: Clause[]; canonical: string };
  sort: { column: SortColumn; desc: boolean };
  rows: ItemsRow[];
  /** Pass as `cursor` for the next page; null at the end. */
  next: string | null;
  facets: FacetCount[];
  /**
   * True when every count is exact: every count is over all the facts (see `stale` for when they were
   * read); false only when the query has search text while the full-text index is still being built
   * after an upgrade (`searchCapped`): the items not indexed yet cannot match, so `matching` and the
   * counts are lower bounds until it is done.
   */
  exact: boolean;
  /** The search text's matches are incomplete: the full-text index is still being built (store/searchIndex.ts). */
  searchCapped: boolean;
  /**
   * True when the counts are from before the project's latest items or labels: a large project's first
   * read, an import's items or a change read whole (gold rules, models) run on a task worker meanwhile;
   * the next page after that read has the new ones. A label change alone refreshes its items before
   * answering (see `reviewing`). Never for a project of at most 100,000 items, read before answering.
   */
  stale: boolean;
  /**
   * The per-item facts are current, the review's project-wide part (disagreement, the model's disagreeing
   * with the Dawid–Skene consensus, the dispute sort) is being recomputed: the facets marked `recomputing`.
   */
  reviewing?: boolean;
  /** The review watermark the facts were read at. */
  asOf: string;
  /** Milliseconds: reading the facts (0 when cached), then the query and the counts. */
  timing: { factsMs: number; queryMs: number; facetsMs: number };
}

export interface ItemsOutputs {
  queryItems: ItemsPage;
  listViews: SavedView[];
  saveView: SavedView;
  deleteView: { deleted: boolean };
  matchingIds: { ids: number[]; matching: number };
  exportItems: ExportedFile;
}
