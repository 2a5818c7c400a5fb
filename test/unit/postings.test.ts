// PostingLists (electron/core/review/postings.ts): the items explorer's seq lists per value, grown in typed
// arrays. Against the plain reading: for each value, the distinct seqs it was added with, ascending.
import { describe, expect, it } from 'vitest';
import { PostingLists } from '../../electron/core/review/postings';
import { seededRng } from '../helpers/seeded';

describe('PostingLists', () => {
  it('gives each value its distinct seqs ascending, however they were added', () => {
    const rand = seededRng(7);
    const lists = new PostingLists();
    const plain = new Map<string, Set<number>>();
    // Mostly ascending runs (as the facts' reads add them), with repeats, going back and values held once.
    let seq = 0;
    for (let i = 0; i < 20_000; i++) {
      seq = rand() < 0.05 ? Math.floor(rand() * 5000) : seq + (rand() < 0.3 ? 0 : 1);
      const value = rand() < 0.1 ? `once-${i}` : `v${Math.floor(rand() * 12)}`;
      lists.add(value, seq);
      plain.set(value, (plain.get(value) ?? new Set()).add(seq));
    }
    expect(lists.size).toBe(plain.size);
    expect(lists.has('v3')).toBe(true);
    const done = lists.done();
    expect([...done.keys()].sort()).toEqual([...plain.keys()].sort());
    for (const [value, seqs] of plain) expect([...done.get(value)!]).toEqual([...seqs].sort((a, b) => a - b));
    // Held as Int32Arrays of exactly their length.
    for (const postings of done.values()) expect(postings.buffer.byteLength).toBe(postings.length * 4);
  });

  it('keeps lists of several chunks (65,536 seqs each), ascending or not', () => {
    const rand = seededRng(11);
    const lists = new PostingLists();
    const up: number[] = [];
    const mixed = new Set<number>();
    for (let s = 0; s < 300_000; s++) {
      if (rand() < 0.6) {
        lists.add('up', s);
        if (rand() < 0.2) lists.add('up', s); // a repeat of the last: kept once
        up.push(s);
      }
      // Ascending for 150k seqs, then back to the start now and then.
      const back = s > 150_000 && rand() < 0.01 ? Math.floor(rand() * s) : s;
      if (rand() < 0.5 || back !== s) {
        lists.add('mixed', back);
        mixed.add(back);
      }
    }
    const done = lists.done();
    expect([...done.get('up')!]).toEqual(up);
    expect([...done.get('mixed')!]).toEqual([...mixed].sort((a, b) => a - b));
    expect(lists.size).toBe(0);
  });

  it('keeps a list past its first growths (8, 16, 32 … seqs)', () => {
    const lists = new PostingLists();
    for (let s = 0; s < 1000; s++) lists.add('all', s);
    lists.add('all', 999);
    lists.add('all', 3);
    expect([...lists.done().get('all')!]).toEqual(Array.from({ length: 1000 }, (_, s) => s));
  });
});
