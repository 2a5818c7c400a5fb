// The review report of a project and its disagreement queues, from one consistent read of the store (a
// stats job runs this on a task worker's connection, inside one read transaction).
import type { QueueReason, QueueRow, ReviewReport, ReviewTask } from '../../../shared/api/review';
import type { Db } from '../store/db';
import { adjudicatedByTask, humanAnnotatorCount, humanLabels, itemExternalIds, modelPairRewards, trajectoryResponses, withReadCache } from '../store/review';
import { pairLengths, pairwiseHeads, type PairLengths } from '../store/reviewHeads';
import { findProject } from '../store/projects';
import { goldAccuracy } from './goldAccuracy';
import { reviewRankings, reviewRubrics, reviewSteps, reviewVerdicts } from './judgements';
import { withMinimums } from './minimums';
import { addJudgeReasons } from './evaluation/judgeQueue';
import { addSentReasons } from './sentQueue';
import { reviewPairwise } from './pairwise';
import { addMomentReasons, momentReview, projectMoments } from './moments';
import { regionWatcher } from './regions';

/** No lengths: the queues do not read them. */
const NO_LENGTHS: PairLengths = { length: 0, itemId: new Float64Array(0), first: new Float64Array(0), second: new Float64Array(0) };

export interface Review {
  report: ReviewReport;
  /** Per task, most disputed first. */
  queues: Record<ReviewTask, QueueRow[]>;
  /** The current pairwise labels of people by choice, counted as the review reads them (`arbiter stats` prints them). */
  pairwiseChoices: Record<string, number>;
}

/** Queue rows with their items' external ids filled in (read only for the rows shown: a page, not 100k). */
export function withExternalIds(db: Db, rows: QueueRow[]): QueueRow[] {
  const ids = itemExternalIds(db, [...new Set(rows.map((r) => r.itemId))]);
  return rows.map((r) => ({ ...r, externalId: ids.get(r.itemId) ?? null }));
}

/** Most disputed first; then the item with more labels; then source order. */
function byDispute(a: QueueRow, b: QueueRow): number {
  return b.dispute - a.dispute || b.labels - a.labels || a.seq - b.seq;
}

/** Each person's accuracy against gold (a project deleted meanwhile has none). */
function goldOfPeople(db: Db, name: string): ReviewReport['gold'] {
  const row = findProject(db, name);
  return row ? goldAccuracy(db, row) : { tasks: [] };
}

export function buildReview(db: Db, project: { id: number; name: string }): Review {
  return withReadCache(db, () => readReview(db, project, true));
}

/**
 * The disagreement queues alone, as buildReview makes them (the items explorer's facts: ./itemFacts.ts):
 * no agreement figure is worked out and the pairs' lengths are not read. At 10M items (2M judged) 6.7 s
 * against 18 s. `cacheKib`: the page cache for the read.
 */
export function reviewQueues(db: Db, project: { id: number; name: string }, cacheKib?: number): Review['queues'] {
  return withReadCache(db, () => readReview(db, project, false).queues, cacheKib);
}

/** `figures`: false works out the queues alone (the report then holds no agreement figure: not for reading). */
function readReview(db: Db, project: { id: number; name: string }, figures: boolean): Review {
  return db.transaction(() => {
    // Region marks ride in every task's revisions: collected as each task's labels are read.
    const regions = regionWatcher();
    const labelsOf = (task: Exclude<ReviewTask, 'pairwise'> | 'rubric') => regions.watch(humanLabels(db, project.id, task));
    // Pairwise heads come as columns; the few with region marks carry their bodies.
    const lengths = figures ? pairLengths(db, project.id) : NO_LENGTHS;
    const heads = pairwiseHeads(db, project.id, figures);
    regions.see(heads.bodies);
    // Every task's adjudicated items in one read (asked per task, each ask walked the project's items).
    const adjudicated = adjudicatedByTask(db, project.id);
    const pairwise = reviewPairwise(heads, lengths, modelPairRewards(db, project.id), adjudicated('pairwise'), figures);
    const ranking = reviewRankings(labelsOf('ranking'), adjudicated('ranking'));
    const verdict = reviewVerdicts(labelsOf('verdict'), adjudicated('verdict'));
    const steps = reviewSteps(labelsOf('steps'), adjudicated('steps'), trajectoryResponses(db, project.id));
    const rubric = reviewRubrics(labelsOf('rubric'));
    // The pairwise rows are made only when a reason is added to them or the queue is read.
    const pending = { get pairwise() { return pairwise.queue.rows(); }, ranking: ranking.queue, verdict: verdict.queue, steps: steps.queue };
    addJudgeReasons(db, project.id, () => pairwise.queue.rows(), adjudicated('pairwise'));
    addSentReasons(db, project.id, pending, adjudicated);
    // Marks in time on videos: agreement as for region marks; items people disagree on join the queues.
    const moments = momentReview(projectMoments(db, project.id));
    addMomentReasons(db, pending, moments.disputes, adjudicated);
    const others = [ranking.queue.sort(byDispute), verdict.queue.sort(byDispute), steps.queue.sort(byDispute)];
    let sorted: QueueRow[] | null = null;
    const queues: Review['queues'] = {
      // Sorted when first read (JSON, a worker's message and Object.values read it too).
      get pairwise() {
        return (sorted ??= pairwise.queue.rows().sort(byDispute));
      },
      ranking: others[0]!,
      verdict: others[1]!,
      steps: others[2]!,
    };
    const byReason = { annotators: 0, model: 0, uncertain: 0, judge: 0, sent: 0, moments: 0 } as Record<QueueReason, number>;
    let total = 0;
    let resolved = 0;
    const count = (rows: QueueRow[]) => {
      total += rows.length;
      for (const row of rows) {
        for (const reason of row.reasons) byReason[reason]++;
        if (row.adjudicated) resolved++;
      }
    };
    if (pairwise.queue.made()) count(queues.pairwise);
    else {
      const c = pairwise.queue.counts;
      total += c.total;
      resolved += c.adjudicated;
      for (const [reason, n] of Object.entries(c.byReason) as [QueueReason, number][]) byReason[reason] += n;
    }
    others.forEach(count);
    const annotators = humanAnnotatorCount(db, project.id);
    const report: ReviewReport = withMinimums({
      project: project.name,
      computedAt: new Date().toISOString(),
      labels: pairwise.labels + ranking.labels + verdict.labels + steps.labels + rubric.labels,
      items: pairwise.items,
      annotators,
      fields: [...pairwise.fields, ...ranking.fields, ...verdict.fields, ...steps.fields, ...rubric.fields]
        // Trajectory fields (with `about`) show once anyone judged a trajectory, a figure without data saying why.
        .filter((f) => f.task === 'pairwise' || f.about !== undefined || f.percent.n > 0 || f.alpha.n > 0),
      people: pairwise.people,
      models: pairwise.models,
      consensus: pairwise.consensus,
      overTime: pairwise.overTime,
      queue: { total, byReason, adjudicated: resolved },
      regions: regions.result(),
      moments: moments.agreement,
      gold: figures ? goldOfPeople(db, project.name) : { tasks: [] },
    });
    return { report, queues, pairwiseChoices: pairwise.choices };
  }).deferred();
}
