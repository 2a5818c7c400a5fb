// Every model added to this Arbiter: what it is, how many scores it has, where its last job ran.
// Removing one asks in place (no dialog) and names what goes with it.
import { useState } from 'react';
import type { ModelInfo } from '../../../../shared/scoring';
import { api, errorMessage } from '../../api';
import { INPUT_MODE, KIND, plural, shortHash } from './scorerWords';

export function ModelList({
  models,
  error,
  running,
  onChanged,
}: {
  models: ModelInfo[] | null;
  error: string | null;
  running: boolean;
  onChanged(): void;
}) {
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);

  const remove = async (model: ModelInfo) => {
    setBusy(true);
    setRemoveError(null);
    try {
      const result = await api.removeModel({ modelId: model.id });
      setRemoved(result.removed ? `Removed ${model.name} and its scores.` : `${model.name} was already gone.`);
      setConfirming(null);
      onChanged();
    } catch (e) {
      setRemoveError(`Could not remove ${model.name}: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="overflow-hidden rounded-md border border-line bg-surface" data-testid="model-list">
      <div className="flex items-baseline justify-between border-b border-line px-4 py-2.5">
        <h2 className="text-[14px] font-semibold">Reward models</h2>
        <span className="text-[12px] text-faint">shared by every project on this machine</span>
      </div>
      {error && (
        <div className="m-3 rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert">
          <b className="font-semibold text-bad">Could not list the models.</b> {error}
        </div>
      )}
      {models === null && !error && <div className="px-4 py-3 text-[13px] text-muted">Loading…</div>}
      {models?.length === 0 && (
        <div className="px-4 py-4 text-[13px] text-muted" data-testid="no-models">
          No models yet. Add one below from a folder with <span className="font-mono text-[12px]">model.onnx</span> and{' '}
          <span className="font-mono text-[12px]">tokenizer.json</span>.
        </div>
      )}
      {models && models.length > 0 && (
        <table className="w-full text-[13px]">
          <thead className="text-left text-[11px] tracking-wide text-faint uppercase">
            <tr className="border-b border-line">
              <th className="px-4 py-1.5 font-semibold">Model</th>
              <th className="px-2 py-1.5 font-semibold">Kind</th>
              <th className="px-2 py-1.5 font-semibold">Input</th>
              <th className="px-2 py-1.5 font-semibold">Hash</th>
              <th className="px-2 py-1.5 text-right font-semibold">Scores</th>
              <th className="px-2 py-1.5 font-semibold">Last ran on</th>
              <th className="w-[1%] px-4 py-1.5" />
            </tr>
          </thead>
          <tbody>
            {models.map((m) => (
              <tr key={m.id} className="border-b border-line align-top last:border-b-0" data-testid="model-row" data-model={m.name}>
                <td className="max-w-[260px] px-4 py-2">
                  <div className="font-medium">{m.name}</div>
                  <div className="truncate font-mono text-[11.5px] text-faint" title={m.dir}>
                    {m.dir}
                  </div>
                </td>
                <td className="px-2 py-2" title={KIND[m.kind].hint}>
                  {KIND[m.kind].word}
                </td>
                <td className="px-2 py-2 whitespace-nowrap text-muted">{INPUT_MODE[m.inputMode]}</td>
                <td className="px-2 py-2 font-mono text-[12px] text-muted" title={`sha-256 of the folder's files: ${m.hash}`}>
                  {shortHash(m.hash)}
                </td>
                <td className="px-2 py-2 text-right tabular-nums" data-testid="model-scores">
                  {m.scores.toLocaleString()}
                </td>
                <td className="px-2 py-2 text-[12.5px]" data-testid="model-provider">
                  {m.lastProvider ? (
                    <>
                      <span className="font-medium">{m.lastProvider.used}</span>
                      {m.lastProvider.requested !== 'auto' && m.lastProvider.requested !== m.lastProvider.used && (
                        <span className="text-faint"> (asked for {m.lastProvider.requested})</span>
                      )}
                      {m.lastProvider.skipped.length > 0 && (
                        <div className="text-[12px] text-faint" title={m.lastProvider.skipped.map((s) => `${s.name}: ${s.reason}`).join('\n')}>
                          skipped {m.lastProvider.skipped.map((s) => s.name).join(', ')}
                        </div>
                      )}
                    </>
                  ) : (
                    <span className="text-faint">not run yet</span>
                  )}
                </td>
                <td className="px-4 py-2 text-right whitespace-nowrap">
                  {confirming === m.id ? (
                    <span className="flex items-center justify-end gap-1.5 text-[12px]" data-testid="remove-confirm">
                      <span className="text-muted">Remove with its {plural(m.scores, 'score')}?</span>
                      <button
                        className="rounded border border-bad/60 px-2 py-0.5 font-medium text-bad hover:bg-bad-soft disabled:opacity-50"
                        disabled={busy || running}
                        title={running ? 'Wait for the score job to finish or cancel it' : undefined}
                        onClick={() => void remove(m)}
                        data-testid="remove-yes"
                      >
                        Remove
                      </button>
                      <button className="rounded border border-line-strong px-2 py-0.5 hover:bg-surface-2" onClick={() => setConfirming(null)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button
                      className="rounded px-1.5 py-0.5 text-[12px] text-muted hover:bg-surface-2 hover:text-bad"
                      onClick={() => {
                        setConfirming(m.id);
                        setRemoved(null);
                        setRemoveError(null);
                      }}
                      data-testid="remove-model"
                    >
                      Remove…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(removeError || removed) && (
        <div className={`border-t border-line px-4 py-2 text-[13px] ${removeError ? 'bg-bad-soft text-bad' : 'text-muted'}`} role={removeError ? 'alert' : 'status'}>
          {removeError ?? removed}
        </div>
      )}
    </section>
  );
}
