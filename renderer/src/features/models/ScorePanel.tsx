// Scoring this project: pick the models, the provider and the batch size, start a job that runs in a
// worker thread, watch it (responses/s, tokens/s, ETA), cancel it, and read what each model did.
import { useState } from 'react';
import type { JobInfo } from '../../../../shared/api';
import type { ModelInfo, ModelRunSummary, ProviderRequest, ProviderStatus, ScoreProgress } from '../../../../shared/scoring';
import { api, errorMessage } from '../../api';
import { jobFraction } from '../../components/Header';
import { plural, rate, seconds } from './scorerWords';

const PROVIDERS: ProviderRequest[] = ['auto', 'cpu', 'cuda', 'dml', 'coreml'];
const field = 'h-8 rounded-md border border-line-strong bg-surface px-2 text-[13px]';

interface Props {
  project: string;
  models: ModelInfo[];
  providers: ProviderStatus[] | null;
  job: JobInfo | null;
  onJob(job: JobInfo): void;
}

export function ScorePanel({ project, models, providers, job, onJob }: Props) {
  const [excluded, setExcluded] = useState<ReadonlySet<number>>(new Set());
  const [provider, setProvider] = useState<ProviderRequest>('auto');
  const [batch, setBatch] = useState('16');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const running = job?.state === 'running';
  const chosen = models.filter((m) => !excluded.has(m.id));
  const batchSize = Number(batch);
  const batchOk = Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= 1024;

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const ids = chosen.length === models.length ? undefined : chosen.map((m) => m.id);
      onJob(await api.startScoring({ project, provider, batchSize, ...(ids ? { modelIds: ids } : {}) }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!job) return;
    setError(null);
    try {
      onJob(await api.cancelJob({ jobId: job.id }));
    } catch (e) {
      setError(`Could not cancel: ${errorMessage(e)}`);
    }
  };

  const status = (name: string) => providers?.find((p) => p.name === name);

  return (
    <section className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" data-testid="score-panel">
      <div className="flex items-baseline justify-between gap-2">
        <h2 className="text-[14px] font-semibold">Score this project</h2>
        <span className="truncate text-[12px] text-faint" title={project}>
          “{project}”
        </span>
      </div>
      <p className="-mt-2 text-[12px] text-muted">
        Runs in the background; keep labeling meanwhile. Scores are cached, so a second run only scores what changed.
      </p>

      {models.length === 0 ? (
        <p className="text-[13px] text-muted">Add a model first.</p>
      ) : (
        <fieldset className="flex flex-col gap-1 text-[13px]" disabled={running}>
          <legend className="mb-1 text-[12px] text-muted">Models</legend>
          {models.map((m) => (
            <label key={m.id} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={!excluded.has(m.id)}
                onChange={(e) => {
                  const next = new Set(excluded);
                  if (e.target.checked) next.delete(m.id);
                  else next.add(m.id);
                  setExcluded(next);
                }}
                data-testid="score-model"
              />
              <span className="font-medium">{m.name}</span>
              <span className="text-faint">{m.kind}</span>
            </label>
          ))}
        </fieldset>
      )}

      <div className="flex flex-wrap items-end gap-3 text-[13px]">
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Provider</span>
          <select value={provider} onChange={(e) => setProvider(e.target.value as ProviderRequest)} className={field} disabled={running} data-testid="score-provider">
            {PROVIDERS.map((p) => {
              const s = status(p);
              return (
                <option key={p} value={p}>
                  {p === 'auto' ? 'auto — best available' : s && !s.available ? `${p} — unavailable, falls back to cpu` : p}
                </option>
              );
            })}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Batch size</span>
          <input
            type="number"
            min={1}
            max={1024}
            value={batch}
            onChange={(e) => setBatch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') e.currentTarget.blur();
            }}
            className={`${field} w-20 tabular-nums ${batchOk ? '' : 'border-bad'}`}
            disabled={running}
            data-testid="score-batch"
          />
        </label>
        <button
          onClick={() => void start()}
          disabled={running || busy || chosen.length === 0 || !batchOk}
          className="ml-auto h-8 rounded-md bg-accent px-4 font-medium text-white disabled:opacity-50 dark:text-[#111]"
          data-testid="score-start"
        >
          {running ? 'Scoring…' : `Score with ${plural(chosen.length, 'model')}`}
        </button>
      </div>
      {!batchOk && <p className="text-[12px] text-bad">Batch size is a whole number from 1 to 1024.</p>}

      {error && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert" data-testid="score-error">
          {error}
        </div>
      )}

      {job && <JobView job={job} onCancel={() => void cancel()} />}
    </section>
  );
}

function elapsed(job: JobInfo): number | null {
  if (!job.finishedAt) return null;
  return (Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000;
}

function JobView({ job, onCancel }: { job: JobInfo; onCancel(): void }) {
  const p = job.progress;
  return (
    <div className="flex flex-col gap-2 rounded-md border border-line bg-bg px-3 py-2.5 text-[13px]" data-testid="job" data-state={job.state}>
      {job.state === 'running' ? <Running progress={p} fraction={jobFraction(job)} onCancel={onCancel} /> : <Finished job={job} />}
    </div>
  );
}

function Running({ progress: p, fraction, onCancel }: { progress: ScoreProgress | null; fraction: number; onCancel(): void }) {
  const within = p && p.total > 0 ? p.done / p.total : 0;
  return (
    <>
      <div className="flex items-baseline gap-2">
        <b className="font-semibold" data-testid="job-phase">
          {!p ? 'Starting…' : p.phase === 'preparing' ? 'Preparing' : 'Scoring'}
        </b>
        {p && (
          <span className="min-w-0 truncate text-muted">
            model {p.modelIndex + 1} of {p.modelCount}: <span className="font-medium text-fg">{p.model}</span>
            {p.provider && <> · on <span className="font-medium text-fg" data-testid="job-provider">{p.provider}</span></>}
          </span>
        )}
        <span className="ml-auto tabular-nums text-muted">{Math.floor(fraction * 100)}%</span>
      </div>
      <div className="h-2 overflow-hidden rounded-full bg-surface-2 ring-1 ring-line" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(within * 100)}>
        <div className="h-full rounded-full bg-accent transition-[width] duration-200" style={{ width: `${within * 100}%` }} />
      </div>
      {p && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[12.5px] text-muted" data-testid="job-progress">
          <span className="tabular-nums">
            <b className="font-medium text-fg">{p.done.toLocaleString()}</b> / {p.total.toLocaleString()} responses
          </span>
          {p.cached > 0 && <span className="tabular-nums">{p.cached.toLocaleString()} cached</span>}
          <span className="tabular-nums">{rate(p.itemsPerSecond)} responses/s</span>
          <span className="tabular-nums">{rate(p.tokensPerSecond)} tokens/s</span>
          <span className="tabular-nums">ETA {p.phase === 'preparing' ? '—' : seconds(p.etaSeconds)}</span>
        </div>
      )}
      <div className="flex items-center gap-2">
        <span className="text-[12px] text-faint">Labeling stays usable while this runs.</span>
        <button className="ml-auto h-7 rounded-md border border-line-strong px-3 text-[12.5px] hover:bg-surface-2" onClick={onCancel} data-testid="job-cancel">
          Cancel
        </button>
      </div>
    </>
  );
}

function Finished({ job }: { job: JobInfo }) {
  const took = elapsed(job);
  const models = job.result?.models ?? [];
  const scored = models.reduce((n, m) => n + m.scored, 0);
  const cached = models.reduce((n, m) => n + m.cached, 0);
  // Usually every model skipped the same providers for the same reasons: say it once.
  const skipKey = (m: ModelRunSummary) => JSON.stringify(m.provider.skipped);
  const sharedSkips = models.length > 0 && models.every((m) => skipKey(m) === skipKey(models[0]!)) ? models[0]!.provider.skipped : null;
  return (
    <>
      <div data-testid="job-summary">
        {job.state === 'done' && (
          <b className="font-semibold text-ok">
            <span aria-hidden>✓ </span>Done
          </b>
        )}
        {job.state === 'cancelled' && <b className="font-semibold">Cancelled</b>}
        {job.state === 'failed' && (
          <b className="font-semibold text-bad">
            <span aria-hidden>✕ </span>Failed
          </b>
        )}
        {took !== null && <span className="text-muted"> after {seconds(took)}</span>}
        {job.state !== 'failed' && (
          <span className="text-muted">
            {' '}
            — {plural(scored, 'response')} scored, {cached.toLocaleString()} from the cache
            {job.state === 'cancelled' ? '; the scores made before cancelling are kept' : ''}.
          </span>
        )}
        {job.error && <div className="mt-1 break-words text-bad">{job.error}</div>}
      </div>
      {models.length > 0 && (
        <ul className="flex flex-col divide-y divide-line border-t border-line">
          {models.map((m) => (
            <ModelRun key={m.modelId} run={m} showSkipped={!sharedSkips} />
          ))}
        </ul>
      )}
      {sharedSkips && sharedSkips.length > 0 && <Skipped list={sharedSkips} />}
    </>
  );
}

function Skipped({ list }: { list: ModelRunSummary['provider']['skipped'] }) {
  return (
    <ul className="border-t border-line pt-1.5 text-[12px] text-muted" data-testid="job-skipped">
      {list.map((s) => (
        <li key={s.name} className="break-words">
          <span className="font-medium">{s.name}</span> skipped: {s.reason}
        </li>
      ))}
    </ul>
  );
}

function ModelRun({ run, showSkipped }: { run: ModelRunSummary; showSkipped: boolean }) {
  // Responses the model does not take by design (text for an image model) are notes; the rest are problems.
  const notes = run.unscorableReasons.filter((r) => r.byDesign);
  const problems = run.unscorableReasons.filter((r) => !r.byDesign);
  const notScored = notes.reduce((n, r) => n + r.count, 0);
  const unscorable = run.unscorable - notScored;
  const figures = [
    `${run.scored.toLocaleString()} scored`,
    `${run.cached.toLocaleString()} cached`,
    run.truncated ? `${run.truncated.toLocaleString()} truncated` : null,
    notScored ? `${notScored.toLocaleString()} not scored` : null,
    unscorable > 0 ? `${unscorable.toLocaleString()} unscorable` : null,
    seconds(run.seconds),
  ].filter(Boolean);
  return (
    <li className="flex flex-col gap-0.5 pt-1.5" data-testid="job-model" data-model={run.name}>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium">{run.name}</span>
        <span className="text-muted">
          ran on <b className="font-medium text-fg" data-testid="job-model-provider">{run.provider.used}</b>
          {run.provider.requested !== 'auto' && run.provider.requested !== run.provider.used ? ` (asked for ${run.provider.requested})` : ''}
        </span>
        <span className="ml-auto text-[12px] tabular-nums text-muted">{figures.join(' · ')}</span>
      </div>
      {showSkipped && run.provider.skipped.length > 0 && <Skipped list={run.provider.skipped} />}
      {notes.length > 0 && (
        <ul className="flex flex-col gap-0.5 text-[12px] text-muted" data-testid="job-not-scored">
          {notes.map(({ reason, byDesign, count, examples }) => (
            <li key={reason} className="break-words" title={reason}>
              <span className="font-medium text-fg">Not scored:</span> {count.toLocaleString()} {byDesign}.{' '}
              <span className="text-faint">
                {examples.join('; ')}
                {count > examples.length ? '; …' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {problems.length > 0 && (
        <ul className="flex flex-col gap-0.5 text-[12px]" data-testid="job-unscorable">
          {problems.map(({ reason, count, examples }) => (
            <li key={reason} className="break-words">
              <span className="font-medium text-bad">⚠ {count.toLocaleString()} unscorable:</span> {reason}.{' '}
              <span className="text-muted">
                {examples.join('; ')}
                {count > examples.length ? '; …' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
