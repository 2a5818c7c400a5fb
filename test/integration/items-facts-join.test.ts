// The items explorer's facts join the people's part and the review's (review/itemFacts.ts joinLabelParts):
// the review's dispute and model columns are its own when it was read at as many items (never written after
// its read: no copy held twice), a copy with zeros past its items when it was read at fewer; the disputed
// bits are always a copy (the people's rubric bit is written into them), and the review's stay as read.
import { describe, expect, it } from 'vitest';
import { joinLabelParts, readPeoplePart, readReviewPart } from '../../electron/core/review/itemFacts';
import { requireProject } from '../../electron/core/store/projects';
import { seedItems } from '../helpers/itemsSeed';

describe('joining the facts’ parts', () => {
  it('shares the review’s columns read at every item, copies them read at fewer, and copies the disputed bits', async () => {
    const { db, projectId } = await seedItems();
    const project = requireProject(db, 'p');
    const n = db.prepare('SELECT visible_seq FROM project WHERE id = ?').pluck().get(projectId) as number;
    const people = readPeoplePart(db, projectId, n);
    const review = readReviewPart(db, project, n);
    expect(review.dispute.some((d) => d > 0)).toBe(true);
    expect(review.modelDisagrees.some((m) => m > 0)).toBe(true);
    const before = Array.from(review.disputed);
    const joined = joinLabelParts(people, review, n);
    expect(joined.dispute.buffer).toBe(review.dispute.buffer);
    expect(joined.modelDisagrees.buffer).toBe(review.modelDisagrees.buffer);
    expect(joined.disputed.buffer).not.toBe(review.disputed.buffer);
    expect(Array.from(review.disputed)).toEqual(before);
    // Read at fewer items (an import since): the later items count nothing, and the review's stay whole.
    const fewer = { ...review, n: n - 10, dispute: review.dispute.slice(0, n - 10), modelDisagrees: review.modelDisagrees.slice(0, n - 10), disputed: review.disputed.slice(0, n - 10) };
    const later = joinLabelParts(people, fewer, n);
    expect(later.dispute.length).toBe(n);
    expect(Array.from(later.dispute.subarray(0, n - 10))).toEqual(Array.from(fewer.dispute));
    expect(Array.from(later.dispute.subarray(n - 10))).toEqual(new Array(10).fill(0));
    expect(Array.from(later.modelDisagrees.subarray(n - 10))).toEqual(new Array(10).fill(0));
    expect(fewer.dispute.length).toBe(n - 10);
  });
});
