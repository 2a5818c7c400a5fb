// One figure in the evaluation table: the value, its 95% interval drawn as a thin bar under it, and n;
// "n/a" with the reason on hover; a dash where the figure does not apply to the subject.
import type { Figure, ProportionFigure } from '../../../../shared/api';
import { figureText, shareText } from './evaluationWords';

export function ShareCell({ figure, testId }: { figure: ProportionFigure | undefined; testId?: string }) {
  const t = shareText(figure);
  if (t.n === null) return <span className="text-faint">—</span>;
  if (t.why) return <span className="text-faint" title={`${t.why} (n = ${t.n})`}>n/a</span>;
  const low = figure?.low ?? 0;
  const high = figure?.high ?? 0;
  return (
    <span className="inline-flex min-w-[9rem] flex-col gap-0.5" title={`95% interval ${t.interval ?? ''}, n = ${t.n}`} data-testid={testId}>
      <span>
        <span className="font-medium text-fg">{t.main}</span>
        <span className="ml-1.5 text-[11px] text-faint">
          {t.interval} · n={t.n}
        </span>
      </span>
      <span className="relative h-[3px] w-full rounded-full bg-line" aria-hidden>
        <span className="absolute inset-y-0 rounded-full bg-accent/45" style={{ left: `${low * 100}%`, width: `${Math.max(1, (high - low) * 100)}%` }} />
        <span className="absolute inset-y-[-2px] w-[2px] rounded-full bg-accent" style={{ left: `calc(${(figure?.value ?? 0) * 100}% - 1px)` }} />
      </span>
    </span>
  );
}

export function NumberCell({ figure, digits = 3, testId }: { figure: Figure | undefined; digits?: number; testId?: string }) {
  const t = figureText(figure, digits);
  if (t.n === null) return <span className="text-faint">—</span>;
  if (t.why) return <span className="text-faint" title={`${t.why} (n = ${t.n})`}>n/a</span>;
  return (
    <span data-testid={testId}>
      <span className="text-fg">{t.main}</span>
      <span className="ml-1 text-[11px] text-faint">n={t.n}</span>
    </span>
  );
}
