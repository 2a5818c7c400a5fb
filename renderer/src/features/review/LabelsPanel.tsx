// What everyone said about the item: each annotator's current label (choice in A / B terms, strength,
// rationale, time, whether the model's pre-label was in view), the models' rewards and P(A better), and
// the lead's earlier adjudication when there is one.
import type { AdjudicationLabel, AdjudicationView, ReviewTask } from '../../../../shared/api';
import { choiceWords, durationWords, letter, rankingWords, stepWord, whenWords } from './reviewWords';

const STRENGTH_WORD: Record<number, string> = { 1: 'slightly', 2: 'clearly', 3: 'much' };

/** Strength as three pips and its number: quicker to compare down a column than words. */
function StrengthMeter({ strength }: { strength: number | null }) {
  if (!strength) return <span className="text-faint">—</span>;
  return (
    <span className="inline-flex items-center gap-1.5" title={`Strength ${strength} of 3: ${STRENGTH_WORD[strength] ?? ''}`}>
      <span className="inline-flex gap-0.5" aria-hidden>
        {[1, 2, 3].map((i) => (
          <span key={i} className={`h-2 w-2 rounded-full ${i <= strength ? 'bg-fg/70' : 'bg-surface-2 ring-1 ring-line-strong'}`} />
        ))}
      </span>
      <span className="text-[12px] text-muted tabular-nums">{strength}/3</span>
    </span>
  );
}

/**
 * A label's judgement in words, by task: for steps, per response its first error ("turn 7" on a
 * trajectory, whose `trajectories` letters say) and its outcome.
 */
export function judgementWords(
  task: ReviewTask,
  label: { choice: string | null; strength: number | null; ranking: number[][] | null; firstError?: Record<string, number | null> | null; outcome?: Record<string, string> | null },
  trajectories: string[] = [],
): string {
  if (task === 'ranking') return rankingWords(label.ranking);
  if (task === 'steps') {
    const keys = [...new Set([...Object.keys(label.firstError ?? {}), ...Object.keys(label.outcome ?? {})])].sort();
    const parts = keys
      .map((key) => {
        const v = label.firstError?.[key];
        const words = [v === null || v === undefined ? null : v < 0 ? 'no error' : `first error at ${stepWord(trajectories.includes(key))} ${v + 1}`, label.outcome?.[key] ?? null].filter(Boolean);
        return words.length ? `${key}: ${words.join(', ')}` : null;
      })
      .filter(Boolean);
    return parts.join(' · ') || 'steps rated, no first error marked';
  }
  return choiceWords(label.choice, label.strength);
}

const CHOICE_TONE: Record<string, string> = { A: 'text-fg', B: 'text-fg', tie: 'text-tie', both_bad: 'text-bad', good: 'text-ok', bad: 'text-bad' };

function StepRatings({ steps, trajectories }: { steps: NonNullable<AdjudicationLabel['steps']>; trajectories: string[] }) {
  const turns = Object.keys(steps).some((key) => trajectories.includes(key));
  const mark = (v: number | null) => (v === null ? '·' : v > 0 ? '+' : v < 0 ? '−' : '0');
  return (
    <span className="text-[12px] text-muted" title={`${turns ? 'Turn' : 'Step'} ratings, ${turns ? 'turn' : 'step'} 1 first: + good, 0 neutral, − bad, · not rated`}>
      <span className="text-faint">{turns ? 'turn' : 'step'} ratings </span>
      <span className="font-mono">
        {Object.entries(steps)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([key, list]) => `${key}: ${list.map(mark).join(' ')}`)
          .join('   ')}
      </span>
    </span>
  );
}

function Ratings({ ratings }: { ratings: NonNullable<AdjudicationLabel['ratings']> }) {
  return (
    <span className="text-[12px] text-muted">
      {Object.entries(ratings)
        .map(([response, values]) => `${response}: ${Object.entries(values).map(([k, v]) => `${k} ${v ?? '—'}`).join(', ')}`)
        .join(' · ')}
    </span>
  );
}

export function LabelsTable({ view, trajectories = [] }: { view: AdjudicationView; trajectories?: string[] }) {
  const pairwise = view.task === 'pairwise';
  return (
    <section className="min-w-0 overflow-hidden rounded-md border border-line bg-surface" data-testid="adjudication-labels">
      <h3 className="border-b border-line px-3 py-1.5 text-[11px] font-semibold tracking-wide text-faint uppercase">
        Labels <span className="font-normal normal-case">· {view.labels.length}</span>
      </h3>
      {view.labels.length === 0 ? (
        <p className="px-3 py-3 text-[13px] text-muted">No one has a current label of this kind on this item.</p>
      ) : (
        <table className="w-full border-collapse text-[13px]">
          <thead>
            <tr className="text-left text-[11px] text-faint">
              <th className="px-3 py-1 font-medium">Annotator</th>
              <th className="px-2 py-1 font-medium whitespace-nowrap">{pairwise ? 'Choice' : view.task === 'verdict' ? 'Verdict' : view.task === 'ranking' ? 'Order, best first' : 'First error'}</th>
              {pairwise && <th className="px-2 py-1 font-medium">Strength</th>}
              <th className="w-full px-2 py-1 font-medium">Rationale</th>
              <th className="px-2 py-1 text-right font-medium">Time</th>
              <th className="px-2 py-1 font-medium whitespace-nowrap" title="Whether the model’s pre-label was in view when the label was made (assist mode)">Pre-label</th>
              <th className="px-3 py-1 font-medium">Saved</th>
            </tr>
          </thead>
          <tbody>
            {view.labels.map((label) => (
              <tr key={label.annotator} className="border-t border-line align-top" data-testid="adjudication-label" data-annotator={label.annotator} data-choice={label.choice ?? ''}>
                <td className="px-3 py-1.5 font-medium whitespace-nowrap">{label.annotator}</td>
                <td className={`px-2 py-1.5 font-medium whitespace-nowrap ${CHOICE_TONE[label.choice ?? ''] ?? ''}`}>{judgementWords(view.task, label, trajectories)}</td>
                {pairwise && (
                  <td className="px-2 py-1.5 whitespace-nowrap">
                    <StrengthMeter strength={label.strength} />
                  </td>
                )}
                <td className="px-2 py-1.5">
                  {label.rationale ? <span className="whitespace-pre-wrap">{label.rationale}</span> : <span className="text-faint">—</span>}
                  {label.steps && view.task === 'steps' && (
                    <div>
                      <StepRatings steps={label.steps} trajectories={trajectories} />
                    </div>
                  )}
                  {label.ratings && Object.keys(label.ratings).length > 0 && (
                    <div>
                      <Ratings ratings={label.ratings} />
                    </div>
                  )}
                </td>
                <td className="px-2 py-1.5 text-right whitespace-nowrap text-muted tabular-nums">{durationWords(label.timeMs)}</td>
                <td className="px-2 py-1.5 whitespace-nowrap text-muted">{label.prelabelVisible === null ? '—' : label.prelabelVisible ? 'visible' : 'hidden'}</td>
                <td className="px-3 py-1.5 whitespace-nowrap text-faint">{whenWords(label.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ModelsTable({ view }: { view: AdjudicationView }) {
  const responses = Math.max(0, ...view.models.map((m) => m.rewards.length));
  return (
    <section className="overflow-hidden rounded-md border border-line bg-surface" data-testid="adjudication-models">
      <h3 className="border-b border-line px-3 py-1.5 text-[11px] font-semibold tracking-wide text-faint uppercase">Models</h3>
      {view.models.length === 0 ? (
        <p className="px-3 py-2.5 text-[13px] text-muted">No model has scored this item. Score the project on the Models screen (m).</p>
      ) : (
        <table className="w-full border-collapse text-[13px] tabular-nums">
          <thead>
            <tr className="text-left text-[11px] text-faint">
              <th className="px-3 py-1 font-medium">Model</th>
              {Array.from({ length: responses }, (_, i) => (
                <th key={i} className="px-2 py-1 text-right font-medium">
                  reward {letter(i)}
                </th>
              ))}
              {view.task === 'pairwise' && <th className="px-3 py-1 text-right font-medium">P(A better)</th>}
            </tr>
          </thead>
          <tbody>
            {view.models.map((m) => (
              <tr key={m.model} className="border-t border-line">
                <td className="max-w-[16ch] truncate px-3 py-1" title={m.model}>
                  {m.model}
                </td>
                {Array.from({ length: responses }, (_, i) => (
                  <td key={i} className="px-2 py-1 text-right text-muted">
                    {m.rewards[i] == null ? '—' : m.rewards[i]!.toFixed(2)}
                  </td>
                ))}
                {view.task === 'pairwise' && (
                  <td className="px-3 py-1 text-right font-medium" data-testid="adjudication-model-pa">
                    {m.pA === null ? '—' : `${m.pA.toFixed(2)} → ${m.pA > 0.5 ? 'A' : m.pA < 0.5 ? 'B' : 'even'}`}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function EarlierAdjudication({ view, trajectories = [] }: { view: AdjudicationView; trajectories?: string[] }) {
  const a = view.adjudication;
  if (!a) return null;
  const firstError = a.body.first_error ?? null;
  const outcome = a.body.outcome ?? null;
  const verdict = view.task === 'verdict' ? a.choice : null;
  return (
    <section className="rounded-md border border-ok/40 bg-surface px-3 py-2 text-[13px]" data-testid="adjudication-earlier">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium text-ok">✓ Adjudicated</span>
        <span className="font-medium">{verdict ?? judgementWords(view.task, { choice: a.choice, strength: a.strength, ranking: a.ranking, firstError, outcome }, trajectories)}</span>
        <span className="text-muted">
          by {a.by}, {whenWords(a.createdAt)}
        </span>
      </div>
      {a.note && <p className="mt-1 whitespace-pre-wrap text-muted">{a.note}</p>}
      <p className="mt-1 text-[12px] text-faint">Recording again replaces it as the item’s gold label; both stay in the history.</p>
    </section>
  );
}
