// The pairwise compare screen: prompt pinned on top, the two responses side by side in the order
// this annotator sees them, the decision bar at the bottom. The keyboard drives everything.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { toScreenChoice, type ScreenChoice } from '../../../../shared/choices';
import type { Strength } from '../../../../shared/domain';
import { Kbd } from '../../components/Kbd';
import { digitOf, useGlobalKeys } from '../../components/keys';
import { useShell } from '../../context';
import { DecisionBar } from './DecisionBar';
import { PromptPane } from './PromptPane';
import { ResponseColumn, type Verdict } from './ResponseColumn';
import { describeLabel, useLabeling } from './useLabeling';

const SCREEN_BY_DIGIT: Record<number, ScreenChoice> = { 1: 'left', 2: 'right', 3: 'tie', 4: 'both_bad' };

function verdicts(choice: ScreenChoice | null): [Verdict, Verdict] {
  switch (choice) {
    case 'left':
      return ['better', 'worse'];
    case 'right':
      return ['worse', 'better'];
    case 'tie':
      return ['tie', 'tie'];
    case 'both_bad':
      return ['both_bad', 'both_bad'];
    default:
      return [null, null];
  }
}

export function CompareScreen({ project, itemId }: { project: string; itemId?: number }) {
  const { annotator, keysEnabled, refreshProgress, navigate } = useShell();
  const labeling = useLabeling(project, annotator, itemId, refreshProgress);
  const { item, phase, notice, unsaved } = labeling;
  const [slight, setSlight] = useState(false);
  const [folded, setFolded] = useState(true);
  const [revealSource, setRevealSource] = useState(false);
  const rationaleBox = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    setRevealSource(false);
    setFolded(true);
  }, [item?.id]);

  const choose = useCallback(
    (choice: ScreenChoice, strength: Strength | null) => {
      labeling.choose(choice, strength);
      setSlight(false);
    },
    [labeling],
  );

  useGlobalKeys((event) => {
    const mod = event.ctrlKey || event.metaKey;
    if (mod && !event.altKey && event.code === 'KeyZ' && !event.shiftKey) {
      event.preventDefault();
      void labeling.undo();
      return;
    }
    if (mod) return;
    const digit = digitOf(event);
    if (digit !== null && SCREEN_BY_DIGIT[digit]) {
      event.preventDefault();
      const screen = SCREEN_BY_DIGIT[digit]!;
      const strength: Strength | null = event.altKey || slight ? 1 : event.shiftKey ? 3 : null;
      choose(screen, strength);
      return;
    }
    if (event.altKey) return;
    switch (event.key) {
      case 'ArrowRight':
        event.preventDefault();
        void labeling.go('next');
        break;
      case 'ArrowLeft':
        event.preventDefault();
        void labeling.go('previous');
        break;
      case 's':
      case 'S':
        setSlight((v) => !v);
        break;
      case 'r':
      case 'R':
        event.preventDefault();
        rationaleBox.current?.focus();
        break;
      case 'f':
        setFolded((v) => !v);
        break;
      case 'v':
        setRevealSource((v) => !v);
        break;
      case 'Escape':
        setSlight(false);
        break;
    }
  }, keysEnabled);

  const current: ScreenChoice | null = item?.label?.choice ? toScreenChoice(item.label.choice, item.shownOrder) : null;
  const [leftVerdict, rightVerdict] = verdicts(current);
  const left = item ? item.responses.find((r) => r.index === item.shownOrder[0]) ?? item.responses[item.shownOrder[0]!] : undefined;
  const right = item ? item.responses.find((r) => r.index === item.shownOrder[1]) ?? item.responses[item.shownOrder[1]!] : undefined;
  const source = item?.sourceLabel ? describeLabel(item.sourceLabel, item.shownOrder) : null;
  const showSource = Boolean(source && (current || revealSource));

  return (
    <main className="flex min-h-0 flex-1 flex-col" data-testid="compare">
      {unsaved > 0 && notice?.state === 'failed' && (
        <div className="shrink-0 bg-bad px-4 py-1.5 text-[13px] font-medium text-white dark:text-[#1a0a0d]" role="alert" data-testid="unsaved-banner">
          {unsaved === 1 ? '1 label is' : `${unsaved} labels are`} not saved yet. Arbiter keeps retrying and keeps {unsaved === 1 ? 'it' : 'them'} on
          this machine meanwhile — do not clear the browser data.
          <button className="ml-3 underline" onClick={labeling.retryNow}>
            Retry now
          </button>
        </div>
      )}

      {phase === 'loading' && <div className="p-6 text-[13px] text-muted">Loading…</div>}
      {phase === 'error' && (
        <div className="m-6 max-w-xl rounded-md border border-bad/40 bg-bad-soft p-4 text-[14px]" role="alert">
          <div className="font-semibold text-bad">Could not open the project “{project}”.</div>
          <p className="mt-1">{labeling.loadError}</p>
          <button className="mt-2 text-accent underline" onClick={() => navigate({ name: 'start' })}>
            Back to projects
          </button>
        </div>
      )}
      {phase === 'empty' && (
        <Centered>
          <p className="text-[15px] font-medium">This project has no items yet.</p>
          <p className="text-muted">Import a JSONL file of prompt / response pairs on the Datasets screen.</p>
          <button className="mt-2 rounded bg-accent px-3 py-1.5 text-[13px] font-medium text-white dark:text-[#111]" onClick={() => navigate({ name: 'datasets', project })}>
            Go to Datasets <Kbd className="ml-1">d</Kbd>
          </button>
        </Centered>
      )}
      {phase === 'done' && (
        <Centered testid="all-done">
          <p className="text-[15px] font-medium">Every item in this project has your label.</p>
          <p className="text-muted">Go back over them with ← / →, or export the labels from the Datasets screen.</p>
          <div className="mt-2 flex gap-2">
            <button className="rounded border border-line-strong px-3 py-1.5 text-[13px]" onClick={() => void labeling.go('previous')}>
              <Kbd className="mr-1">←</Kbd> Last item
            </button>
            <button className="rounded bg-accent px-3 py-1.5 text-[13px] font-medium text-white dark:text-[#111]" onClick={() => navigate({ name: 'datasets', project })}>
              Export… <Kbd className="ml-1">d</Kbd>
            </button>
          </div>
        </Centered>
      )}

      {item && phase === 'ready' && (
        <>
          <div className="flex shrink-0 items-center gap-3 border-b border-line bg-surface-2/60 px-4 py-1 text-[12px] text-muted" data-testid="item-bar">
            <span data-testid="item-position">
              Item <b className="font-semibold text-fg tabular-nums">{item.seq + 1}</b> of <span className="tabular-nums">{item.total.toLocaleString()}</span>
            </span>
            {item.externalId && <span className="truncate text-faint">id {item.externalId}</span>}
            {current && (
              <span className="text-fg" data-testid="current-label">
                your label: <b className="font-semibold">{describeLabel(item.label, item.shownOrder)}</b>
              </span>
            )}
            <span className="ml-auto flex items-center gap-2">
              {source &&
                (showSource ? (
                  <span className="text-faint" data-testid="source-label" title="The preference the imported file carried, in screen terms">
                    file says: {source}
                  </span>
                ) : (
                  <button className="flex items-center gap-1 text-faint hover:text-fg" onClick={() => setRevealSource(true)} title="Shown after you choose, so it does not anchor you">
                    file’s label hidden <Kbd>v</Kbd>
                  </button>
                ))}
            </span>
          </div>
          <PromptPane prompt={item.prompt} folded={folded} onToggle={() => setFolded((v) => !v)} />
          <div className="min-h-0 flex-1 overflow-y-auto bg-surface wide:grid wide:grid-cols-2 wide:overflow-hidden" data-testid="responses">
            <ResponseColumn side="left" response={left} verdict={leftVerdict} />
            <ResponseColumn side="right" response={right} verdict={rightVerdict} />
          </div>
        </>
      )}

      {(phase === 'ready' || phase === 'done') && (
        <DecisionBar
          ref={rationaleBox}
          current={current}
          currentStrength={item?.label?.strength ?? null}
          slight={slight}
          notice={notice}
          rationale={labeling.rationale}
          disabled={!item}
          onChoose={choose}
          onSlight={() => setSlight((v) => !v)}
          onRationale={labeling.editRationale}
          onRationaleDone={labeling.flushRationale}
          onPrev={() => void labeling.go('previous')}
          onNext={() => void labeling.go('next')}
          onUndo={() => void labeling.undo()}
          onRetry={labeling.retryNow}
        />
      )}
    </main>
  );
}

function Centered({ children, testid }: { children: ReactNode; testid?: string }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-1 p-8 text-center text-[14px]" data-testid={testid}>
      {children}
    </div>
  );
}
