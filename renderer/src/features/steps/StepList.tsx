// The response as a numbered list of steps: the current one highlighted and kept in view, each with its
// rating chip, tags and correction; a rule under the first-error step, the steps after it greyed. Model
// scores, when they may be shown, sit beside each rating. A trajectory's steps are its turns, drawn as
// turn cards in a virtual list (features/trajectories), so 200 turns cost what the visible ones do.
import { memo, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import type { StepRating } from '../../../../shared/segment';
import { isAfterError, type Judgement } from './judgement';
import type { ModelSteps } from './modelSteps';
import { StepRow, type StepRowProps } from './StepRow';
import { correctionText } from '../../../../shared/stepJudgement';
import { TurnRows } from './TurnRows';
import type { TrajectoryView } from '../trajectories/turnModel';
import type { Mode } from './mode';

interface Props {
  /** The item and response shown ("itemId:response"). */
  at: string;
  steps: string[];
  judgement: Judgement;
  cursor: number;
  mode: Mode;
  tags: string[];
  tagHighlight: number;
  tagFilter: string;
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
  /** The response's turns, when it is a trajectory: each step is drawn as its turn's card, in a virtual list. */
  trajectory?: TrajectoryView | null;
  /** Turns whose long results are shown whole (`x`). */
  unfolded?: ReadonlySet<number>;
  onToggleFold?(index: number): void;
}

/**
 * Keeps the current step in view: its top a little below the top of the list when it moves out of sight.
 * A new item or response (`at`) opens at the top on its first step, so nothing is measured then.
 */
export function useKeepInView(scroller: RefObject<HTMLDivElement | null>, row: RefObject<HTMLLIElement | null>, key: unknown, at: string, on = true) {
  const shown = useRef(at);
  useLayoutEffect(() => {
    if (!on) return;
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
  const turns = props.trajectory && props.trajectory.turns.length === steps.length ? props.trajectory : null;
  useKeepInView(props.scroller, current, `${cursor}:${steps.length}:${judgement.version}:${mode}`, props.at, !turns);
  const aligned = useMemo(() => models.filter((m) => m.aligned && m.steps), [models]);
  // The screen's callbacks change on every render; the rows get stable ones, so memo keeps them.
  const latest = useRef(props);
  latest.current = props;
  const handlers = useMemo(
    () => ({
      onPick: (i: number) => latest.current.onPick(i),
      onToggleTag: (tag: string) => latest.current.onToggleTag(tag),
      onCorrection: (text: string) => latest.current.onCorrection(text),
      onToggleFold: (i: number) => latest.current.onToggleFold?.(i),
    }),
    [],
  );
  const row = (i: number, extra: Partial<StepRowProps> = {}): StepRowProps => {
    const isCurrent = i === cursor;
    const held = judgement.corrections[String(i)];
    const source = props.source;
    return {
      index: i,
      total: steps.length,
      text: steps[i] ?? '',
      noun: turns ? 'Turn' : 'Step',
      isCurrent,
      mode: isCurrent ? mode : 'keys',
      after: isAfterError(judgement, i),
      isFirst: judgement.firstError === i,
      firstError: judgement.firstError === i ? judgement.firstError : null,
      rating: judgement.ratings[i] ?? null,
      tags: judgement.tags[String(i)] ?? NO_TAGS,
      correction: held === undefined ? undefined : correctionText(held),
      allTags: props.tags,
      tagHighlight: isCurrent ? props.tagHighlight : 0,
      tagFilter: isCurrent ? props.tagFilter : '',
      splitAt: isCurrent ? props.splitAt : null,
      aligned,
      showAgreement,
      source: source ? { rating: source.ratings[i] ?? null, afterError: source.firstError !== null && source.firstError >= 0 && i > source.firstError } : null,
      rowRef: isCurrent ? current : undefined,
      onPick: handlers.onPick,
      onToggleTag: handlers.onToggleTag,
      onCorrection: handlers.onCorrection,
      ...extra,
    };
  };
  if (turns)
    return <TurnRows at={props.at} view={turns} cursor={cursor} version={judgement.version} firstError={judgement.firstError} mode={mode} scroller={props.scroller} unfolded={props.unfolded ?? NO_UNFOLDED} onToggleFold={handlers.onToggleFold} row={row} />;
  return (
    <ol className="mx-auto flex w-full max-w-[900px] flex-col py-2" data-testid="step-list" data-version={judgement.version} data-first-error={judgement.firstError ?? ''} data-cursor={cursor}>
      {steps.map((_, i) => (
        <StepRow key={`${judgement.version}:${i}`} {...row(i)} />
      ))}
    </ol>
  );
});

const NO_TAGS: string[] = [];
const NO_UNFOLDED: ReadonlySet<number> = new Set();
