// One response's step judgement as the step screen edits it, and the pure edits the keys make. Every
// edit returns a new judgement; the screen saves each one as it is made.
import type { ApiInput, StepsView } from '../../../../shared/api';
import { FINISH_REASONS, OUTCOMES, REFERENCE_MATCHES } from '../../../../shared/api';
import type { StepRating } from '../../../../shared/segment';
import { ALL_OUTCOMES, SEVERITIES, TOOL_VERDICTS, TRAJECTORY_OUTCOMES, type Attribution, type CorrectedCall, type Severity, type StepCorrection, type ToolVerdict } from '../../../../shared/stepJudgement';

/** A chain's final answer, or a trajectory's task outcome (success / partial / failure). */
export type Outcome = (typeof ALL_OUTCOMES)[number];
export type FinishReason = (typeof FINISH_REASONS)[number];
export type ReferenceMatch = (typeof REFERENCE_MATCHES)[number];

export interface Judgement {
  /** The segmentation version the ratings refer to. */
  version: number;
  /** One per step: +1 / 0 / −1, or null (unrated; always null after the first error). */
  ratings: (StepRating | null)[];
  /** 0-based first wrong step, −1 for "no error" (every step rated, none −1), null while undecided. */
  firstError: number | null;
  tags: Record<string, string[]>;
  /** Per tagged step: how bad its error is. */
  severity: Record<string, Severity>;
  /** Per step, per tool call key (its id, else its position): correct / wrong / unnecessary. */
  toolVerdicts: Record<string, Record<string, ToolVerdict>>;
  /** Per step: the corrected text, or (a tool-call turn) the corrected calls. */
  corrections: Record<string, StepCorrection>;
  outcome: Outcome | null;
  /** Multi-agent trajectories: which agent's turn decided the failure. */
  attribution: Attribution | null;
  /** Set by the annotator; null means "follow the steps" (found_error / solution, see finishReasonOf). */
  finishReason: FinishReason | null;
  referenceMatch: ReferenceMatch | null;
}

export function emptyJudgement(version: number, count: number): Judgement {
  return { version, ratings: new Array<StepRating | null>(count).fill(null), firstError: null, tags: {}, severity: {}, toolVerdicts: {}, corrections: {}, outcome: null, attribution: null, finishReason: null, referenceMatch: null };
}

const oneOf = <T extends string>(list: readonly T[], value: string | undefined): T | null => (value && (list as readonly string[]).includes(value) ? (value as T) : null);

/** The judgement the host holds for a response, or an empty one on its newest steps. */
export function judgementFrom(view: StepsView, response: number): Judgement {
  const seg = view.responses[response];
  const count = seg?.steps.length ?? 0;
  const version = seg?.version ?? 1;
  const held = view.judgements[response];
  if (!held || held.version !== version || held.ratings.length !== count) return emptyJudgement(version, count);
  const stored = oneOf(FINISH_REASONS, held.finishReason);
  const judgement: Judgement = {
    version,
    ratings: [...held.ratings],
    firstError: held.firstError,
    tags: { ...(held.tags ?? {}) },
    severity: { ...(held.severity ?? {}) },
    toolVerdicts: { ...(held.toolVerdicts ?? {}) },
    corrections: { ...(held.corrections ?? {}) },
    outcome: oneOf(ALL_OUTCOMES, held.outcome),
    attribution: held.attribution ?? null,
    finishReason: null,
    referenceMatch: oneOf(REFERENCE_MATCHES, held.referenceMatch),
  };
  // A stored reason the steps imply was (or may as well have been) Arbiter's: it keeps following them.
  judgement.finishReason = stored === derivedFinishReason(judgement) ? null : stored;
  return judgement;
}

/** Every step before the first error (all of them when there is none) has a rating, or the first error is set. */
export function isComplete(j: Judgement): boolean {
  if (j.firstError !== null) return true;
  return j.ratings.length > 0 && j.ratings.every((r) => r !== null);
}

export function isAfterError(j: Judgement, index: number): boolean {
  return j.firstError !== null && j.firstError >= 0 && index > j.firstError;
}

/** "No error" follows from the ratings: every step rated and none −1. Only an explicit first error is kept. */
function settle(j: Judgement): Judgement {
  if (j.firstError !== null && j.firstError >= 0) {
    const at = j.firstError;
    return { ...j, ratings: j.ratings.map((r, i) => (i > at ? null : i === at ? -1 : r)) };
  }
  const allGood = j.ratings.length > 0 && j.ratings.every((r) => r !== null && r >= 0);
  return { ...j, firstError: allGood ? -1 : null };
}

export type Edit = { judgement: Judgement; words: string } | { refused: string };

/** An edit's words where the steps are a trajectory's turns, as the screen calls them: "Turn 5 rated +1". */
export function inTurns(edit: Edit | null): Edit | null {
  if (!edit) return edit;
  const say = (words: string) => words.replace(/\b([Ss])tep(s?)\b/g, (_, s: string, many: string) => `${s === 'S' ? 'T' : 't'}urn${many}`);
  return 'refused' in edit ? { refused: say(edit.refused) } : { ...edit, words: say(edit.words) };
}

const RATING_WORD: Record<string, string> = { '1': '+1', '0': '0', '-1': '−1' };
export const ratingWord = (r: StepRating | null) => (r === null ? 'unrated' : RATING_WORD[String(r)]!);

/** Rates a step. Rating the first-error step +1 or 0 takes the first error back. */
export function rate(j: Judgement, index: number, rating: StepRating): Edit {
  if (index < 0 || index >= j.ratings.length) return { refused: 'No step here' };
  if (isAfterError(j, index))
    return { refused: `Step ${index + 1} comes after the first error (step ${j.firstError! + 1}) and needs no rating — press f here to move the first error` };
  const ratings = [...j.ratings];
  ratings[index] = rating;
  let firstError = j.firstError;
  let words = `Step ${index + 1} rated ${ratingWord(rating)}`;
  if (firstError === index && rating !== -1) {
    firstError = null;
    words += ' — no longer the first error';
  }
  return { judgement: settle({ ...j, ratings, firstError }), words };
}

/** Marks a step the first error (its rating −1, the steps after it unrated); on the first-error step, takes it back. */
export function toggleFirstError(j: Judgement, index: number): Edit {
  if (index < 0 || index >= j.ratings.length) return { refused: 'No step here' };
  if (j.firstError === index) {
    const ratings = [...j.ratings];
    ratings[index] = null;
    return { judgement: settle({ ...j, ratings, firstError: null }), words: `Step ${index + 1} is no longer the first error` };
  }
  const after = j.ratings.length - index - 1;
  return {
    judgement: settle({ ...j, firstError: index }),
    words: `First error: step ${index + 1}${after ? ` (the ${after} after it need no rating)` : ''}`,
  };
}

export function toggleTag(j: Judgement, index: number, tag: string): Edit {
  const key = String(index);
  const now = j.tags[key] ?? [];
  const on = !now.includes(tag);
  if (on && now.length >= 10) return { refused: 'A step takes at most 10 tags' };
  const next = on ? [...now, tag] : now.filter((t) => t !== tag);
  const tags = { ...j.tags };
  const severity = { ...j.severity };
  if (next.length) tags[key] = next;
  else {
    delete tags[key];
    // A severity says how bad a tagged error is: with the last tag, it goes.
    delete severity[key];
  }
  return { judgement: { ...j, tags, severity }, words: `Step ${index + 1}: ${on ? 'tagged' : 'untagged'} “${tag}”` };
}

/** Sets a step's correction; empty text (or the step's own text) removes it. */
export function setCorrection(j: Judgement, index: number, text: string, stepText: string): Edit | null {
  const key = String(index);
  const clean = text.replace(/\s+$/, '');
  const keep = clean.trim() !== '' && clean.trim() !== stepText.trim();
  const held = j.corrections[key];
  const before = typeof held === 'string' ? held : held === undefined ? '' : null;
  if ((keep ? clean : '') === before) return null;
  const corrections = { ...j.corrections };
  if (keep) corrections[key] = clean;
  else delete corrections[key];
  return { judgement: { ...j, corrections }, words: `Step ${index + 1}: correction ${keep ? (before ? 'changed' : 'added') : 'removed'}` };
}

function cycle<T extends string>(list: readonly T[], value: T | null): T | null {
  if (value === null) return list[0]!;
  const at = list.indexOf(value);
  return at + 1 < list.length ? list[at + 1]! : null;
}

export const OUTCOME_WORDS: Record<Outcome, string> = {
  correct: 'final answer correct',
  incorrect: 'final answer incorrect',
  unsure: 'final answer unsure',
  success: 'task success',
  partial: 'task partly done',
  failure: 'task failure',
};
export const FINISH_WORDS: Record<FinishReason, string> = { solution: 'solution', found_error: 'found an error', give_up: 'gave up', bad_problem: 'bad problem' };
export const MATCH_WORDS: Record<ReferenceMatch, string> = { yes: 'yes', no: 'no', partly: 'partly' };

/** `o`: a chain's final answer cycles correct → incorrect → unsure → none; a trajectory's task outcome success → partial → failure → none. */
export function cycleOutcome(j: Judgement, trajectory = false): Edit {
  const list: readonly Outcome[] = trajectory ? TRAJECTORY_OUTCOMES : OUTCOMES;
  const outcome = cycle(list, j.outcome !== null && list.includes(j.outcome) ? j.outcome : null);
  return { judgement: { ...j, outcome }, words: outcome ? `Outcome: ${OUTCOME_WORDS[outcome]}` : 'Outcome cleared' };
}

export function cycleFinishReason(j: Judgement): Edit {
  const finishReason = cycle(FINISH_REASONS, j.finishReason);
  const derived = derivedFinishReason(j);
  return {
    judgement: { ...j, finishReason },
    words: finishReason ? `Finish reason: ${FINISH_WORDS[finishReason]}` : `Finish reason follows the steps${derived ? ` (${FINISH_WORDS[derived]})` : ''}`,
  };
}

export function cycleReferenceMatch(j: Judgement): Edit {
  const referenceMatch = cycle(REFERENCE_MATCHES, j.referenceMatch);
  return { judgement: { ...j, referenceMatch }, words: referenceMatch ? `Equivalent to the reference: ${referenceMatch}` : 'Reference judgement cleared' };
}

/** What the steps say about how the chain ended, when the annotator chose no reason. */
export function derivedFinishReason(j: Judgement): FinishReason | null {
  if (j.firstError === null) return null;
  return j.firstError >= 0 ? 'found_error' : 'solution';
}

export function finishReasonOf(j: Judgement): FinishReason | null {
  return j.finishReason ?? derivedFinishReason(j);
}

/** Takes a whole judgement from a model: its ratings up to its first error. */
export function fromModel(j: Judgement, ratings: (StepRating | null)[], firstError: number | null): Judgement {
  return settle({ ...j, ratings: [...ratings], firstError });
}

export type SaveInput = ApiInput<'saveSteps'>;

/** The save for one response's judgement, as the contract takes it. */
export function saveInput(base: { project: string; annotator: string; itemId: number; response: number }, j: Judgement, extra: { id: string; timeMs: number; prelabelVisible: boolean }): SaveInput {
  return {
    ...base,
    id: extra.id,
    steps: {
      version: j.version,
      ratings: j.ratings,
      firstError: j.firstError,
      tags: Object.keys(j.tags).length ? j.tags : undefined,
      severity: Object.keys(j.severity).length ? j.severity : undefined,
      toolVerdicts: Object.keys(j.toolVerdicts).length ? j.toolVerdicts : undefined,
      corrections: Object.keys(j.corrections).length ? j.corrections : undefined,
    },
    outcome: j.outcome,
    attribution: j.attribution,
    finishReason: finishReasonOf(j),
    referenceMatch: j.referenceMatch,
    timeMs: extra.timeMs,
    prelabelVisible: extra.prelabelVisible,
  };
}

/** The judgement a pending save holds (to show it again after a reload, before the host confirms it). */
export function judgementOfSave(input: SaveInput): Judgement {
  const j: Judgement = {
    version: input.steps.version,
    ratings: [...input.steps.ratings],
    firstError: input.steps.firstError,
    tags: { ...(input.steps.tags ?? {}) },
    severity: { ...(input.steps.severity ?? {}) },
    toolVerdicts: { ...(input.steps.toolVerdicts ?? {}) },
    corrections: { ...(input.steps.corrections ?? {}) },
    outcome: input.outcome ?? null,
    attribution: input.attribution ?? null,
    finishReason: null,
    referenceMatch: input.referenceMatch ?? null,
  };
  const stored = input.finishReason ?? null;
  j.finishReason = stored === derivedFinishReason(j) ? null : stored;
  return j;
}

/** How many steps (before the first error) still need a rating. */
export function unratedCount(j: Judgement): number {
  return j.ratings.filter((r, i) => r === null && !isAfterError(j, i)).length;
}

export const SEVERITY_WORDS: Record<Severity, string> = { minor: 'minor', major: 'major', critical: 'critical' };
export const VERDICT_WORDS: Record<ToolVerdict, string> = { correct: 'correct', wrong: 'wrong', unnecessary: 'unnecessary' };

/** Sets (or, the same again, clears) a tagged step's severity. */
export function setSeverity(j: Judgement, index: number, value: Severity): Edit {
  const key = String(index);
  if (!j.tags[key]?.length) return { refused: `Step ${index + 1} has no error tag: a severity says how bad a tagged error is — press t to tag it first` };
  const severity = { ...j.severity };
  const clear = severity[key] === value;
  if (clear) delete severity[key];
  else severity[key] = value;
  return { judgement: { ...j, severity }, words: clear ? `Step ${index + 1}: severity cleared` : `Step ${index + 1}: severity ${SEVERITY_WORDS[value]}` };
}

/** Cycles a tool call's verdict: correct → wrong → unnecessary → none. */
export function cycleToolVerdict(j: Judgement, index: number, call: string, label: string): Edit {
  const key = String(index);
  const now = j.toolVerdicts[key]?.[call] ?? null;
  const next = cycle(TOOL_VERDICTS, now);
  const calls = { ...(j.toolVerdicts[key] ?? {}) };
  if (next) calls[call] = next;
  else delete calls[call];
  const toolVerdicts = { ...j.toolVerdicts };
  if (Object.keys(calls).length) toolVerdicts[key] = calls;
  else delete toolVerdicts[key];
  return { judgement: { ...j, toolVerdicts }, words: next ? `Step ${index + 1}: ${label} ${VERDICT_WORDS[next]}` : `Step ${index + 1}: ${label} verdict cleared` };
}

/** Sets a turn's corrected tool calls; none removes the correction. */
export function setCallCorrection(j: Judgement, index: number, calls: CorrectedCall[]): Edit | null {
  const key = String(index);
  const before = j.corrections[key];
  const next = calls.length ? { tool_calls: calls } : undefined;
  if (JSON.stringify(before) === JSON.stringify(next)) return null;
  const corrections = { ...j.corrections };
  if (next) corrections[key] = next;
  else delete corrections[key];
  return { judgement: { ...j, corrections }, words: `Step ${index + 1}: corrected call ${next ? (before ? 'changed' : 'added') : 'removed'}` };
}

/** Who decided the failure: the agent of the current turn at that turn; the same again clears it. */
export function toggleAttribution(j: Judgement, index: number, agent: string | null): Edit {
  const same = j.attribution?.step === index && (j.attribution.agent ?? null) === agent;
  const attribution: Attribution | null = same ? null : agent === null ? { step: index } : { agent, step: index };
  return {
    judgement: { ...j, attribution },
    words: attribution ? `Failure decided at step ${index + 1}${agent ? ` by ${agent}` : ''}` : 'Attribution cleared',
  };
}

export { SEVERITIES };
