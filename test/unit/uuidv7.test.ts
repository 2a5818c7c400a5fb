// One id helper (shared/ids.ts) for core and the renderer alike: UUIDv7 ids that carry the time and sort
// in the order they were made. The renderer had its own generator (shared/revisionId.ts) whose ids in one
// millisecond came out in random order.
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../shared/ids';

const UUID7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidv7 (shared/ids.ts)', () => {
  it('is a version-7 RFC 9562 UUID carrying the time', () => {
    const now = Date.UTC(2026, 10, 21, 10, 0, 0);
    const id = uuidv7(now);
    expect(id).toMatch(UUID7);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
  });

  it('sorts in creation order, even many in one millisecond, and never repeats', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7(1_900_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 600)) expect(id).toMatch(UUID7);
  });

  it('runs without Node: the renderer makes its revision ids with it (Web Crypto only)', async () => {
    const source = await import('node:fs').then((fs) => fs.readFileSync(new URL('../../shared/ids.ts', import.meta.url), 'utf8'));
    expect(source).not.toMatch(/from 'node:|Buffer/);
  });
});
