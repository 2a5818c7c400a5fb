// Which item a labeling screen shows next: in source order, or in a labeling order (a seeded
// permutation, or a list most uncertain first) restricted to the annotator's share, skipping what the
// annotator has done. Only items of the screen's shape are walked.
import type { ItemRecord } from '../../../shared/domain';
import { seededPermutation } from '../../../shared/order';
import type { Db } from './db';
import { ITEM_COLUMNS, oneRecord, VISIBLE, visibleSeqOf, type ItemRow } from './items';
import { statement } from './statements';

/** What a walk needs of a candidate (its place and whether it is the annotator's): not its text. */
type Candidate = Pick<ItemRow, 'id' | 'uid' | 'seq'>;
const CANDIDATE_COLUMNS = 'i.id, i.uid, i.seq';

const RESPONSES_FOR_TASK: Record<string, string> = {
  pairwise: 'AND i.response_count = 2',
  ranking: 'AND i.response_count >= 3',
  verdict: 'AND i.response_count = 1',
  steps: 'AND i.response_count = 1',
};

/**
 * The next item in seq order after `afterSeq` (or before it, going back). With `unlabeledBy`, items
 * that annotator already has a current `task` label on are skipped; it wraps around once so skipped-over
 * gaps are found.
 */
export function neighbourItem(
  db: Db,
  projectId: number,
  afterSeq: number,
  direction: 'next' | 'previous',
  unlabeledBy: number | null,
  task = 'pairwise',
): ItemRecord | null {
  const unlabeled = unlabeledBy
    ? 'AND NOT EXISTS (SELECT 1 FROM label_head h WHERE h.item_id = i.id AND h.annotator_id = @annotator AND h.task = @task AND h.done = 1)'
    : '';
  // Each screen walks the items it judges: pairs, rankings of three or more, single responses (verdicts
  // and chains). A pair's steps are opened from the compare screen, not walked here.
  const shape = RESPONSES_FOR_TASK[task] ?? '';
  const [cmp, order] = direction === 'next' ? ['>', 'ASC'] : ['<', 'DESC'];
  const sql = (bound: string) =>
    `SELECT ${ITEM_COLUMNS} FROM item i WHERE i.project_id = @project AND ${VISIBLE} ${bound} ${shape} ${unlabeled} ORDER BY i.seq ${order} LIMIT 1`;
  const params = { project: projectId, after: afterSeq, annotator: unlabeledBy, task };
  let row = statement(db, sql(`AND i.seq ${cmp} @after`)).get(params) as ItemRow | undefined;
  if (!row && unlabeledBy) row = statement(db, sql('')).get(params) as ItemRow | undefined;
  return oneRecord(db, row);
}

/** How the labeling loop walks a project for one annotator (see shared/order.ts). */
export interface Walk {
  /** Source order; a seeded permutation of seqs; or a list of item ids, most uncertain first, then the rest in source order. */
  order: { kind: 'source' } | { kind: 'random'; seed: number } | { kind: 'list'; itemIds: Int32Array; position: Map<number, number> };
  /** Overlap: whether an item (by uid) is this annotator's. */
  assigned: (uid: string) => boolean;
}

const WALK_BATCH = 256;

/**
 * neighbourItem in a labeling order: candidates are read a batch at a time (by seq range, by a batch of
 * permuted seqs, or by a batch of listed ids) with the SQL filters, then taken in walk order if they
 * are the annotator's. Each batch is an indexed lookup, so finding the next item never scans the project;
 * a batch reads the candidates' ids, never their text, and only the item found is read whole.
 */
export function walkItem(
  db: Db,
  projectId: number,
  afterSeq: number,
  direction: 'next' | 'previous',
  unlabeledBy: number | null,
  task: string,
  walk: Walk,
): ItemRecord | null {
  const unlabeled = unlabeledBy
    ? 'AND NOT EXISTS (SELECT 1 FROM label_head h WHERE h.item_id = i.id AND h.annotator_id = @annotator AND h.task = @task AND h.done = 1)'
    : '';
  const filters = `i.project_id = @project AND ${VISIBLE} ${RESPONSES_FOR_TASK[task] ?? ''} ${unlabeled}`;
  const params = { project: projectId, annotator: unlabeledBy, task };
  const bySeqs = statement(db, `SELECT ${CANDIDATE_COLUMNS} FROM item i WHERE i.seq IN (SELECT value FROM json_each(@keys)) AND ${filters}`);
  const byIds = statement(db, `SELECT ${CANDIDATE_COLUMNS} FROM item i WHERE i.id IN (SELECT value FROM json_each(@keys)) AND ${filters}`);
  const step = direction === 'next' ? 1 : -1;
  /** Takes, from a batch of keys in walk order, the first row that is the annotator's. */
  const whole = (found: Candidate | undefined): ItemRecord | null =>
    found ? oneRecord(db, statement(db, `SELECT ${ITEM_COLUMNS} FROM item i WHERE i.id = ?`).get(found.id) as ItemRow | undefined) : null;
  const firstOf = (keys: number[], batch: typeof bySeqs, key: (row: Candidate) => number): Candidate | undefined => {
    if (!keys.length) return undefined;
    const rows = new Map((batch.all({ ...params, keys: JSON.stringify(keys) }) as Candidate[]).map((r) => [key(r), r]));
    for (const k of keys) {
      const row = rows.get(k);
      if (row && walk.assigned(row.uid)) return row;
    }
    return undefined;
  };
  const order = walk.order;
  if (order.kind === 'source') {
    const page = statement(
      db,
      `SELECT ${CANDIDATE_COLUMNS} FROM item i WHERE ${filters} AND i.seq ${step > 0 ? '>' : '<'} @after ORDER BY i.seq ${step > 0 ? 'ASC' : 'DESC'} LIMIT ${WALK_BATCH}`,
    );
    const scan = (from: number) => {
      for (let after = from; ; ) {
        const rows = page.all({ ...params, after }) as Candidate[];
        const found = rows.find((r) => walk.assigned(r.uid));
        if (found || rows.length < WALK_BATCH) return found;
        after = rows[rows.length - 1]!.seq;
      }
    };
    const found = scan(afterSeq) ?? (unlabeledBy ? scan(step > 0 ? -1 : Number.MAX_SAFE_INTEGER) : undefined);
    return whole(found);
  }
  // A permuted or listed order: positions 0 … length − 1, walked from where the current item stands.
  const length = order.kind === 'random' ? visibleSeqOf(db, projectId) : order.itemIds.length;
  if (length <= 0) return null;
  const permutation = order.kind === 'random' ? seededPermutation(length, order.seed) : null;
  const keyAt = (position: number) => (permutation ? permutation.at(position) : (order as { itemIds: Int32Array }).itemIds[position]!);
  const positionOfSeq = (seq: number): number => {
    if (permutation) return seq >= 0 && seq < length ? permutation.positionOf(seq) : -1;
    const id = statement(db, `SELECT id FROM item WHERE project_id = ? AND seq = ?`, true).get(projectId, seq) as number | undefined;
    return id === undefined ? -1 : ((order as { position: Map<number, number> }).position.get(id) ?? -1);
  };
  const batches = permutation ? bySeqs : byIds;
  const key = permutation ? (r: Candidate) => r.seq : (r: Candidate) => r.id;
  const scan = (from: number, to: number) => {
    for (let p = from; step > 0 ? p < to : p > to; p += step * WALK_BATCH) {
      const keys: number[] = [];
      for (let q = p; keys.length < WALK_BATCH && (step > 0 ? q < to : q > to); q += step) keys.push(keyAt(q));
      const found = firstOf(keys, batches, key);
      if (found) return found;
    }
    return undefined;
  };
  const here = afterSeq < 0 || afterSeq === Number.MAX_SAFE_INTEGER ? (step > 0 ? -1 : length) : positionOfSeq(afterSeq);
  let found = scan(here + step, step > 0 ? length : -1);
  if (!found && unlabeledBy) found = step > 0 ? scan(0, Math.max(0, here)) : scan(length - 1, here);
  return whole(found);
}
