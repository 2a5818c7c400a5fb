// What the explorer does to the query text when a facet value or a chip is clicked: the box holds the
// whole query (search words and facet clauses, shared/itemQuery.ts), and a click rewrites it. A value of a
// facet already in use joins its clause (tag=a,b: a or b); clicked again it leaves it.
import { formatQuery, parseQuery, QueryError, type Clause, type ItemQuery } from '../../../../shared/itemQuery';
import { parseSearch } from '../../../../shared/searchQuery';

/** The query read, or the sentence saying what is wrong with it (a clause, a quote, the search words). */
export function readQuery(text: string): { query: ItemQuery; error: null } | { query: null; error: string } {
  try {
    const query = parseQuery(text);
    if (query.text) {
      const search = parseSearch(query.text);
      if (!search.ok) return { query: null, error: search.error };
    }
    return { query, error: null };
  } catch (error) {
    if (error instanceof QueryError) return { query: null, error: `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.` };
    throw error;
  }
}

const sameSlot = (a: Clause, b: Clause) => a.facet === b.facet && a.op === b.op;

/** Whether every clause of `selecting` (a facet value's clause text) is in force in `query`. */
export function isActive(query: ItemQuery, selecting: Clause[]): boolean {
  return selecting.every((s) => query.clauses.some((c) => sameSlot(c, s) && s.values.every((v) => c.values.includes(v))));
}

/** The query with a facet value's clauses toggled: added (joining a clause of the same facet), or taken out. */
export function toggleClauses(query: ItemQuery, selecting: Clause[]): ItemQuery {
  const on = isActive(query, selecting);
  let clauses = [...query.clauses];
  for (const s of selecting) {
    const at = clauses.findIndex((c) => sameSlot(c, s));
    if (on) {
      if (at < 0) continue;
      const values = clauses[at]!.values.filter((v) => !s.values.includes(v));
      clauses = values.length ? clauses.map((c, i) => (i === at ? { ...c, values } : c)) : clauses.filter((_, i) => i !== at);
    } else if (at >= 0 && (s.op === '=' || s.op === '!=')) {
      clauses = clauses.map((c, i) => (i === at ? { ...c, values: [...new Set([...c.values, ...s.values])] } : c));
    } else if (at >= 0) clauses = clauses.map((c, i) => (i === at ? s : c));
    else clauses.push(s);
  }
  return { text: query.text, clauses };
}

/** A facet value's clause text (FacetValueCount.clause) as clauses; none when it cannot be read. */
export function clausesOf(clauseText: string): Clause[] {
  try {
    return parseQuery(clauseText).clauses;
  } catch {
    return [];
  }
}

export function withoutClause(query: ItemQuery, index: number): ItemQuery {
  return { text: query.text, clauses: query.clauses.filter((_, i) => i !== index) };
}

export { formatQuery };
