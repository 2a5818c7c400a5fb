// One response column, labelled by its screen side and letter, with its length.
import { memo } from 'react';
import type { ResponseRecord } from '../../../../shared/domain';
import { approxTokens, contentText } from '../../../../shared/choices';
import { ContentView } from '../../components/ContentView';
import { StepChips, type ColumnSteps } from './PrelabelViews';

export type Side = 'left' | 'right';

const SIDE = {
  left: { name: 'Left', letter: 'A', text: 'text-side-l', soft: 'bg-side-l-soft', stripe: 'shadow-[inset_0_3px_0_var(--left)]', key: '1' },
  right: { name: 'Right', letter: 'B', text: 'text-side-r', soft: 'bg-side-r-soft', stripe: 'shadow-[inset_0_3px_0_var(--right)]', key: '2' },
} as const;

export type Verdict = 'better' | 'worse' | 'tie' | 'both_bad' | null;

const VERDICT: Record<Exclude<Verdict, null>, { text: string; cls: string }> = {
  better: { text: '▲ preferred', cls: 'text-ok' },
  worse: { text: '▼ not preferred', cls: 'text-faint' },
  tie: { text: '= tie', cls: 'text-tie' },
  both_bad: { text: '✕ both bad', cls: 'text-bad' },
};

const NO_STEPS: ColumnSteps[] = [];

export const ResponseColumn = memo(function ResponseColumn({
  side,
  response,
  verdict,
  steps = NO_STEPS,
}: {
  side: Side;
  response: ResponseRecord | undefined;
  verdict: Verdict;
  /** Process models' per-step scores for this response, when pre-labels may be shown. */
  steps?: ColumnSteps[];
}) {
  const s = SIDE[side];
  const text = response ? contentText(response.content) : '';
  return (
    <article
      className={`flex min-h-0 min-w-0 flex-col border-line bg-surface ${side === 'left' ? 'wide:border-r' : 'border-t wide:border-t-0'}`}
      data-testid={`response-${side}`}
      aria-label={`${s.name} response (${s.letter})`}
    >
      <header
        className={`sticky top-0 z-10 flex items-center gap-2.5 border-b border-line px-4 py-1.5 ${verdict === 'better' ? `${s.soft} ${s.stripe}` : 'bg-surface'}`}
      >
        <span className={`flex h-5 w-5 items-center justify-center rounded ${verdict === 'better' ? 'bg-surface' : s.soft} ${s.text} text-[12px] font-bold`} aria-hidden>
          {s.letter}
        </span>
        <span className={`text-[13px] font-semibold ${s.text}`}>{s.name}</span>
        <span className="text-[12px] text-faint">key {s.key}</span>
        {verdict && <span className={`text-[12px] font-medium ${VERDICT[verdict].cls}`} data-testid={`verdict-${side}`}>{VERDICT[verdict].text}</span>}
        <span className="ml-auto text-[12px] tabular-nums text-faint" data-testid={`length-${side}`}>
          {text.length.toLocaleString()} chars · ~{approxTokens(text).toLocaleString()} tokens
        </span>
      </header>
      <StepChips rows={steps} side={side} />
      <div
        className="px-5 py-4 wide:min-h-0 wide:flex-1 wide:overflow-y-auto"
        data-testid={`response-body-${side}`}
      >
        {response ? <ContentView content={response.content} /> : <p className="text-muted">No response.</p>}
      </div>
    </article>
  );
});
