// How model pre-labels look on the compare screen: one quiet line of votes (each with the side in
// words and an arrow, never colour alone), the ensemble's mean and spread, agreement with the
// annotator's choice, the assist suggestion, and per-step chips for process models.
import type { ReactNode } from 'react';
import type { Choice } from '../../../../shared/domain';
import type { ItemPrelabels, ModelPrelabel } from '../../../../shared/scoring';
import { Kbd } from '../../components/Kbd';
import { agreement, fmtP, pLeft, screenVote, type Agreement, type ScreenVote, type Suggestion } from '../../components/prelabels';

const SIDE: Record<ScreenVote, { icon: string; word: string; cls: string }> = {
  left: { icon: '◀', word: 'Left', cls: 'text-side-l' },
  right: { icon: '▶', word: 'Right', cls: 'text-side-r' },
  tie: { icon: '=', word: 'even', cls: 'text-tie' },
};

const AGREE: Record<Agreement, { mark: string; word: string; cls: string }> = {
  agrees: { mark: '✓', word: 'agrees', cls: 'text-ok' },
  disagrees: { mark: '✗', word: 'disagrees', cls: 'text-bad' },
  neutral: { mark: '–', word: 'neutral', cls: 'text-faint' },
};

function SideMark({ side, p }: { side: ScreenVote; p: number | null }) {
  const s = SIDE[side];
  return (
    <span className="whitespace-nowrap">
      <span className={`${s.cls} font-bold`} aria-hidden>
        {s.icon}
      </span>{' '}
      <span className="font-medium text-fg">{s.word}</span>
      {p !== null && <span className="tabular-nums text-muted"> {fmtP(p)}</span>}
    </span>
  );
}

/** P of the side a model voted for (for an even vote, P(left)). */
function votedP(model: ModelPrelabel, order: number[]): { side: ScreenVote; p: number } | null {
  if (model.pAB === null || model.vote === null) return null;
  const side = screenVote(model.vote, order);
  const left = pLeft(model.pAB, order);
  return { side, p: side === 'right' ? 1 - left : left };
}

function firstErrorWords(model: ModelPrelabel, order: number[]): string | null {
  if (model.kind !== 'process' || !model.firstError) return null;
  const at = (i: number | undefined) => {
    if (i === undefined) return '?';
    const steps = model.steps?.[i];
    if (!steps) return 'no score';
    const e = model.firstError![i];
    return e === null || e === undefined ? 'none' : `step ${e + 1}`;
  };
  return `first error: Left ${at(order[0])}, Right ${at(order[1])}`;
}

/**
 * One line: each model's vote, the ensemble, and (when the annotator has chosen) whether each model
 * agrees. `lead` names what the line is about.
 */
export function ModelVotes({
  pre,
  order,
  choice,
  lead,
  withSteps,
  testid = 'prelabel-line',
}: {
  pre: ItemPrelabels;
  order: number[];
  choice?: Choice | null;
  lead: ReactNode;
  withSteps?: boolean;
  testid?: string;
}) {
  const e = pre.ensemble;
  const voting = pre.models.filter((m) => m.pAB !== null);
  return (
    <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 text-[12.5px]" data-testid={testid}>
      <span className="text-muted">{lead}</span>
      {pre.models.map((m) => {
        const v = votedP(m, order);
        const a = choice !== undefined ? AGREE[agreement(choice, m.vote)] : null;
        const steps = withSteps ? firstErrorWords(m, order) : null;
        return (
          <span key={m.modelId} className="whitespace-nowrap" data-testid="model-vote" data-model={m.name} data-vote={v?.side ?? ''} data-agreement={a ? a.word : ''}>
            <span className="text-muted">{m.name}</span> {v ? <SideMark side={v.side} p={v.p} /> : <span className="text-faint">not scored on both</span>}
            {a && v && (
              <span className={`ml-1 ${a.cls}`}>
                <span aria-hidden>{a.mark}</span> {a.word}
              </span>
            )}
            {steps && <span className="text-faint"> · {steps}</span>}
          </span>
        );
      })}
      {e && voting.length > 1 && (
        <span className="whitespace-nowrap text-muted" data-testid="ensemble" title="Mean and spread (standard deviation) of the models' probability that this side is better">
          · {voting.length} models: P({ensembleLeft(pre, order) ? 'Left' : 'Right'}){' '}
          <span className="tabular-nums text-fg">{fmtP(ensembleLeft(pre, order) ? pLeft(e.mean, order) : 1 - pLeft(e.mean, order))}</span>{' '}
          <span className="tabular-nums">± {fmtP(e.spread)}</span>
          <span className="text-faint"> (votes {votesWords(pre, order)})</span>
        </span>
      )}
    </div>
  );
}

/** Whether the ensemble's mean leans left (its P is then said as P(Left), else as P(Right)). */
function ensembleLeft(pre: ItemPrelabels, order: number[]): boolean {
  return pLeft(pre.ensemble!.mean, order) >= 0.5;
}

function votesWords(pre: ItemPrelabels, order: number[]): string {
  const v = pre.ensemble!.votes;
  const leftIsA = order[0] === 0;
  const left = leftIsA ? v.A : v.B;
  const right = leftIsA ? v.B : v.A;
  return `${left} left, ${right} right${v.tie ? `, ${v.tie} even` : ''}`;
}

/** The assist suggestion on the decision bar, accepted with `a`. */
export function SuggestionButton({ suggestion: s, disabled, onAccept }: { suggestion: Suggestion; disabled: boolean; onAccept(): void }) {
  return (
    <button
      onClick={onAccept}
      disabled={disabled}
      className="flex h-8 items-center gap-2 rounded-md border border-dashed border-accent/60 bg-accent-soft/60 px-2.5 text-[13px] hover:bg-accent-soft disabled:opacity-50"
      title={`Accept the suggestion (a; Shift+A: much better).${s.models > 1 ? ` From ${s.models} models${s.split ? ', which split evenly, so their mean P decides' : ''}.` : ''}`}
      data-testid="accept-suggestion"
      data-choice={s.choice}
      data-screen={s.screen}
    >
      <Kbd>a</Kbd>
      <span className="text-muted">{s.split ? 'Mean favours' : 'Suggests'}</span>
      <SideMark side={s.screen} p={null} />
      <span className="tabular-nums text-muted">P {fmtP(s.p)}</span>
    </button>
  );
}

export interface ColumnSteps {
  model: string;
  steps: (number | null)[] | null;
  firstError: number | null;
}

/** A process model's per-step scores for one response: numbered chips, the first error ringed. */
export function StepChips({ rows, side }: { rows: ColumnSteps[]; side: 'left' | 'right' }) {
  if (!rows.length) return null;
  return (
    <div className="flex flex-col gap-1 border-b border-line bg-surface-2/50 px-4 py-1.5" data-testid={`steps-${side}`}>
      {rows.map((r) => (
        <div key={r.model} className="flex flex-wrap items-center gap-1 text-[12px]">
          <span className="mr-1 text-faint">{r.model}</span>
          {!r.steps ? (
            <span className="text-faint">not scored</span>
          ) : (
            <>
              {r.steps.map((p, i) => {
                const first = r.firstError === i;
                const good = p !== null && p >= 0.5;
                return (
                  <span
                    key={i}
                    className={`inline-flex items-center gap-1 rounded border px-1 leading-[1.5] tabular-nums ${
                      p === null ? 'border-line text-faint' : good ? 'border-ok/40 text-fg' : 'border-bad/50 bg-bad-soft text-fg'
                    } ${first ? 'ring-1 ring-bad' : ''}`}
                    title={p === null ? `Step ${i + 1}: cut by truncation, no score` : `Step ${i + 1}: P(step is good) ${fmtP(p)}`}
                    data-testid="step-chip"
                  >
                    <span className="text-faint">{i + 1}</span>
                    {p === null ? 'cut' : fmtP(p)}
                    {p !== null && (
                      <span className={good ? 'text-ok' : 'text-bad'} aria-hidden>
                        {good ? '✓' : '✗'}
                      </span>
                    )}
                  </span>
                );
              })}
              <span className={`ml-1 ${r.firstError !== null ? 'font-medium text-bad' : 'text-muted'}`} data-testid="first-error">
                {r.firstError !== null ? `first error: step ${r.firstError + 1}` : 'no step below 0.5'}
              </span>
            </>
          )}
        </div>
      ))}
    </div>
  );
}

/** Per screen column, the process models' steps for the response shown there. */
export function columnSteps(pre: ItemPrelabels | null, responseIndex: number | undefined): ColumnSteps[] {
  if (!pre || responseIndex === undefined) return [];
  return pre.models
    .filter((m) => m.kind === 'process' && m.steps)
    .map((m) => ({ model: m.name, steps: m.steps![responseIndex] ?? null, firstError: m.firstError?.[responseIndex] ?? null }));
}
