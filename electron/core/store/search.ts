// Full-text search over a project's items (the index: migrations/0012_search.sql, written by
// searchIndex.ts): a ranked page of hits with their words in context, and the set of matching items the
// facet counts read. Queries come parsed (shared/searchQuery.ts) and are bound as one MATCH parameter;
// only visible items are ever returned (a pending import's are above visible_seq). docs/data.md, "Search".
import { HIT_CLOSE, HIT_OPEN } from '../../../shared/searchText';
import { parseSearch, type SearchColumn, type SearchNode, type SearchQuery } from '../../../shared/searchQuery';
import { ArbiterError } from '../base/errors';
import { bothPage, bothSql, bothSplit, labelSnippetRow, labelsMatch, splitPage } from './searchBoth';
import { searchBuildState, type SearchBuildState } from './searchIndex';
import { ITEM_COLUMNS, LABEL_COLUMNS, matchSetSql, sideAny, sideMatch } from './searchSql';
import type { Db } from './sqlite';
import { statement } from './statements';
import { VISIBLE_MATCH, visibleTop } from './searchTop';

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
export type Plan = { kind: 'item'; match: string; prefix: boolean } | { kind: 'both'; node: SearchNode } | { kind: 'none' };

export function planOf(db: Db, query: string | SearchQuery): Plan {
  const { node } = resolveSearch(query);
  if (labelsMatch(db, node)) return { kind: 'both', node };
  const match = sideMatch(node, 'item');
  return match === null ? { kind: 'none' } : { kind: 'item', match, prefix: hasPrefix(node) };
}

const SNIPPET_COLUMNS = ITEM_COLUMNS.map((_, c) => `snippet(item_search, ${c}, '${HIT_OPEN}', '${HIT_CLOSE}', '…', ${SNIPPET_TOKENS})`).join(', ');
const SNIPPETS_SQL = `SELECT ${SNIPPET_COLUMNS} FROM item_search WHERE item_search MATCH @match AND rowid = CAST(@id AS INTEGER)`;
// The snippets of the ids in one pass over their range; snippet() made for those ids alone.
const RANGE_SNIPPETS_SQL = `SELECT rowid, ${ITEM_COLUMNS.map((_, c) => `CASE WHEN rowid IN (SELECT value FROM json_each(@ids)) THEN snippet(item_search, ${c}, '${HIT_OPEN}', '${HIT_CLOSE}', '…', ${SNIPPET_TOKENS}) END`).join(', ')}
  FROM item_search WHERE item_search MATCH @match AND rowid BETWEEN @lo AND @hi`;

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

function snippetsOf(db: Db, match: string, itemId: number): SearchSnippet[] {
  const row = statement(db, SNIPPETS_SQL).raw(true).get({ match, id: itemId }) as unknown[] | undefined;
  return row ? snippetsOfRow(row, 0) : [];
}

/** Whether the query holds a prefix (`scatter*`). */
function hasPrefix(node: SearchNode): boolean {
  switch (node.kind) {
    case 'term':
      return node.prefix;
    case 'field':
      return hasPrefix(node.child);
    case 'not':
      return hasPrefix(node.keep) || hasPrefix(node.drop);
    default:
      return node.children.some(hasPrefix);
  }
}

/**
 * The snippets of a page's hits on the items' half, by id: one seek by id each, or, for a query with a
 * prefix, one pass over the ids' range (FTS5 merges every word a prefix stands for again at each seek:
 * 50 seeks cost 80-110 ms for a prefix of a few thousand items at 1M, one pass 20-40 ms; a word's or a
 * phrase's seek costs ~0.1 ms, a pass over a common phrase ~100 ms).
 */
function itemSnippetsOf(db: Db, match: string, prefix: boolean, ids: readonly number[]): Map<number, SearchSnippet[]> {
  if (!prefix || ids.length < 3) return new Map(ids.map((id) => [id, snippetsOf(db, match, id)]));
  const out = new Map<number, SearchSnippet[]>();
  const wanted = new Set(ids);
  const rows = statement(db, RANGE_SNIPPETS_SQL).raw(true).all({ match, ids: JSON.stringify(ids), lo: Math.min(...ids), hi: Math.max(...ids) }) as unknown[][];
  for (const row of rows) if (wanted.has(row[0] as number)) out.set(row[0] as number, snippetsOfRow(row, 1));
  for (const id of ids) if (!out.has(id)) out.set(id, []);
  return out;
}

/** A page's words in context by id (the items explorer's rows): the labels' first, then the item's, a few at most. */
export function pageSnippets(db: Db, query: string | SearchQuery, ids: readonly number[]): Map<number, SearchSnippet[]> {
  return nodeSnippets(db, resolveSearch(query).node, ids);
}

/**
 * The snippets of a page's hits on both halves by id: the labels' (they say why) for the ids in `labeled`
 * alone when the caller knows which items' labels hold the query's words (a seek each saved), then the
 * item's.
 */
function nodeSnippets(db: Db, node: SearchNode, ids: readonly number[], labeled?: ReadonlySet<number>): Map<number, SearchSnippet[]> {
  const itemAny = sideAny(node, 'item');
  const own = itemAny ? itemSnippetsOf(db, itemAny, hasPrefix(node), ids) : new Map<number, SearchSnippet[]>();
  return new Map(
    ids.map((id) => {
      const labels = !labeled || labeled.has(id) ? labelSnippetRow(db, node, id) : null;
      return [id, [...(labels ? snippetsOfRow(labels, 0, LABEL_COLUMNS) : []), ...(own.get(id) ?? [])].slice(0, SNIPPETS_PER_HIT)];
    }),
  );
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
    const split = bothSplit(db, plan.node);
    const rows = split ? splitPage(db, split, projectId, limit + 1, options.after ?? null) : bothPage(db, plan.node, projectId, limit + 1, options.after ?? null);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const snippets = nodeSnippets(db, plan.node, page.map((r) => r.itemId), split?.labeled);
    const hits = page.map((r) => ({ ...r, snippets: snippets.get(r.itemId)! }));
    return { rows: hits, next: rows.length > limit && last ? { rank: last.rank, itemId: last.itemId } : null, building: searchBuildState(db) };
  }
  const rows = visibleTop(db, plan.match, projectId, limit + 1, options.after ?? null);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const snippets = itemSnippetsOf(db, plan.match, plan.prefix, page.map((r) => r.itemId));
  const hits = page.map((r) => ({ itemId: r.itemId, seq: r.seq, rank: r.rank, snippets: snippets.get(r.itemId)! }));
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
