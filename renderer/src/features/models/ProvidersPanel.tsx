// Which execution providers this machine and this onnxruntime build can offer, and why not the others.
import type { ProviderStatus } from '../../../../shared/scoring';

const TITLE: Record<string, string> = { cpu: 'CPU', cuda: 'CUDA (NVIDIA)', dml: 'DirectML (Windows)', coreml: 'CoreML (macOS)' };

export function ProvidersPanel({ providers, error }: { providers: ProviderStatus[] | null; error: string | null }) {
  return (
    <section className="rounded-md border border-line bg-surface" data-testid="providers">
      <div className="border-b border-line px-4 py-2.5">
        <h2 className="text-[14px] font-semibold">Execution providers</h2>
        <p className="text-[12px] text-muted">“auto” tries them top to bottom and falls back to CPU; a job says which one ran.</p>
      </div>
      {error && (
        <div className="px-4 py-2 text-[13px] text-bad" role="alert">
          Could not ask the host: {error}
        </div>
      )}
      {providers === null && !error && <div className="px-4 py-2 text-[13px] text-muted">Loading…</div>}
      <ul className="divide-y divide-line">
        {providers?.map((p) => (
          <li key={p.name} className="flex gap-2.5 px-4 py-2 text-[13px]" data-testid="provider" data-provider={p.name} data-available={p.available}>
            <span className={`mt-px w-4 shrink-0 text-center font-bold ${p.available ? 'text-ok' : 'text-faint'}`} aria-hidden>
              {p.available ? '✓' : '–'}
            </span>
            <div className="min-w-0">
              <div>
                <span className="font-medium">{TITLE[p.name] ?? p.name}</span>{' '}
                <span className={p.available ? 'text-ok' : 'text-muted'}>{p.available ? 'available' : 'unavailable'}</span>
              </div>
              <div className="text-[12px] break-words text-muted">{p.reason}</div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
