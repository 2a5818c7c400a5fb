// The bar under the steps: every action with its key on it, and a line that says in words what was
// last done and whether it is saved (saving / saved / NOT SAVED, retried).
import type { ReactNode } from 'react';
import { Kbd } from '../../components/Kbd';
import type { Status } from '../../components/outbox';
import { SaveMark } from '../../components/SaveMark';

interface Props {
  status: Status | null;
  disabled: boolean;
  hasReference: boolean;
  canAccept: boolean;
  /** A trajectory: how many tool calls the current turn makes (keys 1–9 judge them), and whether several agents act (w). */
  trajectory?: { calls: number; multiAgent: boolean } | null;
  onRate(r: 1 | 0 | -1): void;
  onFirstError(): void;
  onTags(): void;
  onCorrect(): void;
  onSplit(): void;
  onMerge(): void;
  onAccept(): void;
  onUndo(): void;
  onPrev(): void;
  onNext(): void;
  onRetry(): void;
}

function Btn({ k, children, onClick, disabled, testid, title, tone }: { k: string; children: ReactNode; onClick(): void; disabled: boolean; testid: string; title: string; tone?: string }) {
  return (
    <button
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      disabled={disabled}
      title={title}
      className="flex h-8 items-center gap-1.5 rounded-md border border-line-strong bg-surface px-2 text-[12.5px] hover:bg-surface-2 disabled:opacity-50"
      data-testid={testid}
    >
      <Kbd>{k}</Kbd>
      <span className={tone ?? 'text-fg'}>{children}</span>
    </button>
  );
}


export function KeyBar(p: Props) {
  const d = p.disabled;
  return (
    <footer className="shrink-0 border-t border-line bg-surface px-3 py-2" data-testid="steps-keybar">
      <div className="mx-auto flex max-w-[1800px] flex-wrap items-center gap-1.5">
        <div className="flex items-center gap-1.5" role="group" aria-label="Rate the current step">
          <Btn k="=" onClick={() => p.onRate(1)} disabled={d} testid="rate-good" title="Good: +1 (= or +)" tone="text-ok font-semibold">
            ✓ +1
          </Btn>
          <Btn k="0" onClick={() => p.onRate(0)} disabled={d} testid="rate-neutral" title="Neutral: 0" tone="text-tie font-semibold">
            ○ 0
          </Btn>
          <Btn k="-" onClick={() => p.onRate(-1)} disabled={d} testid="rate-bad" title="Bad: −1" tone="text-bad font-semibold">
            ✗ −1
          </Btn>
          <Btn k="f" onClick={p.onFirstError} disabled={d} testid="mark-first-error" title="Mark the current step as the first error (again: take it back)" tone="text-bad">
            First error
          </Btn>
        </div>
        <span className="mx-1 h-5 border-l border-line" aria-hidden />
        <Btn k="t" onClick={p.onTags} disabled={d} testid="open-tags" title="Tag the current step's error">
          Tag
        </Btn>
        <Btn k="c" onClick={p.onCorrect} disabled={d} testid="open-correction" title={p.trajectory?.calls ? 'Write the corrected tool call' : 'Write the corrected step'}>
          Correct
        </Btn>
        {p.trajectory && p.trajectory.calls > 0 && (
          <span className="flex items-center gap-1 text-[12px] text-muted" data-testid="verdict-keys">
            <Kbd>1</Kbd>
            {p.trajectory.calls > 1 && (
              <>
                –<Kbd>{String(Math.min(9, p.trajectory.calls))}</Kbd>
              </>
            )}{' '}
            call verdict
          </span>
        )}
        {p.trajectory?.multiAgent && (
          <span className="flex items-center gap-1 text-[12px] text-muted" data-testid="attribution-key">
            <Kbd>w</Kbd> decided the failure
          </span>
        )}
        <Btn k="s" onClick={p.onSplit} disabled={d} testid="split" title="Split the current step in two">
          Split
        </Btn>
        <Btn k="m" onClick={p.onMerge} disabled={d} testid="merge" title="Merge the current step with the next">
          Merge
        </Btn>
        {p.canAccept && (
          <Btn k="a" onClick={p.onAccept} disabled={d} testid="accept-model" title="Take the process model's ratings (assist)" tone="text-accent">
            Accept model
          </Btn>
        )}
        <div className="ml-auto flex items-center gap-1.5 text-[12px] text-muted">
          <span className="hidden items-center gap-1 2xl:flex">
            <Kbd>j</Kbd>
            <Kbd>k</Kbd> move · <Kbd>o</Kbd> <Kbd>e</Kbd>
            {p.hasReference && <Kbd>r</Kbd>} result ·
          </span>
          <button className="flex h-8 items-center gap-1.5 rounded-md border border-line-strong px-2 hover:bg-surface-2 hover:text-fg" onClick={p.onUndo} title="Undo the last change on this item (Ctrl+Z)" data-testid="steps-undo">
            <Kbd>Ctrl Z</Kbd> Undo
          </button>
          <button className="flex h-8 items-center gap-1.5 rounded-md border border-line-strong px-2 hover:bg-surface-2 hover:text-fg" onClick={p.onPrev} title="Previous item (←)" data-testid="steps-prev">
            <Kbd>←</Kbd> Prev
          </button>
          <button className="flex h-8 items-center gap-1.5 rounded-md border border-line-strong px-2 hover:bg-surface-2 hover:text-fg" onClick={p.onNext} title="Next item (→; Shift+→: next without your step labels)" data-testid="steps-next">
            Next <Kbd>→</Kbd>
          </button>
        </div>
      </div>
      <div className="mx-auto mt-1.5 flex min-h-6 max-w-[1800px] items-center text-[13px]" aria-live="polite" data-testid="status">
        {p.status ? (
          <span className={p.status.state === 'failed' ? 'rounded-md bg-bad-soft px-2 py-0.5 ring-1 ring-bad' : ''} data-state={p.status.state} data-testid="status-text">
            {p.status.itemNumber !== null && <span className="text-faint">Item {p.status.itemNumber}: </span>}
            <span className="font-medium">{p.status.text}</span> <SaveMark status={p.status} onRetry={p.onRetry} />
          </span>
        ) : (
          <span className="text-faint">Rate each step with = 0 -; f marks the first error. Every key saves at once.</span>
        )}
      </div>
    </footer>
  );
}
