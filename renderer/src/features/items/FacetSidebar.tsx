// The facets beside the explorer: each facet's values with their counts under the current query (a
// facet's own clauses left out, so its other values still say what choosing them gives). A click on a
// value filters by it, again takes it out; what is in force is checked.
import type { FacetCount } from '../../../../shared/api';
import type { ItemQuery } from '../../../../shared/itemQuery';
import { facetSpec } from '../../../../shared/itemQuery';
import { clausesOf, isActive } from './queryEdits';

/** Facets the side panel names in words; any other shows its own name. */
const FACET_TITLES: Record<string, string> = {
  shape: 'Shape',
  images: 'Images',
  labeled: 'Labeled (any task)',
  disagree: 'People split on',
  consensus: 'Consensus',
  adjudicated: 'Adjudicated',
  annotator: 'Annotator',
  score: 'Model score P(A)',
  model_disagrees: 'Model vs people',
  uncertainty: 'Pre-label uncertainty',
  tag: 'Error tag',
  severity: 'Severity',
  outcome: 'Outcome',
  length: 'Length (characters)',
  labels: 'People who judged it',
  split: 'Split between',
  wrong: 'Model got it wrong',
};

function facetTitle(facet: string): string {
  if (FACET_TITLES[facet]) return FACET_TITLES[facet];
  const [base, part] = facet.split('.');
  if (base === 'meta') return `File: ${part}`;
  if (base === 'labeled') return `Labeled: ${part}`;
  if (base === 'consensus') return `Consensus: ${part}`;
  return facet;
}

export function FacetSidebar({ facets, matching, query, onToggle, stale }: { facets: FacetCount[]; matching: number; query: ItemQuery | null; onToggle(clauseText: string): void; stale: boolean }) {
  // A value no item has is left out (unless it is in force): the list says what there is to choose.
  const inForce = (clause: string) => query !== null && isActive(query, clausesOf(clause));
  // A facet whose one value every matching item has narrows nothing (labeled.ranking: nobody, in a project
  // of pairs): left out too, unless it is in force.
  const shown = facets
    .map((f) => ({ ...f, values: f.values.filter((v) => v.count > 0 || inForce(v.clause)) }))
    .filter((f) => f.values.length > 1 || (f.values.length === 1 && (f.values[0]!.count < matching || f.more > 0 || inForce(f.values[0]!.clause))));
  return (
    <aside className={`flex w-[232px] shrink-0 flex-col gap-3 overflow-auto border-r border-line bg-surface px-3 py-3 ${stale ? 'opacity-60' : ''}`} data-testid="facets" aria-label="Facets">
      {shown.length === 0 && <p className="text-[12px] text-muted">No facet has a value among these items.</p>}
      {shown.map((f) => (
        <section key={f.facet} data-testid="facet" data-facet={f.facet}>
          <h3 className="mb-0.5 text-[11px] font-semibold tracking-wide text-faint uppercase" title={facetSpec(f.facet.split('.')[0]!)?.about}>
            {facetTitle(f.facet)}
            {f.recomputing && (
              <span className="ml-1.5 font-normal tracking-normal normal-case" data-testid="facet-recomputing" title="A label changed: these counts are from before it while the review's project-wide part is recomputed">
                recomputing…
              </span>
            )}
          </h3>
          <ul className={`flex flex-col ${f.recomputing ? 'opacity-60' : ''}`}>
            {f.values.map((v) => {
              const active = inForce(v.clause);
              return (
                <li key={v.value}>
                  <button
                    className={`flex w-full items-baseline gap-2 rounded px-1.5 py-[3px] text-left text-[12.5px] hover:bg-surface-2 ${active ? 'bg-accent-soft font-medium text-fg' : 'text-fg'}`}
                    onClick={() => onToggle(v.clause)}
                    aria-pressed={active}
                    title={active ? `Take “${v.clause}” out of the query` : `Filter: ${v.clause}`}
                    data-testid="facet-value"
                    data-value={v.value}
                  >
                    <span aria-hidden className={`w-3 shrink-0 text-[11px] ${active ? 'text-accent' : 'text-transparent'}`}>
                      ✓
                    </span>
                    <span className="min-w-0 flex-1 truncate">{v.value}</span>
                    <span className="text-[12px] text-muted tabular-nums" data-testid="facet-count">
                      {v.count.toLocaleString()}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
          {f.more > 0 && <p className="px-1.5 text-[11.5px] text-faint">and {f.more.toLocaleString()} more values: type facet=value to pick one</p>}
        </section>
      ))}
    </aside>
  );
}
