// A page of a query's hits on the items' half by (bm25, id) from SQLite's bounded sort over FTS5's hits,
// the project's visible items among them looked up by id (store/search.ts searchPage, and the both-halves
// page of ./searchBoth.ts, which leaves out the items whose labels hold the query's words).
import type { Db } from './sqlite';
import { statement } from './statements';

export interface TopCursor {
  rank: number;
  itemId: number;
}

// The index drives the join (CROSS JOIN keeps SQLite from scanning the project's items and asking the
// index about each one: 14 s instead of 40 ms for 12k hits among 20k items).
export const VISIBLE_MATCH = `item_search MATCH @match AND i.id = s.rowid AND i.project_id = @project AND i.seq < (SELECT visible_seq FROM project WHERE id = @project)`;

const PAGE_AFTER_SQL = `SELECT s.rowid AS itemId, i.seq AS seq, s.rank AS rank FROM item_search s CROSS JOIN item i WHERE ${VISIBLE_MATCH}
  AND (s.rank > @rank OR (s.rank = @rank AND s.rowid > CAST(@after AS INTEGER))) ORDER BY s.rank, s.rowid LIMIT @limit`;
const PAGE_SQL = `SELECT s.rowid AS itemId, i.seq AS seq, s.rank AS rank FROM item_search s CROSS JOIN item i WHERE ${VISIBLE_MATCH}
  ORDER BY s.rank, s.rowid LIMIT @limit`;
// A page, the common case: the index's best `top` hits of every project by (rank, id), SQLite's own bounded
// sort over FTS5's hits in rowid order (`rank + 0.0` is not FTS5's rank column, so FTS5 does not sort them
// itself: its sorter keeps every hit's position lists and seeks each returned row again, 1.3-1.5x the
// time for common words), then the project's visible items among them, looked up by id.
const TOP_SQL = 'SELECT rowid, rank FROM item_search WHERE item_search MATCH @match ORDER BY rank + 0.0, rowid LIMIT @top';
const TOP_AFTER_SQL = `SELECT rowid, rank FROM item_search WHERE item_search MATCH @match
  AND (rank > @rank OR (rank = @rank AND rowid > CAST(@after AS INTEGER))) ORDER BY rank + 0.0, rowid LIMIT @top`;
export const VISIBLE_IDS_SQL = `SELECT i.id AS itemId, i.seq AS seq FROM json_each(@ids) j CROSS JOIN item i
  WHERE i.id = j.value AND i.project_id = @project AND i.seq < (SELECT visible_seq FROM project WHERE id = @project)`;
/**
 * The bounds that choose among equivalent ways to read a search (each gives the same rows; the tests set
 * them to walk every way: test/integration/search-first-page.test.ts). `topMax`: past this many of the
 * index's best hits without `want` of the project's, the join asks the project's alone. `seekMax`: up to
 * this many ids a half's hits are asked by seek, past it as the words' rows say (./searchBoth.ts among).
 * A both-halves query takes the joined set (bothSql) past `splitMatchingMax` labelled matches, or past
 * `splitLabeledMax` labelled hits where its words' rows bound its matches under `splitMatchingMax`.
 */
export const searchBounds = {
  topMax: 16_384,
  seekMax: 16,
  splitLabeledMax: 65_536,
  splitMatchingMax: 16_384,
  /** Past those two, the split still runs while the joined set would rank this many items' hits per labelled id or more (./searchBoth.ts). */
  joinedPerLabeled: 16,
  /** …up to this many labelled ids. */
  splitLabeledCap: 262_144,
};

export type Row = { itemId: number; seq: number; rank: number };

// Ids left out (`exclude`) and ids whose ranks are read in the same pass (`keep`), as filters on FTS5's
// hits (`+rowid`: not seeks FTS5 would be asked for): the kept hits sort first, then the best of the rest.
const KEPT = '+rowid IN (SELECT value FROM json_each(@keep))';
const LEFT_OUT = '+rowid NOT IN (SELECT value FROM json_each(@exclude))';
const TOP_KEEP_SQL = `SELECT rowid, rank, ${KEPT} FROM item_search WHERE item_search MATCH @match AND ${LEFT_OUT}
  ORDER BY 3 DESC, rank + 0.0, rowid LIMIT @top`;
const TOP_KEEP_AFTER_SQL = `SELECT rowid, rank, ${KEPT} FROM item_search WHERE item_search MATCH @match AND ${LEFT_OUT}
  AND (${KEPT} OR rank > @rank OR (rank = @rank AND rowid > CAST(@after AS INTEGER))) ORDER BY 3 DESC, rank + 0.0, rowid LIMIT @top`;

/**
 * The first `want` of the project's visible hits by (rank, id) after the cursor: exact, since the best
 * `top` of the whole index hold them whenever they hold `want` of the project's (any other is ranked after
 * every one of those). Other projects' or hidden items among the best: four times as many, then the join.
 * Ids in `exclude` are left out as if the index did not hold them; the ranks of the hits among `keep`
 * (left out of the rows too) go to `kept`, read in the same pass (./searchBoth.ts splitPage: the labelled
 * items' ranks on the items' half, where a second pass would count each word's rows for bm25 again).
 */
export function visibleTop(
  db: Db,
  match: string,
  projectId: number,
  want: number,
  after: TopCursor | null,
  exclude?: readonly number[],
  keep?: { ids: readonly number[]; kept: Map<number, number> },
): Row[] {
  const cursor = after ? { rank: after.rank, after: after.itemId } : {};
  const filtered = Boolean(exclude?.length || keep?.ids.length);
  const lists = filtered ? { exclude: JSON.stringify(exclude ?? []), keep: JSON.stringify(keep?.ids ?? []) } : {};
  const keeps = keep?.ids.length ?? 0;
  for (let top = want; top <= searchBounds.topMax; top *= 4) {
    const sql = filtered ? (after ? TOP_KEEP_AFTER_SQL : TOP_KEEP_SQL) : after ? TOP_AFTER_SQL : TOP_SQL;
    const read = statement(db, sql).raw(true).all({ match, top: top + keeps, ...cursor, ...lists }) as [number, number, number?][];
    let from = 0;
    for (; from < read.length && read[from]![2] === 1; from++) keep!.kept.set(read[from]![0], read[from]![1]);
    const ranked = read.slice(from);
    const seqs = new Map(
      (statement(db, VISIBLE_IDS_SQL).all({ ids: JSON.stringify(ranked.map((r) => r[0])), project: projectId }) as { itemId: number; seq: number }[]).map((v) => [v.itemId, v.seq]),
    );
    const rows = ranked.filter((r) => seqs.has(r[0])).map(([itemId, rank]) => ({ itemId, seq: seqs.get(itemId)!, rank }));
    if (rows.length >= want || ranked.length < top) return rows.slice(0, want);
    keep?.kept.clear();
  }
  // The join over every hit; the kept ranks, if asked, in a pass of their own.
  if (keep?.ids.length) {
    const read = statement(db, TOP_KEEP_SQL).raw(true).all({ match, top: keeps, exclude: '[]', keep: JSON.stringify(keep.ids) }) as [number, number, number][];
    for (const [id, rank, kept] of read) if (kept === 1) keep.kept.set(id, rank);
  }
  const left = new Set([...(exclude ?? []), ...(keep?.ids ?? [])]);
  const rows = statement(db, after ? PAGE_AFTER_SQL : PAGE_SQL).all({ match, project: projectId, limit: want + left.size, ...cursor }) as Row[];
  return rows.filter((r) => !left.has(r.itemId)).slice(0, want);
}
