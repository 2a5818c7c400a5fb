// Pairwise review: agreement on the choice and its strength, consensus (majority and Dawid–Skene), each
// person's figures, each model against the people, agreement over time, and the disagreement queue.
import type { AnnotatorFigures, FieldAgreement, ModelFigures, ReviewReport } from '../../../shared/api/review';
import type { ModelPairRow } from '../store/review';
import { CHOICE_CODES, type PairLengths, type PairwiseHeads } from '../store/reviewHeads';
import { agreementWithConsensus, agreementWithOthers, lengthBias, positionBias, throughput } from './annotators';
import { headColumns } from './pairwiseColumns';
import { pairwiseQueue, type LazyQueue } from './pairwiseQueue';
import { dawidSkene, type DawidSkene } from './dawidSkene';
import { fieldAgreement } from './fields';
import { majorityVote } from './majority';
import { anchoring, calibration, modelAccuracy } from './modelVsPeople';
import { ratingsFromTriples, type Ratings } from './ratings';

const CHOICES = CHOICE_CODES;

export interface PairwiseReview {
  fields: FieldAgreement[];
  people: AnnotatorFigures[];
  models: ModelFigures[];
  consensus: ReviewReport['consensus'];
  overTime: ReviewReport['overTime'];
  /** The disagreement queue: its counts at once, its rows made when first asked (`arbiter stats` never asks). */
  queue: LazyQueue;
  labels: number;
  items: number;
  /** The labels by choice, as read (`arbiter stats` prints them): counted here, not by one more generator over 300k rows. */
  choices: Record<string, number>;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * `figures`: false works out what the queue reads alone (the consensus, the models' P(A better)), not the
 * agreement figures, people's or models' (report.ts reviewQueues): they come back empty.
 */
export function reviewPairwise(heads: PairwiseHeads, lengths: PairLengths, modelRows: ModelPairRow[], adjudicated: Set<number>, figures = true): PairwiseReview {
  const cols = headColumns(heads, lengths, figures);
  const { items, unitItem, unitSeq, people, unit, rater, choices } = cols;
  const labels = heads.length;
  const units = items.size;
  const raters = people.size;
  const choice = ratingsFromTriples(units, raters, unit, rater, cols.choice);
  const names = people.ids;
  const fields = figures
    ? [fieldAgreement('pairwise', 'choice', 'nominal', choice, names), fieldAgreement('pairwise', 'strength', 'interval', ratingsFromTriples(units, raters, unit, rater, cols.signed), names)]
    : [];

  const majority = majorityVote(choice, CHOICES.length);
  const ds = dawidSkene(choice, { categories: CHOICES.length, majority, perUnit: figures });
  let both = 0;
  let same = 0;
  for (let u = 0; u < units; u++) {
    if (majority.label[u]! < 0 || ds.label[u]! < 0) continue;
    both++;
    if (majority.label[u] === ds.label[u]) same++;
  }
  const consensus = {
    method: 'dawid-skene' as const,
    items: ds.n,
    ties: ds.ties,
    agreeWithMajority: both ? { value: same / both, n: both, reason: null } : { value: null, n: 0, reason: 'no item has both a majority and a Dawid–Skene label' },
  };

  const peopleFigures = figures ? peopleOf(cols, choice, ds, names, raters) : [];

  // Models: P(A better) per item from each model's two rewards (Bradley–Terry), and their mean.
  const byModel = new Map<string, Float64Array>();
  for (const m of modelRows) {
    const u = items.find(m.itemId);
    if (u === undefined) continue;
    let p = byModel.get(m.model);
    if (!p) byModel.set(m.model, (p = new Float64Array(units).fill(Number.NaN)));
    p[u] = sigmoid(m.rewardA - m.rewardB);
  }
  const consensusAB = Int32Array.from(ds.label, (l) => (l === 0 || l === 1 ? l : -1));
  const models: ModelFigures[] = !figures ? [] : [...byModel].map(([model, p]) => {
    const predicted = Int32Array.from(p, (x) => (x > 0.5 ? 0 : x < 0.5 ? 1 : -1));
    const pKnown: number[] = [];
    const outcome: number[] = [];
    for (let u = 0; u < units; u++) {
      if (consensusAB[u]! < 0 || !Number.isFinite(p[u]!)) continue;
      pKnown.push(p[u]!);
      outcome.push(consensusAB[u] === 0 ? 1 : 0);
    }
    const cal = calibration(pKnown, outcome, 10);
    const human = Float64Array.from(cols.choice, (c) => (c === 0 || c === 1 ? c : -1));
    const modelOfLabel = Float64Array.from(unit, (u) => predicted[u]!);
    const anchor = anchoring(human, modelOfLabel, cols.visible);
    return {
      model,
      accuracy: modelAccuracy(consensusAB, predicted),
      brier: cal.brier,
      ece: cal.ece,
      bins: cal.bins.map((b) => ({ low: b.low, high: b.high, n: b.n, meanPredicted: b.meanPredicted, meanObserved: b.meanObserved })),
      anchoring: { visible: anchor.visible, hidden: anchor.hidden, difference: anchor.difference },
    };
  });
  const ensemble = new Float64Array(units).fill(Number.NaN);
  const split = new Uint8Array(units);
  if (byModel.size) {
    for (let u = 0; u < units; u++) {
      let sum = 0;
      let n = 0;
      let sawA = false;
      let sawB = false;
      for (const p of byModel.values()) {
        if (!Number.isFinite(p[u]!)) continue;
        sum += p[u]!;
        n++;
        if (p[u]! > 0.5) sawA = true;
        if (p[u]! < 0.5) sawB = true;
      }
      if (n) ensemble[u] = sum / n;
      split[u] = sawA && sawB ? 1 : 0;
    }
  }

  const queue = pairwiseQueue({ choice, ensemble, split, consensusAB, majority: majority.label, unitItem, unitSeq, adjudicated });
  const overTime = figures ? agreementByWeek(unit, cols.choice, cols.savedAt, units) : [];
  return { fields, people: peopleFigures, models, consensus, overTime, queue, labels, items: units, choices };
}

/** Each person's figures: agreement with the others and the consensus, position and length bias, pace, reliability. */
function peopleOf(cols: ReturnType<typeof headColumns>, choice: Ratings, ds: DawidSkene, names: string[], raters: number): AnnotatorFigures[] {
  const { rater } = cols;
  const withOthers = agreementWithOthers(choice);
  const withConsensus = agreementWithConsensus(choice, ds.label);
  const left = positionBias(rater, cols.left, raters);
  const longer = lengthBias(rater, cols.chosenLen, cols.otherLen, raters);
  const pace = throughput(rater, cols.savedAt, cols.timeMs, raters);
  const perRater = new Int32Array(raters);
  for (const r of rater) perRater[r] = perRater[r]! + 1;
  return names.map((name, r) => ({
    name,
    labels: perRater[r]!,
    withOthers: withOthers[r]!,
    withConsensus: withConsensus[r]!,
    leftPicks: left[r]!,
    longerPicks: longer[r]!,
    labelsPerHour: pace[r]!.labelsPerHour,
    medianTimeMs: pace[r]!.medianTimeMs,
    reliability: ds.reliability[r]!,
  }));
}

const DAY_MS = 86_400_000;

/** The day number (since 1970-01-01, a Thursday) of the Monday of a day's UTC week. */
function weekOf(day: number): number {
  return day - ((day + 3) % 7);
}

/** Per week a label was made: the share of its pairs with the item's other labels that agree on the choice. */
function agreementByWeek(unit: Int32Array, choice: Float64Array, savedAt: Float64Array, units: number): ReviewReport['overTime'] {
  // The labels by unit, in the order read (a counting sort: no array a unit).
  const start = new Int32Array(units + 1);
  for (let i = 0; i < unit.length; i++) start[unit[i]! + 1]!++;
  for (let u = 0; u < units; u++) start[u + 1] = start[u + 1]! + start[u]!;
  const fill = start.slice(0, units);
  const order = new Int32Array(unit.length);
  for (let i = 0; i < unit.length; i++) order[fill[unit[i]!]!++] = i;
  const weeks = new Map<number, { agree: number; pairs: number }>();
  // Labels saved one after another fall on the same day: its week is worked out once a day met.
  let lastDay = Number.NaN;
  let w = { agree: 0, pairs: 0 };
  for (let u = 0; u < units; u++) {
    const from = start[u]!;
    const to = start[u + 1]!;
    if (to - from < 2) continue;
    for (let a = from; a < to; a++) {
      const i = order[a]!;
      if (!Number.isFinite(savedAt[i]!)) continue;
      const day = Math.floor(savedAt[i]! / DAY_MS);
      if (day !== lastDay) {
        const week = weekOf(day);
        w = weeks.get(week) ?? { agree: 0, pairs: 0 };
        weeks.set(week, w);
        lastDay = day;
      }
      for (let b = from; b < to; b++) {
        const j = order[b]!;
        if (j === i) continue;
        w.pairs++;
        if (choice[i] === choice[j]) w.agree++;
      }
    }
  }
  return [...weeks]
    .sort(([a], [b]) => a - b)
    .map(([week, w]) => ({ week: new Date(week * DAY_MS).toISOString().slice(0, 10), agreement: { value: w.agree / w.pairs, n: w.pairs, reason: null } }));
}
