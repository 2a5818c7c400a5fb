import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../electron/core/base/uuidv7';

describe('uuidv7', () => {
  it('is a version-7 RFC 9562 UUID carrying the time', () => {
    const now = Date.UTC(2026, 10, 21, 10, 0, 0);
    const id = uuidv7(now);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
  });

  it('sorts in creation order, even many in one millisecond', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7(1_900_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('newRevisionId (the renderer side)', () => {
  it('is a version-7 UUID that starts with the time, and never repeats', async () => {
    const { newRevisionId } = await import('../../shared/revisionId');
    const at = Date.UTC(2026, 10, 23, 12, 0, 0);
    const ids = new Set(Array.from({ length: 2000 }, () => newRevisionId(at)));
    expect(ids.size).toBe(2000);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
    }
  });
});
