// A parsed query (shared/searchQuery.ts) as SQL over the two halves of the index (migrations/0012_search.sql):
// item_search holds an item's own text (prompt, response, tool, reference), label_search its labels'
// (rationale, critique, correction, note), so that a saved rationale rewrites a small row, not the item's
// whole text. A query names columns of either; every word stays a quoted FTS5 string (compileSearch's
// terms), bound as a parameter, never spliced.
import { compileSearch, type SearchColumn, type SearchNode } from '../../../shared/searchQuery';

export const ITEM_COLUMNS: readonly SearchColumn[] = ['prompt', 'response', 'tool', 'reference'];
export const LABEL_COLUMNS: readonly SearchColumn[] = ['rationale', 'critique', 'correction', 'note'];
export const ALL_COLUMNS: readonly SearchColumn[] = [...ITEM_COLUMNS, ...LABEL_COLUMNS];

type Side = 'item' | 'label';
const SIDE_COLUMNS: Record<Side, readonly SearchColumn[]> = { item: ITEM_COLUMNS, label: LABEL_COLUMNS };

const within = (columns: readonly SearchColumn[], of: readonly SearchColumn[]) => columns.filter((c) => of.includes(c));
// A filter naming every column of its half is left out: FTS5 reads each hit's position lists to check a
// column filter, which costs more than the query itself for a common word (2-6x at 1M items).
const wholeHalf = (columns: readonly SearchColumn[]) => [ITEM_COLUMNS, LABEL_COLUMNS].some((half) => half.every((c) => columns.includes(c)));
const leaf = (columns: readonly SearchColumn[], term: SearchNode) => (wholeHalf(columns) ? `(${compileSearch(term)})` : `{${columns.join(' ')}} : (${compileSearch(term)})`);

/**
 * The query as one MATCH on one side, reading the other side's words as matching nothing (null: the query
 * matches nothing there). Exact for the item side when no label row holds any of the query's words.
 * `used` receives the leaves the MATCH holds, in order (bm25 reads those phrases: the same leaves as
 * sideAny's give the same rank).
 */
export function sideMatch(node: SearchNode, side: Side, columns: readonly SearchColumn[] = ALL_COLUMNS, used?: string[]): string | null {
  const mark = used?.length ?? 0;
  const none = () => {
    if (used) used.length = mark;
    return null;
  };
  switch (node.kind) {
    case 'term': {
      const mine = within(columns, SIDE_COLUMNS[side]);
      if (!mine.length) return null;
      const out = leaf(mine, node);
      used?.push(out);
      return out;
    }
    case 'field':
      return sideMatch(node.child, side, within(columns, node.columns), used);
    case 'and': {
      const parts = node.children.map((c) => sideMatch(c, side, columns, used));
      return parts.some((p) => p === null) ? none() : `(${parts.join(' AND ')})`;
    }
    case 'or': {
      const parts = node.children.map((c) => sideMatch(c, side, columns, used)).filter((p): p is string => p !== null);
      return parts.length === 0 ? null : parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
    }
    case 'not': {
      const keep = sideMatch(node.keep, side, columns, used);
      if (keep === null) return none();
      const drop = sideMatch(node.drop, side, columns, used);
      return drop === null ? keep : `(${keep} NOT ${drop})`;
    }
  }
}

/** Every word of the query on one side, OR-ed (what may match there at all; ranks and snippets read it), or null. */
export function sideAny(node: SearchNode, side: Side, columns: readonly SearchColumn[] = ALL_COLUMNS): string | null {
  const out: string[] = [];
  const walk = (n: SearchNode, cols: readonly SearchColumn[]) => {
    if (n.kind === 'term') {
      const mine = within(cols, SIDE_COLUMNS[side]);
      if (mine.length) out.push(leaf(mine, n));
    } else if (n.kind === 'field') walk(n.child, within(cols, n.columns));
    else if (n.kind === 'not') {
      walk(n.keep, cols);
      walk(n.drop, cols);
    } else n.children.forEach((c) => walk(c, cols));
  };
  walk(node, columns);
  return out.length ? out.join(' OR ') : null;
}

/**
 * The items matching the query over both sides, as a SELECT of `id` with named parameters (@s0, @s1, …):
 * a word is found in either half, AND / OR / NOT are INTERSECT / UNION / EXCEPT of the halves' rowids.
 */
export function matchSetSql(node: SearchNode): { sql: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const bind = (value: string) => {
    const name = `s${Object.keys(params).length}`;
    params[name] = value;
    return `@${name}`;
  };
  const build = (n: SearchNode, columns: readonly SearchColumn[]): string => {
    switch (n.kind) {
      case 'term': {
        const parts: string[] = [];
        const items = within(columns, ITEM_COLUMNS);
        const labels = within(columns, LABEL_COLUMNS);
        if (items.length) parts.push(`SELECT rowid AS id FROM item_search WHERE item_search MATCH ${bind(leaf(items, n))}`);
        if (labels.length) parts.push(`SELECT rowid AS id FROM label_search WHERE label_search MATCH ${bind(leaf(labels, n))}`);
        return parts.length ? parts.join(' UNION ') : 'SELECT NULL AS id WHERE 0';
      }
      case 'field':
        return build(n.child, within(columns, n.columns));
      case 'and':
        return n.children.map((c) => `SELECT id FROM (${build(c, columns)})`).join(' INTERSECT ');
      case 'or':
        return n.children.map((c) => `SELECT id FROM (${build(c, columns)})`).join(' UNION ');
      case 'not':
        return `SELECT id FROM (${build(n.keep, columns)}) EXCEPT SELECT id FROM (${build(n.drop, columns)})`;
    }
  };
  return { sql: build(node, ALL_COLUMNS), params };
}
