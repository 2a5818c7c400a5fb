// Overlap and labeling order across a team (issue 16, item 5): the lead sets "each item to 1 of alice, bob
// and cara, in a random order per person" and publishes; every desktop that joins walks each person's items
// in the same order and gives each item to the same person, because assignment and order are computed
// from the published settings, the person's name and the item's content hash, never from local ids.
import { describe, expect, it } from 'vitest';
import { PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-overlap');

const ITEMS = 30;
const TEAM = ['alice', 'bob', 'cara'];

/** The external ids `annotator` is given, in the order the labeling loop walks them on desktop `d`. */
async function walk(d: Desktop, annotator: string): Promise<string[]> {
  const seen: string[] = [];
  let afterSeq: number | undefined;
  for (;;) {
    const next = await d.service.dispatch('nextItem', { project: PROJECT, annotator, ...(afterSeq === undefined ? {} : { afterSeq }) });
    // Where the person has an annotator here, the walk of unlabeled items wraps round to the start.
    if (!next || seen.includes(next.externalId!)) return seen;
    seen.push(next.externalId!);
    afterSeq = next.seq;
  }
}

describe.skipIf(reason)('overlap and labeling order across the team', () => {
  const hub = useHubCluster('hub-overlap');

  it('every desktop gives each item to the same person and walks each person in the same order', async () => {
    const people = TEAM.map((name) => ({ name, role: 'annotator' as const }));
    const { publisher, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'overlap', ITEMS, people, { overlap: 1, team: TEAM, order: 'random' });
    try {
      const everywhere = [publisher, ...desktops];
      for (const d of everywhere) expect((await d.service.dispatch('getProject', { project: PROJECT })).settings).toMatchObject({ overlap: 1, team: TEAM, order: 'random' });
      const given = new Map<string, string>();
      for (const name of TEAM) {
        const orders = await Promise.all(everywhere.map((d) => walk(d, name)));
        for (const order of orders.slice(1)) expect(order).toEqual(orders[0]);
        for (const id of orders[0]!) {
          expect(given.get(id), `${id} given twice`).toBeUndefined();
          given.set(id, name);
        }
        // A random order per person, not the file's.
        expect(orders[0]!.length).toBeGreaterThan(1);
        expect(orders[0]).not.toEqual([...orders[0]!].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))));
      }
      // Overlap 1: every item to exactly one of the three.
      expect(given.size).toBe(ITEMS);
    } finally {
      await admin.end();
      for (const d of [publisher, ...desktops]) {
        d.service.stopBackgroundWork();
        d.db.close();
      }
    }
  }, 120_000);
});
