// Local generative judges on the Models screen: run a GGUF judge (or the project's server) over the
// project as a job (progress, estimate, cancel; the page never waits), edit the prompt templates
// (each save that changes them is a new version), and set the optional server.
import { useEffect, useState } from 'react';
import type { JudgeModelFile, JudgeTemplateView } from '../../../../shared/api';
import { JUDGE_KINDS, type JudgeKind } from '../../../../shared/judgeAnswers';
import { api, errorMessage } from '../../api';
import { ServerSettings } from './ServerSettings';
import { TemplateEditor } from './TemplateEditor';
import { useJudgeJob } from './useJudgeJob';

export const field = 'h-8 rounded-md border border-line-strong bg-surface px-2 text-[13px]';
export const KIND_WORDS: Record<JudgeKind, string> = { pairwise: 'Pairwise (both orders)', rubric: 'Rubric grading', steps: 'Steps to first error', outcome: 'Trajectory outcome' };
const SERVER = 'server';

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 24 ? 1 : 0)} MiB`;
const eta = (ms: number | null | undefined) => (ms == null ? '' : ms < 60_000 ? `about ${Math.ceil(ms / 1000)} s left` : `about ${Math.ceil(ms / 60_000)} min left`);

export function JudgesPanel({ project }: { project: string }) {
  const { job, track } = useJudgeJob(project);
  const [models, setModels] = useState<JudgeModelFile[] | null>(null);
  const [templates, setTemplates] = useState<JudgeTemplateView[] | null>(null);
  const [server, setServer] = useState<{ baseUrl: string; model: string; hasKey: boolean } | null>(null);
  const [model, setModel] = useState('');
  const [kind, setKind] = useState<JudgeKind>('pairwise');
  const [seed, setSeed] = useState('1');
  const [temperature, setTemperature] = useState('0.7');
  const [parallel, setParallel] = useState('2');
  const [error, setError] = useState<string | null>(null);

  const reloadTemplates = () => api.listJudgeTemplates({ project }).then(setTemplates).catch((e) => setError(errorMessage(e)));
  useEffect(() => {
    api
      .listJudgeModels({})
      .then((list) => {
        setModels(list);
        setModel((m) => m || list[0]?.name || '');
      })
      .catch((e) => setError(errorMessage(e)));
    void reloadTemplates();
    api.getJudgeEngine({ project }).then(setServer).catch(() => undefined);
  }, [project]);

  const running = job?.state === 'running';
  const template = templates?.find((t) => t.kind === kind);
  const start = async () => {
    setError(null);
    try {
      const params = { seed: Number(seed), temperature: Number(temperature) };
      track(await api.startJudging({ project, kind, model, params, parallel: Number(parallel), ...(template && template.version > 0 ? { template: template.version } : {}) }));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  const cancel = async () => {
    if (job) track(await api.cancelJob({ jobId: job.id }).catch((e) => (setError(errorMessage(e)), job)));
  };
  const fraction = job?.total ? (job.done ?? 0) / job.total : 0;

  return (
    <section className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" data-testid="judges-panel">
      <div className="flex items-baseline justify-between gap-2">
        <h2 className="text-[15px] font-semibold">Generative judges</h2>
        <span className="text-[12px] text-faint">GGUF models from the models folders, run here with llama.cpp</span>
      </div>
      <div className="flex flex-wrap items-end gap-3 text-[13px]">
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Model</span>
          <select className={field} value={model} onChange={(e) => setModel(e.target.value)} data-testid="judge-model">
            {(models ?? []).map((m) => (
              <option key={m.name} value={m.name}>
                {m.name} · {mib(m.size)}
              </option>
            ))}
            {server && <option value={SERVER}>Server: {server.model}</option>}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Task</span>
          <select className={field} value={kind} onChange={(e) => setKind(e.target.value as JudgeKind)} data-testid="judge-kind">
            {JUDGE_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_WORDS[k]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Seed</span>
          <input className={`${field} w-20`} value={seed} onChange={(e) => setSeed(e.target.value)} inputMode="numeric" data-testid="judge-seed" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">Temperature</span>
          <input className={`${field} w-20`} value={temperature} onChange={(e) => setTemperature(e.target.value)} inputMode="decimal" />
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-[12px] text-muted">In parallel</span>
          <input className={`${field} w-16`} value={parallel} onChange={(e) => setParallel(e.target.value)} inputMode="numeric" />
        </label>
        {running ? (
          <button className="h-8 rounded-md border border-line-strong px-3 text-[13px] hover:bg-surface-2" onClick={() => void cancel()} data-testid="judge-cancel">
            Cancel
          </button>
        ) : (
          <button className="h-8 rounded-md bg-accent px-3 text-[13px] font-medium text-white disabled:opacity-50 dark:text-[#111]" disabled={!model} onClick={() => void start()} data-testid="judge-start">
            Run judge
          </button>
        )}
      </div>
      <div className="text-[12px] text-faint">
        Template {template ? (template.version ? `version ${template.version}` : 'built-in') : '…'}; every result names the model file's sha256, the template version, the sampling and the seed.
        {models && models.length === 0 && <span data-testid="judge-no-models"> No .gguf file in the models folders yet.</span>}
      </div>
      {job && (
        <div className="flex flex-col gap-1" data-testid="judge-job" data-state={job.state}>
          <div className="h-1.5 overflow-hidden rounded bg-surface-2">
            <div className="h-full bg-accent transition-[width]" style={{ width: `${Math.round((job.state === 'done' ? 1 : fraction) * 100)}%` }} />
          </div>
          <div className="text-[12.5px] text-muted">
            {job.state === 'running'
              ? `${job.done ?? 0} of ${job.total ?? '…'} answered${job.etaMs != null ? `, ${eta(job.etaMs)}` : ''}`
              : job.state === 'failed'
                ? <span className="text-bad">The run failed: {job.error}</span>
                : job.judge
                  ? `${job.state === 'cancelled' ? 'Cancelled' : 'Done'}: ${job.judge.results} results on ${job.judge.items} items${job.judge.failed ? `, ${job.judge.failed} without an answer` : ''}${job.judge.skipped ? `, ${job.judge.skipped} skipped` : ''}, ${(job.judge.ms / 1000).toFixed(1)} s`
                  : job.state}
          </div>
        </div>
      )}
      {error && (
        <div className="text-[12.5px] text-bad" data-testid="judge-error">
          {error}
        </div>
      )}
      {templates && template && <TemplateEditor project={project} template={template} onSaved={() => void reloadTemplates()} />}
      <ServerSettings project={project} server={server} onChanged={setServer} />
    </section>
  );
}
