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
/** Past this many of the index's best hits without `want` of the project's, the join asks the project's alone. */
const TOP_MAX = 16_384;

export type Row = { itemId: number; seq: number; rank: number };

/**
 * The first `want` of the project's visible hits by (rank, id) after the cursor: exact, since the best
 * `top` of the whole index hold them whenever they hold `want` of the project's (any other is ranked after
 * every one of those). Other projects' or hidden items among the best: four times as many, then the join.
 * Ids in `exclude` are left out as if the index did not hold them.
 */
export function visibleTop(db: Db, match: string, projectId: number, want: number, after: TopCursor | null, exclude?: ReadonlySet<number>): Row[] {
  const cursor = after ? { rank: after.rank, after: after.itemId } : {};
  // Left-out ids among the best: twice as many at once (each try is a whole pass over the hits).
  for (let top = exclude?.size ? 2 * want : want; top <= TOP_MAX; top *= 4) {
    const ranked = statement(db, after ? TOP_AFTER_SQL : TOP_SQL).raw(true).all({ match, top, ...cursor }) as [number, number][];
    const seqs = new Map(
      (statement(db, VISIBLE_IDS_SQL).all({ ids: JSON.stringify(ranked.map((r) => r[0])), project: projectId }) as { itemId: number; seq: number }[]).map((v) => [v.itemId, v.seq]),
    );
    const rows = ranked.filter((r) => seqs.has(r[0]) && !exclude?.has(r[0])).map(([itemId, rank]) => ({ itemId, seq: seqs.get(itemId)!, rank }));
    if (rows.length >= want || ranked.length < top) return rows.slice(0, want);
  }
  const rows = statement(db, after ? PAGE_AFTER_SQL : PAGE_SQL).all({ match, project: projectId, limit: want + (exclude?.size ?? 0), ...cursor }) as Row[];
  return (exclude ? rows.filter((r) => !exclude.has(r.itemId)) : rows).slice(0, want);
}

