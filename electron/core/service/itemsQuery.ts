// The items explorer's query (shared/api/items.ts queryItems): the facts of the project (review/itemFacts.ts:
// read once, then for an import's new items, a label change's items (review/itemFactsDelta.ts) and, whole,
// the review's project-wide part after a change), the search text through the
// full-text index (store/search.ts), the clauses as masks, the facet counts and a page in the sort order.
// `runItemsQuery` is what the service, `arbiter items`, `arbiter export --view` and bench/items-scale.mjs call.
import type { FacetCount, ItemSort, ItemsPage, ItemsRow, QueryItemsRequest, SavedView } from '../../../shared/api/items';
import { DISAGREEMENTS, SHAPES } from '../../../shared/itemFacets';
import { formatQuery, parseQuery, QueryError, type ItemQuery } from '../../../shared/itemQuery';
import { invalidInput, notFound } from '../base/errors';
import { facetCounts } from '../review/itemFacetCounts';
import { factsWatermark, joinLabelParts, withPeople, readItemPart, readPeoplePart, readReviewPart, visibleItems, type ItemFacts, type ItemPart, type PeoplePart, type ReviewPart } from '../review/itemFacts';
import { refreshPeoplePart } from '../review/itemFactsDelta';
import { andMasks, clauseMask, countMask, pageOf, sortKeys, type Cursor } from '../review/itemMatch';
import type { Postings } from '../review/postings';
import { findAnnotator } from '../store/annotators';
import type { Db } from '../store/db';
import { modelsAndGoldMark, seqsByExternalId } from '../store/itemFacts';
import { listRowsByIds } from '../store/itemList';
import { requireProject } from '../store/projects';
import { pageSnippets } from '../store/search';
import { searchBuildState } from '../store/searchIndex';
import { findView } from '../store/views';
import { tableRows } from './itemsTable';
import { searchMask } from './itemsSearch';

interface Cached {
  items: ItemPart;
  /** Kept current item by item (review/itemFactsDelta.ts). */
  people: PeoplePart;
  /** Read whole, at `mark`. */
  review: ReviewPart;
  /** The review watermark and the models the review's part was read at (a finished scoring job drops it: forgetItemFacts). */
  mark: string;
  facts: ItemFacts;
  externalRank?: Int32Array;
  /** The facet counts of the whole project (no search, no clause), per annotator: the page's first answer. */
  allCounts?: Map<string, FacetCount[]>;
}
const caches = new WeakMap<Db, Map<number, Cached>>();

/** The review's part is current while the review watermark, the models and the gold marks are. */
export function markOf(db: Db, projectId: number): string {
  return `${factsWatermark(db, projectId)}:${modelsAndGoldMark(db)}`;
}

/** A finished scoring job: the models' scores changed under every item, so both label parts are read whole next. */
export function forgetItemFacts(db: Db): void {
  for (const cached of caches.get(db)?.values() ?? []) {
    cached.mark = '';
    cached.people = { ...cached.people, marks: { ...cached.people.marks, rules: '' } };
  }
}

/**
 * The facts a query reads: `stale` when they are from before the project's latest change (a newer read is
 * under way); `reviewing` when only the review's part is (the people's part is current; the facets it
 * feeds say they are being recomputed).
 */
export interface FactsAnswer {
  cached: Cached;
  ms: number;
  stale: boolean;
  reviewing?: boolean;
}

/** What the cache holds for a project, and whether each part is still current. */
export function peekFacts(db: Db, project: { id: number }): { cached: Cached | undefined; n: number; mark: string; itemsCurrent: boolean; labelsCurrent: boolean } {
  const cached = caches.get(db)?.get(project.id);
  const n = visibleItems(db, project.id);
  const mark = markOf(db, project.id);
  const itemsCurrent = cached?.items.n === n;
  return { cached, n, mark, itemsCurrent, labelsCurrent: itemsCurrent && cached?.mark === mark };
}

/**
 * Keeps the parts as the project's facts (the review's part read at `mark`). `changed`: the people's part
 * was refreshed for these seqs alone (items and review as held): the facts held are updated at those
 * seqs, not joined again (10M items: three arrays of n), and kept as they are when none changed.
 */
export function storeFacts(db: Db, project: { id: number }, items: ItemPart, people: PeoplePart, review: ReviewPart, mark: string, changed?: number[]): Cached {
  let byProject = caches.get(db);
  if (!byProject) caches.set(db, (byProject = new Map()));
  const found = byProject.get(project.id);
  if (found && changed && found.items === items && found.review === review && found.mark === mark && !changed.length) {
    found.people = people;
    return found;
  }
  const facts =
    found && changed && found.items === items && found.review === review
      ? { ...found.facts, ...withPeople(found.facts, people, review, changed) }
      : { projectId: project.id, ...items, ...joinLabelParts(people, review, items.n) };
  const cached: Cached = { items, people, review, mark, facts, externalRank: found?.items === items ? found.externalRank : undefined };
  byProject.set(project.id, cached);
  return cached;
}

/** The people's part brought to the present: the changed items alone where it can be (`changed`), else read whole. */
export function currentPeople(db: Db, projectId: number, found: Cached | undefined, n: number): { part: PeoplePart; changed?: number[] } {
  return (found && refreshPeoplePart(db, projectId, found.people, n)) || { part: readPeoplePart(db, projectId, n) };
}

/**
 * The project's facts, read here: the items' part again only for the seqs an import added, the people's
 * part only for the items whose labels changed, the review's part whole when the review watermark moved;
 * and how long reading took (0: nothing changed).
 */
export function itemFactsOf(db: Db, project: { id: number; name: string }): FactsAnswer {
  const { cached: found, mark, itemsCurrent, labelsCurrent } = peekFacts(db, project);
  if (found && labelsCurrent) return { cached: found, ms: 0, stale: false };
  const started = performance.now();
  // The review's part first: its read peaks highest (at 10M items, ~600 MB for a moment), so a first read makes
  // it before the other parts are held (an import between the reads adds seqs it counts none of, as ever).
  const n = visibleItems(db, project.id);
  const review = found && found.mark === mark && found.review.n === n ? found.review : readReviewPart(db, project, n);
  const items = found && itemsCurrent ? found.items : readItemPart(db, project.id, found?.items);
  const people = currentPeople(db, project.id, found, items.n);
  return { cached: storeFacts(db, project, items, people.part, review, mark, people.changed), ms: performance.now() - started, stale: false };
}

function readQuery(text: string): ItemQuery {
  try {
    return parseQuery(text);
  } catch (error) {
    if (error instanceof QueryError) throw invalidInput(`The query “${text.slice(0, 200)}” cannot be read: ${error.message}.`);
    throw error;
  }
}

function readCursor(text: string | undefined): Cursor | null {
  if (text === undefined) return null;
  try {
    const [key, seq] = JSON.parse(text) as [unknown, unknown];
    if ((key === null || typeof key === 'number') && Number.isInteger(seq)) return { key: key as number | null, seq: seq as number };
  } catch {
    // refused below
  }
  throw invalidInput('The cursor is not one a page of items gave (pass the previous page’s `next`).');
}

/** The query and sort a request means: a view's, narrowed by the request's own query text. */
export function resolveRequest(db: Db, projectId: number, request: { query: string; view?: string; sort?: ItemSort }): { query: ItemQuery; sort: ItemSort; view: SavedView | null } {
  const view = request.view === undefined ? null : findView(db, projectId, request.view);
  if (request.view !== undefined && (!view || view.deleted)) throw notFound(`The project has no saved view named “${request.view}”.`);
  const own = readQuery(request.query);
  const saved = view ? readQuery(view.query) : { text: '', clauses: [] };
  const query = { text: [saved.text, own.text].filter(Boolean).join(' '), clauses: [...saved.clauses, ...own.clauses] };
  // Search text: its rows by relevance (bm25, best first) unless a sort is asked; none: no relevance to sort by.
  const searching = query.text.trim() !== '';
  const asked = request.sort ?? view?.sort ?? (searching ? { column: 'relevance' as const, desc: true } : FILE_ORDER);
  return { query, sort: asked.column === 'relevance' && !searching ? FILE_ORDER : asked, view };
}

const FILE_ORDER: ItemSort = { column: 'seq', desc: false };

interface Matched {
  facts: ItemFacts;
  cached: Cached;
  query: ItemQuery;
  sort: ItemSort;
  me: string | null;
  clauseMasks: Uint8Array[];
  search: Uint8Array | null;
  /** The search's −bm25 per seq, when the sort is by relevance. */
  relevance: Float64Array | null;
  mask: Uint8Array;
  factsMs: number;
  stale: boolean;
  reviewing: boolean;
}

export function matchItems(db: Db, request: { project: string; query: string; view?: string; sort?: ItemSort; annotator?: string }, given?: FactsAnswer): Matched {
  const project = requireProject(db, request.project);
  const { cached, ms, stale, reviewing = false } = given ?? itemFactsOf(db, project);
  const { facts } = cached;
  const { query, sort } = resolveRequest(db, project.id, request);
  const me = request.annotator ?? null;
  const clauseMasks = query.clauses.map((c) => clauseMask(facts, c, me));
  const { mask: search, relevance } = searchMask(db, project.id, query.text, facts, sort.column === 'relevance');
  return { facts, cached, query, sort, me, clauseMasks, search, relevance, mask: andMasks(facts.n, [search, ...clauseMasks]), factsMs: ms, stale, reviewing };
}

/** The matching items' ids in the sort order, at most `limit` (a view's export, a labeling queue, "select all"). */
export function matchingIds(db: Db, request: { project: string; query: string; view?: string; sort?: ItemSort; annotator?: string }, limit: number, given?: FactsAnswer): { ids: number[]; matching: number } {
  const m = matchItems(db, request, given);
  const key = sortKeys(m.facts, m.sort.column, () => externalRank(db, m.cached), m.relevance);
  const page = pageOf(m.mask, key, m.sort.column, m.sort.desc, null, limit);
  return { ids: page.seqs.map((s) => m.facts.ids[s]!), matching: countMask(m.mask) };
}

function externalRank(db: Db, cached: Cached): Int32Array {
  if (cached.externalRank) return cached.externalRank;
  const rank = new Int32Array(cached.facts.n);
  let at = 0;
  for (const seq of seqsByExternalId(db, cached.facts.projectId)) if (seq < rank.length) rank[seq] = at++;
  return (cached.externalRank = rank);
}

/** The values of a set facet an item holds (a page's rows: a binary search per value). */
function valuesAt(postings: Postings, seq: number): string[] {
  const out: string[] = [];
  for (const [value, seqs] of postings) {
    let lo = 0;
    let hi = seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seqs[mid]! < seq) lo = mid + 1;
      else hi = mid;
    }
    if (seqs[lo] === seq) out.push(value);
  }
  return out;
}

/** The facets the review's project-wide part feeds (review/itemFacts.ts ReviewPart). */
const REVIEW_FACETS = new Set(['disagree', 'model_disagrees']);

/** Facet counts under the query; the whole project's once per facts and annotator. */
function countedFacets(m: Matched): FacetCount[] {
  const whole = m.search === null && m.query.clauses.length === 0;
  const key = m.me ?? '';
  const hit = whole ? m.cached.allCounts?.get(key) : undefined;
  if (hit) return hit;
  const counted = facetCounts(m.facts, m.query.clauses, m.clauseMasks, m.search, m.me, m.mask);
  if (whole) (m.cached.allCounts ??= new Map()).set(key, counted);
  return counted;
}

/** A page of items under the query; `given`: facts the caller read (the service, off its thread), else read here. */
export function runItemsQuery(db: Db, request: QueryItemsRequest, given?: FactsAnswer): ItemsPage {
  const started = performance.now();
  const m = matchItems(db, request, given);
  const { facts } = m;
  const key = sortKeys(facts, m.sort.column, () => externalRank(db, m.cached), m.relevance);
  const page = pageOf(m.mask, key, m.sort.column, m.sort.desc, readCursor(request.cursor), request.limit);
  const matching = countMask(m.mask);
  // Search text while the index is still being built after an upgrade: its matches are a lower bound.
  const capped = m.search !== null && searchBuildState(db) !== null;
  const queried = performance.now();
  const facets = request.facets ? countedFacets(m).map((f) => (m.reviewing && REVIEW_FACETS.has(f.facet) ? { ...f, recomputing: true } : f)) : [];
  const counted = performance.now();
  const meId = request.annotator ? (findAnnotator(db, request.annotator)?.id ?? null) : null;
  const describe = tableRows(db, facts.projectId, meId).describe;
  const listed = listRowsByIds(db, page.seqs.map((s) => facts.ids[s]!), meId);
  const snippets = m.query.text ? pageSnippets(db, m.query.text, listed.map((r) => r.id)) : null;
  const rows: ItemsRow[] = listed.map((row) => {
    const s = row.seq;
    const score = facts.score[s]!;
    return {
      ...describe(row),
      shape: SHAPES[facts.shape[s]!]!,
      images: facts.images[s] === 1,
      length: facts.length[s]!,
      score: Number.isNaN(score) ? null : score,
      uncertainty: Number.isNaN(facts.uncertainty[s]!) ? null : facts.uncertainty[s]!,
      disputed: DISAGREEMENTS.filter((_, i) => facts.disputed[s]! & (1 << i)),
      dispute: facts.dispute[s]!,
      annotators: valuesAt(facts.sets.annotator, s),
      tags: valuesAt(facts.sets.tag, s),
      outcomes: valuesAt(facts.sets.outcome, s),
      ...(snippets ? { snippets: snippets.get(row.id) ?? [] } : {}),
    };
  });
  return {
    total: facts.n,
    matching,
    query: { text: m.query.text, clauses: m.query.clauses, canonical: formatQuery(m.query) },
    sort: m.sort,
    rows,
    next: page.next ? JSON.stringify([page.next.key, page.next.seq]) : null,
    facets,
    exact: !capped,
    searchCapped: capped,
    stale: m.stale,
    ...(m.reviewing ? { reviewing: true } : {}),
    asOf: facts.asOf,
    timing: { factsMs: Math.round(m.factsMs), queryMs: Math.round(queried - started - m.factsMs), facetsMs: Math.round(counted - queried) },
  };
}
