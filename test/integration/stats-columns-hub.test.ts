// The columns kept beside label_head for `arbiter stats` (migration 17) through a hub pull: a teammate's
// saves (strength, shown order, time, pre-label visibility), synced through a real PostgreSQL hub, arrive
// on the lead's desktop with each head's columns equal to what its revision says, and the lead's pairwise
// review read from them equals the one read from the revision rows.
import { describe, expect, it } from 'vitest';
import { syncProject } from '../../electron/core/hub/sync';
import { requireProject } from '../../electron/core/store/projects';
import { expectHeadColumns, expectPairwiseReviewFromHeads } from '../helpers/headColumns';
import { itemIds, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('stats-columns-hub');

const sync = (d: Desktop) => syncProject(d.db, { project: PROJECT, password: undefined, batch: 40 });

describe.skipIf(reason)('the stats columns beside label_head, through a PostgreSQL hub', () => {
  const hub = useHubCluster('stats-columns-hub');

  it('a pulled revision writes its head’s columns', async () => {
    const { publisher: lead, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_stats_columns', 6, [{ name: 'alice', role: 'annotator' }]);
    const alice = desktops[0]!;
    try {
      const ids = itemIds(alice);
      const save = (q: string, choice: 'A' | 'B' | 'tie', extra: object) =>
        alice.service.dispatch('saveLabel', { project: PROJECT, annotator: 'alice', itemId: ids.get(q)!, choice, strength: choice === 'tie' ? null : 1, shownOrder: [1, 0], timeMs: 2500, ...extra });
      await save('q1', 'A', { prelabelVisible: true });
      await save('q2', 'B', { prelabelVisible: false, shownOrder: [0, 1] });
      await save('q3', 'tie', {});
      await save('q3', 'B', { timeMs: 700 }); // a later revision of the same head
      await lead.service.dispatch('saveLabel', { project: PROJECT, annotator: 'lead', itemId: itemIds(lead).get('q1')!, choice: 'B', strength: 2, shownOrder: [0, 1], timeMs: 900 });
      await sync(alice);
      await sync(lead);
      const pulled = lead.db
        .prepare("SELECT h.strength, h.shown_left, h.time_ms, h.prelabel_visible FROM label_head h JOIN annotator a ON a.id = h.annotator_id WHERE a.name = 'alice' ORDER BY h.item_id")
        .raw()
        .all();
      expect(pulled).toEqual([
        [1, 1, 2500, 1],
        [1, 0, 2500, 0],
        [1, 1, 700, null],
      ]);
      expectHeadColumns(lead.db);
      expectPairwiseReviewFromHeads(lead.db, requireProject(lead.db, PROJECT).id);
    } finally {
      await admin.end();
      for (const d of [lead, alice]) d.db.close();
    }
  }, 120_000);
});
