// The Team panel (Datasets screen, beside Team labels): the project's hub address, connect / disconnect,
// the last sync, how many of this machine's revisions wait to go up, and what failed and why. While
// connected, sync runs in the background (after saves, and when a teammate pushes); nothing here ever
// holds a save. The password is typed here and sent once; the page never gets it back.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { hubUnencrypted } from '../../../../shared/api/team';
import { plural } from '../../../../shared/plural';
import { api, errorMessage } from '../../api';
import { useShell } from '../../context';
import { addressProblem } from './addressProblem';
import { agoWords, inWords, useTeamStatus } from './useTeamStatus';

const button = 'h-8 rounded-md border border-line-strong bg-surface px-3 font-medium hover:bg-surface-2 disabled:opacity-50';

export function TeamPanel({ project }: { project: string }) {
  const { annotator } = useShell();
  const { status, error: readError, reload, now } = useTeamStatus(project, annotator || undefined);
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState<null | 'connect' | 'disconnect' | 'sync' | 'adopt'>(null);
  const [error, setError] = useState<string | null>(null);

  // The stored address fills the field once it is known, and again only when it changes (the user may
  // still change or clear the field).
  const filledWith = useRef<string | null>(null);
  useEffect(() => {
    if (status?.hub && filledWith.current !== status.hub) {
      filledWith.current = status.hub;
      setUrl(status.hub);
    }
  }, [status?.hub]);

  const act = async (what: 'connect' | 'disconnect' | 'sync' | 'adopt', call: () => Promise<unknown>) => {
    setBusy(what);
    setError(null);
    try {
      await call();
      if (what === 'connect') setPassword('');
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
      reload();
    }
  };
  const connect = (event: FormEvent) => {
    event.preventDefault();
    const problem = addressProblem(url);
    if (problem) return setError(problem);
    void act('connect', () => api.connectHub({ project, url: url.trim(), ...(password ? { password } : {}) }));
  };

  const s = status;
  const connected = s?.connected ?? false;
  // The address connected to, or the one typed (once it is one).
  const shownUrl = connected ? (s?.hub ?? '') : url;
  const unencrypted = shownUrl && !addressProblem(shownUrl) ? hubUnencrypted(shownUrl) : null;
  const state = !s ? 'loading' : connected ? (s.lastError ? 'failing' : s.syncing ? 'syncing' : 'connected') : s.hub ? 'disconnected' : 'unlinked';
  return (
    <section className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" data-testid="team-panel" data-state={state} aria-labelledby="team-panel-title">
      <h2 id="team-panel-title" className="text-[14px] font-semibold">
        Team hub
      </h2>
      {!connected && (
        <p className="text-[13px] text-muted">
          {s?.hub
            ? 'Not connected. Labels you save are kept here and go up when you connect.'
            : 'Sync this project with your team through a PostgreSQL hub: your labels go up, everyone else’s come down, nothing is overwritten. Your lead publishes the project and gives you a user (arbiter hub grant).'}
        </p>
      )}
      {connected ? (
        <div className="flex flex-col gap-1 text-[13px]">
          <div className="min-w-0 truncate font-mono text-[12px]" title={s!.hub ?? ''} data-testid="team-hub">
            {s!.hub}
          </div>
          <div data-testid="team-state" role="status">
            {s!.syncing ? 'Syncing…' : s!.lastError ? 'Connected, but the last sync failed' : s!.listening ? 'Connected: teammates’ labels arrive as they are pushed' : 'Connected'}
          </div>
          <div className="text-muted" data-testid="team-last-sync">
            Last sync {agoWords(s!.lastSyncAt, now)}
            {s!.lastSync && ` (${plural(s!.lastSync.pushed, 'revision')} up, ${plural(s!.lastSync.pulled, 'revision')} down${s!.lastSync.items ? `, ${plural(s!.lastSync.items, 'new item')}` : ''})`}
          </div>
        </div>
      ) : (
        <form className="flex flex-col gap-2 text-[13px]" onSubmit={connect}>
          <label className="flex flex-col gap-1">
            <span className="text-muted">Hub address</span>
            <input
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="postgres://you@host:5432/hub?sslmode=require"
              spellCheck={false}
              autoComplete="off"
              className="h-8 rounded-md border border-line-strong bg-bg px-2 font-mono text-[12px]"
              data-testid="team-hub-url"
            />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-muted">
              Password{s?.hasPassword ? ' (one is kept for this hub; type another to replace it)' : ' (leave empty if the hub needs none)'}
            </span>
            <input
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="current-password"
              className="h-8 rounded-md border border-line-strong bg-bg px-2"
              data-testid="team-password"
            />
          </label>
          <div>
            <button type="submit" disabled={busy !== null} className={button} data-testid="team-connect">
              {busy === 'connect' ? 'Connecting…' : 'Connect'}
            </button>
          </div>
        </form>
      )}
      {unencrypted && (
        <div className="rounded-md border border-bad/50 bg-bg px-3 py-2 text-[13px]" role="note" data-testid="team-unencrypted">
          {unencrypted}
        </div>
      )}
      {s && s.hub && (
        <div className="text-[13px]" data-testid="team-waiting">
          {s.waiting === 0 ? (
            <span className="text-ok">Nothing waiting to go up</span>
          ) : (
            <span>
              {plural(s.waiting, 'revision')} waiting to go up{connected ? '' : ' (connect to send them)'}
            </span>
          )}
        </div>
      )}
      {connected && (
        <div className="flex flex-wrap gap-2 text-[13px]">
          <button onClick={() => void act('sync', () => api.syncNow({ project }))} disabled={busy !== null} className={button} data-testid="team-sync-now">
            {busy === 'sync' ? 'Syncing…' : 'Sync now'}
          </button>
          <button onClick={() => void act('disconnect', () => api.disconnectHub({ project }))} disabled={busy !== null} className={button} data-testid="team-disconnect">
            {busy === 'disconnect' ? 'Disconnecting…' : 'Disconnect'}
          </button>
        </div>
      )}
      {s?.lastError && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert" data-testid="team-error">
          {s.lastError}
          {connected && s.retryAt && <span className="text-muted"> Trying again {inWords(s.retryAt, now)}.</span>}
        </div>
      )}
      {s?.notices.map((notice) => (
        <div key={notice} className="rounded-md border border-line-strong bg-bg px-3 py-2 text-[13px]" data-testid="team-notice">
          {notice}
        </div>
      ))}
      {s?.you?.hub && (
        <div className="flex flex-col gap-2 rounded-md border border-line-strong bg-bg px-3 py-2 text-[13px]" data-testid="team-you-hub">
          <span>
            The hub grants <b className="font-medium">{s.you.name}</b> the uuid <span className="font-mono text-[12px] select-all">{s.you.hub.uuid}</span>, not this
            desktop’s <span className="font-mono text-[12px] select-all">{s.you.uuid}</span>, so your labels wait here.
            {s.you.hub.adoptable ? ' Nothing else here carries this desktop’s uuid: take the hub’s, and your labels go up.' : ` ${s.you.hub.why}: the hub’s admin grants you with this one instead:`}
          </span>
          {s.you.hub.adoptable ? (
            <div>
              <button onClick={() => void act('adopt', () => api.adoptHubUuid({ project, annotator: s.you!.name }))} disabled={busy !== null} className={button} data-testid="team-adopt-uuid">
                {busy === 'adopt' ? 'Taking it…' : 'Use the hub’s uuid'}
              </button>
            </div>
          ) : (
            <code className="font-mono text-[11px] select-all" data-testid="team-grant-command">
              {s.you.hub.command}
            </code>
          )}
        </div>
      )}
      {s?.you && !s.you.hub && (
        <div className="text-[12px] text-muted" data-testid="team-you">
          You label as <b className="font-medium text-fg">{s.you.name}</b>
          {s.you.uuid ? (
            <>
              {' '}
              (uuid <span className="font-mono select-all" data-testid="team-you-uuid">{s.you.uuid}</span>)
              {connected && !s.lastError && s.notices.length === 0 ? (
                '.'
              ) : (
                <>
                  . The hub takes your labels under this name and uuid; if it refuses them, the hub’s admin grants you with:{' '}
                  <code className="font-mono text-[11px] select-all">
                    arbiter hub grant --hub URL --annotator {s.you.name} --role annotator --uuid {s.you.uuid}
                  </code>
                </>
              )}
            </>
          ) : (
            '; joining gives you the uuid the hub granted you, or your first label makes one here.'
          )}
        </div>
      )}
      {(error ?? readError) && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert" data-testid="team-action-error">
          {error ?? readError}
        </div>
      )}
    </section>
  );
}
