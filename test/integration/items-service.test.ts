// The items explorer through the service (the API every transport calls): queryItems and saved views by
// dispatch, input checked by the contract; nextItem walking a saved view's items, in its order, as the
// labeling screens do when an annotator labels "these next".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportsDir } from '../../electron/core/base/paths';
import { describe, expect, it } from 'vitest';
import { FACTS_INLINE } from '../../electron/core/service/itemsFacts';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const N = 30;

describe('the items explorer through the service', () => {
  it('queries, saves a view and labels exactly its items, in its order, then none', async () => {
    // Item i's first response is i·3 characters longer than its second's.
    const dbPath = join(tempDir(), 'arbiter.db');
    const { db, service, ids } = pairProject(dbPath, { items: N, texts: (i) => [`a${'x'.repeat(i * 3)}`, 'b'], annotator: 'ann', visibleSeq: 'all' });
    const page = await service.dispatch('queryItems', { project: 'p', query: 'length>=60', sort: { column: 'length', desc: true }, limit: 5 });
    const longer = Array.from({ length: N }, (_, i) => i).filter((i) => `"prompt ${i}"`.length + `"a${'x'.repeat(i * 3)}"`.length + 3 >= 60);
    expect(page.matching).toBe(longer.length);
    expect(page.rows.map((r) => r.seq)).toEqual([...longer].reverse().slice(0, 5));
    expect(page.facets.find((f) => f.facet === 'shape')!.values.find((v) => v.value === 'pair')!.count).toBe(longer.length);
    await expect(service.dispatch('queryItems', { project: 'p', query: 'x'.repeat(2001) })).rejects.toThrow(/at most 2000 characters/);
    await expect(service.dispatch('saveView', { project: 'p', name: 'v', query: 'tag>=3' })).rejects.toThrow(/is not a number/);

    const view = await service.dispatch('saveView', { project: 'p', name: 'long ones', query: 'length>=60', sort: { column: 'length', desc: true } });
    expect(await service.dispatch('listViews', { project: 'p' })).toEqual([view]);
    const walked: number[] = [];
    for (let i = 0; i < N; i++) {
      const item = await service.dispatch('nextItem', { project: 'p', annotator: 'ann', viewId: view.id });
      if (!item) break;
      walked.push(item.seq);
      await service.dispatch('saveLabel', { project: 'p', annotator: 'ann', itemId: item.id, choice: 'A', shownOrder: [0, 1] });
    }
    expect(walked).toEqual([...longer].reverse());
    // Without the view, the walk goes on in file order from the start among what is left.
    const next = await service.dispatch('nextItem', { project: 'p', annotator: 'ann' });
    expect(next!.seq).toBe(0);
    expect((await service.dispatch('matchingIds', { project: 'p', view: 'long ones' })).matching).toBe(longer.length);
    // A selection's export and a query's: exactly those items, in file order.
    const chosen = await service.dispatch('exportItems', { project: 'p', format: 'arbiter', ids: [ids[7]!, ids[2]!] });
    const written = (file: string) => readFileSync(join(exportsDir(dbPath), file), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    expect(written(chosen.out)).toEqual(['q2', 'q7']);
    const byQuery = await service.dispatch('exportItems', { project: 'p', format: 'arbiter', query: 'length>=60' });
    expect(written(byQuery.out)).toEqual(longer.map((i) => `q${i}`));
    await expect(service.dispatch('exportItems', { project: 'p', format: 'arbiter', ids: [ids[1]!], view: 'long ones' })).rejects.toThrow(/one of ids/);
    expect(await service.dispatch('deleteView', { project: 'p', name: 'long ones' })).toEqual({ deleted: true });
    await expect(service.dispatch('nextItem', { project: 'p', annotator: 'ann', viewId: view.id })).rejects.toThrow(/no saved view with id/);
    service.stopBackgroundWork();
    db.close();
  });
});

describe('a large project’s facts, read on a task worker', () => {
  it('a save refreshes its item at once; the review’s project-wide facets say they are recomputed meanwhile, then the new counts', async () => {
    FACTS_INLINE.items = 0; // every project reads on a worker here
    try {
      const { db, service, ids } = pairProject(join(tempDir(), 'arbiter.db'), { items: 12, texts: (i) => [`a${i}`, 'b'], annotator: 'ann', visibleSeq: 'all' });
      const ask = (query = 'labeled=anyone') => service.dispatch('queryItems', { project: 'p', query, limit: 50, facets: true });
      const first = await ask();
      expect(first).toMatchObject({ matching: 0, stale: false });
      expect(first.timing.factsMs).toBeGreaterThan(0);
      await service.dispatch('saveLabel', { project: 'p', annotator: 'ann', itemId: ids[3]!, choice: 'A', shownOrder: [0, 1] });
      await service.dispatch('saveLabel', { project: 'p', annotator: 'bob', itemId: ids[3]!, choice: 'B', shownOrder: [0, 1] });
      // The item's own facts at once (no whole read); the review's part (disagree) is recomputed on a worker.
      const during = await ask();
      expect(during).toMatchObject({ matching: 1, stale: false, reviewing: true });
      expect(during.rows.map((r) => r.seq)).toEqual([3]);
      expect(during.facets.find((f) => f.facet === 'annotator')?.values.map((v) => [v.value, v.count])).toEqual([['ann', 1], ['bob', 1]]);
      expect(during.facets.find((f) => f.facet === 'disagree')).toMatchObject({ recomputing: true });
      expect(during.facets.find((f) => f.facet === 'labeled')?.recomputing).toBeUndefined();
      let after = during;
      // The worker's read (a new thread, the TypeScript sources loaded) takes a moment: asked again until it is in.
      for (const until = Date.now() + 60_000; after.reviewing && Date.now() < until; ) {
        await new Promise((r) => setTimeout(r, 20));
        after = await ask('disagree=pairwise');
      }
      expect(after).toMatchObject({ matching: 1, stale: false });
      expect(after.reviewing).toBeUndefined();
      expect(after.rows.map((r) => r.seq)).toEqual([3]);
      expect(after.facets.find((f) => f.facet === 'disagree')?.recomputing).toBeUndefined();
      // A selection waits for current facts rather than answer from older ones.
      await service.dispatch('saveLabel', { project: 'p', annotator: 'ann', itemId: ids[5]!, choice: 'B', shownOrder: [0, 1] });
      expect((await service.dispatch('matchingIds', { project: 'p', query: 'labeled=anyone' })).ids).toEqual([ids[3], ids[5]]);
      service.stopBackgroundWork();
      db.close();
    } finally {
      FACTS_INLINE.items = 100_000;
    }
  });
});
