// Region agreement (issue 15): IoU of two boxes, greedy best matching of two people's boxes on one image
// (unmatched boxes count 0), the mean over pairs of people and over images two or more people boxed, and
// agreement on "not present" per image and tag. Every expected value is worked out by hand in its comment.
import { describe, expect, it } from 'vitest';
import type { RegionMark } from '../../../shared/regions';
import { reviewLines } from '../../../electron/cli/review';
import type { ReviewReport } from '../../../shared/api/review';
import { boxIoU, matchedIoU, regionAgreement, regionWatcher } from '../../../electron/core/review/regions';

const X = 'a'.repeat(64);
const Y = 'b'.repeat(64);
type Box = [number, number, number, number];
const box = (b: Box, image = X, tag = 'artifact'): RegionMark => ({ image, at: 0, kind: 'box', box: b, tag });
const absent = (image = X, tag = 'artifact'): RegionMark => ({ image, at: 0, kind: 'absent', tag });

describe('boxIoU', () => {
  it('is intersection over union, by hand', () => {
    expect(boxIoU([0, 0, 0.5, 0.5], [0, 0, 0.5, 0.5])).toBe(1);
    // Overlap 0.25 × 0.25 = 0.0625; union 0.25 + 0.25 − 0.0625 = 0.4375; 0.0625 / 0.4375 = 1/7.
    expect(boxIoU([0, 0, 0.5, 0.5], [0.25, 0.25, 0.75, 0.75])).toBeCloseTo(1 / 7, 12);
    // One inside the other: 0.25 / 1.
    expect(boxIoU([0, 0, 1, 1], [0, 0, 0.5, 0.5])).toBeCloseTo(0.25, 12);
    // Touching edges share no area.
    expect(boxIoU([0, 0, 0.5, 1], [0.5, 0, 1, 1])).toBe(0);
    expect(boxIoU([0, 0, 0.1, 0.1], [0.9, 0.9, 1, 1])).toBe(0);
  });
});

describe('matchedIoU (greedy by IoU, unmatched = 0)', () => {
  it('matches the best pair first and counts a box without a partner as 0', () => {
    // a1–b1: overlap 0.5 × 0.5 = 0.25, union 0.25 + 0.5 − 0.25 = 0.5, IoU 0.5; a2–b2 identical, IoU 1;
    // the cross pairs do not overlap. Mean of 1 and 0.5 = 0.75.
    expect(matchedIoU([[0, 0, 0.5, 0.5], [0.5, 0.5, 1, 1]], [[0.5, 0.5, 1, 1], [0, 0, 0.5, 1]])).toBeCloseTo(0.75, 12);
    // One box against two: it takes the better one (0.5, over 1/7), the other counts 0: (0.5 + 0) / 2.
    expect(matchedIoU([[0, 0, 0.5, 0.5]], [[0.25, 0.25, 0.75, 0.75], [0, 0, 0.5, 1]])).toBeCloseTo(0.25, 12);
    // Greedy, not the best assignment: a1 = [0,0,0.6,1] (0.6), a2 = [0.4,0,1,1] (0.6), b1 = [0.2,0,0.8,1] (0.6),
    // b2 = [0,0,0.4,1] (0.4). IoU a1–b1 = 0.4 / 0.8 = 0.5, a2–b1 = 0.5, a1–b2 = 0.4 / 0.6 = 2/3, a2–b2 = 0.
    // Greedy takes a1–b2 (2/3) first, then a2–b1 (0.5): (2/3 + 1/2) / 2 = 7/12.
    expect(matchedIoU([[0, 0, 0.6, 1], [0.4, 0, 1, 1]], [[0.2, 0, 0.8, 1], [0, 0, 0.4, 1]])).toBeCloseTo(7 / 12, 12);
  });
});

describe('regionAgreement', () => {
  it('averages pairs of people per image, then images; an image one person boxed is not counted', () => {
    const result = regionAgreement([
      // Image X: P1 and P2 the same box (1), P3 a box 1/7 from both: pairs 1, 1/7, 1/7; mean (1 + 2/7) / 3 = 3/7.
      { unit: 'x', annotator: 'P1', marks: [box([0, 0, 0.5, 0.5])] },
      { unit: 'x', annotator: 'P2', marks: [box([0, 0, 0.5, 0.5])] },
      { unit: 'x', annotator: 'P3', marks: [box([0.25, 0.25, 0.75, 0.75])] },
      // Image Y: the two-box case above, 0.75.
      { unit: 'y', annotator: 'P1', marks: [box([0, 0, 0.5, 0.5], Y), box([0.5, 0.5, 1, 1], Y)] },
      { unit: 'y', annotator: 'P2', marks: [box([0.5, 0.5, 1, 1], Y), box([0, 0, 0.5, 1], Y)] },
      // Image Z: one person boxed it (and a point by another counts for no box).
      { unit: 'z', annotator: 'P1', marks: [box([0, 0, 1, 1])] },
      { unit: 'z', annotator: 'P2', marks: [{ image: X, at: 0, kind: 'point', point: [0.5, 0.5], tag: 'artifact' }] },
    ]);
    // (3/7 + 3/4) / 2 = 33/56.
    expect(result.boxes.value).toBeCloseTo(33 / 56, 12);
    expect(result.boxes.n).toBe(2);
    expect(result.absent).toEqual({ value: null, n: 0, reason: 'no image has a tag two or more people judged with one of them saying "not present"' });
  });

  it('agrees on "not present" per image and tag among the people who judged that tag there', () => {
    const result = regionAgreement([
      // X / artifact: P1 and P2 not present, P3 boxed one: pairs agree 1 of 3.
      { unit: 'x', annotator: 'P1', marks: [absent()] },
      { unit: 'x', annotator: 'P2', marks: [absent(), box([0, 0, 1, 1], X, 'unreadable text')] },
      { unit: 'x', annotator: 'P3', marks: [box([0, 0, 0.5, 0.5])] },
      // Y / artifact: both not present: 1. Y / misaligned: only one person says anything: not counted.
      { unit: 'y', annotator: 'P1', marks: [absent(Y), absent(Y, 'misaligned')] },
      { unit: 'y', annotator: 'P2', marks: [absent(Y)] },
    ]);
    // (1/3 + 1) / 2 = 2/3 over 2 image-tags.
    expect(result.absent.value).toBeCloseTo(2 / 3, 12);
    expect(result.absent.n).toBe(2);
    // X: P2's box (unreadable text) and P3's box: one pair, IoU 0.25. Y: no boxes.
    expect(result.boxes.value).toBeCloseTo(0.25, 12);
    expect(result.boxes.n).toBe(1);
  });

  it('says why when nothing was boxed by two people', () => {
    expect(regionAgreement([]).boxes).toEqual({ value: null, n: 0, reason: 'no image was boxed by two or more people' });
  });
});

describe('regionWatcher', () => {
  it('collects the marks of the review rows it passes on, by item and image, one person per annotator', () => {
    const watcher = regionWatcher();
    const rows = [
      { itemId: 1, annotatorId: 7, body: JSON.stringify({ rationale: 'x', regions: [box([0, 0, 0.5, 0.5])] }) },
      { itemId: 1, annotatorId: 8, body: JSON.stringify({ regions: [box([0.25, 0.25, 0.75, 0.75])] }) },
      { itemId: 2, annotatorId: 8, body: '{}' },
      // The same person in another task's revision on item 1: the same box once.
      { itemId: 1, annotatorId: 8, body: JSON.stringify({ regions: [box([0.25, 0.25, 0.75, 0.75])] }) },
    ];
    expect([...watcher.watch(rows)]).toEqual(rows);
    const result = watcher.result();
    expect(result.boxes.value).toBeCloseTo(1 / 7, 12);
    expect(result.boxes.n).toBe(1);
  });
});

describe('arbiter stats', () => {
  it('says the region figures with what they rest on, and nothing when nobody marked', () => {
    const base = { labels: 2, annotators: 2, fields: [], people: [], models: [], queue: { total: 0, byReason: {}, adjudicated: 0 } };
    const regions = { boxes: { value: 1 / 7, n: 1, reason: null }, absent: { value: 0, n: 1, reason: null } };
    expect(reviewLines({ ...base, regions } as unknown as ReviewReport)).toContain('    region marks: boxes mean IoU 0.143 over 1 image two or more people boxed; "not present" agreement 0.0% over 1 image-tag');
    const none = regionAgreement([]);
    expect(reviewLines({ ...base, regions: none } as unknown as ReviewReport).join('\n')).not.toContain('region marks');
  });
});
