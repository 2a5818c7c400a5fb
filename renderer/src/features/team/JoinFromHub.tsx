// "Join a team project" on the project list: the project's name as the lead published it, the hub's
// address and a password. Join makes the project here from the hub (items, images, rubrics, guidelines,
// settings, cuts), pulls the team's labels and keeps syncing in the background, as the Team panel's
// Connect does (the same connectHub call); then the project opens on its first screen. The password is
// sent once and never shown back.
import { useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorMessage } from '../../api';
import { useShell } from '../../context';
import { addressProblem } from './addressProblem';

const field = 'h-8 rounded border border-line-strong bg-surface px-2 text-[13px] outline-none focus:border-accent';

export function JoinFromHub() {
  const { navigate } = useShell();
  const [open, setOpen] = useState(false);
  const [project, setProject] = useState('');
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  // The form opens with the cursor in its first field, in the same commit that shows it.
  useLayoutEffect(() => {
    if (open) first.current?.focus();
  }, [open]);

  const join = async (event: FormEvent) => {
    event.preventDefault();
    const name = project.trim();
    const address = url.trim();
    if (!name) return setError('Type the project’s name as your lead published it.');
    const problem = addressProblem(address);
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      const status = await api.connectHub({ project: name, url: address, ...(password ? { password } : {}) });
      setPassword('');
      navigate({ name: 'open', project: status.project });
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (!open)
    return (
      <div>
        <button
          type="button"
          className="text-[13px] text-accent hover:underline"
          onClick={() => setOpen(true)}
          data-testid="join-hub-open"
        >
          Join a team project from a hub…
        </button>
      </div>
    );

  return (
    <form className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" onSubmit={join} data-testid="join-hub" aria-labelledby="join-hub-title">
      <div>
        <h2 id="join-hub-title" className="text-[14px] font-semibold">
          Join a team project
        </h2>
        <p className="mt-0.5 text-[12.5px] text-muted">
          Your lead publishes the project to a PostgreSQL hub and gives you a user there (arbiter hub grant). Joining copies the project here; you label offline, and
          your labels go up while you are connected.
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-[12px] text-muted">
          Project on the hub
          <input ref={first} className={`${field} w-56`} value={project} onChange={(e) => setProject(e.target.value)} maxLength={120} spellCheck={false} data-testid="join-hub-project" />
        </label>
        <label className="flex min-w-72 flex-1 flex-col gap-1 text-[12px] text-muted">
          Hub address
          <input
            className={`${field} font-mono text-[12px]`}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="postgres://you@host:5432/hub?sslmode=require"
            spellCheck={false}
            autoComplete="off"
            data-testid="join-hub-url"
          />
        </label>
        <label className="flex flex-col gap-1 text-[12px] text-muted">
          Password (empty if none)
          <input type="password" className={`${field} w-44`} value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" data-testid="join-hub-password" />
        </label>
        <button type="submit" disabled={busy} className="h-8 rounded bg-accent px-3 text-[13px] font-medium text-white disabled:opacity-50 dark:text-[#111]" data-testid="join-hub-submit">
          {busy ? 'Joining…' : 'Join'}
        </button>
        <button
          type="button"
          disabled={busy}
          className="h-8 rounded px-2 text-[13px] text-muted hover:text-fg"
          onClick={() => {
            setOpen(false);
            setError(null);
          }}
        >
          Cancel
        </button>
      </div>
      {error && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert" data-testid="join-hub-error">
          {error}
        </div>
      )}
    </form>
  );
}
