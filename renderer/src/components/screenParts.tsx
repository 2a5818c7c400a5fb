// Pieces the labeling screens share (Rank, Verdict, Compare, the rating panel, the project page): the
// unsaved banner, the status line (saving / saved / NOT SAVED), the thin bar above the prompt, the empty /
// done / error states and the rationale box.
import type { ReactNode } from 'react';
import type { Status } from './outbox';
import { SaveMark } from './SaveMark';

export function UnsavedBanner({ unsaved, status, onRetry, what }: { unsaved: number; status: Status | null; onRetry(): void; what: string }) {
  if (unsaved === 0 || status?.state !== 'failed') return null;
  return (
    <div className="shrink-0 bg-bad px-4 py-1.5 text-[13px] font-medium text-white dark:text-[#1a0a0d]" role="alert" data-testid="unsaved-banner">
      {unsaved === 1 ? `1 ${what} is` : `${unsaved} ${what}s are`} not saved yet. Arbiter keeps retrying and keeps {unsaved === 1 ? 'it' : 'them'} on this
      machine meanwhile — do not clear the browser data.
      <button className="ml-3 underline" onClick={onRetry}>
        Retry now
      </button>
    </div>
  );
}


/** What was last done, in words, and whether it is on disk. */
export function StatusLine({ status, onRetry, hint }: { status: Status | null; onRetry(): void; hint: ReactNode }) {
  return (
    <div className="flex min-h-8 min-w-0 items-center text-[13px]" aria-live="polite" data-testid="status">
      {status ? (
        <span className={status.state === 'failed' ? 'rounded-md bg-bad-soft px-2 py-1 ring-1 ring-bad' : ''} data-state={status.state} data-testid="status-text">
          {status.itemNumber !== null && <span className="text-faint">Item {status.itemNumber}: </span>}
          <span className="font-medium">{status.text}</span> <SaveMark status={status} onRetry={onRetry} />
        </span>
      ) : (
        <span className="text-faint">{hint}</span>
      )}
    </div>
  );
}

/** The thin bar above the prompt: where the item is, and what this screen knows about it. */
export function ItemLine({ itemNumber, total, externalId, children }: { itemNumber: number; total: number; externalId: string | null; children?: ReactNode }) {
  return (
    <div className="flex shrink-0 items-center gap-3 border-b border-line bg-surface-2/60 px-4 py-1 text-[12px] whitespace-nowrap text-muted" data-testid="item-bar">
      <span data-testid="item-position">
        Item <b className="font-semibold text-fg tabular-nums">{itemNumber}</b> of <span className="tabular-nums">{total.toLocaleString()}</span>
      </span>
      {externalId && <span className="max-w-[24ch] truncate text-faint">id {externalId}</span>}
      {children}
    </div>
  );
}

export function Centered({ children, testid }: { children: ReactNode; testid?: string }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-1 p-8 text-center text-[14px]" data-testid={testid}>
      {children}
    </div>
  );
}

/** Keeps a clicked control from taking the focus, so Enter and Space keep their meaning on the screen. */
export const keepFocus = (event: { preventDefault(): void }) => event.preventDefault();

export function BarButton(props: { children: ReactNode; onClick(): void; title: string; testid: string; disabled?: boolean; primary?: boolean; pressed?: boolean }) {
  const { children, onClick, title, testid, disabled, primary, pressed } = props;
  return (
    <button
      onClick={onClick}
      onMouseDown={keepFocus}
      title={title}
      disabled={disabled}
      aria-pressed={pressed}
      className={`flex h-8 items-center gap-1.5 rounded-md border px-2 text-[12px] disabled:opacity-45 ${
        pressed ? 'border-transparent bg-tie-soft font-semibold text-tie ring-2 ring-tie' : primary ? 'border-accent bg-accent font-medium text-white hover:opacity-90 dark:text-[#111] [&_kbd]:border-white/40 [&_kbd]:bg-white/15 [&_kbd]:text-white dark:[&_kbd]:border-black/30 dark:[&_kbd]:bg-black/10 dark:[&_kbd]:text-[#111]' : 'border-line-strong text-muted hover:bg-surface-2 hover:text-fg'
      }`}
      data-testid={testid}
    >
      {children}
    </button>
  );
}


