// The Datasets screen's way to rubrics and guidelines: the rubric in force (its newest version and how
// many labels each version has), and the guidelines' revision, each with a link to its editor.
import { useEffect, useState } from 'react';
import type { Guidelines, RubricSummary } from '../../../../shared/api';
import { api, errorMessage } from '../../api';
import { useShell } from '../../context';

export function RubricSettingsPanel({ project }: { project: string }) {
  const { navigate } = useShell();
  const [rubrics, setRubrics] = useState<RubricSummary[] | null>(null);
  const [guidelines, setGuidelines] = useState<Guidelines | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([api.listRubrics({ project }), api.getGuidelines({ project })])
      .then(([r, g]) => {
        if (!live) return;
        setRubrics(r);
        setGuidelines(g);
      })
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, [project]);
  const inForce = rubrics?.find((r) => r.inForce) ?? null;
  const latest = inForce?.versions.at(-1);
  return (
    <section className="flex flex-col gap-2 rounded-md border border-line bg-surface p-4 text-[13px]" data-testid="rubric-settings">
      <h2 className="text-[14px] font-semibold">Rubric and guidelines</h2>
      {error && <p className="text-bad">{error}</p>}
      {rubrics && guidelines && (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-baseline gap-x-3 gap-y-2">
          <dt className="text-muted">Rubric</dt>
          <dd className="min-w-0" data-testid="rubric-in-force">
            {inForce && latest ? (
              <>
                <div className="truncate">
                  <b className="font-medium">{inForce.name}</b> <span className="font-mono text-[12px] text-muted">v{latest.version}</span>
                </div>
                <div className="text-[12px] text-faint">
                  {inForce.versions.reduce((n, v) => n + v.labels, 0)} labels over {inForce.versions.length} {inForce.versions.length === 1 ? 'version' : 'versions'}
                </div>
              </>
            ) : (
              <span className="text-faint">none in force{rubrics.length ? ` (${rubrics.length} saved)` : ''}</span>
            )}
          </dd>
          <button className="text-accent hover:underline" onClick={() => navigate({ name: 'rubrics', project })} data-testid="edit-rubrics">
            {rubrics.length ? 'Edit' : 'Make one'}
          </button>
          <dt className="text-muted">Guidelines</dt>
          <dd className="min-w-0 text-faint" data-testid="guidelines-state">
            {guidelines.text.trim() ? `revision ${guidelines.revision || 1} · ${guidelines.text.length.toLocaleString()} characters` : 'none yet'}
          </dd>
          <button className="text-accent hover:underline" onClick={() => navigate({ name: 'guidelines', project })} data-testid="edit-guidelines">
            {guidelines.text.trim() ? 'Edit' : 'Write'}
          </button>
        </dl>
      )}
    </section>
  );
}
