// The columns kept beside label_head for `arbiter stats` (migration 17) checked against what each head's
// revision row says, computed here in JavaScript from the row itself; and the pairwise review computed
// from those columns (store/reviewHeads.ts pairwiseHeads) against the same review fed from the revision rows.
import { expect } from 'vitest';
import { reviewPairwise } from '../../electron/core/review/pairwise';
import type { Db } from '../../electron/core/store/db';
import { humanLabels } from '../../electron/core/store/review';
import { headsFromRows, pairLengths, pairwiseHeads, type PairwiseHeadRow } from '../../electron/core/store/reviewHeads';

interface Joined {
  key: string;
  strength: number | null;
  shown_left: number | null;
  saved_ms: number | null;
  time_ms: number | null;
  prelabel_visible: number | null;
  regions: number | null;
  l_strength: number | null;
  shown_order: string | null;
  created_at: string;
  body: string;
}

/** What the head's columns must hold, from its revision row. */
function expected(row: { l_strength: number | null; shown_order: string | null; created_at: string; body: string }) {
  const body = JSON.parse(row.body) as Record<string, unknown>;
  const first = row.shown_order ? (JSON.parse(row.shown_order) as unknown[])[0] : undefined;
  return {
    strength: row.l_strength,
    shown_left: Number.isInteger(first) ? (first as number) : null,
    // Kept as ms where created_at is a real date in the canonical form (it reads back unchanged).
    saved_ms: Number.isFinite(Date.parse(row.created_at)) && new Date(row.created_at).toISOString() === row.created_at ? Date.parse(row.created_at) : null,
    time_ms: typeof body.time_ms === 'number' ? body.time_ms : null,
    prelabel_visible: body.prelabel_visible === true ? 1 : body.prelabel_visible === false ? 0 : null,
    regions: row.body.includes('"regions"') ? 1 : 0,
  };
}

/** Every head's columns equal its revision's; returns how many heads were checked and how many had each column set. */
export function expectHeadColumns(db: Db): { heads: number; set: Record<string, number> } {
  const rows = db
    .prepare(
      `SELECT h.item_id || ':' || h.annotator_id || ':' || h.task AS key, h.strength, h.shown_left, h.saved_ms, h.time_ms, h.prelabel_visible, h.regions,
              l.strength AS l_strength, l.shown_order, l.created_at, l.body
       FROM label_head h JOIN label l ON l.seq = h.label_seq ORDER BY key`,
    )
    .all() as Joined[];
  const set: Record<string, number> = { strength: 0, shown_left: 0, time_ms: 0, prelabel_visible: 0, regions: 0 };
  const actual = rows.map((r) => ({ key: r.key, strength: r.strength, shown_left: r.shown_left, saved_ms: r.saved_ms, time_ms: r.time_ms, prelabel_visible: r.prelabel_visible, regions: r.regions }));
  const wanted = rows.map((r) => ({ key: r.key, ...expected(r) }));
  for (const w of wanted) for (const name of Object.keys(set)) if (w[name as keyof typeof w] !== null && w[name as keyof typeof w] !== 0) set[name]!++;
  expect(actual).toEqual(wanted);
  return { heads: rows.length, set };
}

/** The same current labels as the revision rows hold them, made into pairwise review rows in JavaScript. */
function fromRevisions(db: Db, projectId: number): PairwiseHeadRow[] {
  return [...humanLabels(db, projectId, 'pairwise')].map((r) => {
    const body = JSON.parse(r.body) as Record<string, unknown>;
    const first = r.shownOrder ? (JSON.parse(r.shownOrder) as unknown[])[0] : undefined;
    return {
      itemId: r.itemId,
      seq: r.seq,
      annotatorId: r.annotatorId,
      annotator: r.annotator,
      choice: r.choice,
      strength: r.strength,
      shownLeft: Number.isInteger(first) ? (first === 0 || first === 1 ? first : -1) : null,
      savedMs: Date.parse(r.createdAt),
      timeMs: typeof body.time_ms === 'number' ? body.time_ms : null,
      prelabelVisible: body.prelabel_visible === true ? 1 : body.prelabel_visible === false ? 0 : null,
      body: r.body.includes('"regions"') ? r.body : '',
    };
  });
}

/** The pairwise review read from label_head's columns equals the one fed from the revision rows. */
export function expectPairwiseReviewFromHeads(db: Db, projectId: number): void {
  const fast = pairwiseHeads(db, projectId);
  const full = headsFromRows(fromRevisions(db, projectId));
  expect(fast).toEqual(full);
  const lengths = pairLengths(db, projectId);
  // The queue's rows are made when asked: compare them, and the counts said before they were made.
  const made = (heads: typeof fast, given = lengths) => {
    const review = reviewPairwise(heads, given, [], new Set());
    const counts = review.queue.counts;
    return { ...review, queue: { counts, rows: review.queue.rows() } };
  };
  expect(made(fast)).toEqual(made(full));
  // The lengths are read for the pairs a person judged alone: the review is what every visible pair's give.
  const all = db
    .prepare(
      `SELECT a.item_id, length(a.content), length(b.content) FROM item i JOIN response a ON a.item_id = i.id AND a.idx = 0 JOIN response b ON b.item_id = i.id AND b.idx = 1
       WHERE i.project_id = ? AND i.seq < (SELECT visible_seq FROM project WHERE id = i.project_id) AND i.response_count = 2 ORDER BY i.seq`,
    )
    .raw()
    .all(projectId) as [number, number, number][];
  const everyPair = { length: all.length, itemId: Float64Array.from(all, (r) => r[0]), first: Float64Array.from(all, (r) => r[1]), second: Float64Array.from(all, (r) => r[2]) };
  const judged = new Set(fast.itemId);
  expect([...lengths.itemId]).toEqual(all.map((r) => r[0]).filter((id) => judged.has(id)));
  expect(made(fast)).toEqual(made(fast, everyPair));
}
