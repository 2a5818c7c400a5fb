// The review queue's reason "judge": pairs where a local judge's verdict (its newest, per model file and
// template version) differs from the people's (a lead's resolution, else the people's majority), or where
// the judge flipped with the presentation order. A row already queued for another reason gets the reason
// added; another pair gets a row of its own. Read from the judges' stored results (store/judges.ts).
import type { QueueRow } from '../../../../shared/api/review';
import type { Db } from '../../store/db';
import { humanChoicesOn } from '../../store/evaluation';
import { adjudicatedChoices } from '../../store/review';
import { majorityOfVotes } from '../majority';
import { judgeVerdicts } from './judgeResults';

/** Adds the judge's disagreements to the pairwise queue (in place; asked for only when a judge has results); how many rows carry the reason. */
export function addJudgeReasons(db: Db, projectId: number, queueOf: () => QueueRow[], adjudicated: Set<number>): number {
  const judges = judgeVerdicts(db, projectId).filter((j) => j.pairs.size > 0);
  if (!judges.length) return 0;
  const items = [...new Set(judges.flatMap((j) => [...j.pairs.keys()]))];
  const people = humanChoicesOn(db, items, 'pairwise');
  const resolved = adjudicatedChoices(db, projectId);
  const queue = queueOf();
  const rows = new Map(queue.map((r) => [r.itemId, r]));
  let flagged = 0;
  for (const itemId of items) {
    const votes: Record<string, number> = {};
    for (const c of people.get(itemId)?.choices ?? []) votes[c] = (votes[c] ?? 0) + 1;
    const reference = resolved.get(itemId) ?? majorityOfVotes(votes);
    let flips = false;
    let disagrees = false;
    for (const j of judges) {
      const v = j.pairs.get(itemId);
      if (!v) continue;
      if (v.flipped) flips = true;
      else if (reference !== null && reference !== undefined && v.verdict !== reference) disagrees = true;
    }
    if (!flips && !disagrees) continue;
    const weight = (disagrees ? 0.5 : 0) + (flips ? 0.25 : 0);
    const row = rows.get(itemId);
    if (row) {
      if (!row.reasons.includes('judge')) row.reasons.push('judge');
      row.dispute += weight;
    } else {
      const labels = Object.values(votes).reduce((s, n) => s + n, 0);
      const consensus = majorityOfVotes(votes);
      const added: QueueRow = { itemId, seq: people.get(itemId)?.seq ?? 0, externalId: null, task: 'pairwise', reasons: ['judge'], dispute: weight, votes, labels, modelPA: null, consensus, consensusMethod: consensus === null ? null : 'majority', adjudicated: adjudicated.has(itemId) };
      queue.push(added);
      rows.set(itemId, added);
    }
    flagged++;
  }
  return flagged;
}
