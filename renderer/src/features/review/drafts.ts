// The lead's resolution while it is being made, per task, and what the keys do to it. Pure: the screen
// keeps the draft in state and sends `resolution(draft)` to api.adjudicate.
import type { AdjudicationView, ReviewTask } from '../../../../shared/api';
import type { Choice } from '../../../../shared/domain';
import type { ALL_OUTCOMES } from '../../../../shared/stepJudgement';
import { digitOf } from '../../components/keys';
import { choiceWords, letter, rankingWords } from './reviewWords';

export type Strength = 1 | 2 | 3;
type Outcome = (typeof ALL_OUTCOMES)[number];

export type Draft =
  | { task: 'pairwise'; choice: Choice | null; strength: Strength | null; slight: boolean }
  | { task: 'verdict'; verdict: 'good' | 'bad' | null }
  | { task: 'ranking'; ranking: number[][]; tieNext: boolean }
  /**
   * Steps: per response letter the first wrong step (−1: none) and the outcome; the cursor is the response
   * and step in view; `trajectories` are the letters of the responses that are agent trajectories.
   */
  | { task: 'steps'; firstError: Record<string, number>; outcome: Record<string, string>; response: number; step: number; trajectories: string[] };

const CHOICES: Choice[] = ['A', 'B', 'tie', 'both_bad'];

/** The outcomes a lead picks with 1 / 2 / 3: a trajectory's task, or a chain's final answer. */
export const OUTCOME_KEYS = { trajectory: ['success', 'partial', 'failure'], chain: ['correct', 'incorrect', 'unsure'] } as const;

/** A fresh draft, or the earlier adjudication's resolution when there is one (to confirm or change). */
export function initialDraft(task: ReviewTask, earlier: AdjudicationView['adjudication'], trajectories: string[] = []): Draft {
  if (task === 'pairwise') {
    const choice = CHOICES.includes(earlier?.choice as Choice) ? (earlier!.choice as Choice) : null;
    const strength = earlier?.strength === 1 || earlier?.strength === 2 || earlier?.strength === 3 ? earlier.strength : null;
    return { task, choice, strength: choice === 'A' || choice === 'B' ? (strength ?? 2) : null, slight: false };
  }
  if (task === 'verdict') return { task, verdict: earlier?.choice === 'good' || earlier?.choice === 'bad' ? earlier.choice : null };
  if (task === 'ranking') return { task, ranking: earlier?.ranking ?? [], tieNext: false };
  const firstError: Record<string, number> = {};
  const saved = earlier?.body.first_error;
  if (saved && typeof saved === 'object')
    for (const [key, value] of Object.entries(saved as Record<string, unknown>)) if (typeof value === 'number') firstError[key] = value;
  const outcome: Record<string, string> = {};
  const savedOutcome = earlier?.body.outcome;
  if (savedOutcome && typeof savedOutcome === 'object')
    for (const [key, value] of Object.entries(savedOutcome as Record<string, unknown>)) if (typeof value === 'string') outcome[key] = value;
  return { task, firstError, outcome, response: 0, step: 0, trajectories };
}

/** Whether the draft can be recorded. */
export function complete(draft: Draft, responses: number): boolean {
  if (draft.task === 'pairwise') return draft.choice !== null;
  if (draft.task === 'verdict') return draft.verdict !== null;
  if (draft.task === 'ranking') return effectiveRanking(draft, responses).flat().length === responses;
  return Object.keys(draft.firstError).length > 0 || Object.keys(draft.outcome).length > 0;
}

/** The draft in words: "B better, much", "good", "B > A = C", "A: step 3 · B: no error". */
export function draftWords(draft: Draft, responses: number): string {
  if (draft.task === 'pairwise') return draft.choice ? choiceWords(draft.choice, draft.strength) : 'nothing chosen';
  if (draft.task === 'verdict') return draft.verdict ?? 'nothing chosen';
  if (draft.task === 'ranking') return draft.ranking.length ? rankingWords(effectiveRanking(draft, responses)) : 'nothing placed';
  const letters = [...new Set([...Object.keys(draft.firstError), ...Object.keys(draft.outcome)])].sort();
  const parts = letters.map((key) => {
    const v = draft.firstError[key];
    const step = draft.trajectories.includes(key) ? 'turn' : 'step';
    const words = [v === undefined ? null : v < 0 ? 'no error' : `${step} ${v + 1}`, draft.outcome[key] ?? null].filter(Boolean);
    return `${key}: ${words.join(', ')}`;
  });
  return parts.join(' · ') || 'no first error or outcome marked';
}

/** What api.adjudicate needs besides project, annotator, item, task and note. */
export function resolution(draft: Draft, responses: number) {
  if (draft.task === 'pairwise') return { choice: draft.choice ?? undefined, strength: draft.choice === 'A' || draft.choice === 'B' ? draft.strength : null };
  if (draft.task === 'verdict') return { verdict: draft.verdict ?? undefined };
  if (draft.task === 'ranking') return { ranking: effectiveRanking(draft, responses) };
  return {
    ...(Object.keys(draft.firstError).length ? { firstError: draft.firstError } : {}),
    ...(Object.keys(draft.outcome).length ? { outcome: draft.outcome as Record<string, Outcome> } : {}),
  };
}

/** Places response `index` next in a ranking (tied with the one before when `=` was pressed). */
export function place(draft: Extract<Draft, { task: 'ranking' }>, index: number, responses: number): Extract<Draft, { task: 'ranking' }> {
  if (index >= responses || draft.ranking.flat().includes(index)) return draft;
  const ranking = draft.tieNext && draft.ranking.length ? [...draft.ranking.slice(0, -1), [...draft.ranking.at(-1)!, index]] : [...draft.ranking, [index]];
  return { ...draft, ranking, tieNext: false };
}

/**
 * The ranking the picks stand for: once one response is left it takes the last place by itself, or tied
 * with the last pick when `=` is armed (as on the rank screen).
 */
export function effectiveRanking(draft: Extract<Draft, { task: 'ranking' }>, responses: number): number[][] {
  const placed = draft.ranking.flat();
  const left = Array.from({ length: responses }, (_, i) => i).filter((i) => !placed.includes(i));
  if (left.length !== 1 || !draft.ranking.length) return draft.ranking;
  if (draft.tieNext) return [...draft.ranking.slice(0, -1), [...draft.ranking.at(-1)!, left[0]!]];
  return [...draft.ranking, left];
}

export function takeBack(draft: Extract<Draft, { task: 'ranking' }>, all: boolean): Extract<Draft, { task: 'ranking' }> {
  if (all || !draft.ranking.length) return { ...draft, ranking: [], tieNext: false };
  const last = draft.ranking.at(-1)!;
  const ranking = last.length > 1 ? [...draft.ranking.slice(0, -1), last.slice(0, -1)] : draft.ranking.slice(0, -1);
  return { ...draft, ranking, tieNext: false };
}

/**
 * The task's keys: pairwise 1–4 (Shift: much, Alt or s first: slightly), verdict g / b (or 1 / 2),
 * ranking 1–9 / = / Backspace, steps j / k, [ / ], f and o. Answers the new draft, or null when the key
 * means nothing here. `stepsOf(r)` is the number of steps of response r.
 */
export function draftKey(draft: Draft, event: KeyboardEvent, responses: number, stepsOf: (r: number) => number): Draft | null {
  if (event.ctrlKey || event.metaKey) return null;
  const digit = digitOf(event);
  if (draft.task === 'pairwise') {
    if (digit !== null && digit >= 1 && digit <= 4) {
      const choice = CHOICES[digit - 1]!;
      const side = choice === 'A' || choice === 'B';
      const strength: Strength | null = !side ? null : event.altKey || draft.slight ? 1 : event.shiftKey ? 3 : 2;
      return { ...draft, choice, strength, slight: false };
    }
    if (event.altKey) return null;
    if (event.key === 's') return { ...draft, slight: !draft.slight };
    return null;
  }
  if (event.altKey) return null;
  if (draft.task === 'verdict') {
    if (event.key === 'g' || digit === 1) return { ...draft, verdict: 'good' };
    if (event.key === 'b' || digit === 2) return { ...draft, verdict: 'bad' };
    return null;
  }
  if (draft.task === 'ranking') {
    if (digit !== null && digit >= 1 && digit <= 9 && !event.shiftKey) return place(draft, digit - 1, responses);
    if (event.key === '=' && draft.ranking.length && draft.ranking.flat().length < responses) return { ...draft, tieNext: !draft.tieNext };
    if (event.key === 'Backspace') return takeBack(draft, event.shiftKey);
    return null;
  }
  const key = letter(draft.response);
  const steps = Math.max(1, stepsOf(draft.response));
  switch (event.key) {
    case 'j':
    case 'ArrowDown':
      return { ...draft, step: Math.min(steps - 1, draft.step + 1) };
    case 'k':
    case 'ArrowUp':
      return { ...draft, step: Math.max(0, draft.step - 1) };
    case ']':
    case '[': {
      if (responses < 2) return draft;
      const response = (draft.response + (event.key === ']' ? 1 : -1) + responses) % responses;
      const at = draft.firstError[letter(response)];
      return { ...draft, response, step: at !== undefined && at >= 0 ? at : 0 };
    }
    case 'f': {
      const firstError = { ...draft.firstError };
      if (firstError[key] === draft.step) delete firstError[key];
      else firstError[key] = draft.step;
      return { ...draft, firstError };
    }
    case 'o': {
      const firstError = { ...draft.firstError };
      if (firstError[key] === -1) delete firstError[key];
      else firstError[key] = -1;
      return { ...draft, firstError };
    }
    default: {
      // 1 / 2 / 3: the outcome of the response in view (the same again clears it).
      const choices = OUTCOME_KEYS[draft.trajectories.includes(key) ? 'trajectory' : 'chain'];
      const picked = digit !== null && digit >= 1 && digit <= 3 && !event.shiftKey ? choices[digit - 1]! : null;
      if (picked === null) return null;
      return { ...draft, outcome: setOutcome(draft.outcome, key, picked) };
    }
  }
}

/** Sets a response's outcome in the draft; the same one again clears it. */
export function setOutcome(outcome: Record<string, string>, key: string, value: string): Record<string, string> {
  const next = { ...outcome };
  if (next[key] === value) delete next[key];
  else next[key] = value;
  return next;
}
