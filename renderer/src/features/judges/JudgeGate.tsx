// The one place the blind / assist rules of a judge's pre-label are applied, for every screen that shows
// one (compare's verdict, verdict's outcome, steps' first error, the rating sheet's scores): blind says a
// judge pre-label exists and shows it only once this annotator's own label is in; assist shows it up
// front. A result without an answer says so; a shown one names its model, template version and seed
// (the sha256 and sampling in its title). Model text is drawn as plain text only, never as HTML.
import type { ReactNode } from 'react';
import type { JudgeResultView } from '../../../../shared/api';

interface Props {
  result: JudgeResultView | undefined;
  mode: 'blind' | 'assist';
  /** This annotator's own label of what the judge judged is in (blind shows the judge only then). */
  labeled: boolean;
  /** What blind mode waits for, in words: "once you label", "once you rate it". */
  until?: string;
  /** The test ids' stem: `${testid}-hidden`, `${testid}-line`. */
  testid?: string;
  /** Drawn inline, smaller (a criterion's row) rather than as a line of its own. */
  compact?: boolean;
  children(result: JudgeResultView): ReactNode;
}

export function JudgeSource({ result }: { result: JudgeResultView }) {
  return (
    <span className="text-faint" title={`sha256 ${result.modelHash}; template v${result.templateVersion}; seed ${result.seed}; ${JSON.stringify(result.params)}`} data-testid="judge-source">
      {result.modelName} · template {result.templateVersion || 'built-in'} · seed {result.seed}
    </span>
  );
}

export function JudgeGate({ result, mode, labeled, until = 'once you label', testid = 'judge', compact = false, children }: Props) {
  if (!result) return null;
  const quiet = compact ? 'text-[11.5px] text-faint' : 'px-3 py-1 text-[12px] text-faint';
  if (mode === 'blind' && !labeled)
    return (
      <div className={quiet} data-testid={`${testid}-hidden`}>
        {compact ? `Judge: hidden until you rate it (blind).` : `A judge has a pre-label here; blind mode shows it ${until}.`}
      </div>
    );
  if (result.error || !result.answer)
    return (
      <div className={quiet} data-testid={`${testid}-line`} data-state="none">
        The judge gave no answer here ({result.error ?? 'none'}).
      </div>
    );
  return (
    <div
      className={compact ? 'text-[11.5px]' : 'border-t border-line bg-surface-2/40 px-3 py-1.5 text-[12.5px]'}
      data-testid={`${testid}-line`}
      data-flipped={result.flipped ? 'true' : 'false'}
    >
      {children(result)}
    </div>
  );
}

/** The line's lead words: "Judge:", or in blind mode why it shows now. */
export function judgeLead(mode: 'blind' | 'assist'): string {
  return mode === 'blind' ? 'Judge (shown because you labeled this item):' : 'Judge:';
}
