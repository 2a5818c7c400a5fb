// Screen order: deterministic per (annotator, item), varied across them, mapped back to source order.
import { describe, expect, it } from 'vitest';
import { describeScreenChoice, toScreenChoice, toSourceChoice } from '../../shared/choices';
import { shownOrder } from '../../shared/order';

describe('shownOrder', () => {
  it('is a permutation, stable for one annotator and item', () => {
    for (let i = 0; i < 50; i++) {
      const order = shownOrder('alice', `uid-${i}`, 4);
      expect([...order].sort()).toEqual([0, 1, 2, 3]);
      expect(shownOrder('alice', `uid-${i}`, 4)).toEqual(order);
    }
  });

  it('puts the first response on the left about half the time', () => {
    let left = 0;
    for (let i = 0; i < 1000; i++) if (shownOrder('bob', `item-${i}`, 2)[0] === 0) left++;
    expect(left).toBeGreaterThan(430);
    expect(left).toBeLessThan(570);
    const differs = Array.from({ length: 200 }, (_, i) => shownOrder('a', `x${i}`, 2)[0] !== shownOrder('b', `x${i}`, 2)[0]).filter(Boolean).length;
    expect(differs).toBeGreaterThan(60);
  });
});

describe('screen and source choices', () => {
  it('maps a screen side to the source response and back', () => {
    expect(toSourceChoice('left', [1, 0])).toBe('B');
    expect(toSourceChoice('right', [1, 0])).toBe('A');
    expect(toSourceChoice('left', [0, 1])).toBe('A');
    expect(toSourceChoice('tie', [1, 0])).toBe('tie');
    expect(toScreenChoice('B', [1, 0])).toBe('left');
    expect(toScreenChoice('both_bad', [1, 0])).toBe('both_bad');
    expect(describeScreenChoice('left', 3)).toBe('Left much better');
    expect(describeScreenChoice('right', 1)).toBe('Right slightly better');
  });
});
