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
      {rubrics && (
        <div className="flex items-baseline gap-2" data-testid="rubric-in-force">
          <span className="text-muted">Rating with</span>
          {inForce && latest ? (
            <span>
              <b className="font-medium">{inForce.name}</b> <span className="font-mono text-[12px] text-muted">v{latest.version}</span>
              <span className="text-faint">
                {' '}
                · {inForce.versions.reduce((n, v) => n + v.labels, 0)} labels over {inForce.versions.length} {inForce.versions.length === 1 ? 'version' : 'versions'}
              </span>
            </span>
          ) : (
            <span className="text-faint">no rubric{rubrics.length ? ` (${rubrics.length} saved, none in force)` : ''}</span>
          )}
          <button className="ml-auto text-accent hover:underline" onClick={() => navigate({ name: 'rubrics', project })} data-testid="edit-rubrics">
            {rubrics.length ? 'Edit rubrics' : 'Make a rubric'}
          </button>
        </div>
      )}
      {guidelines && (
        <div className="flex items-baseline gap-2" data-testid="guidelines-state">
          <span className="text-muted">Guidelines</span>
          <span className="text-faint">{guidelines.text.trim() ? `revision ${guidelines.revision || 1}, ${guidelines.text.length.toLocaleString()} characters` : 'none yet'}</span>
          <button className="ml-auto text-accent hover:underline" onClick={() => navigate({ name: 'guidelines', project })} data-testid="edit-guidelines">
            {guidelines.text.trim() ? 'Edit guidelines' : 'Write guidelines'}
          </button>
        </div>
      )}
    </section>
  );
}
