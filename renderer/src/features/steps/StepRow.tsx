// One step of the step list (a chain's step, or a trajectory's turn): its number, its body, its rating
// chip, tags and correction, the editors open on it, the model and file chips, and the first-error rule
// under it. Memoized: a key that rates one step redraws that step (and the one the cursor leaves), not all.
import { memo, type Ref } from 'react';
import { Markdown } from '../../components/Markdown';
import type { StepRating } from '../../../../shared/segment';
import { firstErrorWords, sameFirstError, stepAgreement, type ModelSteps } from './modelSteps';
import { ModelStepChip } from './ModelStepChip';
import { RatingChip } from './RatingChip';
import { SourceStepChip } from './SourceSteps';
import { CorrectionBox, SplitView, TagPicker } from './StepEditors';
import { TurnJudgement } from './TurnJudging';
import type { Mode } from './mode';
import { TurnCard } from '../trajectories/TurnCard';
import type { TurnView } from '../trajectories/turnModel';

export interface StepRowProps {
  index: number;
  total: number;
  text: string;
  /** A trajectory's turn: drawn as its card instead of the step's text as markdown. */
  turn?: TurnView;
  /** The turn's long results shown whole (`x`). */
  open?: boolean;
  onToggleFold?(index: number): void;
  /** "Turn" or "Step": how the number reads to a screen reader and in the first-error rule. */
  noun: string;
  isCurrent: boolean;
  /** The editor open on this step (only ever on the current one); 'keys' otherwise. */
  mode: Mode;
  after: boolean;
  isFirst: boolean;
  rating: StepRating | null;
  tags: string[];
  correction: string | undefined;
  allTags: string[];
  tagHighlight: number;
  /** What was typed in the tag picker. */
  tagFilter: string;
  splitAt: number | null;
  /** Process models whose steps line up with these, when their scores may be shown. */
  aligned: ModelSteps[];
  showAgreement: boolean;
  source: { rating: StepRating | null; afterError: boolean } | null;
  firstError: number | null;
  rowRef?: Ref<HTMLLIElement>;
  /** In a virtual list the row sits in the list's own positioned item. */
  inner?: boolean;
  onPick(index: number): void;
  onToggleTag(tag: string): void;
  onCorrection(text: string): void;
}

export const StepRow = memo(function StepRow(p: StepRowProps) {
  const { index: i, isCurrent, after, isFirst, tags, correction, mode, aligned } = p;
  const Tag = p.inner ? 'div' : 'li';
  const modelFirst = aligned.filter((m) => m.firstError === i).map((m) => m.model);
  return (
    <Tag ref={p.inner ? undefined : (p.rowRef as Ref<HTMLLIElement & HTMLDivElement>)} className="scroll-mt-4" data-testid="step" data-index={i} data-current={isCurrent} data-after-error={after}>
      <div
        onMouseDown={() => p.onPick(i)}
        className={`relative flex gap-3 rounded-md px-3 py-3 ${isCurrent ? 'bg-accent-soft/60 shadow-[inset_3px_0_0_var(--accent)]' : 'hover:bg-surface-2/60'} ${after ? 'opacity-45' : ''}`}
      >
        <div className={`w-7 shrink-0 pt-[3px] text-right text-[13px] font-semibold tabular-nums ${isCurrent ? 'text-accent' : 'text-faint'}`} aria-label={`${p.noun} ${i + 1}`}>
          {i + 1}
        </div>
        <div className="min-w-0 flex-1">
          {isCurrent && mode === 'split' && p.splitAt !== null ? <SplitView text={p.text} at={p.splitAt} /> : p.turn ? (
            <>
              <TurnCard view={p.turn} open={p.open ?? false} index={i} onToggle={p.onToggleFold} />
              <TurnJudgement index={i} />
            </>
          ) : (
            <Markdown text={p.text} headings={false} />
          )}
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
          {isCurrent && mode === 'tags' && <TagPicker tags={p.allTags} chosen={tags} filter={p.tagFilter} highlight={p.tagHighlight} onToggle={p.onToggleTag} />}
          {isCurrent && mode === 'correct' && <CorrectionBox initial={correction ?? p.text} onDone={p.onCorrection} />}
        </div>
        <div className="flex w-[9.5rem] shrink-0 flex-col items-end gap-1 pt-px">
          <RatingChip rating={p.rating} afterError={after} firstError={isFirst} />
          {p.source && <SourceStepChip rating={p.source.rating} afterError={p.source.afterError} />}
          {aligned.map((m) => (
            <ModelStepChip key={m.model} model={m.model} p={m.steps![i] ?? null} agreement={p.showAgreement && !after ? stepAgreement(p.rating, m.steps![i] ?? null) : null} />
          ))}
          {modelFirst.length > 0 && (
            <span className="text-[11.5px] font-medium whitespace-nowrap text-bad" data-testid="model-first-error-mark" title={`${modelFirst.join(', ')}: the first step scoring below 0.5`}>
              ◆ model’s first error
            </span>
          )}
        </div>
      </div>
      {isFirst && <FirstErrorRule index={i} total={p.total} noun={p.noun} models={aligned} mine={p.firstError} />}
    </Tag>
  );
});

function FirstErrorRule({ index, total, noun, models, mine }: { index: number; total: number; noun: string; models: ModelSteps[]; mine: number | null }) {
  const after = total - index - 1;
  const word = noun.toLowerCase();
  return (
    <div className="mx-3 my-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 border-t-2 border-bad pt-1 text-[12px]" data-testid="first-error-rule">
      <span className="font-semibold text-bad">
        ▲ First error: {word} {index + 1}
      </span>
      <span className="text-muted">{after ? `the ${after === 1 ? word : `${after} ${word}s`} below need${after === 1 ? 's' : ''} no rating` : `the last ${word}`}</span>
      {models.map((m) => (
        <span key={m.model} className="ml-auto whitespace-nowrap text-muted" data-testid="model-first-error">
          {m.model} predicts {firstErrorWords(m.firstError, true)}{' '}
          {sameFirstError(mine, m.firstError) ? <span className="text-ok">✓ same</span> : <span className="text-bad">✗ differs</span>}
        </span>
      ))}
    </div>
  );
}
