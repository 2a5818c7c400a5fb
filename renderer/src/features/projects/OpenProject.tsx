// A project's bare address (#/p/<project>) opens on the screen its items need: pairs on Compare, three or
// more responses on Rank, single responses on Steps where most have steps (else Verdict), a mixed project
// on the shape most of its items have (pairs first on a tie), an empty one on Datasets. And an address
// Arbiter does not know says so, with a way back.
import { useEffect } from 'react';
import { Kbd } from '../../components/Kbd';
import { useShell } from '../../context';
import { Centered } from '../../components/screenParts';
import { useOverview } from '../../components/useOverview';

export function OpenProject({ project }: { project: string }) {
  const { navigate } = useShell();
  const { overview, error } = useOverview(project);
  useEffect(() => {
    if (overview) navigate({ name: overview.opensOn, project }, true);
  }, [overview, project, navigate]);
  if (!error) return <main className="flex-1" data-testid="opening" aria-busy="true" />;
  return (
    <main className="flex flex-1 flex-col" data-testid="open-failed">
      <Centered>
        <p className="font-semibold text-bad">Could not open the project “{project}”.</p>
        <p className="max-w-prose text-muted">{error}</p>
        <button className="mt-2 rounded border border-line-strong px-3 py-1.5 text-[13px] hover:bg-surface-2" onClick={() => navigate({ name: 'start' })}>
          All projects
        </button>
      </Centered>
    </main>
  );
}

export function NoSuchPage({ hash, project }: { hash: string; project: string | null }) {
  const { navigate } = useShell();
  return (
    <main className="flex flex-1 flex-col" data-testid="no-such-page">
      <Centered>
        <p className="text-[15px] font-medium">
          No such page: <code className="rounded bg-surface-2 px-1 font-mono text-[13px]">{hash}</code>
        </p>
        <p className="max-w-prose text-muted">
          A project’s screens are at <code className="font-mono text-[13px]">#/p/&lt;project&gt;/</code>
          {' '}compare, rank, steps, verdict, datasets, rubrics, models or review. The keys in the header open them (<Kbd>?</Kbd> lists every key).
        </p>
        <div className="mt-2 flex flex-wrap justify-center gap-2">
          {project && (
            <button className="rounded bg-accent px-3 py-1.5 text-[13px] font-medium text-white dark:text-[#111]" onClick={() => navigate({ name: 'open', project }, true)}>
              Open {project}
            </button>
          )}
          <button className="rounded border border-line-strong px-3 py-1.5 text-[13px] hover:bg-surface-2" onClick={() => navigate({ name: 'start' }, true)}>
            All projects
          </button>
        </div>
      </Centered>
    </main>
  );
}
