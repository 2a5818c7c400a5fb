// The error tags people put on steps and turns, each with the number of items that carry it: a count
// opens those items in the explorer (tag=NAME). Counted by the items engine (queryItems' tag facet).
import { useEffect, useState } from 'react';
import type { FacetCount } from '../../../../shared/api';
import { api } from '../../api';
import { DrillLink } from '../../components/DrillLink';
import { ChartCard } from './charts';

export function ErrorTagsCard({ project, asOf }: { project: string; asOf: string }) {
  const [facets, setFacets] = useState<FacetCount[] | null>(null);
  useEffect(() => {
    api
      .queryItems({ project, query: '', limit: 1 })
      .then((page) => setFacets(page.facets))
      .catch(() => setFacets(null));
  }, [project, asOf]);
  const tags = facets?.find((f) => f.facet === 'tag')?.values.filter((v) => v.count > 0) ?? [];
  if (!tags.length) return null;
  const top = Math.max(...tags.map((t) => t.count));
  return (
    <ChartCard testId="error-tags" title="Error tags" n={`n = ${tags.reduce((s, t) => s + t.count, 0).toLocaleString()} item-tags`} sentence="The error tags people put on steps and turns, by the items that carry each; a count opens those items.">
      <ul className="flex flex-col gap-1 text-[12.5px]">
        {tags.map((t) => (
          <li key={t.value} className="grid grid-cols-[minmax(0,12rem)_minmax(0,1fr)_3rem] items-center gap-3" data-testid="error-tag" data-tag={t.value}>
            <span className="truncate" title={t.value}>
              {t.value}
            </span>
            <span className="h-2 rounded-sm bg-accent" style={{ width: `${Math.max(2, (t.count / top) * 100)}%` }} aria-hidden />
            <span className="text-right tabular-nums">
              <DrillLink project={project} query={t.clause} title={`The items tagged ${t.value}`}>
                {t.count.toLocaleString()}
              </DrillLink>
            </span>
          </li>
        ))}
      </ul>
    </ChartCard>
  );
}
