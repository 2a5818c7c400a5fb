// `arbiter items --project P [--search Q] [--where FACET=VALUE …] [--view NAME] [--sort COL[:desc]]
// [--limit N] [--annotator NAME] [--facets] [--json]` (docs/cli.md): the items explorer's query from the
// command line, in the same language as the page and saved views (shared/itemQuery.ts). And
// `arbiter items views --project P [--json]`: the project's saved views.
import { SORT_COLUMNS, type SortColumn } from '../../shared/itemFacets';
import { formatQuery, parseQuery, QueryError, type Clause } from '../../shared/itemQuery';
import type { ItemsRow } from '../../shared/api/items';
import { viewName } from '../../shared/api/items';
import { invalidInput } from '../core/base/errors';
import { listViews } from '../core/service/itemsViews';
import { runItemsQuery } from '../core/service/itemsQuery';
import { parse, UsageError, withDb, type CliIo } from './io';
import { checkName, optionalAnnotatorName, requireProjectName } from './options';

const CLAUSE = /^([a-z][a-z_]*(?:\.[^\s=!<>]+)?)(!=|>=|<=|=|>|<)(.*)$/s;
/** Rows a call prints at most (pages of 500 are read until then). */
const MAX_LIMIT = 100_000;

/** One --where: FACET=VALUE (VALUE may hold spaces: the shell took its quotes), checked by the query parser. */
export function whereClause(text: string): Clause {
  const m = CLAUSE.exec(text.trim());
  if (!m) throw new UsageError(`--where takes FACET=VALUE (or !=, >=, >, <=, <), got "${text}"`);
  const values = m[2] === '=' || m[2] === '!=' ? m[3]!.split(',') : [m[3]!];
  const quoted = values.map((v) => `"${v.replace(/"/g, '')}"`).join(',');
  try {
    const parsed = parseQuery(`${m[1]}${m[2]}${quoted}`);
    return parsed.clauses[0]!;
  } catch (error) {
    if (error instanceof QueryError) throw invalidInput(`--where ${text}: ${error.message}`);
    throw error;
  }
}

export function parseSort(text: string | undefined): { column: SortColumn; desc: boolean } | undefined {
  if (text === undefined) return undefined;
  const [column, way] = text.split(':');
  if (!(SORT_COLUMNS as readonly string[]).includes(column!) || (way !== undefined && way !== 'desc' && way !== 'asc'))
    throw new UsageError(`--sort takes COLUMN or COLUMN:desc, COLUMN one of ${SORT_COLUMNS.join(', ')}; got "${text}"`);
  return { column: column as SortColumn, desc: way === 'desc' };
}

function rowLine(row: ItemsRow): string {
  const judged = [row.myChoice && `you ${row.myChoice}`, row.consensus && `consensus ${row.consensus}`, ...row.humans.map((h) => `${h.task} ${h.text}`)].filter(Boolean).join(', ');
  const score = row.score === null ? '' : ` score ${row.score.toFixed(2)}`;
  const disputed = row.disputed.length ? ` split on ${row.disputed.join(', ')}` : '';
  return `${String(row.seq).padStart(7)}  ${(row.externalId ?? '').slice(0, 24).padEnd(24)}  ${row.shape.padEnd(10)} ${String(row.labels).padStart(2)} people${score}${disputed}${judged ? `  [${judged}]` : ''}  ${row.prompt.replace(/\s+/g, ' ').slice(0, 60)}`;
}

export async function itemsCommand(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'views') return viewsCommand(argv.slice(1), io);
  const { values } = parse(argv, {
    project: { type: 'string' },
    search: { type: 'string' },
    where: { type: 'string', multiple: true },
    view: { type: 'string' },
    sort: { type: 'string' },
    limit: { type: 'string' },
    annotator: { type: 'string' },
    facets: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  const project = requireProjectName(values);
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new UsageError(`--limit takes a whole number from 1 to ${MAX_LIMIT.toLocaleString('en')}`);
  const view = typeof values.view === 'string' ? checkName(viewName, values.view, '--view') : undefined;
  const clauses = ((values.where as string[] | undefined) ?? []).map(whereClause);
  const search = typeof values.search === 'string' ? values.search : '';
  if (search.length > 1000) throw new UsageError('--search is at most 1,000 characters');
  const query = formatQuery({ text: search, clauses });
  const sort = parseSort(values.sort as string | undefined);
  const annotator = optionalAnnotatorName(values);
  return withDb(values, async (db) => {
    const rows: ItemsRow[] = [];
    let cursor: string | undefined;
    let first: ReturnType<typeof runItemsQuery> | undefined;
    while (rows.length < limit) {
      const page = runItemsQuery(db, { project, query, view, sort, annotator, limit: Math.min(500, limit - rows.length), facets: values.facets === true && !first, ...(cursor ? { cursor } : {}) });
      first ??= page;
      rows.push(...page.rows);
      if (!page.next) break;
      cursor = page.next;
    }
    const page = first!;
    if (values.json) {
      io.out(JSON.stringify({ project, query: page.query.canonical, sort: page.sort, total: page.total, matching: page.matching, exact: page.exact, rows, ...(values.facets ? { facets: page.facets } : {}) }));
      return 0;
    }
    io.out(`${page.matching.toLocaleString('en')} of ${page.total.toLocaleString('en')} items match${page.query.canonical ? ` “${page.query.canonical}”` : ''}, by ${page.sort.column}${page.sort.desc ? ' (descending)' : ''}${rows.length < page.matching ? `; the first ${rows.length}` : ''}:`);
    for (const row of rows) io.out(rowLine(row));
    if (values.facets)
      for (const facet of page.facets) {
        const listed = facet.values.filter((v) => v.count > 0).map((v) => `${v.value} ${v.count}`);
        if (listed.length) io.out(`${facet.facet}: ${listed.join(' · ')}${facet.more ? ` · ${facet.more} more` : ''}`);
      }
    return 0;
  });
}

async function viewsCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, { project: { type: 'string' }, json: { type: 'boolean', default: false } });
  const project = requireProjectName(values);
  return withDb(values, async (db) => {
    const views = listViews(db, project);
    if (values.json) io.out(JSON.stringify(views));
    else if (!views.length) io.out(`“${project}” has no saved views (save one on the items page).`);
    else for (const v of views) io.out(`${v.name}: ${v.query || '(every item)'}  sorted by ${v.sort.column}${v.sort.desc ? ':desc' : ''}${v.author ? `  (${v.author}, ${v.updatedAt})` : ''}`);
    return 0;
  });
}
