// A figure that opens the items behind it: a link to the items explorer with the query that selects
// them (shared/itemQuery.ts: κ of two people → split=a,b; a model's accuracy → wrong=MODEL; a count of
// labels → labeled=anyone). An in-app address: it navigates nowhere outside Arbiter.
import type { ReactNode } from 'react';
import { formatQuery, type Clause } from '../../../shared/itemQuery';
import { routeHash } from '../route';

/** The query text of facet clauses, each `[facet, values]` an `=` clause (values quoted where needed). */
export function drillQuery(...clauses: [facet: string, values: string[]][]): string {
  return formatQuery({ text: '', clauses: clauses.map(([facet, values]): Clause => ({ facet, op: '=', values })) });
}

/** Opens the explorer on a query (a chart's bar or point, which cannot be a link). */
export function openItems(project: string, query: string): void {
  location.hash = routeHash({ name: 'items', project, query });
}

export function DrillLink({ project, query, children, title, className }: { project: string; query: string; children: ReactNode; title?: string; className?: string }) {
  return (
    <a
      href={routeHash({ name: 'items', project, query })}
      className={`rounded-sm underline decoration-line-strong decoration-dotted underline-offset-2 hover:text-accent hover:decoration-accent ${className ?? ''}`}
      title={`${title ? `${title}. ` : ''}Open these items: ${query}`}
      data-testid="drill"
      data-query={query}
    >
      {children}
    </a>
  );
}
