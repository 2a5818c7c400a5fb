// The start screen: who is labeling, which project, or a new one; rename and delete a project from the
// keyboard (↑/↓ choose a row, F2 or r renames inline, Del asks inline and deletes after a backup, c
// starts a new project by putting the cursor in its name box).
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { projectName } from '../../../../shared/api/common';
import type { ProjectOverview } from '../../../../shared/api';
import { api, errorMessage } from '../../api';
import { Kbd } from '../../components/Kbd';
import { useGlobalKeys } from '../../components/keys';
import { useShell } from '../../context';
import { JoinFromHub } from '../team/JoinFromHub';
import { GRID, ProjectRow, type DeleteState, type RenameState } from './ProjectRow';

/** The schema's sentence for a name the API would refuse, or null. */
function nameProblem(value: string): string | null {
  const parsed = projectName.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'not a valid project name');
}


export function ProjectPicker() {
  const { annotator, setAnnotator, navigate, appInfo, keysEnabled } = useShell();
  const [projects, setProjects] = useState<ProjectOverview[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  const [who, setWho] = useState(annotator);
  const [selected, setSelected] = useState<string | null>(null);
  const [rename, setRename] = useState<RenameState | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<DeleteState | null>(null);
  const [deleted, setDeleted] = useState<{ project: string; backup: string } | null>(null);
  const rows = useRef(new Map<string, HTMLDivElement>());
  const newName = useRef<HTMLInputElement>(null);
  /** The row to give the keyboard focus after the next render (after a rename, delete or Esc). */
  const focusNext = useRef<string | null>(null);

  useEffect(() => setWho(annotator), [annotator]);

  const load = useCallback(async () => {
    const list = await api.listProjects({});
    setProjects(list);
    return list;
  }, []);

  useEffect(() => {
    load().catch((e) => setError(errorMessage(e)));
  }, [load]);

  useLayoutEffect(() => {
    if (!focusNext.current) return;
    const row = rows.current.get(focusNext.current);
    if (row) {
      focusNext.current = null;
      row.focus();
    }
  });

  const focusRow = (project: string | null) => {
    setSelected(project);
    focusNext.current = project;
  };

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

  const cancel = () => {
    const back = rename?.project ?? confirmDelete?.project ?? null;
    setRename(null);
    setConfirmDelete(null);
    if (back) focusRow(back);
  };

  const startRename = (project: string) => {
    setConfirmDelete(null);
    setDeleted(null);
    setSelected(project);
    setRename({ project, value: project, error: null, saving: false });
  };

  const startDelete = (project: string) => {
    setRename(null);
    setDeleted(null);
    setSelected(project);
    setConfirmDelete({ project, error: null, busy: false });
  };

  const changeRename = (value: string) =>
    setRename((r) => (r ? { ...r, value, error: value.trim() === '' ? null : nameProblem(value) } : r));

  const submitRename = async () => {
    if (!rename || rename.saving) return;
    const problem = nameProblem(rename.value);
    if (problem) {
      setRename({ ...rename, error: problem });
      return;
    }
    const next = rename.value.trim();
    if (next === rename.project) {
      cancel();
      return;
    }
    setRename({ ...rename, saving: true, error: null });
    try {
      const renamed = await api.renameProject({ project: rename.project, name: next });
      setRename(null);
      await load().catch((e) => setError(errorMessage(e)));
      focusRow(renamed.name);
    } catch (e) {
      setRename((r) => (r ? { ...r, saving: false, error: errorMessage(e) } : r));
    }
  };

  const runDelete = async () => {
    if (!confirmDelete || confirmDelete.busy) return;
    const project = confirmDelete.project;
    const index = projects?.findIndex((p) => p.name === project) ?? -1;
    setConfirmDelete({ ...confirmDelete, busy: true, error: null });
    try {
      const result = await api.deleteProject({ project, confirm: true });
      setConfirmDelete(null);
      setDeleted({ project: result.deleted, backup: result.backup });
      const list = await load().catch((e) => {
        setError(errorMessage(e));
        return null;
      });
      const next = list?.[Math.min(Math.max(index, 0), list.length - 1)]?.name ?? null;
      focusRow(next);
    } catch (e) {
      setConfirmDelete((d) => (d ? { ...d, busy: false, error: errorMessage(e) } : d));
    }
  };

  useGlobalKeys((event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !projects) return;
    if (confirmDelete || rename) {
      // The confirm button takes Enter itself; Esc cancels wherever the focus is.
      if (event.key === 'Escape') {
        event.preventDefault();
        cancel();
      }
      return;
    }
    if (event.key === 'c' && !event.shiftKey) {
      // preventDefault: the c must not type itself into the box it focuses.
      event.preventDefault();
      newName.current?.focus();
      return;
    }
    const names = projects.map((p) => p.name);
    const at = selected === null ? -1 : names.indexOf(selected);
    const move = (to: number) => {
      if (!names.length) return;
      event.preventDefault();
      focusRow(names[Math.min(Math.max(to, 0), names.length - 1)]!);
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(at + 1);
      case 'ArrowUp':
        return move(at < 0 ? names.length - 1 : at - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(names.length - 1);
    }
    if (at < 0) return;
    const current = names[at]!;
    if (event.key === 'F2' || (event.key === 'r' && !event.shiftKey)) {
      // preventDefault: the key must not type itself into the box that opens.
      event.preventDefault();
      startRename(current);
    } else if (event.key === 'Delete') {
      event.preventDefault();
      startDelete(current);
    } else if (event.key === 'Enter' && event.target === rows.current.get(current)) {
      event.preventDefault();
      navigate({ name: 'open', project: current });
    } else if (event.key === 'Escape' && deleted) {
      setDeleted(null);
    }
  }, keysEnabled);

  const input = 'h-8 rounded border border-line-strong bg-surface px-2 text-[14px] outline-none focus:border-accent';

  return (
    <main className="flex-1 overflow-auto">
      <div className="mx-auto flex max-w-5xl flex-col gap-8 px-6 py-10">
        <section>
          <h1 className="text-[20px] font-semibold tracking-tight">Projects</h1>
          <p className="mt-1 text-[13px] text-muted">Pick a project to label, create one and import a file into it, or join your team’s project from a hub.</p>
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

        <div className="flex flex-col gap-2">
          {deleted && (
            <div className="flex items-start gap-3 rounded-md border border-line bg-surface px-3 py-2 text-[13px]" role="status" data-testid="delete-notice">
              <div className="min-w-0 flex-1">
                <b className="font-semibold">Deleted “{deleted.project}”.</b>{' '}
                <span className="text-muted">A backup of the database from just before is kept as </span>
                <code className="font-mono text-[12px] break-all" data-testid="delete-backup">
                  backups/{deleted.backup}
                </code>
                <span className="text-muted"> in the folder that holds the database (see docs/data.md, “Backup and restore”).</span>
              </div>
              <button className="shrink-0 rounded px-1.5 text-[12px] text-muted hover:text-fg" onClick={() => setDeleted(null)} aria-label="Dismiss">
                ✕
              </button>
            </div>
          )}

          <section className="overflow-hidden rounded-md border border-line bg-surface" aria-label="Projects" data-testid="project-list">
            <div className={`${GRID} border-b border-line bg-surface-2 px-4 py-2 text-[11px] font-semibold tracking-wide text-faint uppercase`}>
              <span>Project</span>
              <span className="text-right">Items</span>
              <span className="whitespace-nowrap" title="Per task, each over its own items, by any annotator">Labeled, per task</span>
              <span />
            </div>
            {projects === null && !error && <div className="px-4 py-6 text-[13px] text-muted">Loading…</div>}
            {projects?.length === 0 && <div className="px-4 py-6 text-[13px] text-muted">No projects yet. Create the first one below, or join your team’s.</div>}
            {projects?.map((p) => (
              <ProjectRow
                key={p.name}
                ref={(el) => {
                  if (el) rows.current.set(p.name, el);
                  else rows.current.delete(p.name);
                }}
                project={p}
                selected={selected === p.name}
                rename={rename?.project === p.name ? rename : null}
                confirmDelete={confirmDelete?.project === p.name ? confirmDelete : null}
                onSelect={() => {
                  if (selected !== p.name && !rename && !confirmDelete) setSelected(p.name);
                }}
                onOpen={(to) => navigate({ name: to, project: p.name })}
                onStartRename={() => startRename(p.name)}
                onRenameChange={changeRename}
                onRenameSubmit={() => void submitRename()}
                onCancel={cancel}
                onStartDelete={() => startDelete(p.name)}
                onConfirmDelete={() => void runDelete()}
              />
            ))}
          </section>

          {!!projects?.length && (
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[12px] text-faint" data-testid="project-keys">
              <span>
                <Kbd>↑</Kbd> <Kbd>↓</Kbd> choose a project
              </span>
              <span>
                <Kbd>Enter</Kbd> label
              </span>
              <span>
                <Kbd>F2</Kbd> or <Kbd>r</Kbd> rename
              </span>
              <span>
                <Kbd>Del</Kbd> delete (asks first; a backup is kept)
              </span>
              <span>
                <Kbd>Esc</Kbd> cancel
              </span>
              <span>
                <Kbd>c</Kbd> new project
              </span>
            </p>
          )}
        </div>

        <form className="flex flex-wrap items-end gap-3" onSubmit={create}>
          <label className="flex flex-col gap-1 text-[12px] text-muted">
            <span className="flex items-center gap-1.5">
              New project <Kbd>c</Kbd>
            </span>
            <input
              ref={newName}
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

        <JoinFromHub />
      </div>
    </main>
  );
}
