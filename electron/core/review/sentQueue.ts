// The review queue's reason "sent": items a lead sent from the items explorer's selection
// (service/review.ts sendToReview, store/review.ts sentToReview). Each goes to the queue of every review
// task people judged it in, else of its shape's task (a pair: pairwise; three or more responses: ranking;
// a chain or a trajectory: steps; a single response: verdict). A row queued already for another reason
// gets the reason added; another item gets a row of its own (for pairs and verdicts with the people's votes),
// after the disputed rows.
import { REVIEW_TASKS, type QueueReason, type QueueRow, type ReviewTask } from '../../../shared/api/review';
import type { Db } from '../store/db';
import { humanChoicesOn } from '../store/evaluation';
import { sentToReview } from '../store/review';
import { majorityOfVotes } from './majority';

/**
 * A send adds nothing to the dispute: the dispute says how split people (and models) are, and the items
 * explorer shows it as "Split"; the reason filter "sent" lists the sent rows together.
 */
const SENT_WEIGHT = 0;

function tasksOf(sent: { responses: number; steps: boolean; tasks: string[] }): ReviewTask[] {
  const judged = REVIEW_TASKS.filter((t) => sent.tasks.includes(t));
  if (judged.length) return judged;
  return [sent.responses === 2 ? 'pairwise' : sent.responses > 2 ? 'ranking' : sent.steps ? 'steps' : 'verdict'];
}

/** Adds the sent items to the queues (in place); how many rows carry the reason. */
export function addSentReasons(db: Db, projectId: number, queues: Record<ReviewTask, QueueRow[]>, adjudicated: (task: ReviewTask) => Set<number>): number {
  const sent = sentToReview(db, projectId);
  if (!sent.length) return 0;
  let flagged = 0;
  for (const task of REVIEW_TASKS) {
    const mine = sent.filter((s) => tasksOf(s).includes(task));
    if (mine.length) flagged += addReasonRows(db, queues[task], task, mine.map((s) => ({ itemId: s.itemId, seq: s.seq, dispute: SENT_WEIGHT, sent: { by: s.by, at: s.at } })), 'sent', adjudicated(task));
  }
  return flagged;
}

/**
 * Gives `items` the reason in `task`'s queue (in place): a row queued already gets the reason added (its
 * dispute raised to the item's where that is higher); another item gets a row of its own (for pairs and
 * verdicts with the people's votes). Also the reason "moments" (review/moments.ts). How many rows carry it.
 */
export function addReasonRows(
  db: Db,
  queue: QueueRow[],
  task: ReviewTask,
  items: readonly { itemId: number; seq: number; dispute: number; sent?: { by: string; at: string } }[],
  reason: QueueReason,
  resolved: Set<number>,
): number {
  const rows = new Map(queue.map((r) => [r.itemId, r]));
  const people = task === 'pairwise' || task === 'verdict' ? humanChoicesOn(db, items.map((s) => s.itemId), task) : null;
  for (const s of items) {
    const row = rows.get(s.itemId);
    if (row) {
      if (!row.reasons.includes(reason)) row.reasons.push(reason);
      row.dispute = Math.max(row.dispute, s.dispute);
      if (s.sent) row.sent = s.sent;
    } else {
      const votes: Record<string, number> = {};
      for (const c of people?.get(s.itemId)?.choices ?? []) votes[c] = (votes[c] ?? 0) + 1;
      const consensus = majorityOfVotes(votes);
      queue.push({
        itemId: s.itemId, seq: s.seq, externalId: null, task, reasons: [reason], dispute: s.dispute, votes, labels: Object.values(votes).reduce((a, n) => a + n, 0),
        modelPA: null, consensus, consensusMethod: consensus === null ? null : 'majority', adjudicated: resolved.has(s.itemId), ...(s.sent ? { sent: s.sent } : {}),
      });
    }
  }
  return items.length;
}
