// Finding the next item in a labeling order (random, uncertain first) or with overlap reads a batch of
// candidates at a time (store/nextItem.ts walkItem): their ids, never their prompts and metadata, and only
// the item found is read whole (issue 20, performance: 256 full rows a call was p95 6 ms at 1M items).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

describe('the labeling walk', () => {
  it('reads candidates by id and seq, and the item it shows whole', async () => {
    const team = ['a', 'b', 'c'];
    for (const settings of [{ order: 'random' as const }, { order: 'source' as const, overlap: 1, team }, { order: 'random' as const, overlap: 2, team }]) {
      // A connection of its own each time: statements are prepared once per connection (store/statements.ts).
      const { service } = pairProject(join(tempDir(), 'arbiter.db'), { items: 600, texts: (i) => [`left ${i}`, `right ${i}`], annotator: 'a', visibleSeq: 'all' });
      await service.dispatch('updateProjectSettings', { project: 'p', settings });
      const prepare = vi.spyOn(Database.prototype, 'prepare');
      try {
        let after: number | undefined;
        const seen = new Set<string>();
        for (let k = 0; k < 30; k++) {
          const item = await service.dispatch('nextItem', { project: 'p', annotator: 'a', afterSeq: after, unlabeledOnly: false });
          expect(item, JSON.stringify(settings)).not.toBeNull();
          // The item shown is whole: its prompt and responses.
          const n = item!.externalId!.slice(1);
          expect(item!.prompt).toBe(`prompt ${n}`);
          expect(item!.responses.map((r) => r.content)).toEqual([`left ${n}`, `right ${n}`]);
          seen.add(item!.externalId!);
          after = item!.seq;
        }
        expect(seen.size).toBe(30);
        const batches = prepare.mock.calls.map(([sql]) => String(sql)).filter((sql) => /json_each\(@keys\)|LIMIT 256/.test(sql));
        expect(batches.length, JSON.stringify(settings)).toBeGreaterThan(0);
        for (const sql of batches) expect(sql).not.toMatch(/i\.prompt|i\.metadata/);
      } finally {
        prepare.mockRestore();
      }
    }
  });
});
