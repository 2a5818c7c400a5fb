// The picked subject below the table: its accuracy per facet (category, source, length bucket) on the
// measure shown, its calibration bins, and its per-item results to export in each benchmark's shape.
import { useState } from 'react';
import { FACETS_EVALUATED, type BenchmarkShape, type Measure, type SubjectEvaluation } from '../../../../shared/api';
import { api, errorMessage } from '../../api';
import { ShareCell } from './FigureCells';
import { pct, SHAPE_WORDS, shapesOf } from './evaluationWords';

const FACET_WORDS = { category: 'Category', source: 'Source', length: 'Length (characters)' } as const;

export function SubjectDetail({ project, subject, measure }: { project: string; subject: SubjectEvaluation; measure: Measure }) {
  const m = subject.measures.find((x) => x.measure === measure);
  const [status, setStatus] = useState<string | null>(null);
  const download = async (shape: BenchmarkShape) => {
    setStatus(null);
    try {
      const file = await api.evaluationExport({ project, subject: subject.subject, shape });
      const url = URL.createObjectURL(new Blob([file.text], { type: 'application/x-ndjson' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.fileName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setStatus(`${file.fileName}: ${file.rows.toLocaleString()} rows${file.truncated ? ' (the first ones: more than an export holds)' : ''}`);
    } catch (error) {
      setStatus(errorMessage(error));
    }
  };
  const shapes = shapesOf(subject);
  return (
    <section className="grid gap-3 md:grid-cols-[minmax(0,1fr)_minmax(0,18rem)]" data-testid="evaluation-detail">
      <div className="rounded-md border border-line bg-surface">
        <h3 className="border-b border-line px-4 py-2 text-[14px] font-semibold">
          {subject.subject} <span className="font-normal text-muted">by facet</span>
        </h3>
        {!m?.facets.length ? (
          <p className="px-4 py-3 text-[13px] text-muted">No judgement of this measure to compare with the reference.</p>
        ) : (
          <div className="grid gap-x-6 gap-y-2 px-4 py-2 sm:grid-cols-3">
            {FACETS_EVALUATED.map((facet) => (
              <div key={facet}>
                <h4 className="mb-1 text-[11px] font-medium text-faint">{FACET_WORDS[facet]}</h4>
                <ul className="space-y-1 text-[13px] tabular-nums">
                  {m.facets
                    .filter((f) => f.facet === facet)
                    .map((f) => (
                      <li key={f.value} className="flex items-start justify-between gap-2" data-testid="evaluation-facet" data-facet={facet} data-value={f.value}>
                        <span className="min-w-0 truncate text-muted" title={f.value}>
                          {f.value}
                        </span>
                        <ShareCell figure={f.accuracy} />
                      </li>
                    ))}
                </ul>
              </div>
            ))}
          </div>
        )}
      </div>
      <div className="space-y-3">
        {subject.calibration && (
          <div className="rounded-md border border-line bg-surface px-4 py-2 text-[12px]" data-testid="evaluation-calibration">
            <h4 className="mb-1 text-[11px] font-medium text-faint">Calibration of P(A better) · ten bins</h4>
            <ul className="space-y-0.5 tabular-nums">
              {subject.calibration.bins
                .filter((b) => b.n > 0)
                .map((b) => (
                  <li key={b.low} className="flex justify-between gap-2">
                    <span className="text-muted">
                      {pct(b.low)}–{pct(b.high)}
                    </span>
                    <span>
                      said {b.meanPredicted === null ? '—' : pct(b.meanPredicted)}, was {b.meanObserved === null ? '—' : pct(b.meanObserved)}
                      <span className="ml-1 text-faint">n={b.n}</span>
                    </span>
                  </li>
                ))}
            </ul>
          </div>
        )}
        <div className="rounded-md border border-line bg-surface px-4 py-2 text-[12px]">
          <h4 className="mb-1 text-[11px] font-medium text-faint">Per-item results, in the benchmark’s own shape</h4>
          {shapes.length ? (
            <div className="flex flex-wrap gap-1.5">
              {shapes.map((shape) => (
                <button key={shape} className="rounded border border-line-strong px-2 py-0.5 text-fg hover:bg-surface-2" onClick={() => void download(shape)} data-testid={`evaluation-export-${shape}`}>
                  {SHAPE_WORDS[shape]}
                </button>
              ))}
            </div>
          ) : (
            <p className="text-muted">No benchmark applies to this subject’s results.</p>
          )}
          {status && (
            <p className="mt-1 text-muted" role="status" data-testid="evaluation-export-status">
              {status}
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
