// Beside the steps: the prompt and the reference answer (they stay in view while the steps scroll),
// the chain's verdict kept apart from the process (outcome, finish reason, equivalent to the
// reference), and the process models' pre-labels, hidden (blind) or shown (assist).
import type { ReactNode } from 'react';
import { FINISH_REASONS, OUTCOMES, REFERENCE_MATCHES } from '../../../../shared/api';
import { TRAJECTORY_OUTCOMES } from '../../../../shared/stepJudgement';
import type { Content } from '../../../../shared/domain';
import { ContentView } from '../../components/ContentView';
import { Kbd } from '../../components/Kbd';
import { Markdown } from '../../components/Markdown';
import { derivedFinishReason, FINISH_WORDS, isAfterError, type Judgement, type Outcome } from './judgement';
import { firstErrorWords, sameFirstError, stepAgreement, type ModelSteps } from './modelSteps';
import { plural } from '../../../../shared/plural';
import { TaskView } from '../trajectories/TaskView';
import { ToolsSchema } from '../trajectories/ToolsSchema';

interface Props {
  prompt: Content;
  reference: string | null;
  judgement: Judgement;
  models: ModelSteps[];
  modelsVisible: boolean;
  mode: 'blind' | 'assist';
  prelabelError: string | null;
  /** A trajectory: `o` is the task's outcome (success / partial / failure), not a final answer. */
  trajectory?: boolean;
  /** The tools the trajectory was given, where its file listed them (shown folded under the task). */
  tools?: unknown[] | null;
  /** The outcome the file recorded (the `source` annotator's: a τ-bench reward, a verifier's result). */
  fileOutcome?: string | null;
  onOutcome(): void;
  onFinish(): void;
  onReference(): void;
  /** The judge's step verification (features/judges/StepsJudge.tsx), beside the process models. */
  judge?: ReactNode;
}

function Section({ title, children, testid, aside }: { title: string; children: ReactNode; testid?: string; aside?: ReactNode }) {
  return (
    <section className="border-b border-line px-4 py-3" data-testid={testid}>
      <h2 className="mb-1.5 flex items-center justify-between text-[11px] font-semibold tracking-wide text-faint uppercase">
        <span>{title}</span>
        {aside}
      </h2>
      {children}
    </section>
  );
}

/** A row of options, the chosen one marked with ● and a ring as well as colour; the key cycles them. */
function Options<T extends string>({ label, keyName, options, value, words, auto, onCycle, testid }: {
  label: string;
  keyName: string;
  options: readonly T[];
  value: T | null;
  words: (v: T) => string;
  auto?: T | null;
  onCycle(): void;
  testid: string;
}) {
  return (
    <div className="contents" data-testid={testid} data-value={value ?? ''}>
      <button className="flex items-center gap-1.5 self-start py-0.5 text-left text-[12.5px] whitespace-nowrap text-muted hover:text-fg" onClick={onCycle} title={`${label}: press ${keyName} to cycle`}>
        <Kbd>{keyName}</Kbd> {label}
      </button>
      <div className="flex flex-wrap items-center gap-1">
        {options.map((o) => {
          const on = value === o;
          const implied = value === null && auto === o;
          return (
            <span
              key={o}
              className={`rounded border px-1.5 text-[12.5px] leading-[1.6] whitespace-nowrap ${on ? 'border-accent/70 bg-accent-soft font-semibold text-accent' : implied ? 'border-dashed border-line-strong text-fg' : 'border-transparent text-faint'}`}
              title={implied ? 'Follows from the steps; press the key to choose another' : undefined}
            >
              {on ? '● ' : implied ? '○ ' : ''}
              {words(o)}
            </span>
          );
        })}
      </div>
    </div>
  );
}

const OUTCOME_SHORT: Record<Outcome, string> = { correct: 'correct', incorrect: 'incorrect', unsure: 'unsure', success: 'success', partial: 'partial', failure: 'failure' };

export function ContextPanel(props: Props) {
  const { judgement: j, models, modelsVisible } = props;
  return (
    <>
      <Section title={props.trajectory ? 'Task' : 'Prompt'} testid="steps-prompt">
        <div className="text-[15px]">{props.trajectory ? <TaskView prompt={props.prompt} /> : <ContentView content={props.prompt} />}</div>
        {props.tools && (
          <div className="mt-2">
            <ToolsSchema tools={props.tools} />
          </div>
        )}
      </Section>
      {props.reference !== null && (
        <Section title={props.trajectory ? 'Expected outcome' : 'Reference answer'} testid="steps-reference">
          <div className="rounded-md border border-line bg-surface-2/60 px-3 py-2">
            <Markdown text={props.reference} />
          </div>
        </Section>
      )}
      <Section title={props.trajectory ? 'The task’s result' : 'The chain’s result'} testid="steps-verdict">
        <div className="grid grid-cols-[auto_1fr] items-start gap-x-3 gap-y-1">
        {props.trajectory ? (
          <Options label="Task outcome" keyName="o" options={TRAJECTORY_OUTCOMES} value={j.outcome !== null && (TRAJECTORY_OUTCOMES as readonly string[]).includes(j.outcome) ? (j.outcome as (typeof TRAJECTORY_OUTCOMES)[number]) : null} words={(o) => OUTCOME_SHORT[o]} onCycle={props.onOutcome} testid="steps-outcome" />
        ) : (
          <Options label="Final answer" keyName="o" options={OUTCOMES} value={j.outcome !== null && (OUTCOMES as readonly string[]).includes(j.outcome) ? (j.outcome as (typeof OUTCOMES)[number]) : null} words={(o) => OUTCOME_SHORT[o]} onCycle={props.onOutcome} testid="steps-outcome" />
        )}
        {props.fileOutcome && (
          <>
            <span className="py-0.5 text-[12.5px] whitespace-nowrap text-muted">The file says</span>
            <span className="text-[12.5px]" data-testid="steps-file-outcome" data-value={props.fileOutcome} title="The outcome the imported file recorded (its own reward or verifier): shown, never taken as yours">
              <span className="rounded border border-dashed border-line-strong px-1.5 leading-[1.6]">{OUTCOME_SHORT[props.fileOutcome as Outcome] ?? props.fileOutcome}</span>
            </span>
          </>
        )}
        <Options
          label="Finish"
          keyName="e"
          options={FINISH_REASONS}
          value={j.finishReason}
          auto={derivedFinishReason(j)}
          words={(o) => FINISH_WORDS[o]}
          onCycle={props.onFinish}
          testid="steps-finish"
        />
        {props.reference !== null && (
          <Options label="Matches reference" keyName="r" options={REFERENCE_MATCHES} value={j.referenceMatch} words={(o) => o} onCycle={props.onReference} testid="steps-reference-match" />
        )}
        </div>
        <p className="mt-1 text-[11.5px] text-faint">
          {props.trajectory
            ? 'The task’s outcome is judged apart from the turns: an agent can finish the task after a wrong turn, or fail it with every turn sound.'
            : 'The final answer is judged apart from the steps: a chain can reach the right answer through a wrong step.'}
        </p>
      </Section>
      <ModelSection {...props} models={models} visible={modelsVisible} judgement={j} />
      {props.judge}
    </>
  );
}

function ModelSection({ models, visible, judgement: j, mode, prelabelError }: { models: ModelSteps[]; visible: boolean; judgement: Judgement; mode: 'blind' | 'assist'; prelabelError: string | null }) {
  const scored = models.filter((m) => m.steps);
  if (prelabelError) return <Section title="Process model">{<p className="text-[12.5px] text-bad">Pre-labels could not be read: {prelabelError}</p>}</Section>;
  if (!scored.length) return null;
  return (
    <Section title="Process model" testid="steps-models" aside={<span className="font-normal tracking-normal normal-case">{mode === 'blind' ? '◌ blind' : '◉ assist'}</span>}>
      {!visible ? (
        <p className="text-[12.5px] text-muted" data-testid="models-hidden">
          Hidden until you set the first error (<Kbd>f</Kbd>) or rate every step, so it does not anchor you. <Kbd>b</Kbd> switches the project to assist.
        </p>
      ) : (
        <ul className="flex flex-col gap-1.5 text-[12.5px]" data-testid="models-shown">
          {scored.map((m) => {
            const rated = m.aligned ? m.steps!.map((p, i) => (isAfterError(j, i) ? 'neutral' : stepAgreement(j.ratings[i] ?? null, p))) : [];
            const agree = rated.filter((a) => a === 'agrees').length;
            const judged = rated.filter((a) => a !== 'neutral').length;
            return (
              <li key={m.model} className="flex flex-col gap-0.5" data-testid="model-summary" data-model={m.model}>
                <span>
                  <span className="font-medium text-fg">{m.model}</span> <span className="text-muted">predicts first error:</span>{' '}
                  <b className="font-semibold text-fg" data-testid="model-predicted-first-error">
                    {m.aligned ? firstErrorWords(m.firstError, true) : `its step ${m.firstError === null ? '—' : m.firstError + 1}`}
                  </b>
                  {j.firstError !== null && m.aligned && (
                    <span className={sameFirstError(j.firstError, m.firstError) ? 'text-ok' : 'text-bad'}>
                      {' '}
                      {sameFirstError(j.firstError, m.firstError) ? '✓ same as yours' : `✗ yours: ${j.firstError < 0 ? 'none' : `step ${j.firstError + 1}`}`}
                    </span>
                  )}
                </span>
                {m.aligned ? (
                  judged > 0 && <span className="text-muted">agrees with {agree} of your {judged} ±1 ratings</span>
                ) : (
                  <span className="text-faint">It scored {plural(m.steps!.length, 'step')} cut its own way; the screen shows a different cut, so its scores are not matched step by step.</span>
                )}
              </li>
            );
          })}
          {mode === 'assist' && (
            <li className="text-muted">
              <Kbd>a</Kbd> takes its ratings: +1 up to its first error, that step the first error.
            </li>
          )}
        </ul>
      )}
    </Section>
  );
}
