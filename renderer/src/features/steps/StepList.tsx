// The response as a numbered list of steps: the current one highlighted and kept in view, each with its
// rating chip, tags and correction; a rule under the first-error step, the steps after it greyed. Model
// scores, when they may be shown, sit beside each rating.
import { memo, useLayoutEffect, useRef, type RefObject } from 'react';
import { Markdown } from '../../components/Markdown';
import type { StepRating } from '../../../../shared/segment';
import { isAfterError, type Judgement } from './judgement';
import { firstErrorWords, sameFirstError, stepAgreement, type ModelSteps } from './modelSteps';
import { ModelStepChip } from './ModelStepChip';
import { RatingChip } from './RatingChip';
import { SourceStepChip } from './SourceSteps';
import { CorrectionBox, SplitView, TagPicker } from './StepEditors';
import { correctionText } from '../../../../shared/stepJudgement';

export type Mode = 'keys' | 'tags' | 'correct' | 'split';

interface Props {
  /** The item and response shown ("itemId:response"). */
  at: string;
  steps: string[];
  judgement: Judgement;
  cursor: number;
  mode: Mode;
  tags: string[];
  tagHighlight: number;
  splitAt: number | null;
  /** Process models' scores, only when they may be shown (assist, or blind once the chain is judged). */
  models: ModelSteps[];
  /** Blind mode after the reveal, or assist once rated: say whether each model agrees. */
  showAgreement: boolean;
  /** The file's own step ratings (`v`), when shown. */
  source: { ratings: (StepRating | null)[]; firstError: number | null } | null;
  scroller: RefObject<HTMLDivElement | null>;
  onPick(index: number): void;
  onToggleTag(tag: string): void;
  onCorrection(text: string): void;
}

/**
 * Keeps the current step in view: its top a little below the top of the list when it moves out of sight.
 * A new item or response (`at`) opens at the top on its first step, so nothing is measured then.
 */
function useKeepInView(scroller: RefObject<HTMLDivElement | null>, row: RefObject<HTMLLIElement | null>, key: unknown, at: string) {
  const shown = useRef(at);
  useLayoutEffect(() => {
    if (shown.current !== at) {
      shown.current = at;
      return;
    }
    const box = scroller.current;
    const el = row.current;
    if (!box || !el) return;
    const b = box.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    const margin = Math.min(96, b.height * 0.15);
    if (r.top < b.top + 8 || r.top > b.bottom - Math.min(r.height, b.height * 0.4) - 8) {
      const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
      box.scrollTo({ top: box.scrollTop + (r.top - b.top) - margin, behavior: reduced ? 'auto' : 'smooth' });
    }
  }, [key, at]);
}

export const StepList = memo(function StepList(props: Props) {
  const { steps, judgement, cursor, mode, models, showAgreement } = props;
  const current = useRef<HTMLLIElement>(null);
  useKeepInView(props.scroller, current, `${cursor}:${steps.length}:${judgement.version}:${mode}`, props.at);
  const aligned = models.filter((m) => m.aligned && m.steps);
  return (
    <ol className="mx-auto flex w-full max-w-[900px] flex-col py-2" data-testid="step-list" data-version={judgement.version} data-first-error={judgement.firstError ?? ''}>
      {steps.map((text, i) => {
        const isCurrent = i === cursor;
        const after = isAfterError(judgement, i);
        const isFirst = judgement.firstError === i;
        const tags = judgement.tags[String(i)] ?? [];
        const held = judgement.corrections[String(i)];
        const correction = held === undefined ? undefined : correctionText(held);
        const modelFirst = aligned.filter((m) => m.firstError === i).map((m) => m.model);
        return (
          <li key={`${judgement.version}:${i}`} ref={isCurrent ? current : undefined} className="scroll-mt-4" data-testid="step" data-index={i} data-current={isCurrent} data-after-error={after}>
            <div
              onMouseDown={() => props.onPick(i)}
              className={`relative flex gap-3 rounded-md px-3 py-3 ${isCurrent ? 'bg-accent-soft/60 shadow-[inset_3px_0_0_var(--accent)]' : 'hover:bg-surface-2/60'} ${after ? 'opacity-45' : ''}`}
            >
              <div className={`w-7 shrink-0 pt-[3px] text-right text-[13px] font-semibold tabular-nums ${isCurrent ? 'text-accent' : 'text-faint'}`} aria-label={`Step ${i + 1}`}>
                {i + 1}
              </div>
              <div className="min-w-0 flex-1">
                {isCurrent && mode === 'split' && props.splitAt !== null ? <SplitView text={text} at={props.splitAt} /> : <Markdown text={text} headings={false} />}
                {(tags.length > 0 || correction) && !(isCurrent && mode === 'correct') && (
                  <div className="mt-2 flex flex-col gap-1.5">
                    {tags.length > 0 && (
                      <div className="flex flex-wrap items-center gap-1" data-testid="step-tags">
                        {tags.map((t) => (
                          <span key={t} className="rounded border border-bad/30 bg-surface px-1.5 text-[12px] leading-[1.6] text-muted" data-testid="step-tag">
                            <span className="text-bad" aria-hidden>
                              ⚑
                            </span>{' '}
                            {t}
                          </span>
                        ))}
                      </div>
                    )}
                    {correction && (
                      <div className="max-w-[80ch] rounded-md border-l-[3px] border-ok bg-ok/5 py-1 pr-2 pl-2.5" data-testid="step-correction">
                        <div className="text-[11px] font-semibold tracking-wide text-ok uppercase">✎ Corrected</div>
                        <Markdown text={correction} className="text-[14.5px]" headings={false} />
                      </div>
                    )}
                  </div>
                )}
                {isCurrent && mode === 'tags' && <TagPicker tags={props.tags} chosen={tags} highlight={props.tagHighlight} onToggle={props.onToggleTag} />}
                {isCurrent && mode === 'correct' && <CorrectionBox initial={correction ?? text} onDone={props.onCorrection} />}
              </div>
              <div className="flex w-[9.5rem] shrink-0 flex-col items-end gap-1 pt-px">
                <RatingChip rating={judgement.ratings[i] ?? null} afterError={after} firstError={isFirst} />
                {props.source && <SourceStepChip rating={props.source.ratings[i] ?? null} afterError={props.source.firstError !== null && props.source.firstError >= 0 && i > props.source.firstError} />}
                {aligned.map((m) => (
                  <ModelStepChip key={m.model} model={m.model} p={m.steps![i] ?? null} agreement={showAgreement && !after ? stepAgreement(judgement.ratings[i] ?? null, m.steps![i] ?? null) : null} />
                ))}
                {modelFirst.length > 0 && (
                  <span className="text-[11.5px] font-medium whitespace-nowrap text-bad" data-testid="model-first-error-mark" title={`${modelFirst.join(', ')}: the first step scoring below 0.5`}>
                    ◆ model’s first error
                  </span>
                )}
              </div>
            </div>
            {isFirst && <FirstErrorRule index={i} total={steps.length} models={aligned} mine={judgement.firstError} />}
          </li>
        );
      })}
    </ol>
  );
});

function FirstErrorRule({ index, total, models, mine }: { index: number; total: number; models: ModelSteps[]; mine: number | null }) {
  const after = total - index - 1;
  return (
    <div className="mx-3 my-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 border-t-2 border-bad pt-1 text-[12px]" data-testid="first-error-rule">
      <span className="font-semibold text-bad">▲ First error: step {index + 1}</span>
      <span className="text-muted">{after ? `the ${after === 1 ? 'step' : `${after} steps`} below need${after === 1 ? 's' : ''} no rating` : 'the last step'}</span>
      {models.map((m) => (
        <span key={m.model} className="ml-auto whitespace-nowrap text-muted" data-testid="model-first-error">
          {m.model} predicts {firstErrorWords(m.firstError, true)}{' '}
          {sameFirstError(mine, m.firstError) ? <span className="text-ok">✓ same</span> : <span className="text-bad">✗ differs</span>}
        </span>
      ))}
    </div>
  );
}
