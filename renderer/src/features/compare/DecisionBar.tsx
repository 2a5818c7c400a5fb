// The sticky decision bar: the four choices with their keys, the strength, the rationale box, moving
// between items, and a line that says in words what was saved.
import { forwardRef, type ReactNode } from 'react';
import type { ScreenChoice } from '../../../../shared/choices';
import type { Strength } from '../../../../shared/domain';
import { Kbd } from '../../components/Kbd';
import type { Status } from '../../components/outbox';
import { RationaleBox } from '../../components/RationaleBox';
import { SaveMark } from '../../components/SaveMark';

interface Props {
  current: ScreenChoice | null;
  currentStrength: Strength | null;
  slight: boolean;
  notice: Status | null;
  rationale: string;
  disabled: boolean;
  onChoose(choice: ScreenChoice, strength: Strength | null): void;
  onSlight(): void;
  onRationale(text: string): void;
  onRationaleDone(): void;
  onPrev(): void;
  onNext(): void;
  onUndo(): void;
  onRetry(): void;
  /** Model pre-labels: this item's (assist, or once labeled) or, in blind mode, the item just labeled. */
  prelabelLine?: ReactNode;
  /** Assist mode: the model's suggestion, accepted with `a`. */
  suggestion?: ReactNode;
}

const CHOICES: { choice: ScreenChoice; key: string; icon: string; label: string; tone: string; active: string }[] = [
  { choice: 'left', key: '1', icon: '◀', label: 'Left better', tone: 'text-side-l', active: 'bg-side-l-soft ring-side-l' },
  { choice: 'right', key: '2', icon: '▶', label: 'Right better', tone: 'text-side-r', active: 'bg-side-r-soft ring-side-r' },
  { choice: 'tie', key: '3', icon: '=', label: 'Tie', tone: 'text-tie', active: 'bg-tie-soft ring-tie' },
  { choice: 'both_bad', key: '4', icon: '✕', label: 'Both bad', tone: 'text-bad', active: 'bg-bad-soft ring-bad' },
];


export const DecisionBar = forwardRef<HTMLTextAreaElement, Props>(function DecisionBar(props, rationaleRef) {
  const { current, currentStrength, slight, notice, rationale, disabled } = props;

  const strengthWord = (s: Strength | null) => (s === 3 ? 'much' : s === 1 ? 'slightly' : 'clearly');

  return (
    <footer className="shrink-0 border-t border-line bg-surface px-3 py-2" data-testid="decision-bar">
      {props.prelabelLine && <div className="mx-auto mb-1.5 max-w-[1800px] border-b border-line/70 pb-1.5">{props.prelabelLine}</div>}
      <div className="mx-auto flex max-w-[1800px] flex-wrap items-center gap-2">
        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="Choice">
          {CHOICES.map((c) => {
            const active = current === c.choice;
            return (
              <button
                key={c.choice}
                disabled={disabled}
                onClick={(e) => props.onChoose(c.choice, slight ? 1 : e.shiftKey ? 3 : null)}
                className={`flex h-8 items-center gap-2 rounded-md border px-2.5 text-[13px] disabled:opacity-50 ${
                  active ? `${c.active} border-transparent font-semibold ring-2` : 'border-line-strong bg-surface hover:bg-surface-2'
                }`}
                aria-pressed={active}
                data-testid={`choice-${c.choice}`}
              >
                <Kbd>{c.key}</Kbd>
                <span className={`${c.tone} font-bold`} aria-hidden>
                  {c.icon}
                </span>
                <span>{slight && (c.choice === 'left' || c.choice === 'right') ? c.label.replace('better', 'slightly better') : c.label}</span>
                {active && (c.choice === 'left' || c.choice === 'right') && (
                  <span className="text-[11px] font-normal text-muted">({strengthWord(currentStrength)})</span>
                )}
              </button>
            );
          })}
        </div>

        <div className="flex items-center gap-1.5 border-l border-line pl-2 text-[12px] text-muted" data-testid="strength">
          <span>Strength:</span>
          <span title="Press the key alone">
            plain = <b className="font-medium text-fg">clearly</b>
          </span>
          <span className="text-faint">·</span>
          <span title="Hold Shift with 1 or 2">
            <Kbd>⇧</Kbd> much
          </span>
          <span className="text-faint">·</span>
          <button
            onClick={props.onSlight}
            className={`flex items-center gap-1 rounded px-1 py-0.5 ${slight ? 'bg-accent-soft font-semibold text-accent ring-1 ring-accent' : 'hover:text-fg'}`}
            title="Arm “slightly” for the next choice (or hold Alt with 1 or 2)"
            aria-pressed={slight}
            data-testid="slight-toggle"
          >
            <Kbd>s</Kbd> slightly{slight ? ' — armed' : ''}
          </button>
        </div>

        {props.suggestion && <div className="border-l border-line pl-2">{props.suggestion}</div>}

        <div className="ml-auto flex items-center gap-1.5 text-[12px]">
          <Btn onClick={props.onUndo} title="Undo the last label (Ctrl+Z)" testid="undo">
            <Kbd>Ctrl Z</Kbd> Undo
          </Btn>
          <Btn onClick={props.onPrev} title="Previous item (←)" testid="prev">
            <Kbd>←</Kbd> Prev
          </Btn>
          <Btn onClick={props.onNext} title="Next item (→)" testid="next">
            Next <Kbd>→</Kbd>
          </Btn>
        </div>
      </div>

      <div className="mx-auto mt-2 flex max-w-[1800px] flex-wrap items-start gap-3">
        <RationaleBox ref={rationaleRef} value={rationale} onChange={props.onRationale} onDone={props.onRationaleDone} />
        <div className="flex min-h-8 w-full items-center text-[13px] md:w-[440px] md:shrink-0" aria-live="polite" data-testid="status">
          {notice ? (
            <span
              className={notice.state === 'failed' ? 'rounded-md bg-bad-soft px-2 py-1 ring-1 ring-bad' : ''}
              data-state={notice.state}
              data-testid="status-text"
            >
              {notice.itemNumber !== null && <span className="text-faint">Item {notice.itemNumber}: </span>}
              <span className="font-medium">{notice.text}</span> <SaveMark status={notice} onRetry={props.onRetry} />
            </span>
          ) : (
            <span className="text-faint">Press 1–4 to choose; it saves at once and the next pair follows.</span>
          )}
        </div>
      </div>
    </footer>
  );
});

function Btn({ children, onClick, title, testid }: { children: ReactNode; onClick(): void; title: string; testid: string }) {
  return (
    <button
      onClick={onClick}
      title={title}
      className="flex h-8 items-center gap-1.5 rounded-md border border-line-strong px-2 text-muted hover:bg-surface-2 hover:text-fg"
      data-testid={testid}
    >
      {children}
    </button>
  );
}
