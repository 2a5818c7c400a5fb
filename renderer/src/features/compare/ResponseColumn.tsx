// One response column, named by its screen side (Left / Right; the letters A / B are kept for source
// order and never shown here), with its length. Its body scrolls on its own when the columns stand side
// by side, and takes the page keys for itself once it has the focus (a click or Tab).
import { memo, useMemo, type ReactNode, type RefObject } from 'react';
import type { ResponseRecord } from '../../../../shared/domain';
import { ContentView } from '../../components/ContentView';
import { DiffText } from './DiffText';
import { responseSize } from '../../components/images/responseSize';
import { StepChips, type ColumnSteps } from './PrelabelViews';
import { StepsLink } from '../../components/StepsLink';
import { isTrajectory } from '../../../../shared/trajectory';
import { TrajectoryColumn } from '../trajectories/TrajectoryColumn';
import type { Segment } from './wordDiff';

export type Side = 'left' | 'right';

const SIDE = {
  left: { name: 'Left', icon: '◀', text: 'text-side-l', soft: 'bg-side-l-soft', stripe: 'shadow-[inset_0_3px_0_var(--left)]', key: '1' },
  right: { name: 'Right', icon: '▶', text: 'text-side-r', soft: 'bg-side-r-soft', stripe: 'shadow-[inset_0_3px_0_var(--right)]', key: '2' },
} as const;

export type Verdict = 'better' | 'worse' | 'tie' | 'both_bad' | null;

const VERDICT: Record<Exclude<Verdict, null>, { text: string; cls: string }> = {
  better: { text: '▲ preferred', cls: 'text-ok' },
  worse: { text: '▼ not preferred', cls: 'text-faint' },
  tie: { text: '= tie', cls: 'text-tie' },
  both_bad: { text: '✕ both bad', cls: 'text-bad' },
};

const NO_STEPS: ColumnSteps[] = [];

/** The diff view's part for this column: its segments (null: too different to mark) and how many words only it has. */
export interface ColumnDiff {
  segments: Segment[] | null;
  onlyHere: number;
}

/**
 * The column: its head and body are memoised apart from the footer, so a render of the screen for the
 * footer's sake (a rating, a critique typed, the notes of a new item arriving) draws neither again.
 */
export function ResponseColumn({
  side,
  response,
  verdict,
  steps = NO_STEPS,
  diff,
  bodyRef,
  project,
  itemId,
  footer,
  rating = false,
}: {
  side: Side;
  response: ResponseRecord | undefined;
  verdict: Verdict;
  /** Process models' per-step scores for this response, when pre-labels may be shown. */
  steps?: ColumnSteps[];
  /** Set while the diff view is on. */
  diff?: ColumnDiff;
  bodyRef?: RefObject<HTMLDivElement | null>;
  /** Where this response's steps open (the step screen; `[` left, `]` right). */
  project?: string;
  itemId?: number;
  /** Under the text: the rubric ratings and the critique box of this response. */
  footer?: ReactNode;
  /** The focus is on a criterion (the page-key hint would mislead). */
  rating?: boolean;
}) {
  return (
    <article
      className={`group/column flex min-h-0 min-w-0 flex-col border-line bg-surface ${side === 'left' ? 'wide:border-r' : 'border-t wide:border-t-0'}`}
      data-testid={`response-${side}`}
      aria-label={`${SIDE[side].name} response`}
    >
      <ColumnMain side={side} response={response} verdict={verdict} steps={steps} diff={diff} bodyRef={bodyRef} project={project} itemId={itemId} rating={rating} />
      {footer && <div className="shrink-0 wide:max-h-[52%] wide:overflow-y-auto" data-testid={`response-footer-${side}`}>{footer}</div>}
    </article>
  );
}

const ColumnMain = memo(function ColumnMain({
  side,
  response,
  verdict,
  steps,
  diff,
  bodyRef,
  project,
  itemId,
  rating,
}: {
  side: Side;
  response: ResponseRecord | undefined;
  verdict: Verdict;
  steps: ColumnSteps[];
  diff?: ColumnDiff;
  bodyRef?: RefObject<HTMLDivElement | null>;
  project?: string;
  itemId?: number;
  rating: boolean;
}) {
  const s = SIDE[side];
  // Worked out once per response, not on every render of the screen (a save's notice re-renders it).
  const size = useMemo(() => responseSize(response ?? null), [response]);
  return (
    <>
      <header
        className={`sticky top-0 z-10 flex items-center gap-2.5 border-b border-line px-4 py-1.5 whitespace-nowrap ${verdict === 'better' ? `${s.soft} ${s.stripe}` : 'bg-surface'}`}
        data-testid={`response-head-${side}`}
      >
        <span className={`flex h-5 w-5 items-center justify-center rounded ${verdict === 'better' ? 'bg-surface' : s.soft} ${s.text} text-[10px]`} aria-hidden>
          {s.icon}
        </span>
        <span className={`text-[13px] font-semibold ${s.text}`}>{s.name}</span>
        <span className="text-[12px] text-faint">key {s.key}</span>
        {verdict && <span className={`text-[12px] font-medium ${VERDICT[verdict].cls}`} data-testid={`verdict-${side}`}>{VERDICT[verdict].text}</span>}
        {response && project !== undefined && itemId !== undefined && <StepsLink project={project} itemId={itemId} response={response.index} side={side} />}
        <span className={`hidden text-[12px] text-accent ${rating ? '' : 'group-focus-within/column:inline'}`} data-testid={`keys-here-${side}`}>
          Space scrolls this side · Esc both
        </span>
        <span className="ml-auto truncate text-[12px] tabular-nums text-faint" data-testid={`length-${side}`}>
          {diff?.segments && (
            <span className="text-muted" data-testid={`diff-count-${side}`}>
              {diff.onlyHere.toLocaleString()} {diff.onlyHere === 1 ? 'word' : 'words'} only here ·{' '}
            </span>
          )}
          {size.pictured && (
            <span data-testid={`image-count-${side}`}>
              {size.pictured}
              {size.written ? ' · ' : ''}
            </span>
          )}
          {size.written}
        </span>
      </header>
      <StepChips rows={steps} side={side} />
      <div
        ref={bodyRef}
        tabIndex={0}
        aria-label={`${s.name} response text`}
        // Side by side, an image is at most the column's visible height (less its role line), so a generated
        // image is seen whole beside the other without scrolling (the container's height, not the window's).
        className="px-5 py-4 outline-none focus-visible:shadow-[inset_0_0_0_2px_var(--accent)] wide:min-h-0 wide:flex-1 wide:overflow-y-auto wide:[container-type:size] wide:[--image-max-h:calc(100cqh-2rem)]"
        data-testid={`response-body-${side}`}
      >
        {!response ? (
          <p className="text-muted">No response.</p>
        ) : diff && size.images === 0 ? (
          <DiffText side={side} segments={diff.segments} />
        ) : isTrajectory(response.content) ? (
          <TrajectoryColumn messages={response.content} at={`${itemId ?? ''}:${response.index}`} />
        ) : (
          <ContentView content={response.content} place={response.index} />
        )}
      </div>
    </>
  );
});
