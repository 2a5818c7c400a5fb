// The save mark every labeling screen shows after a judgement: saving…, saved ✓, or NOT SAVED with the
// reason, the retry countdown and a button to retry now.
export interface SaveState {
  state: 'info' | 'saving' | 'saved' | 'failed' | string;
  retryInMs?: number;
  error?: string;
}

export function SaveMark({ status, onRetry }: { status: SaveState; onRetry(): void }) {
  if (status.state === 'info') return null;
  if (status.state === 'saving') return <span className="text-muted">— saving…</span>;
  if (status.state === 'saved')
    return (
      <span className="font-medium text-ok">
        — saved <span aria-hidden>✓</span>
      </span>
    );
  return (
    <span className="font-semibold text-bad">
      — NOT SAVED{status.retryInMs ? `, retrying in ${Math.ceil(status.retryInMs / 1000)} s` : ''}
      {status.error ? `: ${status.error}` : ''}
      {status.retryInMs ? (
        <button className="ml-2 rounded border border-bad/50 px-1.5 text-[12px] font-medium hover:bg-bad-soft" onClick={onRetry}>
          Retry now
        </button>
      ) : null}
    </span>
  );
}
