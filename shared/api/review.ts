// Team review: agreement per field, per annotator and against the models; the disagreement queue; the
// adjudication view and the lead's resolution (the gold label on export). The figures are computed by a
// job on a task worker (reviewReport) and cached until a label or an adjudication changes.
import { z } from 'zod';
import { ALL_OUTCOMES } from '../stepJudgement';
import { annotatorName, itemId, projectName } from './common';
import type { GoldAccuracyReport } from './goldRules';
import type { Moment } from '../moments';
import type { RegionMark } from '../regions';
import type { LabelBody, StepsBody } from '../labelBodies';

export const REVIEW_TASKS = ['pairwise', 'ranking', 'verdict', 'steps'] as const;
export type ReviewTask = (typeof REVIEW_TASKS)[number];
/**
 * Why an item is in the queue: people disagree, their consensus and the models disagree, the models are
 * unsure, a local judge disagrees with people or flips with the order, or a lead sent it from the items
 * explorer's selection (sendToReview).
 */
export const QUEUE_REASONS = ['annotators', 'model', 'uncertain', 'judge', 'sent', 'moments'] as const;
/** The most items one send names, and the most sent items a project keeps (the oldest sends leave first). */
export const MAX_SENT = 1000;
export type QueueReason = (typeof QUEUE_REASONS)[number];

const choice = z.enum(['A', 'B', 'tie', 'both_bad']);

export const reviewSchemas = {
  /** Every figure of the dashboard (and `arbiter stats --json`); recomputed only when labels changed. */
  reviewReport: z.object({ project: projectName, refresh: z.boolean().default(false) }).strict(),
  /** The disagreement queue, most disputed first. */
  reviewQueue: z
    .object({
      project: projectName,
      task: z.enum(REVIEW_TASKS).default('pairwise'),
      reason: z.enum(QUEUE_REASONS).optional(),
      includeAdjudicated: z.boolean().default(true),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(500).default(100),
    })
    .strict(),
  /**
   * A lead sends items to the review queue (the items explorer's selection): each is queued with the reason
   * "sent" and who sent it, in the queue of its task (the tasks people judged it in, else its shape's: a pair
   * pairwise, three or more responses ranking, a chain or trajectory steps, a single response verdict).
   */
  sendToReview: z.object({ project: projectName, annotator: annotatorName, itemIds: z.array(itemId).min(1).max(MAX_SENT) }).strict(),
  /** One item's labels side by side, the models' view, and its adjudication if any. */
  adjudicationView: z.object({ project: projectName, itemId, task: z.enum(REVIEW_TASKS).default('pairwise') }).strict(),
  /** The lead's resolved label and note: the item's gold label on export from now on. */
  adjudicate: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId,
      task: z.enum(REVIEW_TASKS).default('pairwise'),
      choice: choice.optional(),
      strength: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable().optional(),
      verdict: z.enum(['good', 'bad']).optional(),
      ranking: z.array(z.array(z.number().int().min(0)).min(1)).min(1).optional(),
      /** Steps: per response letter, the index of the first wrong step (−1: no error). */
      firstError: z.record(z.string().regex(/^[A-Z]$/), z.number().int().min(-1)).optional(),
      /** Steps: per response letter, the outcome (a trajectory's task: success / partial / failure; a chain's answer: correct / incorrect / unsure). */
      outcome: z.record(z.string().regex(/^[A-Z]$/), z.enum(ALL_OUTCOMES)).optional(),
      note: z.string().max(20_000).default(''),
    })
    .strict(),
} as const;

/**
 * The least data a figure is shown on: below it the figure is null with the reason "not enough data: 1 item
 * (10 needed)". Items for agreement and model figures, labels for a person's (labels per hour: timed labels).
 */
export const MIN_ITEMS = 10;
export const MIN_LABELS = 10;

/** A figure with the number of items (or labels, pairs: each says) it rests on; null with a reason when undefined. */
export interface Figure {
  value: number | null;
  n: number;
  reason: string | null;
}

export interface ProportionFigure extends Figure {
  low: number | null;
  high: number | null;
}

export interface FieldAgreement {
  task: ReviewTask | 'rubric';
  /** choice, strength, ranking, first_error, step_ratings, or a rubric criterion as `rubric:<name>/<key>`. */
  field: string;
  level: 'nominal' | 'ordinal' | 'interval';
  percent: Figure;
  /** Cohen's κ between the two annotators with the most items in common. */
  cohen: (Figure & { between: [string, string] }) | null;
  fleiss: Figure | null;
  /** Krippendorff's α at `level`. */
  alpha: Figure;
  /** Rating scales (numbers): α at a second level, named (the interval level beside the ordinal). */
  alsoAlpha?: Figure & { level: 'nominal' | 'ordinal' | 'interval' };
  /** Rankings only: Kendall's W over items every ranker ranked, and its mean over items. */
  kendallW?: Figure;
  /** First error only: agreement within one step. */
  withinOne?: Figure;
  /** What the figure measures, in one sentence (the trajectory fields: the dashboard shows it with its n). */
  about?: string;
}

/** What people can split on about a trajectory (the queue's `trajectory.disputed`). */
export const TRAJECTORY_DISPUTES = ['first_error', 'outcome'] as const;
export type TrajectoryDispute = (typeof TRAJECTORY_DISPUTES)[number];

export interface AnnotatorFigures {
  name: string;
  labels: number;
  withOthers: Figure;
  withConsensus: Figure;
  /** Share of left picks (position bias), against 50%. */
  leftPicks: ProportionFigure;
  /** Share of picks of the longer response (length bias). */
  longerPicks: ProportionFigure;
  labelsPerHour: Figure;
  medianTimeMs: Figure;
  /** Dawid–Skene's estimate of the share of this person's labels that are right. */
  reliability: Figure;
}

export interface ModelFigures {
  model: string;
  /** Items with both a consensus choice (A or B) and the model's rewards. */
  accuracy: Figure;
  brier: Figure;
  ece: Figure;
  /** Reliability diagram: P(A better) in ten bins, with the share of items people judged A better. */
  bins: { low: number; high: number; n: number; meanPredicted: number | null; meanObserved: number | null }[];
  /** Agreement of people with the model when its pre-label was visible, and when it was not (anchoring). */
  anchoring: { visible: ProportionFigure; hidden: ProportionFigure; difference: ProportionFigure };
}

export interface QueueRow {
  itemId: number;
  seq: number;
  externalId: string | null;
  task: ReviewTask;
  reasons: QueueReason[];
  /** 0 (all agree) … 1 (as split as it can be); the model reasons add their own weight. */
  dispute: number;
  /** Human votes by value (A, B, tie…; a ranking's best response; a first-error index). */
  votes: Record<string, number>;
  labels: number;
  /** The models' mean P(A better), when they scored the pair. */
  modelPA: number | null;
  /**
   * What the people's labels decide: the majority of their votes (as on the items table and in every
   * export); where the votes split evenly, Dawid–Skene (votes weighted by each person's estimated
   * reliability) when it picks one; else null.
   */
  consensus: string | null;
  /** Which method decided `consensus` (null when nothing did). */
  consensusMethod: 'majority' | 'dawid-skene' | null;
  adjudicated: boolean;
  /**
   * Steps of an agent trajectory: the row is named "trajectory, 12 turns" (the turns of its most disputed
   * response) and says what people split on: the first error turn, the task outcome, or both. Its votes
   * then hold both kinds ("A: turn 7", "A: failure"), and its consensus each kind's majority.
   */
  trajectory?: { turns: number | null; disputed: TrajectoryDispute[] };
  /** Reason "sent": who sent the item to review from the items explorer, and when. */
  sent?: { by: string; at: string };
}

/**
 * Region marks (electron/core/review/regions.ts), where two or more people marked the same image. Boxes:
 * the mean IoU of their best-matched boxes (greedy by IoU, a box without a partner counts 0), per pair of
 * people, averaged per image, then over images; n = images two or more people boxed. Not present: per image
 * and tag someone said is not present, the share of pairs of people who say the same; n = those image-tags.
 */
export interface RegionAgreement {
  boxes: Figure;
  absent: Figure;
}

/**
 * Marks in time on videos (electron/core/review/moments.ts, shared/moments.ts), where two or more people
 * judged an item someone marked. Marks: per pair of people the F1 of their marks paired one to one (same
 * response and tag; ranges by temporal IoU ≥ 0.5, instants within 0.5 s), averaged per item, then over
 * items; n = those items. Failures: per response someone set a first failure, the share of pairs of people
 * who agree (both none, or within 0.5 s); n = those items.
 */
export interface MomentAgreement {
  marks: Figure;
  failures: Figure;
}

export interface ReviewReport {
  project: string;
  computedAt: string;
  /** Current human labels the figures rest on. */
  labels: number;
  items: number;
  annotators: number;
  fields: FieldAgreement[];
  people: AnnotatorFigures[];
  models: ModelFigures[];
  consensus: { method: 'majority' | 'dawid-skene'; items: number; ties: number; agreeWithMajority: Figure };
  /** Agreement (choice, percent) per week of labeling: the label's week and the item's other labels. */
  overTime: { week: string; agreement: Figure }[];
  queue: { total: number; byReason: Record<QueueReason, number>; adjudicated: number };
  /** Agreement on region marks (images), over every task's current human labels. */
  regions: RegionAgreement;
  /** Agreement on marks in time and first failures (videos), over the current human judgements. */
  moments: MomentAgreement;
  /** Each person's accuracy against gold per task, and their qualification (shared/api/goldRules.ts). */
  gold: GoldAccuracyReport;
}

export interface AdjudicationLabel {
  annotator: string;
  kind: string;
  choice: string | null;
  strength: number | null;
  ranking: number[][] | null;
  rationale: string | null;
  /** Steps, per response letter, as the steps body holds them (shared/labelBodies.ts). */
  steps: StepsBody['steps'] | null;
  firstError: StepsBody['first_error'] | null;
  /** Steps, per response letter and step index: error tags, their severity, tool call verdicts, corrections. */
  stepTags: StepsBody['step_tags'] | null;
  stepSeverity: StepsBody['step_severity'] | null;
  toolVerdicts: StepsBody['tool_verdicts'] | null;
  corrections: StepsBody['corrections'] | null;
  /** Steps, per response letter: the outcome, and who / which turn decided a failure. */
  outcome: StepsBody['outcome'] | null;
  attribution: StepsBody['attribution'] | null;
  ratings: Record<string, Record<string, number | string | null>> | null;
  /** Marks on the item's images in this revision (shared/regions.ts). */
  regions: RegionMark[] | null;
  /** Marks in time on the item's videos in this revision, and first failures by response letter (shared/moments.ts). */
  moments: Moment[] | null;
  firstFailure: Record<string, number | null> | null;
  prelabelVisible: boolean | null;
  timeMs: number | null;
  createdAt: string;
}

export interface AdjudicationView {
  itemId: number;
  task: ReviewTask;
  labels: AdjudicationLabel[];
  models: { model: string; rewards: (number | null)[]; pA: number | null }[];
  adjudication: { by: string; note: string; createdAt: string; choice: string | null; strength: number | null; ranking: number[][] | null; body: LabelBody } | null;
}

export interface ReviewOutputs {
  reviewReport: ReviewReport;
  reviewQueue: { rows: QueueRow[]; total: number };
  adjudicationView: AdjudicationView;
  adjudicate: { id: string; labelId: string };
  /** Items now in the queue as sent (a resend moves an item's send to now); `dropped`: the oldest sends let go past MAX_SENT. */
  sendToReview: { sent: number; dropped: number };
}
