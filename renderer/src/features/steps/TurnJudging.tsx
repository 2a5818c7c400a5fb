// Judging a trajectory's turns beyond their ratings (issue 14): what the step rows and editors need to
// know of the turns (their tool calls and agents), given once by the screen through a context, and the
// line under a turn that shows its severity, its tool calls' verdicts (each with its key) and whether
// it decided the failure. A chain has no such context: none of this shows.
import { createContext, useContext, type ReactNode } from 'react';
import type { CorrectedCall } from '../../../../shared/stepJudgement';
import { argumentsText, parseArguments, type Turn } from '../../../../shared/trajectory';
import { Kbd } from '../../components/Kbd';
import { SEVERITY_WORDS, VERDICT_WORDS, type Judgement } from './judgement';

export interface TurnCallInfo {
  /** Its key in `tool_verdicts`: the call's id, else its position in the turn. */
  key: string;
  id: string | null;
  name: string;
  /** The arguments pretty-printed (as JSON where they are). */
  args: string;
}

export interface TurnInfo {
  calls: TurnCallInfo[];
  agent: string | null;
}

/** What the keys and editors know of a trajectory's turns; null for a chain (or steps that are no longer its turns). */
export function turnInfos(turns: readonly Turn[]): TurnInfo[] {
  return turns.map((t) => ({
    agent: t.agent,
    calls: t.calls.map((c, i) => {
      const parsed = parseArguments(c.arguments);
      return { key: c.id ?? String(i), id: c.id, name: c.name, args: parsed !== undefined && parsed !== null && typeof parsed === 'object' ? JSON.stringify(parsed, null, 2) : argumentsText(c.arguments) };
    }),
  }));
}

/** The distinct agents of a trajectory, in order of first turn. */
export function agentsOf(turns: readonly TurnInfo[]): string[] {
  return [...new Set(turns.map((t) => t.agent).filter((a): a is string => a !== null))];
}

export interface TurnJudging {
  turns: TurnInfo[];
  judgement: Judgement;
  cursor: number;
  /** The tag picker asks how bad the tag just applied is (1 minor, 2 major, 3 critical). */
  askSeverity: boolean;
  /** The corrected call editor closed: the calls to save, or why nothing was saved. */
  onCalls(result: { calls: CorrectedCall[] } | { cancelled: string }): void;
}

const Context = createContext<TurnJudging | null>(null);

export function TurnJudgingProvider({ value, children }: { value: TurnJudging | null; children: ReactNode }) {
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useTurnJudging(): TurnJudging | null {
  return useContext(Context);
}

const VERDICT_MARK = { correct: '✓', wrong: '✗', unnecessary: '∅' } as const;
const VERDICT_TONE = { correct: 'text-ok border-ok/40', wrong: 'text-bad border-bad/40', unnecessary: 'text-tie border-tie/40' } as const;
const SEVERITY_TONE = { minor: 'text-muted', major: 'text-bad', critical: 'text-white bg-bad border-bad dark:text-[#1a0a0d]' } as const;

/** Under a turn: its severity, its calls' verdicts (keys 1–9 on the current turn), and the attribution mark. */
export function TurnJudgement({ index }: { index: number }) {
  const judging = useTurnJudging();
  const turn = judging?.turns[index];
  if (!judging || !turn) return null;
  const { judgement: j } = judging;
  const key = String(index);
  const severity = j.severity[key];
  const verdicts = j.toolVerdicts[key] ?? {};
  const decided = j.attribution?.step === index;
  const current = judging.cursor === index;
  if (!severity && !decided && !(turn.calls.length && (current || Object.keys(verdicts).length))) return null;
  return (
    <div className="mt-1.5 flex flex-wrap items-center gap-1 text-[12px]" data-testid="turn-judgement">
      {severity && (
        <span className={`rounded border px-1.5 leading-[1.6] font-medium ${SEVERITY_TONE[severity]}`} data-testid="step-severity" data-severity={severity}>
          ▲ {SEVERITY_WORDS[severity]}
        </span>
      )}
      {turn.calls.map((call, n) => {
        const v = verdicts[call.key];
        return (
          <span
            key={call.key}
            className={`flex items-center gap-1 rounded border bg-surface px-1.5 leading-[1.6] ${v ? VERDICT_TONE[v] : 'border-line text-faint'}`}
            data-testid="call-verdict"
            data-call={call.key}
            data-verdict={v ?? ''}
            title={`${call.name}: press ${n + 1} on this turn to cycle correct / wrong / unnecessary`}
          >
            {current && n < 9 && <Kbd>{n + 1}</Kbd>}
            <span className="font-mono">{call.name}</span>
            <span>{v ? `${VERDICT_MARK[v]} ${VERDICT_WORDS[v]}` : 'no verdict'}</span>
          </span>
        );
      })}
      {decided && (
        <span className="rounded border border-bad/50 bg-bad-soft px-1.5 leading-[1.6] font-medium text-bad" data-testid="turn-attribution">
          ◎ decided the failure{j.attribution?.agent ? ` · ${j.attribution.agent}` : ''}
        </span>
      )}
    </div>
  );
}

/** In the tag picker after a tag is applied on a trajectory turn: how bad is it? */
export function SeverityPrompt({ chosen }: { chosen: string | undefined }) {
  return (
    <div className="flex flex-wrap items-center gap-1.5 border-t border-line px-2.5 py-1.5 text-[12.5px]" data-testid="severity-prompt" role="group" aria-label="Severity">
      <span className="text-muted">How bad?</span>
      {(['minor', 'major', 'critical'] as const).map((s, i) => (
        <span key={s} className={`flex items-center gap-1 rounded border px-1.5 ${chosen === s ? 'border-accent bg-accent-soft font-semibold text-accent' : 'border-line'}`}>
          <Kbd>{i + 1}</Kbd> {SEVERITY_WORDS[s]}
        </span>
      ))}
      <span className="text-faint">
        <Kbd>Enter</Kbd> skip · <Kbd>Esc</Kbd> done
      </span>
    </div>
  );
}
