// Temporal marks (issue 24, item 4) travel through a real PostgreSQL hub as every body field does: a
// teammate's marks in time and first failure arrive on the lead's desktop at the next sync. A hostile
// line written straight into the hub (a negative time, a range ending before it starts, 10 000 marks, a
// 1 MB note) is held back by the same zod rule a save goes through (shared/moments.ts), with its words,
// and never becomes the teammate's current label there.
import { describe, expect, it } from 'vitest';
import { syncProject } from '../../electron/core/hub/sync';
import { findAnnotator } from '../../electron/core/store/annotators';
import { deferredRevisions, hubLink } from '../../electron/core/store/hub';
import { currentLabel } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import type { Moment } from '../../shared/moments';
import { itemIds, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-moments');

const sync = (d: Desktop) => syncProject(d.db, { project: PROJECT, password: undefined, batch: 40 });

const MARKS: Moment[] = [
  { at: 0, from: 0.5, tag: 'slip', note: 'the gripper slips' },
  { at: 1, from: 1, to: 1.75, tag: 'collision' },
];

describe.skipIf(reason)('temporal marks through a PostgreSQL hub', () => {
  const hub = useHubCluster('hub-moments');

  it('a teammate’s marks and first failure arrive; hostile marks are refused by the save’s rule', async () => {
    const { publisher: lead, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_moments', 3, [{ name: 'alice', role: 'annotator' }]);
    const alice = desktops[0]!;
    try {
      const mine = itemIds(alice);
      const itemId = mine.get('q1')!;
      await alice.service.dispatch('saveLabel', { project: PROJECT, annotator: 'alice', itemId, choice: 'A', strength: 2, shownOrder: [0, 1] });
      const saved = await alice.service.dispatch('saveMoments', { project: PROJECT, annotator: 'alice', itemId, task: 'pairwise', moments: MARKS, firstFailure: { B: 1.25 } });
      expect(saved?.body.moments).toEqual(MARKS);
      await sync(alice);
      await sync(lead);
      const there = () => currentLabel(lead.db, itemIds(lead).get('q1')!, findAnnotator(lead.db, 'alice')!.id, 'pairwise')!;
      expect(there().id).toBe(saved!.id);
      expect(there().body.moments).toEqual(MARKS);
      expect(there().body.first_failure).toEqual({ B: 1.25 });

      // Hostile lines, written into the hub as alice (the admin bypasses the row rules): each a copy of her
      // line with one bad thing in its marks.
      const { rows } = await admin.query('SELECT project_id, line FROM arbiter.revision WHERE id = $1', [saved!.id]);
      const [{ project_id: hubProject, line }] = rows as [{ project_id: number; line: Record<string, unknown> }];
      const bad: [string, unknown][] = [
        ['negative', [{ at: 0, from: -1, tag: 'slip' }]],
        ['backwards', [{ at: 0, from: 2, to: 1, tag: 'slip' }]],
        ['many', Array.from({ length: 10_000 }, (_, i) => ({ at: 0, from: i / 100, tag: 'slip' }))],
        ['huge note', [{ at: 0, from: 1, tag: 'slip', note: 'x'.repeat(1_000_000) }]],
      ];
      const ids = bad.map((_, i) => `0190aaaa-0000-7000-8000-00000000000${i}`);
      for (const [i, [, moments]] of bad.entries()) {
        const hostile = { ...line, id: ids[i], created_at: `2030-01-01T00:00:0${i}.000Z`, moments };
        await admin.query('INSERT INTO arbiter.revision (id, project_id, annotator_uuid, line) VALUES ($1, $2, $3, $4)', [ids[i], hubProject, line.annotator_uuid, hostile]);
      }
      const summary = await sync(lead);
      expect(summary.pulled).toBe(0);
      expect(summary.deferred).toBe(4);
      const link = hubLink(lead.db, requireProject(lead.db, PROJECT).id)!;
      const reasons = deferredRevisions(lead.db, link.projectId, 0, 10).map((d) => d.reason);
      expect(reasons).toHaveLength(4);
      expect(reasons.find((r) => r.includes(ids[0]!))).toMatch(/moments\.0\.from.*0 or more seconds|moments\[0\]\.from.*0 or more seconds/);
      expect(reasons.find((r) => r.includes(ids[1]!))).toMatch(/to > from/);
      expect(reasons.find((r) => r.includes(ids[2]!))).toMatch(/more than 200 marks/);
      expect(reasons.find((r) => r.includes(ids[3]!))).toMatch(/a note longer than 2000 characters/);
      // Her current label there is still the one she saved.
      expect(there().id).toBe(saved!.id);
      expect(there().body.moments).toEqual(MARKS);
    } finally {
      await admin.end();
      for (const d of [lead, alice]) d.db.close();
    }
  }, 180_000);
});
