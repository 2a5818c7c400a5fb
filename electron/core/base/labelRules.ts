// What a label revision must be for its item, checked the same way whether the app saves it (the services)
// or a labels file brings it (formats/exchange/labels.ts). Each rule gives the reason a value does not fit, or null;
// the caller names the field its own way ("shownOrder" in the API, "shown_order" in a file).
import type { Content, ItemRecord } from '../../../shared/domain';
import { imagesOf } from '../../../shared/images';
import type { RegionMark } from '../../../shared/regions';
import { CHAIN_OUTCOMES, TRAJECTORY_OUTCOMES } from '../../../shared/stepJudgement';
import { isTrajectory, trajectoryTurns } from '../../../shared/trajectory';
import type { RubricLabelBody } from '../../../shared/api';
import { responseLetter } from '../../../shared/letters';
import { offScale, storedRating, type Criterion, type RatingValue } from '../../../shared/rubric';
import { invalidInput } from './errors';

/** "2 responses (A, B)", "one response (A)". */
export function responsesText(count: number): string {
  if (count === 1) return 'one response (A)';
  return `${count} responses (${Array.from({ length: count }, (_, i) => responseLetter(i)).join(', ')})`;
}

/** A response letter the item has, or why not. */
export function letterProblem(letter: string, count: number): string | null {
  const index = /^[A-Z]$/.test(letter) ? letter.charCodeAt(0) - 65 : -1;
  return index >= 0 && index < count ? null : `the item has ${responsesText(count)}, not "${letter}"`;
}

/** The order responses were shown in: each of the item's response indexes once. */
export function shownOrderProblem(order: readonly number[], count: number): string | null {
  const ok = order.length === count && new Set(order).size === count && order.every((i) => Number.isInteger(i) && i >= 0 && i < count);
  return ok ? null : `must list each of the item's ${count} response indexes once (it was [${order.join(', ')}])`;
}

/** A ranking: each of the item's responses in exactly one place. */
export function rankingProblem(ranking: readonly (readonly number[])[], count: number): string | null {
  const seen = ranking.flat();
  const ok = seen.length === count && new Set(seen).size === count && seen.every((i) => Number.isInteger(i) && i >= 0 && i < count);
  return ok ? null : `must put each of the item's ${count} responses in exactly one place`;
}

/** One response's step judgement: as many ratings as the response has steps, a first error among them. */
export function stepsProblem(ratings: readonly unknown[] | undefined, firstError: number | null | undefined, stepCount: number | null): string | null {
  const count = stepCount ?? ratings?.length ?? null;
  if (ratings && stepCount !== null && ratings.length !== stepCount)
    return `the response has ${stepCount} step${stepCount === 1 ? '' : 's'}; the ratings list has ${ratings.length}`;
  if (firstError !== null && firstError !== undefined && count !== null && firstError >= count)
    return `the first error is step ${firstError + 1}, but there ${count === 1 ? 'is 1 step' : `are ${count} steps`}`;
  return null;
}

export interface RatingsInput {
  ratings: Record<string, Record<string, RatingValue | boolean>>;
  criterionWinner?: Record<string, 'A' | 'B' | 'tie'>;
}

/**
 * Checks ratings against a version's criteria: each response letter is one of the item's, each key one of
 * the version's criteria, each value on its criterion's scale; then that every response has a value for
 * each required criterion. Returns the ratings in source and criteria order.
 */
export function checkRatings(item: ItemRecord, what: string, criteria: Criterion[], input: RatingsInput): Pick<RubricLabelBody, 'ratings' | 'criterion_winner'> {
  const letters = item.responses.map((_, i) => responseLetter(i));
  const byKey = new Map(criteria.map((c) => [c.key, c]));
  const known = criteria.map((c) => c.key).join(', ');
  const problems: string[] = [];
  for (const [letter, values] of Object.entries(input.ratings)) {
    const badLetter = letterProblem(letter, letters.length);
    if (badLetter) {
      problems.push(`ratings.${letter}: item ${item.id} has ${badLetter.replace(/^the item has /, '')}`);
      continue;
    }
    for (const [key, value] of Object.entries(values)) {
      const criterion = byKey.get(key);
      if (!criterion) problems.push(`ratings.${letter}.${key}: ${what} has no criterion “${key}” (its criteria: ${known})`);
      else {
        const why = offScale(criterion.scale, value);
        if (why) problems.push(`ratings.${letter}.${key}: ${why}`);
      }
    }
  }
  const winners = Object.entries(input.criterionWinner ?? {});
  if (winners.length && letters.length !== 2) problems.push(`criterionWinner: a winner per criterion is for an item with two responses; item ${item.id} has ${letters.length}`);
  for (const [key] of winners) if (!byKey.has(key)) problems.push(`criterionWinner.${key}: ${what} has no criterion “${key}” (its criteria: ${known})`);
  if (problems.length) {
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
    throw invalidInput(`Could not save the ratings: ${problems.slice(0, 5).join('; ')}${more}.`, { problems });
  }
  const missing: Record<string, string[]> = {};
  for (const letter of letters) {
    const absent = criteria.filter((c) => c.required && input.ratings[letter]?.[c.key] === undefined).map((c) => c.key);
    if (absent.length) missing[letter] = absent;
  }
  if (Object.keys(missing).length) {
    const list = Object.entries(missing)
      .map(([letter, keys]) => `${letter}: ${keys.join(', ')}`)
      .join('; ');
    throw invalidInput(`Required criteria are not rated: ${list}. Rate them (null means not applicable) and save again.`, { missing });
  }
  const ratings: RubricLabelBody['ratings'] = {};
  for (const letter of letters) {
    const given = input.ratings[letter];
    if (!given) continue;
    const ordered: Record<string, RatingValue> = {};
    for (const c of criteria) if (given[c.key] !== undefined) ordered[c.key] = storedRating(c.scale, given[c.key]) as RatingValue;
    ratings[letter] = ordered;
  }
  const result: Pick<RubricLabelBody, 'ratings' | 'criterion_winner'> = { ratings };
  if (winners.length) {
    result.criterion_winner = {};
    for (const c of criteria) if (input.criterionWinner![c.key] !== undefined) result.criterion_winner[c.key] = input.criterionWinner![c.key]!;
  }
  return result;
}

/** What the item-aware step checks know of one response: its step count (null: not known here) and, for a trajectory, its turns. */
export interface ResponseShape {
  steps: number | null;
  /** True for a trajectory (a message list with tool calls or results), false for a chain. */
  trajectory: boolean;
  /** Per turn: its tool calls' keys (the call's id, else its position "0", "1"…) and its agent. */
  turns: { calls: string[]; agent: string | null }[] | null;
}

/** What a step label says beyond ratings and first error, as the API or a file gives it for one response. */
export interface StepExtras {
  tags?: Record<string, readonly string[]>;
  severity?: Record<string, string>;
  toolVerdicts?: Record<string, Record<string, string>>;
  corrections?: Record<string, unknown>;
  attribution?: { agent?: string; step: number } | null;
  outcome?: string | null;
}

/** The key a tool call goes by in `tool_verdicts`: its id, else its position in the turn. */
export function callKey(id: string | null, position: number): string {
  return id ?? String(position);
}

const stepWord = (count: number) => (count === 1 ? 'is 1 step' : `are ${count} steps`);

/**
 * The item-aware checks of a response's severities, tool call verdicts, corrections, attribution and
 * outcome: each names the step or call it is about and why it does not fit. `field` names each field the
 * caller's way ("steps.severity" in the API, "step_severity.A" in a labels file).
 */
export function stepExtrasProblems(x: StepExtras, shape: ResponseShape, field: (name: 'tags' | 'severity' | 'toolVerdicts' | 'corrections' | 'attribution' | 'outcome') => string): string[] {
  const problems: string[] = [];
  const count = shape.steps;
  // Turns are looked up by step index only while the steps are the turns (not an annotator's split or merge).
  const turns = shape.turns && (count === null || shape.turns.length === count) ? shape.turns : null;
  const beyond = (name: Parameters<typeof field>[0], key: string) => {
    if (count === null || Number(key) < count) return false;
    problems.push(`${field(name)}.${key}: step ${Number(key) + 1}, but there ${stepWord(count)}`);
    return true;
  };
  for (const key of Object.keys(x.tags ?? {})) beyond('tags', key);
  for (const key of Object.keys(x.corrections ?? {})) beyond('corrections', key);
  for (const key of Object.keys(x.severity ?? {})) {
    if (beyond('severity', key)) continue;
    if (!x.tags?.[key]?.length) problems.push(`${field('severity')}.${key}: step ${Number(key) + 1} has a severity but no error tag (a severity says how bad a tagged error is): tag the step, or leave its severity out`);
  }
  for (const [key, verdicts] of Object.entries(x.toolVerdicts ?? {})) {
    if (beyond('toolVerdicts', key)) continue;
    if (!shape.trajectory) {
      problems.push(`${field('toolVerdicts')}.${key}: the response is not a trajectory: it makes no tool calls`);
      continue;
    }
    const turn = turns?.[Number(key)];
    if (!turn) continue;
    for (const id of Object.keys(verdicts)) {
      if (turn.calls.includes(id)) continue;
      const calls = turn.calls.length ? `its calls: ${turn.calls.map((c) => `"${c}"`).join(', ')}` : 'it makes none';
      problems.push(`${field('toolVerdicts')}.${key}.${id}: step ${Number(key) + 1} has no tool call "${id}" (${calls})`);
    }
  }
  if (x.attribution) {
    const { agent, step } = x.attribution;
    if (count !== null && step >= count) problems.push(`${field('attribution')}.step: step ${step + 1}, but there ${stepWord(count)}`);
    const agents = [...new Set((turns ?? []).map((t) => t.agent).filter((a): a is string => a !== null))];
    if (agent !== undefined && agents.length && !agents.includes(agent))
      problems.push(`${field('attribution')}.agent: "${agent}" does not act in this trajectory (its agents: ${agents.map((a) => `"${a}"`).join(', ')})`);
    const acting = turns?.[step]?.agent;
    if (agent !== undefined && agents.includes(agent) && acting && acting !== agent)
      problems.push(`${field('attribution')}: step ${step + 1} is "${acting}"'s turn, not "${agent}"'s`);
  }
  if (x.outcome !== null && x.outcome !== undefined) {
    const allowed: readonly string[] = shape.trajectory ? TRAJECTORY_OUTCOMES : CHAIN_OUTCOMES;
    if (!allowed.includes(x.outcome))
      problems.push(
        `${field('outcome')}: "${x.outcome}" is ${shape.trajectory ? 'a chain’s outcome; a trajectory’s is success, partial or failure' : 'a trajectory’s outcome; a chain’s is correct, incorrect or unsure'}`,
      );
  }
  return problems;
}

/** A response's shape for the step checks: a trajectory's turns, or a chain. */
export function responseShape(content: Content, steps: number | null): ResponseShape {
  if (!isTrajectory(content)) return { steps, trajectory: false, turns: null };
  const turns = trajectoryTurns(content).map((t) => ({ calls: t.calls.map((c, i) => callKey(c.id, i)), agent: t.agent }));
  return { steps, trajectory: true, turns };
}

/** "3f2a9c0b…": a sha256 as a message names it. */
const shortSha = (sha: string) => `${sha.slice(0, 12)}…`;

/**
 * The item-aware checks of region marks (their shape passed shared/api/regions.ts): each mark's place is
 * the prompt or one of the item's responses, and its image is one that place holds (stored, by sha256).
 * Each problem names the mark by its index in the list ("regions[2].image: …").
 */
export function regionProblems(item: Pick<ItemRecord, 'prompt' | 'responses'>, regions: readonly RegionMark[], field = 'regions'): string[] {
  const problems: string[] = [];
  const held = new Map<string, string[]>();
  const imagesAt = (at: RegionMark['at']) => {
    const key = String(at);
    let shas = held.get(key);
    if (!shas) {
      const content = at === 'prompt' ? item.prompt : item.responses[at]!.content;
      shas = imagesOf(content, at).flatMap((p) => (p.image.image ? [p.image.image.sha256] : []));
      held.set(key, shas);
    }
    return shas;
  };
  regions.forEach((mark, i) => {
    if (problems.length >= 5) return;
    if (mark.at !== 'prompt' && mark.at >= item.responses.length) {
      problems.push(`${field}[${i}].at: the item has ${responsesText(item.responses.length)}, not a response ${mark.at} (responses count from 0)`);
      return;
    }
    const shas = imagesAt(mark.at);
    if (shas.includes(mark.image)) return;
    const place = mark.at === 'prompt' ? 'the prompt' : `response ${responseLetter(mark.at)}`;
    const there = shas.length ? `its ${shas.length === 1 ? 'image is' : 'images are'} ${shas.map(shortSha).join(', ')}` : 'it holds no stored image';
    problems.push(`${field}[${i}].image: ${place} holds no image ${shortSha(mark.image)} (${there})`);
  });
  return problems;
}

/** Refuses marks that do not fit the item, naming each mark and field; an empty or missing list passes. */
export function requireRegionsFit(item: Pick<ItemRecord, 'id' | 'prompt' | 'responses'>, regions: readonly RegionMark[] | undefined): void {
  if (!regions?.length) return;
  const problems = regionProblems(item, regions);
  if (problems.length) throw invalidInput(`Could not save the region marks on item ${item.id}: ${problems.join('; ')}. Mark an image the item shows, or leave the mark out.`, { problems });
}
