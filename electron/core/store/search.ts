// Full-text search over a project's items (the index: migrations/0012_search.sql, written by
// searchIndex.ts): a ranked page of hits with their words in context, and the set of matching items the
// facet counts read. Queries come parsed (shared/searchQuery.ts) and are bound as one MATCH parameter;
// only visible items are ever returned (a pending import's are above visible_seq). docs/data.md, "Search".
import { HIT_CLOSE, HIT_OPEN } from '../../../shared/searchText';
import { parseSearch, type SearchColumn, type SearchNode, type SearchQuery } from '../../../shared/searchQuery';
import { ArbiterError } from '../base/errors';
import { bothPage, bothSql, labelSnippetRow, labelsMatch } from './searchBoth';
import { searchBuildState, type SearchBuildState } from './searchIndex';
import { ITEM_COLUMNS, LABEL_COLUMNS, matchSetSql, sideAny, sideMatch } from './searchSql';
import type { Db } from './sqlite';
import { statement } from './statements';

/** A run of a field's text, a hit (a word the query matched) or not. Plain text: never HTML. */
export interface SnippetPart {
  text: string;
  hit: boolean;
}

/** The words around the hits in one field. */
export interface SearchSnippet {
  field: SearchColumn;
  parts: SnippetPart[];
}

export interface SearchHit {
  itemId: number;
  seq: number;
  /** bm25: lower is better (SQLite's sign). */
  rank: number;
  snippets: SearchSnippet[];
}

/** Where the next page starts: after this hit in rank order. */
export interface SearchCursor {
  rank: number;
  itemId: number;
}

export interface SearchPageResult {
  rows: SearchHit[];
  /** The cursor of the page after this one, or null when this is the last. */
  next: SearchCursor | null;
  /** While the index of an upgraded database is still being built: how far (hits may be missing). */
  building: SearchBuildState | null;
}

/** The most hits a page holds, and the most snippets a hit shows. */
export const SEARCH_PAGE_MAX = 500;
const SNIPPETS_PER_HIT = 3;
/** Tokens of context a snippet shows. */
const SNIPPET_TOKENS = 16;

/** A query as typed or parsed: parsed here when typed, a malformed one refused with its sentence. */
export function resolveSearch(query: string | SearchQuery): SearchQuery {
  if (typeof query !== 'string') return query;
  const parsed = parseSearch(query);
  if (!parsed.ok) throw new ArbiterError('invalid_input', parsed.error);
  return parsed.query;
}

/**
 * A condition on items `i` (joined as `item i`) that holds for those matching the query, with its named
 * parameters (@s0, @s1, …): for a query engine that counts or filters in one statement.
 */
export function searchCondition(query: string | SearchQuery): { sql: string; params: Record<string, string> } {
  const set = matchSetSql(resolveSearch(query).node);
  return { sql: `i.id IN (${set.sql})`, params: set.params };
}

/**
 * How a query runs: as one MATCH on the items' half (`item`: no label row holds any of its words, so
 * they match nothing there), on both halves (`both`), or not at all (`none`: it can match nothing).
 */
type Plan = { kind: 'item'; match: string } | { kind: 'both'; node: SearchNode } | { kind: 'none' };

function planOf(db: Db, query: string | SearchQuery): Plan {
  const { node } = resolveSearch(query);
  if (labelsMatch(db, node)) return { kind: 'both', node };
  const match = sideMatch(node, 'item');
  return match === null ? { kind: 'none' } : { kind: 'item', match };
}

// The index drives the join (CROSS JOIN keeps SQLite from scanning the project's items and asking the
// index about each one: 14 s instead of 40 ms for 12k hits among 20k items).
const VISIBLE_MATCH = `item_search MATCH @match AND i.id = s.rowid AND i.project_id = @project AND i.seq < (SELECT visible_seq FROM project WHERE id = @project)`;

const PAGE_AFTER_SQL = `SELECT s.rowid AS itemId, i.seq AS seq, s.rank AS rank FROM item_search s CROSS JOIN item i WHERE ${VISIBLE_MATCH}
  AND (s.rank > @rank OR (s.rank = @rank AND s.rowid > CAST(@after AS INTEGER))) ORDER BY s.rank, s.rowid LIMIT @limit`;
const PAGE_SQL = `SELECT s.rowid AS itemId, i.seq AS seq, s.rank AS rank FROM item_search s CROSS JOIN item i WHERE ${VISIBLE_MATCH}
  ORDER BY s.rank, s.rowid LIMIT @limit`;
// The first page, the common case: FTS5's own top-N by rank over the whole index (its sorter, no temp
// b-tree), then the project's visible items among them, looked up by id.
const TOP_SQL = 'SELECT rowid AS itemId, rank FROM item_search WHERE item_search MATCH @match ORDER BY rank LIMIT @top';
const VISIBLE_IDS_SQL = `SELECT i.id AS itemId, i.seq AS seq FROM json_each(@ids) j CROSS JOIN item i
  WHERE i.id = j.value AND i.project_id = @project AND i.seq < (SELECT visible_seq FROM project WHERE id = @project)`;

type Row = { itemId: number; seq: number; rank: number };

/**
 * The first `want` hits of the project's visible items by (rank, id), from FTS5's top `want × 4` of the
 * whole index; null when that top cannot be trusted to hold them (other projects' or hidden items took
 * its places, or a tie in rank runs past its end): the caller asks the join instead.
 */
function firstHits(db: Db, match: string, projectId: number, want: number): Row[] | null {
  const top = want * 4;
  const ranked = statement(db, TOP_SQL).all({ match, top }) as { itemId: number; rank: number }[];
  if (!ranked.length) return [];
  const rankOf = new Map(ranked.map((r) => [r.itemId, r.rank]));
  const visible = statement(db, VISIBLE_IDS_SQL).all({ ids: JSON.stringify(ranked.map((r) => r.itemId)), project: projectId }) as { itemId: number; seq: number }[];
  const rows = visible.map((v) => ({ itemId: v.itemId, seq: v.seq, rank: rankOf.get(v.itemId)! }));
  rows.sort((a, b) => a.rank - b.rank || a.itemId - b.itemId);
  if (ranked.length < top) return rows.slice(0, want);
  const lastRank = ranked[ranked.length - 1]!.rank;
  if (rows.length < want || rows[want - 1]!.rank >= lastRank) return null;
  return rows.slice(0, want);
}

const SNIPPET_COLUMNS = ITEM_COLUMNS.map((_, c) => `snippet(item_search, ${c}, '${HIT_OPEN}', '${HIT_CLOSE}', '…', ${SNIPPET_TOKENS})`).join(', ');
const SNIPPETS_SQL = `SELECT ${SNIPPET_COLUMNS} FROM item_search WHERE item_search MATCH @match AND rowid = CAST(@id AS INTEGER)`;
// The first page when the index's own best hits are all the project's visible items (one project, no
// import pending): FTS5's top-N by rank with their snippets made in the same pass, where the hits'
// positions are at hand (a snippet asked for by rowid afterwards makes FTS5 seek in every term's list).
const TOP_SNIPPETS_SQL = `SELECT rowid, rank, ${SNIPPET_COLUMNS} FROM item_search WHERE item_search MATCH @match ORDER BY rank LIMIT @top`;
// Every hit ranked at or above a rank: when the page's last rank ties with hits past what the pass read
// (bm25 ties often: a word once in texts of the same length), so the page takes the lowest ids of the tie.
const UP_TO_SQL = 'SELECT rowid, rank FROM item_search WHERE item_search MATCH @match AND rank <= @rank';

/** A snippet as FTS5 marks it, in parts; null when it holds no hit (the column did not match). */
export function snippetParts(marked: string | null): SnippetPart[] | null {
  if (!marked || !marked.includes(HIT_OPEN)) return null;
  const parts: SnippetPart[] = [];
  let at = 0;
  while (at < marked.length) {
    const open = marked.indexOf(HIT_OPEN, at);
    if (open < 0) {
      parts.push({ text: marked.slice(at), hit: false });
      break;
    }
    if (open > at) parts.push({ text: marked.slice(at, open), hit: false });
    const close = marked.indexOf(HIT_CLOSE, open + 1);
    const end = close < 0 ? marked.length : close;
    parts.push({ text: marked.slice(open + 1, end), hit: true });
    at = end + 1;
  }
  return parts.filter((p) => p.text !== '');
}

/** The snippets of one hit (its columns' snippet() from `from` on): the fields that matched, in column order, a few at most. */
function snippetsOfRow(row: readonly unknown[], from: number, columns: readonly SearchColumn[] = ITEM_COLUMNS): SearchSnippet[] {
  const out: SearchSnippet[] = [];
  for (let c = 0; c < columns.length && out.length < SNIPPETS_PER_HIT; c++) {
    const parts = snippetParts((row[from + c] as string | null) ?? null);
    if (parts) out.push({ field: columns[c]!, parts });
  }
  return out;
}

/** A hit's snippets on both halves: the labels' first (they say why), then the item's, a few at most. */
function bothSnippets(db: Db, node: SearchNode, itemId: number): SearchSnippet[] {
  const labels = labelSnippetRow(db, node, itemId);
  const itemAny = sideAny(node, 'item');
  const own = itemAny ? snippetsOf(db, itemAny, itemId) : [];
  return [...(labels ? snippetsOfRow(labels, 0, LABEL_COLUMNS) : []), ...own].slice(0, SNIPPETS_PER_HIT);
}

function snippetsOf(db: Db, match: string, itemId: number): SearchSnippet[] {
  const row = statement(db, SNIPPETS_SQL).raw(true).get({ match, id: itemId }) as unknown[] | undefined;
  return row ? snippetsOfRow(row, 0) : [];
}

/** One item's words in context for a search (the items explorer's rows): the fields that matched, a few at most. */
export function itemSnippets(db: Db, query: string | SearchQuery, itemId: number): SearchSnippet[] {
  return bothSnippets(db, resolveSearch(query).node, itemId);
}

/**
 * The first page in one pass of the index (TOP_SNIPPETS_SQL), or null when it cannot be trusted: one of
 * its hits is not the project's visible item, or a tie in rank may run past what it read.
 */
function fastFirstPage(db: Db, match: string, projectId: number, limit: number): { hits: SearchHit[]; more: boolean } | null {
  // Four pages' worth: a bm25 tie at the page's end mostly ends within them (their snippets cost little
  // beside ranking every hit, which FTS5 does whatever the LIMIT).
  const top = limit * 4 + 2;
  const read = statement(db, TOP_SNIPPETS_SQL).raw(true).all({ match, top }) as unknown[][];
  if (!read.length) return { hits: [], more: false };
  const byRank = (a: unknown[], b: unknown[]) => (a[1] as number) - (b[1] as number) || (a[0] as number) - (b[0] as number);
  read.sort(byRank);
  let page: unknown[][] = read.slice(0, limit + 1);
  // A tie at the page's end that runs past what was read: the page is the tie's lowest ids, whichever FTS5 gave first.
  if (read.length === top && read[limit - 1]![1] === read[top - 1]![1]) {
    page = (statement(db, UP_TO_SQL).raw(true).all({ match, rank: read[limit - 1]![1] }) as unknown[][]).sort(byRank);
  }
  const seqs = new Map(
    (statement(db, VISIBLE_IDS_SQL).all({ ids: JSON.stringify(page.map((r) => r[0])), project: projectId }) as { itemId: number; seq: number }[]).map((v) => [v.itemId, v.seq]),
  );
  if (seqs.size < page.length) return null;
  const snippetRows = new Map(read.map((r) => [r[0] as number, r]));
  const hits = page.slice(0, limit).map((r) => {
    const id = r[0] as number;
    const withSnippets = snippetRows.get(id);
    return { itemId: id, seq: seqs.get(id)!, rank: r[1] as number, snippets: withSnippets ? snippetsOfRow(withSnippets, 2) : snippetsOf(db, match, id) };
  });
  return { hits, more: page.length > limit };
}

/**
 * A page of a project's items matching the query, best first (bm25, then item id), each with its hits in
 * context. `after` is the previous page's `next`.
 */
export function searchPage(db: Db, projectId: number, query: string | SearchQuery, options: { limit?: number; after?: SearchCursor | null } = {}): SearchPageResult {
  const plan = planOf(db, query);
  const limit = Math.max(1, Math.min(SEARCH_PAGE_MAX, Math.trunc(options.limit ?? 50)));
  if (plan.kind === 'none') return { rows: [], next: null, building: searchBuildState(db) };
  if (plan.kind === 'both') {
    const rows = bothPage(db, plan.node, projectId, limit + 1, options.after ?? null);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const hits = page.map((r) => ({ ...r, snippets: bothSnippets(db, plan.node, r.itemId) }));
    return { rows: hits, next: rows.length > limit && last ? { rank: last.rank, itemId: last.itemId } : null, building: searchBuildState(db) };
  }
  const { match } = plan;
  if (!options.after) {
    const fast = fastFirstPage(db, match, projectId, limit);
    if (fast) {
      const last = fast.hits[fast.hits.length - 1];
      return { rows: fast.hits, next: fast.more && last ? { rank: last.rank, itemId: last.itemId } : null, building: searchBuildState(db) };
    }
  }
  const params = { match, project: projectId, limit: limit + 1 };
  const rows = (
    options.after
      ? statement(db, PAGE_AFTER_SQL).all({ ...params, rank: options.after.rank, after: options.after.itemId })
      : (firstHits(db, match, projectId, limit + 1) ?? statement(db, PAGE_SQL).all(params))
  ) as Row[];
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const hits = page.map((r) => ({ itemId: r.itemId, seq: r.seq, rank: r.rank, snippets: snippetsOf(db, match, r.itemId) }));
  const last = page[page.length - 1];
  return { rows: hits, next: more && last ? { rank: last.rank, itemId: last.itemId } : null, building: searchBuildState(db) };
}

/**
 * The project's visible items matching the query with their bm25 rank (lower is better; both halves'
 * sum where the words are in labels too, as a page ranks them): the items explorer's relevance sort.
 */
export function matchingRanks(db: Db, projectId: number, query: string | SearchQuery): { seq: number; rank: number }[] {
  const plan = planOf(db, query);
  if (plan.kind === 'none') return [];
  if (plan.kind === 'both') {
    const { sql, params } = bothSql(plan.node, projectId);
    return db.prepare(`SELECT seq, rank FROM (${sql})`).all(params) as { seq: number; rank: number }[];
  }
  return db.prepare(`SELECT i.seq AS seq, s.rank AS rank FROM item_search s CROSS JOIN item i WHERE ${VISIBLE_MATCH}`).all({ match: plan.match, project: projectId }) as { seq: number; rank: number }[];
}

/** The temporary table matchingItemIds fills (one per connection): item_id INTEGER PRIMARY KEY. */
export const SEARCH_MATCH_TABLE = 'temp.search_match';

/**
 * The project's visible items matching the query, into SEARCH_MATCH_TABLE (emptied first), for the
 * facet counts to join: `JOIN temp.search_match m ON m.item_id = i.id`. Returns how many match.
 */
export function matchingItemIds(db: Db, projectId: number, query: string | SearchQuery): { table: typeof SEARCH_MATCH_TABLE; count: number } {
  const plan = planOf(db, query);
  db.exec('CREATE TEMP TABLE IF NOT EXISTS search_match (item_id INTEGER PRIMARY KEY)');
  db.exec('DELETE FROM temp.search_match');
  if (plan.kind === 'none') return { table: SEARCH_MATCH_TABLE, count: 0 };
  if (plan.kind === 'both') {
    const { sql, params } = bothSql(plan.node, projectId);
    const { changes } = db.prepare(`INSERT INTO temp.search_match (item_id) SELECT itemId FROM (${sql}) ORDER BY itemId`).run(params);
    return { table: SEARCH_MATCH_TABLE, count: changes };
  }
  const { changes } = db
    .prepare(`INSERT INTO temp.search_match (item_id) SELECT s.rowid FROM item_search s CROSS JOIN item i WHERE ${VISIBLE_MATCH} ORDER BY s.rowid`)
    .run({ match: plan.match, project: projectId });
  return { table: SEARCH_MATCH_TABLE, count: changes };
}
