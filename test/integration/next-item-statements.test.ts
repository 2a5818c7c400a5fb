// The labeling loop's next item at 1M items spent half its host time preparing SQL (better-sqlite3's
// prepare parses and plans each statement; the store prepared ~10 a call). The statements of the key →
// next item path are prepared once per connection (store/statements.ts): after the first call, asking for
// the next item, and the item it names, prepares nothing (issue 20, performance).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

describe('the next item', () => {
  it('prepares its statements once per connection', async () => {
    const { service } = pairProject(join(tempDir(), 'arbiter.db'), { items: 50, texts: (i) => [`left ${i}`, `right ${i}`], annotator: 'a', visibleSeq: 'all' });
    const first = await service.dispatch('nextItem', { project: 'p', annotator: 'a', unlabeledOnly: true });
    await service.dispatch('saveLabel', { project: 'p', annotator: 'a', itemId: first!.id, choice: 'A', shownOrder: first!.shownOrder });
    await service.dispatch('nextItem', { project: 'p', annotator: 'a', afterSeq: first!.seq, unlabeledOnly: true });
    await service.dispatch('getItem', { project: 'p', annotator: 'a', itemId: first!.id });
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    try {
      let after = first!.seq;
      for (let k = 0; k < 10; k++) {
        const item = await service.dispatch('nextItem', { project: 'p', annotator: 'a', afterSeq: after, unlabeledOnly: true });
        expect(item!.seq).toBe(after + 1);
        expect(item!.prompt).toBe(`prompt ${item!.seq}`);
        expect(item!.label).toBeNull();
        const again = await service.dispatch('getItem', { project: 'p', annotator: 'a', itemId: first!.id });
        expect(again!.label?.choice).toBe('A');
        after = item!.seq;
      }
      const sqls = prepare.mock.calls.map(([sql]) => String(sql).replace(/\s+/g, ' ').slice(0, 140));
      expect(sqls, sqls.join('\n')).toEqual([]);
    } finally {
      prepare.mockRestore();
    }
  });
});
