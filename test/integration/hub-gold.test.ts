// Gold marks through a real PostgreSQL hub: a lead's marks go up and come down on a teammate's desktop
// as the same marks (ids, items by uid, tasks, gold or not, the lead by uuid), so the gold in force is the
// same on both; an annotator's own mark is held on their desktop (the hub grants marking to leads only,
// and refuses it under row-level security); a mark forged on the hub under a non-lead's uuid (written past
// row-level security, as the hub's own maintenance could) is refused on pull and never becomes gold.
import { describe, expect, it } from 'vitest';
import { connectHub } from '../../electron/core/hub/connect';
import { syncProject } from '../../electron/core/hub/sync';
import { goldMarksInForce } from '../../electron/core/store/gold';
import { requireProject } from '../../electron/core/store/projects';
import { itemIds, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-gold');

const sync = (d: Desktop) => syncProject(d.db, { project: PROJECT, password: undefined, batch: 40 });

/** The marks of a desktop by content (uids, uuids), never local ids. */
function marks(d: Desktop) {
  return d.db
    .prepare('SELECT g.id, i.uid, g.task, g.gold, a.uuid, g.created_at FROM gold_mark g JOIN item i ON i.id = g.item_id JOIN annotator a ON a.id = g.annotator_id ORDER BY g.id')
    .all();
}

/** The marks in force by item uid. */
function inForce(d: Desktop) {
  const project = requireProject(d.db, PROJECT).id;
  const uids = new Map(d.db.prepare('SELECT id, uid FROM item').raw().all() as [number, string][]);
  return Object.fromEntries([...goldMarksInForce(d.db, project)].map(([item, m]) => [uids.get(item), Object.fromEntries(m)]));
}

describe.skipIf(reason)('gold marks through a PostgreSQL hub', () => {
  const hub = useHubCluster('hub-gold');

  it('carries a lead’s marks to a teammate, holds an annotator’s, and refuses one forged under a non-lead', async () => {
    const { publisher: lead, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_gold', 4, [{ name: 'alice', role: 'annotator' }]);
    const alice = desktops[0]!;
    try {
      const ids = itemIds(lead);
      await lead.service.dispatch('markGold', { project: PROJECT, annotator: 'lead', itemIds: [ids.get('q0')!, ids.get('q1')!] });
      await lead.service.dispatch('unmarkGold', { project: PROJECT, annotator: 'lead', itemIds: [ids.get('q1')!], task: 'ranking' });
      const up = await sync(lead);
      expect(up.goldMarks).toMatchObject({ pushed: 3, held: 0 });
      const down = await sync(alice);
      expect(down.goldMarks.pulled).toBe(3);
      expect(marks(alice)).toEqual(marks(lead));
      expect(inForce(alice)).toEqual(inForce(lead));
      expect(Object.values(inForce(alice))).toEqual([{ '*': true }, { '*': true, ranking: false }]);

      // Alice (an annotator) marks q2: held here; the hub's grants refuse her an insert outright.
      await alice.service.dispatch('markGold', { project: PROJECT, annotator: 'alice', itemIds: [itemIds(alice).get('q2')!] });
      const held = await sync(alice);
      expect(held.goldMarks).toMatchObject({ pushed: 0, held: 1 });
      const asAlice = await connectHub(alice.url);
      await expect(
        asAlice.query("INSERT INTO arbiter.gold_mark (id, project_id, item_uid, task, gold, annotator_uuid, created_at) SELECT '00000000-0000-7000-8000-000000000001', id, 'x', '*', true, gen_random_uuid(), '2026-01-01T00:00:00.000Z' FROM arbiter.project"),
      ).rejects.toThrow(/permission denied/);
      await asAlice.end();

      // A mark written on the hub past its checks, under alice's uuid: the lead's desktop refuses it.
      const uid = lead.db.prepare("SELECT uid FROM item WHERE external_id = 'q3'").pluck().get() as string;
      const aliceUuid = alice.db.prepare("SELECT uuid FROM annotator WHERE name = 'alice'").pluck().get() as string;
      await admin.query(
        `INSERT INTO arbiter.gold_mark (id, project_id, item_uid, task, gold, annotator_uuid, created_at)
         SELECT '00000000-0000-7000-8000-00000000f0f0', id, $1, '*', true, $2, '2026-01-01T00:00:00.000Z' FROM arbiter.project`,
        [uid, aliceUuid],
      );
      const forged = await sync(lead);
      expect(forged.goldMarks.pulled).toBe(0);
      expect(forged.refused.join(' ')).toMatch(/1 gold mark on the hub was refused and left out \(the first: hub mark \d+ names [0-9a-f-]+, who is not a lead on the hub\)/);
      expect(Object.keys(inForce(lead))).toHaveLength(2);
      // Read once: the next sync does not say it again.
      expect((await sync(lead)).refused).toEqual([]);
    } finally {
      await admin.end();
      lead.db.close();
      alice.db.close();
    }
  }, 120_000);
});
