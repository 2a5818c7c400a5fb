// Agreement on marks in time (core/review/moments.ts), unit by unit: an item with one person counts
// nowhere; an item where nobody marked but first failures were set counts for failures only; marking
// nothing against someone's mark is a disagreement; the dispute is 1 − the lower figure; each item and
// task is its own unit.
import { describe, expect, it } from 'vitest';
import { momentReview, type PersonMoments } from '../../../electron/core/review/moments';

const person = (annotator: number, itemId: number, marks: PersonMoments['marks'], failure: PersonMoments['failure'] = {}, task: PersonMoments['task'] = 'verdict'): PersonMoments => ({ itemId, seq: itemId - 1, task, annotator, marks, failure });

describe('momentReview', () => {
  it('one person alone counts nowhere and disputes nothing', () => {
    const { agreement, disputes } = momentReview([person(1, 1, [{ at: 0, from: 1, tag: 'slip' }], { A: 1 })]);
    expect(agreement.marks).toMatchObject({ value: null, n: 0 });
    expect(agreement.failures).toMatchObject({ value: null, n: 0 });
    expect(disputes).toEqual([]);
  });

  it('first failures only: counted for failures, not for marks; 0.4 s apart agree, 0.6 s do not', () => {
    const near = momentReview([person(1, 1, [], { A: 1 }), person(2, 1, [], { A: 1.4 })]);
    expect(near.agreement.marks.n).toBe(0);
    expect(near.agreement.failures).toEqual({ value: 1, n: 1, reason: null });
    expect(near.disputes).toEqual([]);
    const far = momentReview([person(1, 1, [], { A: 1 }), person(2, 1, [], { A: 1.6 })]);
    expect(far.agreement.failures.value).toBe(0);
    expect(far.disputes).toEqual([{ itemId: 1, seq: 0, task: 'verdict', dispute: 1 }]);
  });

  it('a mark against none disagrees; three people average their pairs; tasks are separate units', () => {
    const slip = { at: 0, from: 2, tag: 'slip' };
    const { agreement, disputes } = momentReview([
      person(1, 1, [slip]),
      person(2, 1, [{ ...slip, from: 2.2 }]),
      person(3, 1, []),
      person(1, 1, [slip], {}, 'pairwise'),
    ]);
    // Pairs: 1–2 agree (1), 1–3 and 2–3 do not (0): 1/3. The pairwise unit has one person.
    expect(agreement.marks.n).toBe(1);
    expect(agreement.marks.value).toBeCloseTo(1 / 3, 6);
    expect(disputes).toHaveLength(1);
    expect(disputes[0]!.dispute).toBeCloseTo(2 / 3, 6);
  });
});
