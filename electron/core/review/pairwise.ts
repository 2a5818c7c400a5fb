// Pairwise review: agreement on the choice and its strength, consensus (majority and Dawid–Skene), each
// person's figures, each model against the people, agreement over time, and the disagreement queue.
import type { AnnotatorFigures, FieldAgreement, ModelFigures, QueueReason, QueueRow, ReviewReport } from '../../../shared/api/review';
import type { ModelPairRow } from '../store/review';
import { CHOICE_CODES, OTHER_CHOICE, type PairLengths, type PairwiseHeads } from '../store/reviewHeads';
import { agreementWithConsensus, agreementWithOthers, lengthBias, positionBias, throughput } from './annotators';
import { Index, type ItemInfo } from './collect';
import { dawidSkene } from './dawidSkene';
import { fieldAgreement } from './fields';
import { majorityVote } from './majority';
import { anchoring, calibration, modelAccuracy } from './modelVsPeople';
import { ratingsFromTriples } from './ratings';

const CHOICES = CHOICE_CODES;
/** The models' mean P(A better) counts as unsure within this distance of ½. */
const UNSURE = 0.1;

export interface PairwiseReview {
  fields: FieldAgreement[];
  people: AnnotatorFigures[];
  models: ModelFigures[];
  consensus: ReviewReport['consensus'];
  overTime: ReviewReport['overTime'];
  queue: QueueRow[];
  labels: number;
  items: number;
  /** The labels by choice, as read (`arbiter stats` prints them): counted here, not by one more generator over 300k rows. */
  choices: Record<string, number>;
}

/**
 * An item's consensus: the majority of the votes (the items table's and the exports' rule); none (said as
 * an even split) where the votes split evenly.
 */
function pairConsensus(majority: number): Pick<QueueRow, 'consensus' | 'consensusMethod'> {
  if (majority >= 0) return { consensus: CHOICES[majority]!, consensusMethod: 'majority' };
  return { consensus: null, consensusMethod: null };
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Which response a pick went to, as `left` codes it (1 A, 2 B): the pick's side (1 left, 0 right), else NaN. */
function leftPick(code: number, left: number): number {
  if ((code !== 0 && code !== 1) || left === 0) return Number.NaN;
  return left - 1 === code ? 1 : 0;
}

/**
 * The heads as the figures' columns (one entry a head, typed arrays): items and people as dense indexes in
 * the order met, and the choices counted as read. No object is made per head.
 */
function headColumns(heads: PairwiseHeads, lengths: PairLengths) {
  const n = heads.length;
  const items = new Index<number>();
  const info: ItemInfo[] = [];
  const people = new Index<string>();
  const raterOf = new Map<number, number>();
  const unit = new Int32Array(n);
  const rater = new Int32Array(n);
  const choice = new Float64Array(n);
  const signed = new Float64Array(n);
  const left = new Float64Array(n);
  const chosenLen = new Float64Array(n);
  const otherLen = new Float64Array(n);
  const visible = new Float64Array(n);
  const choices: Record<string, number> = {};
  let lastItem = Number.NaN;
  let u = -1;
  for (let i = 0; i < n; i++) {
    const itemId = heads.itemId[i]!;
    // A project's heads come item by item: the index is asked once an item.
    if (itemId !== lastItem) {
      const before = items.size;
      u = items.of(itemId);
      if (u === before) info.push({ itemId, seq: heads.seq[i]!, externalId: null });
      lastItem = itemId;
    }
    unit[i] = u;
    const annotatorId = heads.annotatorId[i]!;
    let r = raterOf.get(annotatorId);
    if (r === undefined) raterOf.set(annotatorId, (r = people.of(heads.names.get(annotatorId)!)));
    rater[i] = r;
    const code = heads.choice[i]!;
    const name = code < OTHER_CHOICE ? CHOICES[code]! : code === OTHER_CHOICE ? heads.otherChoices.get(i) : undefined;
    if (name !== undefined) choices[name] = (choices[name] ?? 0) + 1;
    const c = code < OTHER_CHOICE ? code : -1;
    choice[i] = c;
    const strength = heads.strength[i] || Number.NaN;
    signed[i] = c === 0 ? -strength : c === 1 ? strength : c === 2 ? 0 : Number.NaN;
    left[i] = leftPick(c, heads.left[i]!);
    const v = heads.visible[i]!;
    visible[i] = v === 0 ? Number.NaN : v - 1;
  }
  // The first two responses' lengths by unit (NaN where the item has none), then each pick's.
  const first = new Float64Array(items.size).fill(Number.NaN);
  const second = new Float64Array(items.size).fill(Number.NaN);
  for (let j = 0; j < lengths.length; j++) {
    const at = items.find(lengths.itemId[j]!);
    if (at === undefined) continue;
    first[at] = lengths.first[j]!;
    second[at] = lengths.second[j]!;
  }
  for (let i = 0; i < n; i++) {
    const c = choice[i]!;
    const known = (c === 0 || c === 1) && !Number.isNaN(first[unit[i]!]!);
    chosenLen[i] = known ? (c === 0 ? first : second)[unit[i]!]! : Number.NaN;
    otherLen[i] = known ? (c === 0 ? second : first)[unit[i]!]! : Number.NaN;
  }
  return { items, info, people, unit, rater, choice, signed, left, chosenLen, otherLen, savedAt: heads.savedMs, timeMs: heads.timeMs, visible, choices };
}

export function reviewPairwise(heads: PairwiseHeads, lengths: PairLengths, modelRows: ModelPairRow[], adjudicated: Set<number>): PairwiseReview {
  const cols = headColumns(heads, lengths);
  const { items, info, people, unit, rater, choices } = cols;
  const labels = heads.length;
  const units = items.size;
  const raters = people.size;
  const choice = ratingsFromTriples(units, raters, unit, rater, cols.choice);
  const signed = ratingsFromTriples(units, raters, unit, rater, cols.signed);
  const names = people.ids;
  const fields = [fieldAgreement('pairwise', 'choice', 'nominal', choice, names), fieldAgreement('pairwise', 'strength', 'interval', signed, names)];

  const majority = majorityVote(choice, CHOICES.length);
  const ds = dawidSkene(choice, { categories: CHOICES.length });
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

  const withOthers = agreementWithOthers(choice);
  const withConsensus = agreementWithConsensus(choice, ds.label);
  const left = positionBias(rater, cols.left, raters);
  const longer = lengthBias(rater, cols.chosenLen, cols.otherLen, raters);
  const pace = throughput(rater, cols.savedAt, cols.timeMs, raters);
  const perRater = new Int32Array(raters);
  for (const r of rater) perRater[r] = perRater[r]! + 1;
  const peopleFigures: AnnotatorFigures[] = names.map((name, r) => ({
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
  const models: ModelFigures[] = [...byModel].map(([model, p]) => {
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

  const queue: QueueRow[] = [];
  const { start, value } = choice;
  for (let u = 0; u < units; u++) {
    const votes: Record<string, number> = {};
    let total = 0;
    let top = 0;
    for (let i = start[u]!; i < start[u + 1]!; i++) {
      const key = CHOICES[value[i]!]!;
      votes[key] = (votes[key] ?? 0) + 1;
      total++;
      top = Math.max(top, votes[key]);
    }
    const reasons: QueueReason[] = [];
    const dispute = total >= 2 ? 1 - top / total : 0;
    if (dispute > 0) reasons.push('annotators');
    const pA = ensemble[u]!;
    const hasModel = Number.isFinite(pA);
    if (hasModel && consensusAB[u]! >= 0 && (pA > 0.5 ? 0 : pA < 0.5 ? 1 : -1) !== consensusAB[u]) reasons.push('model');
    if (hasModel && (Math.abs(pA - 0.5) <= UNSURE || split[u] === 1)) reasons.push('uncertain');
    if (!reasons.length) continue;
    const unsure = hasModel ? 1 - Math.abs(2 * pA - 1) : 0;
    queue.push({
      itemId: info[u]!.itemId,
      seq: info[u]!.seq,
      externalId: info[u]!.externalId,
      task: 'pairwise',
      reasons,
      dispute: dispute + (reasons.includes('model') ? 0.5 : 0) + (reasons.includes('uncertain') ? 0.25 * unsure : 0),
      votes,
      labels: total,
      modelPA: hasModel ? pA : null,
      ...pairConsensus(majority.label[u]!),
      adjudicated: adjudicated.has(info[u]!.itemId),
    });
  }
  return { fields, people: peopleFigures, models, consensus, overTime: agreementByWeek(unit, cols.choice, cols.savedAt, units), queue, labels, items: units, choices };
}

const DAY_MS = 86_400_000;

/** The day number (since 1970-01-01, a Thursday) of the Monday of the label's UTC week. */
function weekOf(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  return day - ((day + 3) % 7);
}

/** Per week a label was made: the share of its pairs with the item's other labels that agree on the choice. */
function agreementByWeek(unit: Int32Array, choice: Float64Array, savedAt: Float64Array, units: number): ReviewReport['overTime'] {
  const byUnit: number[][] = Array.from({ length: units }, () => []);
  for (let i = 0; i < unit.length; i++) byUnit[unit[i]!]!.push(i);
  const weeks = new Map<number, { agree: number; pairs: number }>();
  for (const entries of byUnit) {
    if (entries.length < 2) continue;
    for (const i of entries) {
      if (!Number.isFinite(savedAt[i]!)) continue;
      const week = weekOf(savedAt[i]!);
      const w = weeks.get(week) ?? { agree: 0, pairs: 0 };
      for (const j of entries) {
        if (j === i) continue;
        w.pairs++;
        if (choice[i] === choice[j]) w.agree++;
      }
      weeks.set(week, w);
    }
  }
  return [...weeks]
    .sort(([a], [b]) => a - b)
    .map(([week, w]) => ({ week: new Date(week * DAY_MS).toISOString().slice(0, 10), agreement: { value: w.agree / w.pairs, n: w.pairs, reason: null } }));
}
