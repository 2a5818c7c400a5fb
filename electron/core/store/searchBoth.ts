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
import { searchBounds, visibleTop, VISIBLE_IDS_SQL, type Row, type TopCursor } from './searchTop';
import { termWords, wordRows, type SearchHalf } from './searchWords';

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
  /** Those of them the query matches over both halves, ascending. */
  matching: readonly number[];
  /** Their label half's bm25 (empty when asked unranked). */
  labelRanks: Map<number, number>;
  /**
   * Their items' half's bm25 (none: no word of the query there); null when itemMatch is the items' half's
   * whole query (sideAny's), so that the pass reading itemMatch's hits ranks them too (splitPage, eachMatch).
   */
  itemRanks: Map<number, number> | null;
}

/** A labelled match's rank: both halves' bm25 summed, as bothSql sums them. */
export function splitRank(split: BothSplit, itemRanks: ReadonlyMap<number, number>, id: number): number {
  return (itemRanks.get(id) ?? 0) + split.labelRanks.get(id)!;
}

// A half's hits among a few ids: a seek each, or one pass over the ids' range with the ids kept in SQL. A
// seek starts the MATCH again (its words looked up in every segment: 25-50 µs an id and word at 200k
// items, whatever the word); a pass reads the words' lists once (0.05-0.1 µs a row holding a word, the
// rows counted by ./searchWords.ts) and hands back only the ids asked (each hit returned to JS cost 3-4x
// the pass). Up to searchBounds.seekMax ids, seeks without counting; a prefix always passes (FTS5 expands
// it again at every seek). Before: a seek each up to 512 ids, 25-40 ms for a common word where a pass
// costs 5-10. A ranked read is always one pass: bm25 counts each word's rows for its idf once a cursor.
/** A seek of a word costs about what a pass over this many rows holding it does (~30 µs against ~0.06 µs). */
const SEEK_ROWS = 500;

/** Whether seeking `ids` costs less than a pass over the term's rows. */
function seekCheaper(db: Db, table: SearchHalf, term: { words: string[]; prefix: boolean } | undefined, ids: number): boolean {
  if (ids <= searchBounds.seekMax) return true;
  if (!term || term.prefix || term.words.length === 0) return false;
  let rows = 0;
  for (const word of term.words) rows += wordRows(db, table, word);
  return ids * term.words.length * SEEK_ROWS < rows;
}

/** The rows of both halves a term's rarest word is in (an AND's order); a prefix or a group last. */
function termRows(db: Db, node: SearchNode): number {
  const term = node.kind === 'field' ? node.child : node;
  if (term.kind !== 'term' || term.prefix) return Number.POSITIVE_INFINITY;
  const rows = Math.min(...termWords(term.text).map((w) => wordRows(db, 'item_search', w) + wordRows(db, 'label_search', w)));
  return Number.isNaN(rows) ? Number.POSITIVE_INFINITY : rows; // no words: Math.min() is already infinite
}

/** About how many items' hits the joined set ranks (its items' half is every word of the query ORed): 0 where unknown. */
function itemRows(db: Db, node: SearchNode): number {
  switch (node.kind) {
    case 'term': {
      if (node.prefix) return 0;
      const rows = Math.min(...termWords(node.text).map((w) => wordRows(db, 'item_search', w)));
      return Number.isFinite(rows) ? rows : 0;
    }
    case 'field':
      return itemRows(db, node.child);
    case 'not':
      return itemRows(db, node.keep) + itemRows(db, node.drop);
    default:
      return node.children.reduce((sum, c) => sum + itemRows(db, c), 0);
  }
}

/** At most how many items the query matches, from its words' rows (an AND: its rarest part's; unknown: infinite). */
export function rowsBound(db: Db, node: SearchNode): number {
  switch (node.kind) {
    case 'term':
      return termRows(db, node);
    case 'field':
      return rowsBound(db, node.child);
    case 'and':
      return Math.min(...node.children.map((c) => rowsBound(db, c)));
    case 'or':
      return node.children.reduce((sum, c) => sum + rowsBound(db, c), 0);
    case 'not':
      return rowsBound(db, node.keep);
  }
}

/** Of `ids` (ascending), those a MATCH on one half holds, with its bm25 when `ranked`: a seek each, or one pass. */
function among(db: Db, table: SearchHalf, match: string, ids: readonly number[], ranked: boolean, term?: { words: string[]; prefix: boolean }): Map<number, number> {
  const out = new Map<number, number>();
  if (ids.length === 0) return out;
  const list = JSON.stringify(ids);
  const seek = !ranked && seekCheaper(db, table, term, ids.length);
  const sql = seek
    ? `SELECT s.rowid, 0 FROM json_each(@ids) j CROSS JOIN ${table} s ON s.rowid = j.value WHERE ${table} MATCH @match`
    : // `+rowid`: the ids are a filter on the pass, not seeks FTS5 would be asked for; bm25 made for them alone.
      `SELECT rowid, ${ranked ? 'rank' : '0'} FROM ${table} WHERE ${table} MATCH @match AND rowid BETWEEN @lo AND @hi AND +rowid IN (SELECT value FROM json_each(@ids))`;
  const lo = ids[0]!; // the ids ascend
  const hi = ids[ids.length - 1]!;
  for (const [id, r] of statement(db, sql).raw(true).iterate({ match, ids: list, ...(seek ? {} : { lo, hi }) }) as IterableIterator<[number, number]>) out.set(id, r);
  return out;
}

const ascending = (set: ReadonlySet<number>) => [...set].sort((a, b) => a - b);

/**
 * The split of a both-halves query, or null when the items' half alone would not rank its hits as the
 * reference does (its MATCH leaves out words sideAny keeps, as `(x AND rationale:y) OR z` does x), or when
 * more items' labels hold its words than searchBounds allows (splitMatchingMax; splitLabeledMax where the
 * rows of its words bound its matches under splitMatchingMax). `ranked`: false leaves the ranks unread.
 */
export function bothSplit(db: Db, node: SearchNode, ranked = true): BothSplit | null {
  const used: string[] = [];
  const itemMatch = sideMatch(node, 'item', ALL_COLUMNS, used);
  const itemAny = sideAny(node, 'item');
  if (itemMatch !== null && used.join(' OR ') !== itemAny) return null;
  const labelAny = sideAny(node, 'label');
  // The labelled items, unranked (bm25 is asked below for the matching ones alone).
  // The labelled matches are at most the labelled hits, and at most the rows of an AND's rarest word: past
  // splitMatchingMax of them the joined set runs, decided before anything is read where the counts can.
  // Past those bounds the joined set still loses where it ranks many more items' hits than there are labelled
  // ones (at 10M items, 2M labelled: `ripo mida`, 1.8M item rows against ~68k labelled, 7.0 s joined).
  const bound = rowsBound(db, node) <= searchBounds.splitMatchingMax ? searchBounds.splitLabeledMax : searchBounds.splitMatchingMax;
  const most = Math.max(bound, Math.min(searchBounds.splitLabeledCap, Math.floor(itemRows(db, node) / searchBounds.joinedPerLabeled)));
  const ids = labelAny ? (statement(db, 'SELECT rowid FROM label_search WHERE label_search MATCH @labelAny ORDER BY rowid LIMIT @max', true).all({ labelAny, max: most + 1 }) as number[]) : [];
  if (ids.length > most) return null;
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
        const term = { words: termWords(n.text), prefix: n.prefix };
        return new Set([...(item ? among(db, 'item_search', item, among_, false, term).keys() : []), ...(label ? among(db, 'label_search', label, among_, false, term).keys() : [])]);
      }
      case 'field':
        return build(n.child, columns.filter((c) => n.columns.includes(c)), among_);
      case 'not': {
        const keep = build(n.keep, columns, among_);
        const drop = build(n.drop, columns, ascending(keep));
        return new Set([...keep].filter((id) => !drop.has(id)));
      }
      case 'and': {
        // The rarest word first (the rows holding it, counted: ./searchWords.ts): the common ones are then
        // asked among few items (`lo jujuda`, 36k labelled: 'lo' first read 36k ids twice, 200 ms).
        const children = n.children.map((c) => ({ c, rows: termRows(db, c) })).sort((a, b) => a.rows - b.rows);
        let set = build(children[0]!.c, columns, among_);
        for (const { c } of children.slice(1)) set = build(c, columns, ascending(set));
        return set;
      }
      case 'or':
        return new Set(n.children.flatMap((c) => [...build(c, columns, among_)]));
    }
  };
  const matching = ascending(build(node, ALL_COLUMNS, ids));
  // The items' half's MATCH is its whole query: the page's own pass over it ranks the labelled matches too.
  const sameHits = itemMatch !== null && (itemMatch === itemAny || itemMatch === `(${itemAny})`);
  const itemRanks = !ranked || !itemAny ? new Map<number, number>() : sameHits ? null : among(db, 'item_search', itemAny, matching, true);
  const labelRanks = ranked && labelAny ? among(db, 'label_search', labelAny, matching, true) : new Map<number, number>();
  return { itemMatch, labeled: new Set(ids), matching, labelRanks, itemRanks };
}

/**
 * A page of the project's visible matches by (rank, id) after the cursor, from the split: the same rows as
 * bothPage's. The labelled matches are looked up (visible in the project?) best first, a few at a time,
 * until the page has enough of them.
 */
export function splitPage(db: Db, split: BothSplit, projectId: number, limit: number, after: TopCursor | null): Row[] {
  const kept = new Map<number, number>();
  const matching = new Set(split.matching);
  const exclude = split.itemRanks === null ? [...split.labeled].filter((id) => !matching.has(id)) : [...split.labeled];
  const keep = split.itemRanks === null ? { ids: split.matching, kept } : undefined;
  const own = split.itemMatch === null ? [] : visibleTop(db, split.itemMatch, projectId, limit, after, exclude, keep);
  const itemRanks = split.itemRanks ?? kept;
  const candidates = split.matching
    .map((itemId) => ({ itemId, rank: splitRank(split, itemRanks, itemId) }))
    .filter((r) => !after || r.rank > after.rank || (r.rank === after.rank && r.itemId > after.itemId))
    .sort((a, b) => a.rank - b.rank || a.itemId - b.itemId);
  const labeled: Row[] = [];
  for (let at = 0, chunk = limit; at < candidates.length && labeled.length < limit; at += chunk, chunk *= 2) {
    const part = candidates.slice(at, at + chunk);
    const seqs = new Map((statement(db, VISIBLE_IDS_SQL).all({ ids: JSON.stringify(part.map((r) => r.itemId)), project: projectId }) as { itemId: number; seq: number }[]).map((v) => [v.itemId, v.seq]));
    for (const r of part) if (seqs.has(r.itemId)) labeled.push({ itemId: r.itemId, seq: seqs.get(r.itemId)!, rank: r.rank });
  }
  return [...own, ...labeled].sort((a, b) => a.rank - b.rank || a.itemId - b.itemId).slice(0, limit);
}
