// shared/goldRules.ts: what counts as matching gold per task, which queue slots are honeypots (the rate
// holds over many slots, stable per person, different between people), each person's own gold order, and
// the rules' schema (the one updateProjectSettings and a hub pull apply).
import { describe, expect, it } from 'vitest';
import { goldOrder, goldRulesSchema, honeypotSlot, matchesGold } from '../../shared/goldRules';

const facts = (over: Partial<Parameters<typeof matchesGold>[1]>) => ({ choice: null, ranking: null, firstError: null, ...over });

describe('matchesGold', () => {
  it('compares a pair’s choice and a verdict; says nothing where gold has none', () => {
    expect(matchesGold('pairwise', facts({ choice: 'A' }), facts({ choice: 'A' }))).toBe(true);
    expect(matchesGold('pairwise', facts({ choice: 'tie' }), facts({ choice: 'A' }))).toBe(false);
    expect(matchesGold('verdict', facts({ choice: 'bad' }), facts({ choice: 'good' }))).toBe(false);
    expect(matchesGold('pairwise', facts({ choice: 'A' }), facts({}))).toBeNull();
  });
  it('compares a ranking with its ties, and the first wrong step of every response gold names', () => {
    expect(matchesGold('ranking', facts({ ranking: [[1], [0, 2]] }), facts({ ranking: [[1], [0, 2]] }))).toBe(true);
    expect(matchesGold('ranking', facts({ ranking: [[1], [0], [2]] }), facts({ ranking: [[1], [0, 2]] }))).toBe(false);
    expect(matchesGold('steps', facts({ firstError: { A: 2, B: -1 } }), facts({ firstError: { A: 2 } }))).toBe(true);
    expect(matchesGold('steps', facts({ firstError: { A: 3 } }), facts({ firstError: { A: 2 } }))).toBe(false);
    expect(matchesGold('steps', facts({ firstError: null }), facts({ firstError: { A: -1 } }))).toBe(false);
    expect(matchesGold('steps', facts({ firstError: { A: 1 } }), facts({ firstError: { A: null } }))).toBeNull();
  });
});

describe('honeypot slots and gold order', () => {
  it('serve gold at the rate, the same slots for a person each time, other slots for another', () => {
    const slots = (who: string) => Array.from({ length: 5000 }, (_, n) => honeypotSlot(who, 'p', 'pairwise', n, 0.1));
    const ann = slots('ann');
    const share = ann.filter(Boolean).length / ann.length;
    expect(share).toBeGreaterThan(0.085);
    expect(share).toBeLessThan(0.115);
    expect(slots('ann')).toEqual(ann);
    expect(slots('bo')).not.toEqual(ann);
    expect(Array.from({ length: 100 }, (_, n) => honeypotSlot('ann', 'p', 'pairwise', n, 0)).some(Boolean)).toBe(false);
  });
  it('orders gold per person: a permutation, stable, different between people', () => {
    const items = Array.from({ length: 20 }, (_, seq) => ({ seq }));
    const ann = goldOrder(items, 'ann', 'p', 'pairwise').map((g) => g.seq);
    expect([...ann].sort((a, b) => a - b)).toEqual(items.map((g) => g.seq));
    expect(goldOrder(items, 'ann', 'p', 'pairwise').map((g) => g.seq)).toEqual(ann);
    expect(goldOrder(items, 'bo', 'p', 'pairwise').map((g) => g.seq)).not.toEqual(ann);
  });
});

describe('the rules’ schema', () => {
  const ok = { honeypotRate: 0.2, qualification: 5, passMark: 0.8, bar: 0.7, retries: { ann: '2026-11-28T12:00:00.000Z' } };
  it('takes valid rules and refuses what a save would', () => {
    expect(goldRulesSchema.safeParse({ pairwise: ok }).success).toBe(true);
    expect(goldRulesSchema.safeParse({ pairwise: { ...ok, honeypotRate: 0.9 } }).success).toBe(false);
    expect(goldRulesSchema.safeParse({ pairwise: { ...ok, qualification: -1 } }).success).toBe(false);
    expect(goldRulesSchema.safeParse({ pairwise: { ...ok, passMark: 2 } }).success).toBe(false);
    expect(goldRulesSchema.safeParse({ pairwise: { ...ok, retries: { ann: 'yesterday' } } }).success).toBe(false);
    expect(goldRulesSchema.safeParse({ rubric: ok }).success).toBe(false);
    expect(goldRulesSchema.safeParse({ pairwise: { ...ok, extra: 1 } }).success).toBe(false);
  });
});
