// Agreement per turn on agent trajectories (issue 14), read from the same step label revisions as chains:
// the first error turn (exact and within one turn), turn ratings (ordinal, as step ratings), the error
// category of each person's first error (nominal), the tags of a turn that two people or more tagged
// (nominal), and the task outcome (ordinal failure < partial < success, nominal beside it). And, per
// trajectory, what people split on (its first error or its outcome) for the disagreement queue.
import type { FieldAgreement, QueueRow, TrajectoryDispute } from '../../../shared/api/review';
import type { TrajectoryOutcome } from '../../../shared/stepJudgement';
import { firstErrorAgreement } from './agreement';
import { Index, split, Triples, type ReviewBody } from './collect';
import { fieldAgreement } from './fields';
import { majorityOfVotes } from './majority';

/** The outcomes on the ordinal scale, worst first: failure 0 < partial 1 < success 2. */
export const OUTCOME_SCALE: readonly TrajectoryOutcome[] = ['failure', 'partial', 'success'];
const outcomeRank = (o: string | undefined) => (o === undefined ? -1 : OUTCOME_SCALE.indexOf(o as TrajectoryOutcome));

/** A set of tags as one nominal category: sorted, joined with " + " ("hallucinated result + ignored error"). */
export function tagSet(tags: readonly string[] | undefined): string | null {
  if (!tags?.length) return null;
  return [...new Set(tags)].sort().join(' + ');
}

/** The category of a first error: the tags of that turn as one set; null with no error, or no tag there. */
export function errorCategory(tags: Record<string, readonly string[]> | undefined, firstError: number | null | undefined): string | null {
  if (typeof firstError !== 'number' || firstError < 0) return null;
  return tagSet(tags?.[String(firstError)]);
}

export const TRAJECTORY_FIELD_ABOUT: Record<string, string> = {
  first_error_turn:
    'How often two people put a trajectory’s first error at the same turn, and within one turn (±1); “no error” agrees only with “no error”. n: trajectories with a first error (or none) marked by two people or more.',
  turn_ratings: 'How often two people rate an agent turn the same (+1 / 0 / −1), and Krippendorff’s α at the ordinal level. n: turns rated by two people or more.',
  error_category:
    'How often two people name the same category for their first error (the tags of that turn, a set of tags being one category), wherever each put it. n: trajectories where two people or more tagged their first error.',
  turn_tags: 'How often two people give a turn the same tags, on the turns both tagged. n: turns tagged by two people or more.',
  outcome:
    'How often two people give a trajectory the same task outcome, and Krippendorff’s α at the ordinal level over failure < partial < success (nominal beside it). n: trajectories with an outcome from two people or more.',
};

/** What one trajectory response of one item puts in the queue. */
export interface TrajectoryDisputes {
  item: number;
  key: string;
  turns: number | null;
  groups: { kind: TrajectoryDispute; votes: Record<string, number>; total: number; dispute: number }[];
}

/**
 * Gathers the labels of trajectory responses (one response of one item is one unit; one of its turns is
 * another), then gives the fields and each response's disputes.
 */
export class TrajectoryAgreement {
  private readonly responses = new Index<string>();
  private readonly responseInfo: { item: number; key: string; turns: number | null }[] = [];
  private readonly turns = new Index<string>();
  private readonly first = new Triples();
  private readonly rating = new Triples();
  private readonly category = new Triples();
  private readonly tags = new Triples();
  private readonly outcome = new Triples();
  private readonly categories = new Index<string>();

  /** One person's label of one trajectory response (`key` its letter) of item unit `u`. */
  add(u: number, r: number, key: string, body: ReviewBody, turns: number | null): void {
    const before = this.responses.size;
    const unit = this.responses.of(`${u}:${key}`);
    if (unit === before) this.responseInfo.push({ item: u, key, turns });
    const firstError = body.first_error?.[key];
    if (typeof firstError === 'number') this.first.add(unit, r, firstError);
    (body.steps?.[key] ?? []).forEach((value, turn) => {
      if (value !== null && value !== undefined) this.rating.add(this.turns.of(`${u}:${key}:${turn}`), r, value);
    });
    const tags = body.step_tags?.[key];
    const category = errorCategory(tags, firstError);
    if (category !== null) this.category.add(unit, r, this.categories.of(category));
    for (const [turn, list] of Object.entries(tags ?? {})) {
      const set = tagSet(list);
      if (set !== null) this.tags.add(this.turns.of(`${u}:${key}:${turn}`), r, this.categories.of(set));
    }
    const rank = outcomeRank(body.outcome?.[key]);
    if (rank >= 0) this.outcome.add(unit, r, rank);
  }

  get size(): number {
    return this.responses.size;
  }

  /** The trajectory fields; and per response, the kinds people split on (for the queue). */
  review(raters: number, raterNames: string[]): { fields: FieldAgreement[]; disputes: TrajectoryDisputes[] } {
    const units = this.responses.size;
    const first = this.first.ratings(units, raters);
    const outcome = this.outcome.ratings(units, raters);
    const agreement = firstErrorAgreement(first);
    const about = (f: FieldAgreement) => ({ ...f, about: TRAJECTORY_FIELD_ABOUT[f.field]! });
    const firstField = fieldAgreement('steps', 'first_error_turn', 'interval', first, raterNames);
    firstField.percent = agreement.exact;
    firstField.withinOne = agreement.withinOne;
    const fields = [
      firstField,
      fieldAgreement('steps', 'turn_ratings', 'ordinal', this.rating.ratings(this.turns.size, raters), raterNames),
      fieldAgreement('steps', 'error_category', 'nominal', this.category.ratings(units, raters), raterNames),
      fieldAgreement('steps', 'turn_tags', 'nominal', this.tags.ratings(this.turns.size, raters), raterNames),
      fieldAgreement('steps', 'outcome', 'ordinal', outcome, raterNames, 'nominal'),
    ].map(about);
    const disputes: TrajectoryDisputes[] = this.responseInfo.map((info, unit) => ({
      ...info,
      groups: [
        { kind: 'first_error' as const, ...split(first, unit, (v) => `${info.key}: ${v < 0 ? 'no error' : `turn ${v + 1}`}`) },
        { kind: 'outcome' as const, ...split(outcome, unit, (v) => `${info.key}: ${OUTCOME_SCALE[v]}`) },
      ].filter((g) => g.dispute > 0),
    }));
    return { fields, disputes: disputes.filter((d) => d.groups.length > 0) };
  }
}

/**
 * One queue row's trajectory part for an item, from its disputed trajectory responses: the dispute is the
 * most split kind of any; the votes hold every disputed kind; the consensus is each kind's majority, or
 * that kind split ("A: outcome split"); none where every kind is split evenly.
 */
export function trajectoryRowParts(disputes: TrajectoryDisputes[]): Pick<QueueRow, 'dispute' | 'votes' | 'labels' | 'consensus' | 'consensusMethod' | 'trajectory'> {
  const groups = disputes.flatMap((d) => d.groups.map((g) => ({ ...g, key: d.key, turns: d.turns })));
  const worst = groups.reduce((a, b) => (b.dispute > a.dispute ? b : a));
  const votes: Record<string, number> = {};
  for (const g of groups) Object.assign(votes, g.votes);
  const majorities = groups.map((g) => majorityOfVotes(g.votes));
  // A kind split evenly is said as such beside the others' majorities; split on every kind, no consensus.
  const parts = majorities.map((m, i) => m ?? `${groups[i]!.key}: ${groups[i]!.kind === 'outcome' ? 'outcome' : 'first error'} split`);
  const consensus = majorities.some((m) => m !== null) ? parts.join(' · ') : null;
  const disputed = (['first_error', 'outcome'] as const).filter((k) => groups.some((g) => g.kind === k));
  return {
    dispute: worst.dispute,
    votes,
    labels: Math.max(...groups.map((g) => g.total)),
    consensus,
    consensusMethod: consensus === null ? null : 'majority',
    trajectory: { turns: worst.turns, disputed },
  };
}
