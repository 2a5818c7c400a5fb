// The renderer's image cache (renderer/src/blobCache.ts): least recently used out first,
// bounded by count and bytes, what leaves is disposed of (blob URLs revoked) once, and an image on
// screen (pinned) is never revoked under it.
import { describe, expect, it } from 'vitest';
import { BlobCache } from '../../../renderer/src/blobCache';

function cache(maxEntries: number, maxBytes = Infinity) {
  const disposed: string[] = [];
  const c = new BlobCache<string>({ maxEntries, maxBytes, dispose: (v) => disposed.push(v) });
  return { c, disposed };
}

describe('BlobCache', () => {
  it('evicts the least recently used past its count, and disposes of each once', () => {
    const { c, disposed } = cache(3);
    c.set('a', 'blob:a', 1);
    c.set('b', 'blob:b', 1);
    c.set('c', 'blob:c', 1);
    expect(c.get('a')).toBe('blob:a'); // a is now the most recent; b the least
    c.set('d', 'blob:d', 1);
    expect(disposed).toEqual(['blob:b']);
    expect(c.has('b')).toBe(false);
    expect([c.has('a'), c.has('c'), c.has('d')]).toEqual([true, true, true]);
    expect(c.get('b')).toBeUndefined();
  });

  it('is bounded by bytes as well', () => {
    const { c, disposed } = cache(100, 10);
    c.set('a', 'blob:a', 4);
    c.set('b', 'blob:b', 4);
    c.set('c', 'blob:c', 4);
    expect(disposed).toEqual(['blob:a']);
    expect(c.bytes).toBe(8);
    // One entry larger than the whole budget does not stay (and takes nothing held with it).
    c.set('huge', 'blob:huge', 50);
    expect(c.has('huge')).toBe(false);
    expect(c.bytes).toBe(0);
  });

  it('keeps a pinned entry (an image on screen) and trims it once released', () => {
    const { c, disposed } = cache(2);
    const release = c.pin('a'); // held before its value arrives
    c.set('a', 'blob:a', 1);
    c.set('b', 'blob:b', 1);
    c.set('c', 'blob:c', 1);
    c.set('d', 'blob:d', 1);
    expect(c.has('a')).toBe(true);
    expect(disposed).toEqual(['blob:b', 'blob:c']);
    release();
    release(); // twice releases once
    expect(c.has('a')).toBe(true); // within bounds again (a and d): nothing to trim yet
    c.set('e', 'blob:e', 1);
    expect(c.has('a')).toBe(false); // the least recently used, no longer held
    expect(disposed).toEqual(['blob:b', 'blob:c', 'blob:a']);
  });

  it('counts pins: held twice, released once, still held', () => {
    const { c } = cache(1);
    c.set('a', 'blob:a', 1);
    const r1 = c.pin('a');
    const r2 = c.pin('a');
    r1();
    c.set('b', 'blob:b', 1);
    expect(c.has('a')).toBe(true);
    r2();
    expect(c.isPinned('a')).toBe(false);
  });

  it('disposes of a replaced value, not of the same value set again', () => {
    const { c, disposed } = cache(5);
    c.set('a', 'blob:a1', 3);
    c.set('a', 'blob:a1', 3);
    expect(disposed).toEqual([]);
    c.set('a', 'blob:a2', 2);
    expect(disposed).toEqual(['blob:a1']);
    expect(c.bytes).toBe(2);
    c.clear();
    expect(disposed).toEqual(['blob:a1', 'blob:a2']);
    expect(c.size).toBe(0);
  });
});
