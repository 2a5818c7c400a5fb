// A figure in a dashboard table: its value and n, "not enough data" below the minimum, or n/a with the
// reason on hover; never a made-up zero.
import type { Figure } from '../../../../shared/api';
import { notEnough } from './reviewWords';

export function cell(f: Figure | null | undefined, format: (v: number) => string = (v) => v.toFixed(2)) {
  if (!f) return <span className="text-faint">—</span>;
  if (notEnough(f))
    return (
      <span className="text-faint italic" title={f.reason ?? ''} data-testid="not-enough">
        not enough data
      </span>
    );
  if (f.value === null)
    return (
      <span className="text-faint" title={`${f.reason ?? 'no value'} (n = ${f.n})`}>
        n/a
      </span>
    );
  return (
    <span title={`n = ${f.n}`}>
      {format(f.value)}
      <span className="ml-1 text-[11px] text-faint">n={f.n}</span>
    </span>
  );
}
