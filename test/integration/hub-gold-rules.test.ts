// Gold rules and qualification through a real PostgreSQL hub (issue 23 §1): the lead's gold rules ride in
// the project's settings, checked by the same schema on every desktop; the lead's gold (adjudications)
// comes down with the labels, so an annotator's own desktop serves them the qualification set first and
// holds them when they miss it; their labels go up, and the lead's desktop scores the same qualification
// and accuracy from them. A malformed rule on the hub is refused and the local settings kept.
import { describe, expect, it } from 'vitest';
import { buildReview } from '../../electron/core/review/report';
import { syncProject } from '../../electron/core/hub/sync';
import { requireProject } from '../../electron/core/store/projects';
import { itemIds, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-gold-rules');

const sync = (d: Desktop) => syncProject(d.db, { project: PROJECT, password: undefined, batch: 40 });
const RULES = { pairwise: { honeypotRate: 0.25, qualification: 3, passMark: 1, bar: 0.8, retries: {} } };

describe.skipIf(reason)('gold rules through a PostgreSQL hub', () => {
  const hub = useHubCluster('hub-gold-rules');

  it('carries the rules and the gold; the annotator’s desktop serves the qualification; the lead scores it', async () => {
    const { publisher: lead, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_gold_rules', 12, [{ name: 'alice', role: 'annotator' }], { gold: RULES });
    const alice = desktops[0]!;
    try {
      const ids = itemIds(lead);
      for (const q of ['q0', 'q1', 'q2', 'q3', 'q4']) await lead.service.dispatch('adjudicate', { project: PROJECT, annotator: 'lead', itemId: ids.get(q)!, task: 'pairwise', choice: 'A', strength: 2 });
      await sync(lead);
      await sync(alice);
      expect((await alice.service.dispatch('getProject', { project: PROJECT })).settings.gold).toEqual(RULES);
      // Alice's own desktop: the qualification set first (the first three gold items), she misses one.
      const aliceIds = itemIds(alice);
      const served: string[] = [];
      let after: number | undefined;
      for (let n = 0; n < 3; n++) {
        const item = await alice.service.dispatch('nextItem', { project: PROJECT, annotator: 'alice', afterSeq: after });
        served.push(item!.externalId!);
        await alice.service.dispatch('saveLabel', { project: PROJECT, annotator: 'alice', itemId: item!.id, choice: n === 0 ? 'B' : 'A', shownOrder: [0, 1] });
        after = item!.seq;
      }
      expect([...served].sort()).toEqual(['q0', 'q1', 'q2']);
      expect(aliceIds.get(served[0]!)).toBeDefined();
      expect(await alice.service.dispatch('nextItem', { project: PROJECT, annotator: 'alice' })).toBeNull();
      await sync(alice);
      await sync(lead);
      const gold = buildReview(lead.db, requireProject(lead.db, PROJECT)).report.gold.tasks.find((t) => t.task === 'pairwise')!;
      const person = gold.people.find((p) => p.name === 'alice')!;
      expect(person.qualification).toMatchObject({ state: 'failed', done: 3, total: 3 });
      expect(person.qualification!.score).toBeCloseTo(2 / 3, 6);
      expect(person).toMatchObject({ correct: 2, flagged: true });
      expect(person.wrong.map((w) => w.externalId)).toEqual([served[0]]);
      // The same figures on Alice's desktop.
      expect(buildReview(alice.db, requireProject(alice.db, PROJECT)).report.gold).toEqual(buildReview(lead.db, requireProject(lead.db, PROJECT)).report.gold);
      // A malformed rule written on the hub is refused by every desktop; the rules in force stay.
      await admin.query(`UPDATE arbiter.project SET settings = jsonb_set(settings::jsonb, '{gold,pairwise,honeypotRate}', '7')`);
      const refused = await sync(alice);
      expect(JSON.stringify(refused)).toMatch(/honeypotRate|gold/);
      expect((await alice.service.dispatch('getProject', { project: PROJECT })).settings.gold).toEqual(RULES);
    } finally {
      await admin.end();
      for (const d of [lead, ...desktops]) {
        d.service.stopBackgroundWork();
        d.db.close();
      }
    }
  }, 180_000);
});
