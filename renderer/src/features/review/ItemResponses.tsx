// The item's responses side by side, in source order and named by their letters (A is the file's first
// response: the letters every label, export and chart use). For the steps task each response is its
// numbered steps, with the step each annotator marked as the first error and the lead's own mark.
import { memo } from 'react';
import type { AdjudicationLabel } from '../../../../shared/api';
import type { ResponseRecord } from '../../../../shared/domain';
import { ContentView } from '../../components/ContentView';
import { responseSizeLine } from '../../components/images/responseSize';
import { Markdown } from '../../components/Markdown';
import type { Draft } from './drafts';
import { TurnLabels } from './TurnLabels';
import { letter, stepWord } from './reviewWords';
import { plural } from '../../../../shared/plural';

function gridFor(n: number): string {
  if (n <= 1) return 'grid-cols-1 max-w-[980px]';
  if (n === 2 || n === 4) return 'grid-cols-1 wide:grid-cols-2';
  return 'grid-cols-1 wide:grid-cols-2 xl:grid-cols-3';
}

function ResponseHead({ response, extra }: { response: ResponseRecord; extra?: string }) {
  return (
    <header className="flex items-center gap-2 border-b border-line px-4 py-1.5 whitespace-nowrap">
      <span className="flex h-5 min-w-5 items-center justify-center rounded bg-surface-2 px-1 text-[12px] font-semibold ring-1 ring-line">{letter(response.index)}</span>
      {response.model && (
        <span className="truncate text-[12px] text-muted" title={response.model}>
          {response.model}
        </span>
      )}
      {extra && <span className="text-[12px] text-muted">{extra}</span>}
      <span className="ml-auto text-[12px] tabular-nums text-faint" data-testid={`adjudication-length-${letter(response.index)}`}>
        {responseSizeLine(response)}
      </span>
    </header>
  );
}

export const ItemResponses = memo(function ItemResponses({ responses }: { responses: ResponseRecord[] }) {
  return (
    <div className={`mx-auto grid w-full gap-3 ${gridFor(responses.length)}`} data-testid="adjudication-responses">
      {responses.map((r) => (
        <article key={r.index} className="min-w-0 overflow-hidden rounded-md border border-line bg-surface" data-testid={`adjudication-response-${letter(r.index)}`}>
          <ResponseHead response={r} />
          <div className="px-5 py-4">
            <ContentView content={r.content} place={r.index} />
          </div>
        </article>
      ))}
    </div>
  );
});

type StepsDraft = Extract<Draft, { task: 'steps' }>;

/** Marks of one step: who called it the first error, and each annotator's rating of it. */
function stepMarks(labels: AdjudicationLabel[], key: string, step: number) {
  const first = labels.filter((l) => l.firstError?.[key] === step).map((l) => l.annotator);
  const rated = labels
    .map((l): { who: string; v: number | null } => ({ who: l.annotator, v: l.steps?.[key]?.[step] ?? null }))
    .filter((r): r is { who: string; v: number } => r.v !== null);
  return { first, rated };
}

/** The lead's marks on a response in words: "you: first error at turn 7, outcome failure". */
function leadWords(firstError: number | undefined, outcome: string | undefined, trajectory: boolean): string | undefined {
  const parts = [firstError === undefined ? null : firstError < 0 ? 'no error' : `first error at ${stepWord(trajectory)} ${firstError + 1}`, outcome ? `outcome ${outcome}` : null].filter(Boolean);
  return parts.length ? `you: ${parts.join(', ')}` : undefined;
}

export function ItemSteps({ responses, stepsOf, labels, draft }: { responses: ResponseRecord[]; stepsOf(r: number): string[]; labels: AdjudicationLabel[]; draft: StepsDraft }) {
  // Trajectories get the width for one column per annotator beside each turn: one above the other.
  const grid = draft.trajectories.length ? 'grid-cols-1 max-w-[1800px]' : gridFor(responses.length);
  return (
    <div className={`mx-auto grid w-full gap-3 ${grid}`} data-testid="adjudication-responses">
      {responses.map((r) => {
        const key = letter(r.index);
        const steps = stepsOf(r.index);
        const current = draft.response === r.index;
        const lead = draft.firstError[key];
        const trajectory = draft.trajectories.includes(key);
        const noError = labels.filter((l) => l.firstError?.[key] === -1).map((l) => l.annotator);
        return (
          <article
            key={r.index}
            className={`min-w-0 overflow-hidden rounded-md border bg-surface ${current ? 'border-accent' : 'border-line'}`}
            data-testid={`adjudication-response-${key}`}
            data-current={current}
            data-trajectory={trajectory}
          >
            <ResponseHead response={r} extra={[trajectory ? `trajectory, ${plural(steps.length, 'turn')}` : null, leadWords(lead, draft.outcome[key], trajectory)].filter(Boolean).join(' · ') || undefined} />
            {noError.length > 0 && <div className="border-b border-line px-4 py-1 text-[12px] text-muted">No error, say {noError.join(', ')}</div>}
            {trajectory ? (
              <TurnLabels response={r} steps={steps} labels={labels} lead={{ firstError: lead, outcome: draft.outcome[key] }} cursor={current ? draft.step : null} />
            ) : (
              <ol className="flex flex-col">
                {steps.map((text, i) => {
                  const marks = stepMarks(labels, key, i);
                  const here = current && draft.step === i;
                  const after = lead !== undefined && lead >= 0 && i > lead;
                  return (
                    <li
                      key={i}
                      className={`flex gap-3 border-b border-line px-4 py-2 last:border-b-0 ${here ? 'bg-accent-soft shadow-[inset_3px_0_0_var(--accent)]' : ''} ${after ? 'opacity-55' : ''} ${lead === i ? 'border-b-2 border-b-bad' : ''}`}
                      data-testid="adjudication-step"
                      data-current={here}
                    >
                      <span className="w-6 shrink-0 pt-0.5 text-right text-[12px] text-faint tabular-nums">{i + 1}</span>
                      <div className="min-w-0 flex-1">
                        <Markdown text={text} />
                      </div>
                      <div className="flex shrink-0 flex-col items-end gap-0.5 pt-0.5 text-[11px]">
                        {marks.first.map((who) => (
                          <span key={who} className="rounded bg-bad-soft px-1 text-bad" title={`${who} marked this step as the first error`}>
                            ✕ {who}
                          </span>
                        ))}
                        {marks.rated.length > 0 && (
                          <span className="text-muted tabular-nums" title="Each annotator’s rating of this step">
                            {marks.rated.map((r) => `${r.who} ${r.v > 0 ? '+1' : r.v < 0 ? '−1' : '0'}`).join(' · ')}
                          </span>
                        )}
                      </div>
                    </li>
                  );
                })}
              </ol>
            )}
          </article>
        );
      })}
    </div>
  );
}
