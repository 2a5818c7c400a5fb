// Adding a model: type (or paste) the folder's path (in the browser host: a folder in its models folders),
// Enter inspects it and says what Arbiter found and where each setting came from; "Add" stores it. A
// folder that does not fit is refused in words and nothing is added.
import { useRef, useState, type ReactNode } from 'react';
import type { ModelDescription, ModelInfo } from '../../../../shared/scoring';
import { api, errorMessage, transport } from '../../api';
import { INPUT_MODE, KIND, TRUNCATION, shortHash } from './scorerWords';

const input = 'h-8 rounded-md border border-line-strong bg-bg px-2.5 text-[13px] outline-none placeholder:text-faint focus:border-accent';

export function AddModelPanel({ known, onAdded }: { known: ModelInfo[]; onAdded(): void }) {
  const [dir, setDir] = useState('');
  const [name, setName] = useState('');
  const [found, setFound] = useState<ModelDescription | null>(null);
  const [busy, setBusy] = useState<'inspect' | 'add' | null>(null);
  const [error, setError] = useState<{ what: string; message: string } | null>(null);
  const [added, setAdded] = useState<{ model: ModelInfo; updated: boolean } | null>(null);
  const request = useRef(0);

  const inspect = async () => {
    const path = dir.trim();
    if (!path) return;
    const id = ++request.current;
    setBusy('inspect');
    setError(null);
    setFound(null);
    setAdded(null);
    try {
      const description = await api.inspectModel({ dir: path });
      if (id !== request.current) return;
      setFound(description);
      setName(description.name);
    } catch (e) {
      if (id === request.current) setError({ what: 'This folder cannot be added.', message: errorMessage(e) });
    } finally {
      if (id === request.current) setBusy(null);
    }
  };

  const add = async () => {
    if (!found) return;
    setBusy('add');
    setError(null);
    try {
      const model = await api.addModel({ dir: found.dir, ...(name.trim() && name.trim() !== found.name ? { name: name.trim() } : {}) });
      setAdded({ model, updated: known.some((m) => m.id === model.id) });
      setFound(null);
      setDir('');
      onAdded();
    } catch (e) {
      setError({ what: 'Nothing was added.', message: errorMessage(e) });
    } finally {
      setBusy(null);
    }
  };

  const same = found ? known.find((m) => m.hash === found.hash) : undefined;

  return (
    <section className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4" data-testid="add-model">
      <div className="flex items-baseline justify-between gap-3">
        <h2 className="text-[14px] font-semibold">Add a model</h2>
        <span className="text-[12px] text-faint">model.onnx + tokenizer.json (+ tokenizer_config.json, config.json)</span>
      </div>
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void inspect();
        }}
      >
        <label className="flex min-w-[280px] flex-1 flex-col gap-1">
          <span className="sr-only">Model folder</span>
          <input
            className={`${input} font-mono`}
            value={dir}
            onChange={(e) => setDir(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') e.currentTarget.blur();
            }}
            placeholder={
              transport.kind === 'http'
                ? // The browser host reads models only from its models folders (printed when it started).
                  'A folder in the models folder beside the database, e.g. skywork-rm-onnx — Enter to inspect'
                : 'Folder path on this machine, e.g. /home/me/models/skywork-rm-onnx — Enter to inspect'
            }
            spellCheck={false}
            autoComplete="off"
            data-testid="model-dir"
          />
        </label>
        <button
          type="submit"
          disabled={!dir.trim() || busy !== null}
          className="h-8 rounded-md border border-line-strong bg-surface px-3 text-[13px] font-medium hover:bg-surface-2 disabled:opacity-50"
          data-testid="inspect-model"
        >
          {busy === 'inspect' ? 'Reading…' : 'Inspect'}
        </button>
      </form>

      {error && (
        <div className="rounded-md border border-bad/50 bg-bad-soft px-3 py-2 text-[13px]" role="alert" data-testid="model-error">
          <b className="font-semibold text-bad">{error.what}</b> <span className="break-words">{error.message}</span>
        </div>
      )}

      {added && (
        <div className="rounded-md border border-ok/40 bg-surface-2 px-3 py-2 text-[13px]" data-testid="model-added">
          <b className="font-semibold text-ok">
            {added.updated ? 'Updated' : 'Added'} {added.model.name}
          </b>{' '}
          ({KIND[added.model.kind].word}, {INPUT_MODE[added.model.inputMode]}
          {added.model.scores ? `, ${added.model.scores.toLocaleString()} scores kept` : ''}). Score the project to see its pre-labels.
        </div>
      )}

      {found && (
        <div className="flex flex-col gap-3" data-testid="inspection">
          <Inspection found={found} />
          {same && (
            <div className="rounded-md border border-line-strong bg-surface-2 px-3 py-2 text-[13px]">
              The same files are already added as <b className="font-semibold">{same.name}</b>; adding them again only updates its folder and
              name, and keeps its scores.
            </div>
          )}
          <div className="flex flex-wrap items-center gap-2 border-t border-line pt-3">
            <label className="flex items-center gap-2 text-[13px]">
              <span className="text-muted">Name</span>
              <input className={`${input} w-56`} value={name} onChange={(e) => setName(e.target.value)} maxLength={120} data-testid="model-name" />
            </label>
            <span className="ml-auto" />
            <button
              className="h-8 rounded-md border border-line-strong px-3 text-[13px] hover:bg-surface-2"
              onClick={() => {
                setFound(null);
                setError(null);
              }}
            >
              Cancel
            </button>
            <button
              className="h-8 rounded-md bg-accent px-4 text-[13px] font-medium text-white disabled:opacity-50 dark:text-[#111]"
              disabled={busy !== null}
              onClick={() => void add()}
              data-testid="add-model-button"
            >
              {busy === 'add' ? 'Adding…' : same ? `Update ${same.name}` : `Add ${found.kind} model`}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function Row({ label, children, from, testid }: { label: string; children: ReactNode; from?: string; testid?: string }) {
  return (
    <div className="contents" data-testid={testid}>
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0">
        {children}
        {from && <span className="text-faint"> — from {from}</span>}
      </dd>
    </div>
  );
}

function Shape({ shape }: { shape: (number | string)[] }) {
  return <span className="font-mono text-[12px]">[{shape.join(', ')}]</span>;
}

/** What inspecting the folder found, each choice with where it came from. */
function Inspection({ found }: { found: ModelDescription }) {
  const t = found.tokenizer;
  return (
    <div className="rounded-md border border-line bg-bg text-[13px]">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 border-b border-line px-3 py-2">
        <span className="font-semibold">{found.name}</span>
        <span className="rounded bg-accent-soft px-1.5 text-[12px] font-medium text-accent" data-testid="inspection-kind">
          {KIND[found.kind].word} model
        </span>
        <span className="text-faint">{KIND[found.kind].hint}</span>
        <span className="ml-auto font-mono text-[12px] text-faint" title={found.hash}>
          {shortHash(found.hash)}
        </span>
      </div>
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 px-3 py-2.5">
        <Row label="Kind" from={found.sources.kind}>
          <b className="font-medium">{found.kind}</b>
        </Row>
        <Row label="Input" from={found.sources.inputMode} testid="inspection-input">
          <b className="font-medium">{INPUT_MODE[found.inputMode]}</b>
        </Row>
        <Row label="Max length" from={found.sources.maxLength}>
          <span className="tabular-nums">{found.maxLength.toLocaleString()}</span> tokens
        </Row>
        <Row label="Truncation" from={found.sources.truncationSide}>
          {TRUNCATION[found.truncationSide]}
        </Row>
        <Row label="Padding">{found.paddingSide}</Row>
        <Row label="Reward">
          <span className="font-mono text-[12px]">
            {found.reward.output}[{found.reward.index}]
          </span>
          <span className="text-muted"> · {found.reward.rule}</span>
        </Row>
        {found.process && (
          <Row label="Steps" testid="inspection-process">
            separator <span className="font-mono text-[12px]">{found.process.separator}</span>{' '}
            <span className="text-faint">(id {found.process.separatorId})</span> · {found.process.rule} · chain reward = {found.process.aggregate} of the
            steps
          </Row>
        )}
        <Row label="Tokenizer">
          {t.model}, {t.vocabSize.toLocaleString()} tokens · pair template {t.hasPairTemplate ? 'yes' : 'no'} · chat template {t.hasChatTemplate ? 'yes' : 'no'} ·
          pad {t.padToken ? <span className="font-mono text-[12px]">{t.padToken}</span> : 'none'}
          {t.specialTokens.length > 0 && (
            <div className="truncate font-mono text-[11.5px] text-faint" title={t.specialTokens.join(' ')}>
              special: {t.specialTokens.slice(0, 12).join(' ')}
              {t.specialTokens.length > 12 ? ` … +${t.specialTokens.length - 12}` : ''}
            </div>
          )}
        </Row>
        <Row label="Manifest">{found.hasManifest ? 'arbiter-model.json (its settings win)' : 'none — settings read from the files'}</Row>
      </dl>
      <div className="grid gap-3 border-t border-line px-3 py-2.5 md:grid-cols-2">
        <TensorTable
          title="Graph inputs"
          testid="inspection-inputs"
          rows={found.inputs.map((i) => ({ name: i.name, type: i.type, shape: i.shape, note: `← ${i.filledWith}` }))}
        />
        <TensorTable
          title="Outputs"
          rows={found.outputs.map((o) => ({ name: o.name, type: o.type, shape: o.shape, note: o.name === found.reward.output ? '→ reward' : '' }))}
        />
      </div>
      {found.warnings.length > 0 && (
        <ul className="flex flex-col gap-1 border-t border-line px-3 py-2 text-[13px]" data-testid="inspection-warnings">
          {found.warnings.map((w) => (
            <li key={w}>
              <span aria-hidden>⚠ </span>
              <span className="sr-only">Warning: </span>
              {w}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function TensorTable({ title, rows, testid }: { title: string; rows: { name: string; type: string; shape: (number | string)[]; note: string }[]; testid?: string }) {
  return (
    <div data-testid={testid}>
      <div className="mb-1 text-[11px] font-semibold tracking-wide text-faint uppercase">{title}</div>
      <table className="w-full text-[12.5px]">
        <tbody>
          {rows.map((r) => (
            <tr key={r.name}>
              <td className="py-0.5 pr-2 font-mono">{r.name}</td>
              <td className="py-0.5 pr-2 text-muted">{r.type}</td>
              <td className="py-0.5 pr-2 text-muted">
                <Shape shape={r.shape} />
              </td>
              <td className="py-0.5 text-muted">{r.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
