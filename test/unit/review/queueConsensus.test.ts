// The review queue's consensus is the one the items table and the export use (the majority of the
// current human labels), and the row says which method decided; an even split has none. Before, the
// queue took Dawid–Skene's label: on this data (found by a seeded search) it called an item with votes
// B ×2 · A ×1 "A".
// Rubric criteria on a numeric (Likert) scale report Krippendorff's α at the ordinal level, the textbook
// level for rating scales, and at the interval level too, each with its level named.
import { describe, expect, it } from 'vitest';
import { krippendorffAlpha, ratingsFromMatrix } from '../../../electron/core/review';
import { reviewRubrics } from '../../../electron/core/review/judgements';
import { reviewPairwise } from '../../../electron/core/review/pairwise';
import type { ReviewLabelRow } from '../../../electron/core/store/review';
import { headsFromRows, type PairLengths, type PairwiseHeadRow } from '../../../electron/core/store/reviewHeads';

const CHOICES = ['A', 'B', 'tie', 'both_bad'];
const NO_LENGTHS: PairLengths = { length: 0, itemId: new Float64Array(), first: new Float64Array(), second: new Float64Array() };

function row(itemId: number, annotator: string, fields: Partial<ReviewLabelRow>): ReviewLabelRow {
  return { itemId, seq: itemId - 1, externalId: `item-${itemId}`, annotatorId: annotator.charCodeAt(0), annotator, task: 'pairwise', choice: null, strength: null, ranking: null, shownOrder: '[0,1]', body: '{}', createdAt: '2026-01-05T10:00:00.000Z', ...fields };
}

/** The same label as its head's columns hold it (pairwise review reads label_head alone). */
function head(r: ReviewLabelRow): PairwiseHeadRow {
  return { itemId: r.itemId, seq: r.seq, annotatorId: r.annotatorId, annotator: r.annotator, choice: r.choice, strength: r.strength, shownLeft: 0, savedMs: Date.parse(r.createdAt), timeMs: null, prelabelVisible: null, body: '' };
}

describe('the review queue consensus', () => {
  it('is the majority of the human votes, as on the items table, and names its method', () => {
    // unit 0: x B, y B, z A; unit 1: x tie, z B (the data on which Dawid–Skene answered A for unit 0).
    const votes: [number, string, number][] = [
      [1, 'x', 1],
      [1, 'y', 1],
      [1, 'z', 0],
      [2, 'x', 2],
      [2, 'z', 1],
    ];
    const rows = votes.map(([item, who, code]) => row(item, who, { choice: CHOICES[code]! }));
    const review = reviewPairwise(headsFromRows(rows.map(head)), NO_LENGTHS, [], new Set());
    const first = review.queue.rows().find((q) => q.itemId === 1)!;
    expect(first.votes).toEqual({ B: 2, A: 1 });
    expect(first.consensus).toBe('B');
    expect(first.consensusMethod).toBe('majority');
    const second = review.queue.rows().find((q) => q.itemId === 2)!;
    // An even split is said as such (issue 20, item 12): no consensus and no method, where Dawid–Skene
    // had picked B with two people's votes tie ×1 · B ×1.
    expect(second).toMatchObject({ votes: { tie: 1, B: 1 }, consensus: null, consensusMethod: null });
  });
});

describe('agreement on a Likert criterion', () => {
  // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", Annenberg School for Communication,
  // University of Pennsylvania, section C (four observers, twelve units, values 1–5): nominal α = 0.743,
  // ordinal α = 0.815, interval α = 0.849.
  const _ = null;
  const byObserver = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, _],
    [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
  ];
  it('reports ordinal α (the textbook level for rating scales) and interval α, each level named', () => {
    const units = byObserver[0]!.map((_v, u) => byObserver.map((o) => o[u] ?? null));
    expect(krippendorffAlpha(ratingsFromMatrix(units), 'ordinal').value).toBeCloseTo(0.815, 3);
    const rows: ReviewLabelRow[] = [];
    byObserver.forEach((values, o) =>
      values.forEach((v, u) => {
        if (v !== null) rows.push(row(u + 1, `observer-${o}`, { task: 'rubric', body: JSON.stringify({ rubric: 'style', ratings: { A: { clarity: v } } }) }));
      }),
    );
    const [field] = reviewRubrics(rows).fields;
    expect(field!.field).toBe('rubric:style/clarity');
    expect(field!.level).toBe('ordinal');
    expect(field!.alpha.value).toBeCloseTo(0.815, 3);
    expect(field!.alsoAlpha).toMatchObject({ level: 'interval' });
    expect(field!.alsoAlpha!.value).toBeCloseTo(0.849, 3);
  });
});
