// Every hit of a search in the index alone (./search.ts plans the query), for the items explorer to place
// by id in its own facts (service/itemsSearch.ts): no lookup of each hit's item row, which the joins of
// matchingRanks / matchingItemIds pay per hit (2-5x the index's own time for a common word at 1M items).
import type { SearchQuery } from '../../../shared/searchQuery';
import { planOf } from './search';
import { bothSplit, bothSql, splitRank } from './searchBoth';
import type { Db } from './sqlite';
import { statement } from './statements';

// Unranked: the hits in rowid order a chunk at a time (bounded memory; FTS5 takes `rowid >` as a seek).
const HITS_SQL = 'SELECT rowid FROM item_search WHERE item_search MATCH @match AND rowid > @from ORDER BY rowid LIMIT @chunk';
// Ranked: one pass (bm25 counts each phrase's rows once a statement, so no chunks), streamed.
const RANKED_SQL = 'SELECT rowid, rank FROM item_search WHERE item_search MATCH @match';
const CHUNK = 1 << 18;

/**
 * Calls `each` with every item the query matches and its bm25 rank (lower is better; NaN unless `ranked`).
 * Every project's hits, shown yet or not: the caller keeps its own (a query that needs the labels' half
 * and cannot be split, ./searchBoth.ts bothSplit, gives the project's visible items only, its set built in SQL).
 */
export function eachMatch(db: Db, projectId: number, query: string | SearchQuery, ranked: boolean, each: (itemId: number, rank: number) => void): void {
  const plan = planOf(db, query);
  if (plan.kind === 'none') return;
  if (plan.kind === 'both') {
    const split = bothSplit(db, plan.node, ranked);
    if (split) {
      // The items' half alone outside the labelled items (its pass ranks the labelled matches too where
      // itemMatch is the half's whole query), then the labelled ones the query matches.
      const itemRanks = split.itemRanks ?? new Map<number, number>();
      const matching = new Set(split.matching);
      const keep = ranked && split.itemRanks === null;
      if (split.itemMatch !== null) {
        eachItemHit(db, split.itemMatch, ranked, (id, rank) => {
          if (!split.labeled.has(id)) each(id, rank);
          else if (keep && matching.has(id)) itemRanks.set(id, rank);
        });
      }
      for (const id of split.matching) each(id, ranked ? splitRank(split, itemRanks, id) : Number.NaN);
      return;
    }
    const { sql, params } = bothSql(plan.node, projectId);
    for (const [id, rank] of db.prepare(`SELECT itemId, rank FROM (${sql})`).raw(true).iterate(params) as IterableIterator<[number, number]>) each(id, ranked ? rank : Number.NaN);
    return;
  }
  eachItemHit(db, plan.match, ranked, each);
}

/** Every hit of one MATCH on the items' half, with its bm25 when `ranked`. */
function eachItemHit(db: Db, match: string, ranked: boolean, each: (itemId: number, rank: number) => void): void {
  if (ranked) {
    for (const [id, rank] of statement(db, RANKED_SQL).raw(true).iterate({ match }) as IterableIterator<[number, number]>) each(id, rank);
    return;
  }
  for (let from = -1; ; ) {
    const ids = statement(db, HITS_SQL, true).all({ match, from, chunk: CHUNK }) as number[];
    for (const id of ids) each(id, Number.NaN);
    if (ids.length < CHUNK) return;
    from = ids[ids.length - 1]!;
  }
}
