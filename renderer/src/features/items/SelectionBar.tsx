// What the explorer does to the rows selected: send them to the review queue (reason "sent", with the
// sender's name), mark gold (the file's own labels become the project's ground truth), export them (the
// export panel with the selection as its scope).
// Each action says what it did, or why it did not, in words.
import type { ReactNode } from 'react';
import { plural } from '../../../../shared/plural';

export function SelectionBar(props: {
  selected: number;
  matching: number | null;
  busy: boolean;
  note: { text: string; bad: boolean } | null;
  onSelectAll(): void;
  onClear(): void;
  onSend(): void;
  onGold(): void;
  onExport(): void;
}) {
  const button = (label: ReactNode, onClick: () => void, testId: string, title: string) => (
    <button className="h-7 rounded-md border border-line-strong bg-surface px-2.5 text-[12.5px] font-medium hover:bg-surface-2 disabled:opacity-50" onClick={onClick} disabled={props.busy} title={title} data-testid={testId}>
      {label}
    </button>
  );
  if (props.selected === 0 && !props.note) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 border-b border-line bg-accent-soft/60 px-3 py-1.5 text-[12.5px]" data-testid="selection-bar">
      {props.selected > 0 && (
        <>
          <span className="font-medium tabular-nums" data-testid="selection-count">
            {plural(props.selected, 'item')} selected
          </span>
          {props.matching !== null && props.selected < props.matching && (
            <button className="text-accent hover:underline" onClick={props.onSelectAll} data-testid="select-all">
              Select all {props.matching.toLocaleString()} matching
            </button>
          )}
          <span className="mx-1 h-4 w-px bg-line-strong" />
          {button('Send to review', props.onSend, 'send-to-review', 'Queue these items on the Review screen with the reason “sent by” you, in the queue of their task')}
          {button('Mark gold', props.onGold, 'mark-gold', 'The file’s own labels on these items become gold: people and models are measured against them')}
          {button('Export…', props.onExport, 'export-selection', 'Export these items only, in any format')}
          <button className="ml-1 text-muted hover:text-fg" onClick={props.onClear} data-testid="selection-clear">
            Clear <span className="text-faint">(Esc)</span>
          </button>
        </>
      )}
      {props.note && (
        <span className={`ml-auto ${props.note.bad ? 'text-bad' : 'text-ok'}`} role={props.note.bad ? 'alert' : 'status'} data-testid="selection-note">
          {props.note.text}
        </span>
      )}
    </div>
  );
}
