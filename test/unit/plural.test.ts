// One small pluralising helper for every count people read: "1 step", "2 steps", "1 person", "2 people".
import { describe, expect, it, vi } from 'vitest';
import { grouped, plural, pluralWord } from '../../shared/plural';

describe('plural', () => {
  it('picks the singular for exactly one and the plural otherwise', () => {
    expect(plural(1, 'step')).toBe('1 step');
    expect(plural(2, 'step')).toBe('2 steps');
    expect(plural(0, 'item')).toBe('0 items');
    expect(plural(1, 'person', 'people')).toBe('1 person');
    expect(plural(3, 'person', 'people')).toBe('3 people');
    expect(plural(1, 'token')).toBe('1 token');
    expect(plural(12345, 'token')).toBe(`${(12345).toLocaleString()} tokens`);
    expect(pluralWord(1, 'match', 'matches')).toBe('match');
    expect(pluralWord(2, 'match', 'matches')).toBe('matches');
    expect(plural(1, 'category', 'categories')).toBe('1 category');
  });

  it('groups numbers with one formatter made once, not a toLocaleString per count (a render of the compare screen formats several)', () => {
    const spy = vi.spyOn(Number.prototype, 'toLocaleString');
    try {
      expect(plural(1_234_567, 'char')).toBe(`${new Intl.NumberFormat().format(1_234_567)} chars`);
      expect(grouped(1_000_000)).toBe(new Intl.NumberFormat().format(1_000_000));
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
