// An agent trajectory for the lead, turn by turn, with every annotator's turn labels side by side: one
// column per person, and per turn each one's rating, first error mark, error tags with their severity,
// tool call verdicts and corrected action; each person's task outcome above, the lead's own marks (first
// error turn, outcome) beside them. The lead resolves with the steps keys (j / k, f, o) and 1 / 2 / 3.
import { memo, useCallback, useMemo, useState } from 'react';
import type { AdjudicationLabel } from '../../../../shared/api';
import type { ResponseRecord } from '../../../../shared/domain';
import { correctionText } from '../../../../shared/stepJudgement';
import { isTrajectory } from '../../../../shared/trajectory';
import { Markdown } from '../../components/Markdown';
import { TurnCard } from '../trajectories/TurnCard';
import { trajectoryView } from '../trajectories/turnModel';
import { letter } from './reviewWords';

const RATING: Record<string, { text: string; cls: string; word: string }> = {
  '1': { text: '+1', cls: 'text-ok', word: 'good' },
  '0': { text: '0', cls: 'text-muted', word: 'neutral' },
  '-1': { text: '−1', cls: 'text-bad', word: 'bad' },
};

const OUTCOME_TONE: Record<string, string> = { success: 'text-ok', correct: 'text-ok', partial: 'text-tie', unsure: 'text-tie', failure: 'text-bad', incorrect: 'text-bad' };

function Outcome({ value }: { value: string | undefined }) {
  if (!value) return <span className="text-faint">no outcome</span>;
  return <span className={`font-medium ${OUTCOME_TONE[value] ?? ''}`}>{value}</span>;
}

/** One person's labels of one turn. */
const TurnCell = memo(function TurnCell({ label, keyLetter, turn }: { label: AdjudicationLabel; keyLetter: string; turn: number }) {
  const at = String(turn);
  const rating = label.steps?.[keyLetter]?.[turn];
  const first = label.firstError?.[keyLetter] === turn;
  const tags = label.stepTags?.[keyLetter]?.[at] ?? [];
  const severity = label.stepSeverity?.[keyLetter]?.[at];
  const verdicts = Object.entries(label.toolVerdicts?.[keyLetter]?.[at] ?? {});
  const correction = label.corrections?.[keyLetter]?.[at];
  const after = (label.firstError?.[keyLetter] ?? -1) >= 0 && turn > label.firstError![keyLetter]!;
  const r = rating === null || rating === undefined ? null : RATING[String(rating)];
  return (
    <td className={`border-l border-line px-2 py-1.5 align-top text-[12px] ${first ? 'bg-bad-soft' : ''}`} data-testid="turn-label" data-annotator={label.annotator} data-turn={turn + 1}>
      <div className="flex flex-wrap items-baseline gap-x-1.5">
        {r ? (
          <span className={`font-semibold tabular-nums ${r.cls}`} title={`${label.annotator}: ${r.word}`} data-testid="turn-label-rating">
            {r.text}
          </span>
        ) : (
          <span className="text-faint" title={after ? 'after this person’s first error: not rated' : 'not rated'}>
            ·
          </span>
        )}
        {first && (
          <span className="font-medium text-bad" data-testid="turn-label-first-error">
            ✕ first error
          </span>
        )}
      </div>
      {tags.length > 0 && (
        <div className="mt-0.5 flex flex-wrap gap-1" data-testid="turn-label-tags">
          {tags.map((tag) => (
            <span key={tag} className="rounded border border-bad/30 px-1 text-[11.5px] text-bad">
              {tag}
            </span>
          ))}
          {severity && (
            <span className="text-[11.5px] font-medium text-muted" title="Severity of this turn’s error" data-testid="turn-label-severity">
              {severity}
            </span>
          )}
        </div>
      )}
      {verdicts.length > 0 && (
        <div className="mt-0.5 text-[11.5px] text-muted" title="Verdict per tool call (by the call’s id)">
          {verdicts.map(([call, v]) => `${call}: ${v}`).join(' · ')}
        </div>
      )}
      {correction !== undefined && (
        <div className="mt-0.5" data-testid="turn-label-correction">
          <span className="text-[11.5px] text-faint">corrected: </span>
          <code className="font-mono text-[11.5px] break-words whitespace-pre-wrap">{correctionText(correction)}</code>
        </div>
      )}
    </td>
  );
});

interface Props {
  response: ResponseRecord;
  steps: string[];
  labels: AdjudicationLabel[];
  /** The lead's draft for this response: the first error turn (−1: none) and the outcome. */
  lead: { firstError: number | undefined; outcome: string | undefined };
  /** The turn under the cursor, or null when the cursor is on another response. */
  cursor: number | null;
}

export function TurnLabels({ response, steps, labels, lead, cursor }: Props) {
  const key = letter(response.index);
  const people = labels.filter((l) => l.steps?.[key] || l.firstError?.[key] !== undefined || l.outcome?.[key]);
  // Each turn as the step screen draws it (kinds, calls, folded results), while the steps are the turns.
  const view = useMemo(() => (isTrajectory(response.content) ? trajectoryView(response.content) : null), [response.content]);
  const cards = view && view.turns.length === steps.length ? view.turns : null;
  const [unfolded, setUnfolded] = useState<ReadonlySet<number>>(new Set());
  const toggle = useCallback((i: number) => setUnfolded((open) => (open.has(i) ? new Set([...open].filter((x) => x !== i)) : new Set([...open, i]))), []);
  return (
    <div className="overflow-x-auto" data-testid="turn-labels" data-response={key}>
      <table className="w-full border-collapse text-[13px]">
        <thead>
          <tr className="border-b border-line bg-surface-2 text-left text-[11px] text-faint">
            <th className="w-8 px-2 py-1 text-right font-medium">#</th>
            <th className="min-w-[22rem] px-2 py-1 font-medium">Turn</th>
            {people.map((l) => (
              <th key={l.annotator} className="min-w-[11rem] border-l border-line px-2 py-1 font-medium" data-testid="turn-labels-person" data-annotator={l.annotator}>
                <div className="text-[12px] text-fg">{l.annotator}</div>
                <div className="font-normal normal-case" data-testid="turn-labels-outcome">
                  outcome <Outcome value={l.outcome?.[key]} />
                  {l.attribution?.[key] && (
                    <span className="ml-1" title="Who and which turn decided the failure">
                      · decided by {l.attribution[key].agent ? `${l.attribution[key].agent} at ` : ''}turn {l.attribution[key].step + 1}
                    </span>
                  )}
                </div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {steps.map((text, i) => {
            const here = cursor === i;
            const after = lead.firstError !== undefined && lead.firstError >= 0 && i > lead.firstError;
            return (
              <tr
                key={i}
                className={`border-b border-line align-top last:border-b-0 ${here ? 'bg-accent-soft shadow-[inset_3px_0_0_var(--accent)]' : ''} ${after ? 'opacity-55' : ''} ${lead.firstError === i ? 'border-b-2 border-b-bad' : ''}`}
                data-testid="adjudication-step"
                data-current={here}
                data-turn={i + 1}
              >
                <td className="px-2 py-1.5 text-right text-[12px] text-faint tabular-nums">{i + 1}</td>
                <td className="px-2 py-1.5">
                  {cards ? (
                    <TurnCard view={cards[i]!} open={unfolded.has(i)} index={i} onToggle={toggle} compact />
                  ) : (
                    <div className="max-h-[14rem] overflow-y-auto">
                      <Markdown text={text} />
                    </div>
                  )}
                  {lead.firstError === i && <div className="mt-1 text-[12px] font-medium text-bad">you: first error here</div>}
                </td>
                {people.map((l) => (
                  <TurnCell key={l.annotator} label={l} keyLetter={key} turn={i} />
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
