// The judge's step verification of one response on the step screen, beside the process models' step
// scores: the step it found to be the first error (or none), whether that is the annotator's, and its
// reason per step up to that one. Under the same blind / assist rules as the compare judge line
// (JudgeGate.tsx): blind shows it once the chain is judged (first error set, or every step rated).
import type { StepsAnswer } from '../../../../shared/judgeAnswers';
import { JudgeGate, JudgeSource, judgeLead } from './JudgeGate';
import { judgeOf, useItemJudges, type JudgeLoads } from './judgeLoads';

interface Props {
  loads: JudgeLoads;
  itemId: number | null;
  response: number;
  mode: 'blind' | 'assist';
  labeled: boolean;
  /** How many steps the screen shows (a judge that saw another cut is said to). */
  stepCount: number;
  /** The annotator's first error: null unset, < 0 none, else the step's index. */
  mine: number | null;
  noun: 'step' | 'turn';
}

const where = (noun: string, index: number | null) => (index === null ? 'none (every step correct)' : `${noun} ${index + 1}`);

export function StepsJudge({ loads, itemId, response, mode, labeled, stepCount, mine, noun }: Props) {
  const result = judgeOf(useItemJudges(loads, itemId), 'steps', response);
  if (itemId === null || !result) return null;
  return (
    <section className="border-b border-line px-4 py-3" data-testid="steps-judge">
      <h2 className="mb-1.5 text-[11px] font-semibold tracking-wide text-faint uppercase">Judge</h2>
      <JudgeGate result={result} mode={mode} labeled={labeled} until="once you have judged the chain (f, or every step rated)" compact>
        {(r) => {
          const steps = (r.answer as StepsAnswer).steps;
          const judged = r.firstError === null ? steps.length : r.firstError + 1;
          const same = mine === null ? null : mine < 0 ? r.firstError === null : mine === r.firstError;
          return (
            <div className="flex flex-col gap-1 text-[12.5px]">
              <span>
                <span className="text-faint">{judgeLead(mode)}</span> <span className="text-muted">first error:</span>{' '}
                <b className="font-semibold text-fg" data-testid="judge-first-error" data-value={r.firstError ?? 'none'}>
                  {where(noun, r.firstError)}
                </b>
                {same !== null && <span className={same ? 'text-ok' : 'text-bad'}>{same ? ' ✓ same as yours' : ` ✗ yours: ${mine! < 0 ? 'none' : `${noun} ${mine! + 1}`}`}</span>}
              </span>
              <JudgeSource result={r} />
              {judged > stepCount && <span className="text-faint">It judged {judged} {noun}s; the screen shows {stepCount} (cut another way since).</span>}
              <ol className="mt-0.5 flex flex-col gap-0.5" data-testid="judge-step-reasons">
                {steps.map((s, i) => (
                  <li key={i} className="flex gap-1.5" data-testid="judge-step-reason" data-correct={s.correct ? 'true' : 'false'}>
                    <span className={`shrink-0 tabular-nums ${s.correct ? 'text-ok' : 'text-bad'}`}>
                      {i + 1} {s.correct ? '✓' : '✗'}
                    </span>
                    <span className="min-w-0 whitespace-pre-wrap break-words text-muted">{s.reason}</span>
                  </li>
                ))}
              </ol>
            </div>
          );
        }}
      </JudgeGate>
    </section>
  );
}
