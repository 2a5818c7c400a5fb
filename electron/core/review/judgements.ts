// Review of the judgements besides pairwise choices: rankings (Kendall's W, agreement on the best
// response), verdicts, step labels (the first error exactly and within one step; each step's rating) and
// rubric ratings (one field per criterion). Each gives its fields and its part of the disagreement queue.
import type { FieldAgreement, QueueRow } from '../../../shared/api/review';
import type { ReviewLabelRow } from '../store/review';
import { firstErrorAgreement } from './agreement';
import { collect, Index, parseBody, split, Triples, type ItemInfo } from './collect';
import { fieldAgreement } from './fields';
import { majorityOfVotes } from './majority';
import { kendallWByUnit, rankingsFromUnits, scoresFromGroups } from './kendall';
import { TrajectoryAgreement, trajectoryRowParts, type TrajectoryDisputes } from './trajectories';

export interface TaskReview {
  fields: FieldAgreement[];
  queue: QueueRow[];
  labels: number;
}

const letter = (i: number) => String.fromCharCode(65 + i);

function majorityConsensus(votes: Record<string, number>): Pick<QueueRow, 'consensus' | 'consensusMethod'> {
  const consensus = majorityOfVotes(votes);
  return { consensus, consensusMethod: consensus === null ? null : 'majority' };
}

function queueRow(info: ItemInfo, task: QueueRow['task'], dispute: number, votes: Record<string, number>, labels: number, adjudicated: Set<number>): QueueRow {
  return { itemId: info.itemId, seq: info.seq, externalId: info.externalId, task, reasons: ['annotators'], dispute, votes, labels, modelPA: null, ...majorityConsensus(votes), adjudicated: adjudicated.has(info.itemId) };
}

export function reviewVerdicts(rows: Iterable<ReviewLabelRow>, adjudicated: Set<number>): TaskReview {
  const items = new Index<number>();
  const info: ItemInfo[] = [];
  const people = new Index<string>();
  const t = new Triples();
  const labels = collect(rows, items, info, people, (row, u, r) => t.add(u, r, row.choice === 'good' ? 1 : row.choice === 'bad' ? 0 : Number.NaN));
  const ratings = t.ratings(items.size, people.size);
  const queue: QueueRow[] = [];
  for (let u = 0; u < items.size; u++) {
    const s = split(ratings, u, (v) => (v === 1 ? 'good' : 'bad'));
    if (s.dispute > 0) queue.push(queueRow(info[u]!, 'verdict', s.dispute, s.votes, s.total, adjudicated));
  }
  return { fields: [fieldAgreement('verdict', 'verdict', 'nominal', ratings, people.ids)], queue, labels };
}

export function reviewRankings(rows: Iterable<ReviewLabelRow>, adjudicated: Set<number>): TaskReview {
  const items = new Index<number>();
  const info: ItemInfo[] = [];
  const people = new Index<string>();
  const best = new Triples();
  const byUnit: { groups: number[][]; rater: number }[][] = [];
  const labels = collect(rows, items, info, people, (row, u, r) => {
    const groups = row.ranking ? (JSON.parse(row.ranking) as number[][]) : [];
    (byUnit[u] ??= []).push({ groups, rater: r });
    best.add(u, r, groups[0]?.length === 1 ? groups[0][0]! : Number.NaN);
  });
  const units = items.size;
  const rankings = rankingsFromUnits(
    byUnit.map((list) => {
      const responses = Math.max(0, ...list.flatMap((l) => l.groups.flat())) + 1;
      return list.map((l) => scoresFromGroups(l.groups, responses));
    }),
  );
  const concordance = kendallWByUnit(rankings);
  const bestRatings = best.ratings(units, people.size);
  const field = fieldAgreement('ranking', 'ranking', 'nominal', bestRatings, people.ids);
  field.field = 'best response';
  field.kendallW = { value: concordance.value, n: concordance.n, reason: concordance.reason };
  const queue: QueueRow[] = [];
  for (let u = 0; u < units; u++) {
    const w = concordance.perUnit[u]!;
    const rankers = byUnit[u]!.length;
    if (rankers < 2 || !(w >= 0) || w >= 1) continue;
    const s = split(bestRatings, u, (v) => letter(v));
    queue.push(queueRow(info[u]!, 'ranking', 1 - w, s.votes, rankers, adjudicated));
  }
  return { fields: [field], queue, labels };
}

/**
 * Step labels: chains give the first error (exactly and within one step) and step ratings; trajectory
 * responses (`trajectories`: their turns by `itemId:responseIndex`) give the per-turn fields of
 * trajectories.ts instead. The queue holds an item once, for its most disputed response.
 */
export function reviewSteps(rows: Iterable<ReviewLabelRow>, adjudicated: Set<number>, trajectories: ReadonlyMap<string, number | null> = new Map()): TaskReview {
  const items = new Index<number>();
  const info: ItemInfo[] = [];
  const people = new Index<string>();
  // Units: a response of an item (first error), and a step of a response (its rating).
  const responses = new Index<string>();
  const responseItem: number[] = [];
  const steps = new Index<string>();
  const first = new Triples();
  const rating = new Triples();
  const turns = new TrajectoryAgreement();
  const labels = collect(rows, items, info, people, (row, u, r) => {
    const body = parseBody(row.body);
    const keys = new Set([...Object.keys(body.first_error ?? {}), ...Object.keys(body.steps ?? {}), ...Object.keys(body.outcome ?? {})]);
    for (const key of keys) {
      const trajectory = `${row.itemId}:${key.charCodeAt(0) - 65}`;
      if (trajectories.has(trajectory)) {
        turns.add(u, r, key, body, trajectories.get(trajectory) ?? null);
        continue;
      }
      if (key in (body.first_error ?? {})) {
        const before = responses.size;
        const unit = responses.of(`${u}:${key}`);
        if (unit === before) responseItem.push(u);
        const index = body.first_error![key];
        if (typeof index === 'number') first.add(unit, r, index);
      }
      (body.steps?.[key] ?? []).forEach((value, step) => {
        if (value !== null) rating.add(steps.of(`${u}:${key}:${step}`), r, value);
      });
    }
  });
  const firstRatings = first.ratings(responses.size, people.size);
  const agreement = firstErrorAgreement(firstRatings);
  const firstField = fieldAgreement('steps', 'first_error', 'interval', firstRatings, people.ids);
  firstField.percent = agreement.exact;
  firstField.withinOne = agreement.withinOne;
  const ratingField = fieldAgreement('steps', 'step_ratings', 'ordinal', rating.ratings(steps.size, people.size), people.ids);
  // The queue: an item's most disputed response decides its place.
  const worst = new Map<number, { dispute: number; votes: Record<string, number>; total: number }>();
  responses.ids.forEach((id, unit) => {
    const key = id.split(':')[1]!;
    const s = split(firstRatings, unit, (v) => `${key}: ${v < 0 ? 'no error' : `step ${v + 1}`}`);
    const u = responseItem[unit]!;
    const seen = worst.get(u);
    if (s.dispute > 0 && (!seen || s.dispute > seen.dispute)) worst.set(u, s);
  });
  const byItemRow = new Map([...worst].map(([u, s]) => [u, queueRow(info[u]!, 'steps', s.dispute, s.votes, s.total, adjudicated)]));
  const fields = [firstField, ratingField];
  if (turns.size > 0) {
    const review = turns.review(people.size, people.ids);
    fields.push(...review.fields);
    const byItem = new Map<number, TrajectoryDisputes[]>();
    for (const d of review.disputes) byItem.set(d.item, [...(byItem.get(d.item) ?? []), d]);
    for (const [u, disputes] of byItem) {
      const parts = trajectoryRowParts(disputes);
      const chain = byItemRow.get(u);
      if (!chain || parts.dispute >= chain.dispute) byItemRow.set(u, { ...queueRow(info[u]!, 'steps', 0, {}, 0, adjudicated), ...parts });
    }
  }
  return { fields, queue: [...byItemRow.values()], labels };
}

/**
 * One field per rubric criterion: numbers (a rating scale) at the ordinal level, the textbook level for
 * rating scales, with the interval level beside it; named categories as nominal codes.
 */
export function reviewRubrics(rows: Iterable<ReviewLabelRow>): TaskReview {
  const items = new Index<number>();
  const info: ItemInfo[] = [];
  const people = new Index<string>();
  const criteria = new Map<string, { units: Index<string>; triples: Triples; categories: Index<string>; numeric: boolean }>();
  const labels = collect(rows, items, info, people, (row, u, r) => {
    const body = parseBody(row.body);
    for (const [response, values] of Object.entries(body.ratings ?? {})) {
      for (const [key, value] of Object.entries(values)) {
        if (value === null || value === undefined) continue;
        const name = `${body.rubric ?? 'rubric'}/${key}`;
        let c = criteria.get(name);
        if (!c) criteria.set(name, (c = { units: new Index(), triples: new Triples(), categories: new Index(), numeric: true }));
        if (typeof value !== 'number') c.numeric = false;
        // A category's name; true / false (a binary criterion's, kept as a file gave them) are categories of their own.
        c.triples.add(c.units.of(`${u}:${response}`), r, typeof value === 'number' ? value : c.categories.of(value as string));
      }
    }
  });
  const fields = [...criteria].map(([name, c]) =>
    c.numeric
      ? fieldAgreement('rubric', `rubric:${name}`, 'ordinal', c.triples.ratings(c.units.size, people.size), people.ids, 'interval')
      : fieldAgreement('rubric', `rubric:${name}`, 'nominal', c.triples.ratings(c.units.size, people.size), people.ids),
  );
  return { fields, queue: [], labels };
}
