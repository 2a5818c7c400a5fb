// IdIndex (review/collect.ts): the pairwise review's dense item indexes, a typed table over the item ids'
// range where it is small; it must give every id the index a Map-backed Index gives, in the order met.
import { describe, expect, it } from 'vitest';
import { IdIndex, Index } from '../../../electron/core/review/collect';

function compare(ids: number[], asked: number[]) {
  const fast = new IdIndex(Float64Array.from(ids));
  const plain = new Index<number>();
  for (const id of ids) expect(fast.of(id)).toBe(plain.of(id));
  expect(fast.size).toBe(plain.size);
  for (const id of asked) expect(fast.find(id), `find(${id})`).toBe(plain.find(id));
}

describe('IdIndex', () => {
  let seed = 3;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  it('gives the indexes a Map gives, ids met in any order and again (a dense range)', () => {
    const ids = Array.from({ length: 3000 }, () => 500 + Math.floor(next() * 1000));
    compare(ids, [...ids, 499, 1500, 0, -1, 2.5, 10_000]);
  });
  it('and where the ids are sparse (a Map for those out of a table)', () => {
    const ids = Array.from({ length: 200 }, () => Math.floor(next() * 1e12));
    compare([...ids, ...ids.reverse()], [...ids, 7, 1e15]);
  });
  it('and for ids the table was not sized for, or none at all', () => {
    const fast = new IdIndex(Float64Array.from([10, 11, 12]));
    expect([fast.of(12), fast.of(10), fast.of(1e9), fast.of(-5), fast.of(12), fast.of(1e9)]).toEqual([0, 1, 2, 3, 0, 2]);
    expect([fast.find(11), fast.find(-5), fast.find(1e9)]).toEqual([undefined, 3, 2]);
    const empty = new IdIndex(new Float64Array());
    expect([empty.of(4), empty.of(4), empty.find(5), empty.size]).toEqual([0, 0, undefined, 1]);
  });
});
