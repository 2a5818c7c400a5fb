// Items a lead sends to review travel through a real PostgreSQL hub with the team settings: the list is
// kept by item uid, so the annotator's desktop queues the same items (its own local ids) with the reason
// "sent by lead".
import { describe, expect, it } from 'vitest';
import { syncProject } from '../../electron/core/hub/sync';
import { itemIds, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-review-sent');

const sync = (d: Desktop) => syncProject(d.db, { project: PROJECT, password: undefined, batch: 40 });

describe.skipIf(reason)('sent to review, through a PostgreSQL hub', () => {
  const hub = useHubCluster('hub-review-sent');

  it('queues the lead’s sent items on the annotator’s desktop, by uid', async () => {
    const { publisher: lead, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_review_sent', 6, [{ name: 'alice', role: 'annotator' }]);
    const alice = desktops[0]!;
    try {
      const ids = itemIds(lead);
      await lead.service.dispatch('sendToReview', { project: PROJECT, annotator: 'lead', itemIds: [ids.get('q3')!, ids.get('q5')!] });
      await sync(lead);
      await sync(alice);
      const queue = await alice.service.dispatch('reviewQueue', { project: PROJECT, reason: 'sent' });
      const local = itemIds(alice);
      expect(queue.rows.map((r) => [r.itemId, r.externalId, r.sent?.by]).sort()).toEqual([
        [local.get('q3'), 'q3', 'lead'],
        [local.get('q5'), 'q5', 'lead'],
      ]);
    } finally {
      await admin.end();
      for (const d of [lead, alice]) d.db.close();
    }
  }, 120_000);
});
