// Queries whose words are in labels' text too (searchSql.ts): the matching set over both halves of the
// index, ranked by the sum of each half's bm25 for the query's words, a page at a time; and the labels'
// snippets. The common query (no label row holds any of its words) never comes here: search.ts runs it
// as one MATCH on the items' half. Split by the label half's hits (docs/data.md, "Search"): an item no
// label row of which holds a query word matches as the items' half alone says, ranked by it alone (its
// label bm25 is 0), so its hits come from that half's bounded sort; the labelled hits are decided leaf by
// leaf among themselves. bothSql, the whole set joined in SQL, is the reference and the fallback.
import { HIT_CLOSE, HIT_OPEN } from '../../../shared/searchText';
import type { SearchColumn, SearchNode } from '../../../shared/searchQuery';
import { ALL_COLUMNS, LABEL_COLUMNS, matchSetSql, sideAny, sideMatch } from './searchSql';
import type { Db } from './sqlite';
import { statement } from './statements';
import { visibleTop, VISIBLE_IDS_SQL, type Row, type TopCursor } from './searchTop';

/** Whether any label row holds one of the query's words: then the query needs both halves. */
export function labelsMatch(db: Db, node: SearchNode): boolean {
  const any = sideAny(node, 'label');
  return any !== null && statement(db, 'SELECT 1 FROM label_search WHERE label_search MATCH @any LIMIT 1').get({ any }) !== undefined;
}

/** The visible matches of both halves as rows (itemId, seq, rank): the SQL and its parameters, a page or the whole set. */
export function bothSql(node: SearchNode, projectId: number): { sql: string; params: Record<string, unknown> } {
  const set = matchSetSql(node);
  const itemAny = sideAny(node, 'item');
  const labelAny = sideAny(node, 'label');
  const sql = `WITH m(id) AS (${set.sql}),
    a AS MATERIALIZED (${itemAny ? 'SELECT rowid AS id, rank FROM item_search WHERE item_search MATCH @itemAny' : 'SELECT NULL AS id, 0 AS rank WHERE 0'}),
    b AS MATERIALIZED (${labelAny ? 'SELECT rowid AS id, rank FROM label_search WHERE label_search MATCH @labelAny' : 'SELECT NULL AS id, 0 AS rank WHERE 0'})
    SELECT m.id AS itemId, i.seq AS seq, COALESCE(a.rank, 0) + COALESCE(b.rank, 0) AS rank
    FROM m CROSS JOIN item i LEFT JOIN a ON a.id = m.id LEFT JOIN b ON b.id = m.id
    WHERE i.id = m.id AND i.project_id = @project AND i.seq < (SELECT visible_seq FROM project WHERE id = @project)`;
  return { sql, params: { ...set.params, ...(itemAny ? { itemAny } : {}), ...(labelAny ? { labelAny } : {}), project: projectId } };
}

/** A page of bothSql's rows by (rank, id), after a cursor. */
export function bothPage(db: Db, node: SearchNode, projectId: number, limit: number, after: { rank: number; itemId: number } | null) {
  const { sql, params } = bothSql(node, projectId);
  const where = after ? 'WHERE rank > @rank OR (rank = @rank AND itemId > CAST(@after AS INTEGER))' : '';
  return db.prepare(`SELECT * FROM (${sql}) ${where} ORDER BY rank, itemId LIMIT @limit`).all({ ...params, limit, ...(after ? { rank: after.rank, after: after.itemId } : {}) }) as {
    itemId: number;
    seq: number;
    rank: number;
  }[];
}

const LABEL_SNIPPETS_SQL = `SELECT ${LABEL_COLUMNS.map((_, c) => `snippet(label_search, ${c}, '${HIT_OPEN}', '${HIT_CLOSE}', '…', 16)`).join(', ')}
  FROM label_search WHERE label_search MATCH @match AND rowid = CAST(@id AS INTEGER)`;

/** An item's labels' columns as snippet() marks them for the query's label words (null each where none). */
export function labelSnippetRow(db: Db, node: SearchNode, itemId: number): (string | null)[] | null {
  const match = sideAny(node, 'label');
  if (!match) return null;
  return (statement(db, LABEL_SNIPPETS_SQL).raw(true).get({ match, id: itemId }) as (string | null)[] | undefined) ?? null;
}

/** The items' half as one MATCH, and the label half's hits that decide the rest (./searchBoth.ts, top). */
export interface BothSplit {
  /** The query on the items' half alone (null: nothing matches there alone), ranked as the reference ranks it. */
  itemMatch: string | null;
  /** Every item a label row of which holds one of the query's words (the label half's hits). */
  labeled: ReadonlySet<number>;
  /** Those of them the query matches over both halves, with their rank (both halves' bm25 summed). */
  matches: Map<number, number>;
}

/**
 * Past this many ids a half's hits are read in one pass over the ids' range instead of a seek each. A
 * ranked read is always one pass: bm25 counts each word's rows for its idf once a cursor, and every seek
 * of a join starts the cursor again (500 seeks, 500 passes over a word's rows).
 */
const SEEK_MAX = 512;
/**
 * Past this many labelled hits the split costs what the joined set does (bench/items-scale.mjs at 200k
 * items, 20% labelled: both are bm25 over every hit, and the split reads the items' half twice, once for
 * the page and once for the labelled items' ranks), so the joined set runs.
 */
export const SPLIT_LABELED_MAX = 8192;

/** Of `ids` (ascending), those a MATCH on one half holds, with its bm25 when `ranked`: a seek each, or one pass. */
function among(db: Db, table: 'item_search' | 'label_search', match: string, ids: readonly number[], ranked: boolean): Map<number, number> {
  const out = new Map<number, number>();
  if (ids.length === 0) return out;
  const list = JSON.stringify(ids);
  const rank = ranked ? 'rank' : '0';
  const seek = !ranked && ids.length <= SEEK_MAX;
  const sql =
    seek
      ? `SELECT s.rowid, 0 FROM json_each(@ids) j CROSS JOIN ${table} s ON s.rowid = j.value WHERE ${table} MATCH @match`
      : // The rank made for the ids alone (bm25 costs more than reading a hit).
        `SELECT rowid, CASE WHEN rowid IN (SELECT value FROM json_each(@ids)) THEN ${rank} END FROM ${table} WHERE ${table} MATCH @match AND rowid BETWEEN @lo AND @hi`;
  const lo = ids[0]!; // the ids ascend
  const hi = ids[ids.length - 1]!;
  for (const [id, r] of statement(db, sql).raw(true).iterate({ match, ids: list, ...(seek ? {} : { lo, hi }) }) as IterableIterator<[number, number | null]>) {
    if (r !== null) out.set(id, r);
  }
  return out;
}

const ascending = (set: ReadonlySet<number>) => [...set].sort((a, b) => a - b);

/**
 * The split of a both-halves query, or null when the items' half alone would not rank its hits as the
 * reference does (its MATCH leaves out words sideAny keeps, as `(x AND rationale:y) OR z` does x), or when
 * more than SPLIT_LABELED_MAX items' labels hold its words.
 */
export function bothSplit(db: Db, node: SearchNode): BothSplit | null {
  const used: string[] = [];
  const itemMatch = sideMatch(node, 'item', ALL_COLUMNS, used);
  const itemAny = sideAny(node, 'item');
  if (itemMatch !== null && used.join(' OR ') !== itemAny) return null;
  const labelAny = sideAny(node, 'label');
  // The labelled items, unranked (bm25 is asked below for the matching ones alone).
  const ids = labelAny ? (statement(db, 'SELECT rowid FROM label_search WHERE label_search MATCH @labelAny ORDER BY rowid LIMIT @max', true).all({ labelAny, max: SPLIT_LABELED_MAX + 1 }) as number[]) : [];
  if (ids.length > SPLIT_LABELED_MAX) return null;
  // The query over both halves among the labelled items: each word's items there, AND / OR / NOT as sets;
  // an AND's later words and a NOT's dropped part asked only among the items still in (`among`, ascending).
  const build = (n: SearchNode, columns: readonly SearchColumn[], among_: readonly number[]): Set<number> => {
    if (among_.length === 0) return new Set();
    switch (n.kind) {
      case 'term': {
        const item = sideMatch(n, 'item', columns);
        const label = sideMatch(n, 'label', columns);
        // The query's one word on the labels' half: every labelled item holds it (a word alone, the common case).
        if (label !== null && label === labelAny) return new Set(among_);
        return new Set([...(item ? among(db, 'item_search', item, among_, false).keys() : []), ...(label ? among(db, 'label_search', label, among_, false).keys() : [])]);
      }
      case 'field':
        return build(n.child, columns.filter((c) => n.columns.includes(c)), among_);
      case 'not': {
        const keep = build(n.keep, columns, among_);
        const drop = build(n.drop, columns, ascending(keep));
        return new Set([...keep].filter((id) => !drop.has(id)));
      }
      case 'and': {
        let set = build(n.children[0]!, columns, among_);
        for (const c of n.children.slice(1)) set = build(c, columns, ascending(set));
        return set;
      }
      case 'or':
        return new Set(n.children.flatMap((c) => [...build(c, columns, among_)]));
    }
  };
  const matching = ascending(build(node, ALL_COLUMNS, ids));
  const itemRanks = itemAny ? among(db, 'item_search', itemAny, matching, true) : new Map<number, number>();
  const labelRanks = labelAny ? among(db, 'label_search', labelAny, matching, true) : new Map<number, number>();
  const matches = new Map(matching.map((id) => [id, (itemRanks.get(id) ?? 0) + labelRanks.get(id)!]));
  return { itemMatch, labeled: new Set(ids), matches };
}

/** A page of the project's visible matches by (rank, id) after the cursor, from the split: the same rows as bothPage's. */
export function splitPage(db: Db, split: BothSplit, projectId: number, limit: number, after: TopCursor | null): Row[] {
  const own = split.itemMatch === null ? [] : visibleTop(db, split.itemMatch, projectId, limit, after, split.labeled);
  const ids = [...split.matches.keys()];
  const seqs = statement(db, VISIBLE_IDS_SQL).all({ ids: JSON.stringify(ids), project: projectId }) as { itemId: number; seq: number }[];
  const labeled = seqs
    .map(({ itemId, seq }) => ({ itemId, seq, rank: split.matches.get(itemId)! }))
    .filter((r) => !after || r.rank > after.rank || (r.rank === after.rank && r.itemId > after.itemId));
  return [...own, ...labeled].sort((a, b) => a.rank - b.rank || a.itemId - b.itemId).slice(0, limit);
}
