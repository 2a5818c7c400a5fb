// The explorer's search box: the whole query (search words and facet clauses) in one line, a short
// syntax hint, a sentence when the query cannot be read, the count it matches, and the clauses in force
// as chips (× takes one out).
import type { RefObject } from 'react';
import type { Clause } from '../../../../shared/itemQuery';

export function ExplorerBar(props: {
  typed: string;
  onType(text: string): void;
  /** Enter in the box: run now; Esc: back to the list. */
  onSubmit(): void;
  onLeave(): void;
  box: RefObject<HTMLInputElement | null>;
  error: string | null;
  count: string;
  clauses: Clause[];
  onRemoveClause(index: number): void;
}) {
  return (
    <div className="flex flex-col gap-1.5 border-b border-line px-3 py-2.5">
      <div className="flex items-center gap-3">
        <label className="relative flex min-w-0 flex-1 items-center">
          <span className="sr-only">Search and filter the items</span>
          <span aria-hidden className="pointer-events-none absolute left-2.5 text-[13px] text-faint">
            ⌕
          </span>
          <input
            ref={props.box}
            value={props.typed}
            onChange={(e) => props.onType(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                props.onSubmit();
              } else if (e.key === 'Escape') {
                e.preventDefault();
                props.onLeave();
              }
            }}
            spellCheck={false}
            placeholder="Search every text, or filter: Rayleigh   response:scatter*   disagree=pairwise   score>=0.8"
            className={`h-8 w-full rounded-md border bg-bg pr-2 pl-7 font-mono text-[13px] outline-none focus:border-accent ${props.error ? 'border-bad' : 'border-line-strong'}`}
            aria-invalid={props.error !== null}
            aria-describedby="explorer-hint"
            data-testid="items-query"
          />
        </label>
        <span className="shrink-0 text-[12px] text-muted tabular-nums" data-testid="explorer-count">
          {props.count}
        </span>
      </div>
      {props.error ? (
        <p className="text-[12px] text-bad" role="alert" data-testid="query-error">
          The query cannot be read: {props.error}
        </p>
      ) : (
        <p id="explorer-hint" className="flex flex-wrap items-center gap-x-3 text-[12px] text-faint" data-testid="query-hint">
          <span>
            <code>"a phrase"</code> · <code>prefix*</code> · <code>AND</code> <code>OR</code> <code>NOT</code> · <code>response:</code> <code>rationale:</code> <code>prompt:</code> a field · <code>facet=value</code>{' '}
            <code>score&gt;=0.8</code>
          </span>
        </p>
      )}
      {props.clauses.length > 0 && (
        <div className="flex flex-wrap gap-1.5" data-testid="chips">
          {props.clauses.map((c, i) => (
            <span key={`${c.facet}${c.op}${i}`} className="inline-flex items-center gap-1 rounded-full border border-line-strong bg-surface-2 py-0.5 pr-1 pl-2.5 text-[12px]" data-testid="chip">
              <span>
                <span className="font-medium">{c.facet}</span>
                <span className="text-muted">{c.op === '=' ? ':' : c.op === '!=' ? ': not' : ` ${c.op}`}</span> {c.values.join(' or ')}
              </span>
              <button className="rounded-full px-1 text-muted hover:bg-line hover:text-fg" onClick={() => props.onRemoveClause(i)} aria-label={`Remove ${c.facet}`} data-testid="chip-remove">
                ×
              </button>
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
