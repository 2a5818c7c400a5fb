// Agreement on marks in time (issue 24, item 4), in the shape of region agreement (regions.ts): for each
// item and task where two or more people judged and someone marked a moment or a first failure, each
// pair of people's figure, averaged per item, then over items. Marks: momentAgreement (shared/moments.ts:
// marks paired one to one, same response and tag, ranges by temporal IoU ≥ 0.5, instants within 0.5 s; an
// F1 of the pairs), over the items where someone marked anything. First failures: per response someone
// set one, the share of pairs of people who agree (both none, or within 0.5 s). An item where people
// disagree on either goes to the review queue of its task with the reason "moments".
import type { MomentAgreement, QueueRow, ReviewTask } from '../../../shared/api/review';
import { readLabelBody } from '../../../shared/labelBodies';
import { failuresAgree, momentAgreement, momentsSchema, type Moment } from '../../../shared/moments';
import type { Db } from '../store/db';
import { momentBodies } from '../store/moments';
import { figure, mean } from './regions';
import { addReasonRows } from './sentQueue';

/** One person's marks in time and first failures on one item, for one task. */
export interface PersonMoments {
  itemId: number;
  seq: number;
  task: 'pairwise' | 'ranking' | 'verdict';
  annotator: number | string;
  marks: readonly Moment[];
  /** Seconds by response letter; null: none. */
  failure: Readonly<Record<string, number | null>>;
}

/** An item people disagree on: 1 − the lower of its two figures. */
export interface MomentDispute {
  itemId: number;
  seq: number;
  task: PersonMoments['task'];
  dispute: number;
}

function pairs<T>(values: readonly T[], score: (a: T, b: T) => number): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) for (let j = i + 1; j < values.length; j++) out.push(score(values[i]!, values[j]!));
  return out;
}

export function momentReview(entries: Iterable<PersonMoments>): { agreement: MomentAgreement; disputes: MomentDispute[] } {
  const byUnit = new Map<string, PersonMoments[]>();
  for (const e of entries) {
    const unit = `${e.itemId}\u0000${e.task}`;
    byUnit.set(unit, [...(byUnit.get(unit) ?? []), e]);
  }
  const markScores: number[] = [];
  const failureScores: number[] = [];
  const disputes: MomentDispute[] = [];
  for (const people of byUnit.values()) {
    if (people.length < 2) continue;
    let low = 1;
    if (people.some((p) => p.marks.length > 0)) {
      const score = mean(pairs(people, (a, b) => momentAgreement(a.marks, b.marks)));
      markScores.push(score);
      low = Math.min(low, score);
    }
    const letters = [...new Set(people.flatMap((p) => Object.entries(p.failure).flatMap(([letter, at]) => (at === null ? [] : [letter]))))];
    if (letters.length) {
      const score = mean(letters.flatMap((letter) => pairs(people, (a, b) => (failuresAgree(a.failure[letter], b.failure[letter]) ? 1 : 0))));
      failureScores.push(score);
      low = Math.min(low, score);
    }
    if (low < 1) disputes.push({ itemId: people[0]!.itemId, seq: people[0]!.seq, task: people[0]!.task, dispute: 1 - low });
  }
  const agreement: MomentAgreement = {
    marks: figure(markScores, 'no item has marks in time and two or more people’s judgements'),
    failures: figure(failureScores, 'no item has a first failure and two or more people’s judgements'),
  };
  return { agreement, disputes };
}

/** Every person's marks in time on the project's items that have some (store/moments.ts). */
export function* projectMoments(db: Db, projectId: number): Generator<PersonMoments> {
  for (const row of momentBodies(db, projectId)) {
    const body = readLabelBody(row.body);
    const marks = momentsSchema.safeParse(body.moments ?? []);
    const failure = body.first_failure && typeof body.first_failure === 'object' ? (body.first_failure as Record<string, number | null>) : {};
    yield { itemId: row.itemId, seq: row.seq, task: row.task, annotator: row.annotatorId, marks: marks.success ? marks.data : [], failure };
  }
}

/** Puts the disputed items in their task's queue (in place) with the reason "moments"; how many rows carry it. */
export function addMomentReasons(db: Db, queues: Record<ReviewTask, QueueRow[]>, disputes: readonly MomentDispute[], adjudicated: (task: ReviewTask) => Set<number>): number {
  let flagged = 0;
  for (const task of ['pairwise', 'ranking', 'verdict'] as const) {
    const mine = disputes.filter((d) => d.task === task);
    if (mine.length) flagged += addReasonRows(db, queues[task], task, mine, 'moments', adjudicated(task));
  }
  return flagged;
}
