// The items query language: one parser for the items page, `arbiter items`, saved views and the
// dashboard's drill-down links. A query is search text (the full-text syntax: words, "phrases", prefix*,
// AND / OR / NOT, field:word) and facet clauses, in any order, separated by spaces:
//   FACET=VALUE            the facet has this value (several: tag=a,b means a or b)
//   FACET!=VALUE           it has none of these values
//   FACET>=N, >, <=, <     a number facet's range (score>=0.8 length<2000)
//   NAME.PART=VALUE        a facet with a part: labeled.ranking=nobody, meta.category=math, consensus.verdict=bad
// A value with a space or a comma is quoted: meta.source="web crawl". A word that is not a clause is search
// text; a clause naming no facet is an error (quote the word to search for it: "x=1").
import { FACETS, type FacetSpec } from './itemFacets';

export type ClauseOp = '=' | '!=' | '>=' | '>' | '<=' | '<';

export interface Clause {
  /** The facet's full name, with its part: `labeled.pairwise`, `meta.category`, `score`. */
  facet: string;
  op: ClauseOp;
  /** `=` and `!=`: one value or more; a range: one number as text. */
  values: string[];
}

export interface ItemQuery {
  /** The search text, as typed (the full-text index reads it); '' when none. */
  text: string;
  clauses: Clause[];
}

export class QueryError extends Error {}

/** Query text at most this long (the API refuses longer). */
export const QUERY_MAX = 2000;
const CLAUSE = /^([a-z][a-z_]*)(?:\.([^\s=!<>"]+))?(!=|>=|<=|=|>|<)(.+)$/s;

/** Splits on spaces outside double quotes; a quote keeps its words together. */
function tokens(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && /\s/.test(ch)) {
      if (current) out.push(current);
      current = '';
    } else current += ch;
  }
  if (quoted) throw new QueryError('a quote is not closed');
  if (current) out.push(current);
  return out;
}

/** Values of `a,b,"c d"`: split on commas outside quotes, quotes removed. */
function splitValues(raw: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of raw) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out.map((v) => v.trim());
}

export function facetSpec(name: string): FacetSpec | undefined {
  return FACETS.find((f) => f.name === name);
}

function checkClause(base: string, part: string | undefined, op: ClauseOp, values: string[]): Clause {
  const spec = facetSpec(base);
  if (!spec) throw new QueryError(`no facet "${base}": one of ${FACETS.map((f) => f.name).join(', ')} (quote a word to search for it)`);
  if (spec.part === undefined && part !== undefined) throw new QueryError(`"${base}" takes no part (${base}.${part})`);
  if (spec.part !== undefined && part === undefined && spec.part.required) throw new QueryError(`"${base}" needs a part: ${base}.${spec.part.example}`);
  if (spec.part?.values && part !== undefined && !spec.part.values.includes(part)) throw new QueryError(`"${base}.${part}": the part is one of ${spec.part.values.join(', ')}`);
  const facet = part === undefined ? base : `${base}.${part}`;
  if (values.some((v) => v === '')) throw new QueryError(`${facet}${op}: a value is empty`);
  if (op !== '=' && op !== '!=') {
    if (spec.kind !== 'number') throw new QueryError(`${facet} is not a number: it takes = or !=`);
    if (values.length !== 1 || !Number.isFinite(Number(values[0]))) throw new QueryError(`${facet}${op} takes one number`);
  } else if (spec.kind === 'number') {
    if (values.some((v) => !Number.isFinite(Number(v)))) throw new QueryError(`${facet}${op} takes numbers`);
  } else if (spec.values && !spec.open) {
    const bad = values.find((v) => !spec.values!.includes(v));
    if (bad !== undefined) throw new QueryError(`${facet}: "${bad}" is not one of ${spec.values.join(', ')}`);
  }
  if (values.length > 100) throw new QueryError(`${facet}: at most 100 values`);
  return { facet, op, values };
}

export function parseQuery(input: string): ItemQuery {
  if (input.length > QUERY_MAX) throw new QueryError(`a query is at most ${QUERY_MAX} characters`);
  const words: string[] = [];
  const clauses: Clause[] = [];
  for (const token of tokens(input)) {
    const m = token.startsWith('"') ? null : CLAUSE.exec(token);
    if (!m) {
      words.push(token);
      continue;
    }
    clauses.push(checkClause(m[1]!, m[2], m[3] as ClauseOp, m[3] === '=' || m[3] === '!=' ? splitValues(m[4]!) : [m[4]!]));
  }
  if (clauses.length > 50) throw new QueryError('at most 50 clauses');
  return { text: words.join(' '), clauses };
}

/** A value as the query writes it: quoted when it holds a space, a comma or a quote-free special. */
function quoted(value: string): string {
  return /[\s,"=<>!]/.test(value) || value === '' ? `"${value.replace(/"/g, '')}"` : value;
}

/** The query as text (clauses first, then the search): what a view saves and a drill-down link carries. */
export function formatQuery(query: ItemQuery): string {
  const clauses = query.clauses.map((c) => `${c.facet}${c.op}${c.values.map(quoted).join(',')}`);
  return [...clauses, query.text].filter(Boolean).join(' ');
}

/** The query with one more clause (a facet value clicked), replacing a clause of the same facet and op. */
export function withClause(query: ItemQuery, clause: Clause): ItemQuery {
  return { text: query.text, clauses: [...query.clauses.filter((c) => !(c.facet === clause.facet && c.op === clause.op)), clause] };
}
