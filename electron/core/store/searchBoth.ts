// Queries whose words are in labels' text too (searchSql.ts): the matching set over both halves of the
// index, ranked by the sum of each half's bm25 for the query's words, a page at a time; and the labels'
// snippets. The common query (no label row holds any of its words) never comes here: search.ts runs it
// as one MATCH on the items' half.
import { HIT_CLOSE, HIT_OPEN } from '../../../shared/searchText';
import type { SearchNode } from '../../../shared/searchQuery';
import { LABEL_COLUMNS, matchSetSql, sideAny } from './searchSql';
import type { Db } from './sqlite';
import { statement } from './statements';

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
