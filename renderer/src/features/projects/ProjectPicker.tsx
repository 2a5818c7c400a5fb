// The start screen: who is labeling, which project, or a new one.
import { useEffect, useState, type FormEvent } from 'react';
import type { ProjectSummary } from '../../../../shared/domain';
import { api, errorMessage } from '../../api';
import { useShell } from '../../context';

export function ProjectPicker() {
  const { annotator, setAnnotator, navigate, appInfo } = useShell();
  const [projects, setProjects] = useState<ProjectSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  const [who, setWho] = useState(annotator);

  useEffect(() => setWho(annotator), [annotator]);
  useEffect(() => {
    api
      .listProjects({})
      .then(setProjects)
      .catch((e) => setError(errorMessage(e)));
  }, []);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    setCreating(true);
    setError(null);
    try {
      const created = await api.createProject({ name: name.trim() });
      navigate({ name: 'datasets', project: created.name });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setCreating(false);
    }
  };

  const input = 'h-8 rounded border border-line-strong bg-surface px-2 text-[14px] outline-none focus:border-accent';

  return (
    <main className="flex-1 overflow-auto">
      <div className="mx-auto flex max-w-3xl flex-col gap-8 px-6 py-10">
        <section>
          <h1 className="text-[20px] font-semibold tracking-tight">Projects</h1>
          <p className="mt-1 text-[13px] text-muted">Pick a project to label, or create one and import a JSONL file into it.</p>
        </section>

        <section className="flex flex-wrap items-end gap-3 rounded-md border border-line bg-surface p-4">
          <label className="flex flex-col gap-1 text-[12px] text-muted">
            Annotator name (saved on this machine)
            <input
              className={`${input} w-64`}
              value={who}
              onChange={(e) => setWho(e.target.value)}
              onBlur={() => setAnnotator(who)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') setAnnotator(who);
              }}
              placeholder={appInfo?.defaultAnnotator ?? 'your name'}
              data-testid="annotator-input"
              maxLength={80}
            />
          </label>
          <p className="pb-1.5 text-[12px] text-faint">Labels are stored under this name. Every annotator sees their own side order.</p>
        </section>

        {error && (
          <div className="rounded-md border border-bad/40 bg-bad-soft px-3 py-2 text-[13px]" role="alert">
            {error}
          </div>
        )}

        <section className="overflow-hidden rounded-md border border-line bg-surface">
          <div className="grid grid-cols-[1fr_7rem_12rem_9rem] gap-3 border-b border-line bg-surface-2 px-4 py-2 text-[11px] font-semibold tracking-wide text-faint uppercase">
            <span>Project</span>
            <span className="text-right">Items</span>
            <span>Labeled (any annotator)</span>
            <span />
          </div>
          {projects === null && !error && <div className="px-4 py-6 text-[13px] text-muted">Loading…</div>}
          {projects?.length === 0 && <div className="px-4 py-6 text-[13px] text-muted">No projects yet. Create the first one below.</div>}
          {projects?.map((p) => {
            const pct = p.items ? Math.round((p.labeled / p.items) * 100) : 0;
            return (
              <div
                key={p.name}
                className="grid grid-cols-[1fr_7rem_12rem_9rem] items-center gap-3 border-b border-line px-4 py-2.5 last:border-b-0 hover:bg-surface-2/60"
                data-testid="project-row"
              >
                <button className="truncate text-left text-[14px] font-medium hover:text-accent" onClick={() => navigate({ name: 'compare', project: p.name })}>
                  {p.name}
                </button>
                <span className="text-right text-[13px] tabular-nums text-muted">{p.items.toLocaleString()}</span>
                <span className="flex items-center gap-2 text-[12px] tabular-nums text-muted">
                  <span className="h-1.5 w-20 overflow-hidden rounded-full bg-surface-2 ring-1 ring-line">
                    <span className="block h-full bg-accent" style={{ width: `${pct}%` }} />
                  </span>
                  {p.labeled.toLocaleString()} ({pct}%)
                </span>
                <span className="flex justify-end gap-2 text-[13px]">
                  <button className="rounded px-2 py-1 text-accent hover:bg-accent-soft" onClick={() => navigate({ name: 'compare', project: p.name })}>
                    Label
                  </button>
                  <button className="rounded px-2 py-1 text-muted hover:bg-surface-2 hover:text-fg" onClick={() => navigate({ name: 'datasets', project: p.name })}>
                    Datasets
                  </button>
                </span>
              </div>
            );
          })}
        </section>

        <form className="flex flex-wrap items-end gap-3" onSubmit={create}>
          <label className="flex flex-col gap-1 text-[12px] text-muted">
            New project
            <input
              className={`${input} w-72`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. helpfulness-round-2"
              maxLength={120}
              data-testid="new-project-name"
            />
          </label>
          <button
            type="submit"
            disabled={creating || !name.trim()}
            className="h-8 rounded bg-accent px-3 text-[13px] font-medium text-white disabled:opacity-50 dark:text-[#111]"
            data-testid="create-project"
          >
            {creating ? 'Creating…' : 'Create project'}
          </button>
        </form>
      </div>
    </main>
  );
}
