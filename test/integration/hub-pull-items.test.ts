// A pull finds the items of the revisions it merges without reading every item of the project again for
// each slice: one external-id map serves the whole sync (bench:hub's 300k pull on 100k items spent most
// of its time rebuilding it, twice per 500-line slice). An item that becomes visible during the sync (an
// import completed) is found by the slices after it, as before.
import { afterAll, describe, expect, it } from 'vitest';
import { syncProject } from '../../electron/core/hub/sync';
import { findAnnotator } from '../../electron/core/store/annotators';
import { hubLink } from '../../electron/core/store/hub';
import { itemInserter } from '../../electron/core/store/itemInsert';
import { requireProject } from '../../electron/core/store/projects';
import { labelState, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-pull-items');

const ITEMS = 200;
const TEAMMATES = 10;

describe.skipIf(reason)('a pull resolves items once per sync', () => {
  const hub = useHubCluster('hub-pull-items');
  const opened: Desktop[] = [];
  afterAll(async () => {
    for (const d of opened) d.db.close();
  });

  it(`pulls ${ITEMS * TEAMMATES} revisions in slices reading the project's external ids once, and finds an item imported mid-sync`, async () => {
    const { publisher, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_items', ITEMS, [{ name: 'ben', role: 'annotator' }]);
    opened.push(publisher, ...desktops);
    const [ben] = desktops as [Desktop];
    const hubProject = hubLink(ben.db, requireProject(ben.db, PROJECT).id)!.hubProjectId;
    // TEAMMATES people's revisions on every item (as the cluster's superuser, which row security exempts).
    await admin.query(
      `INSERT INTO arbiter.revision (id, project_id, annotator_uuid, line)
       SELECT r.id, $1, r.au, jsonb_build_object('id', r.id, 'item', 'q' || il.seq, 'item_uid', il.uid, 'annotator', 'mate' || a, 'annotator_uuid', r.au::text,
                'annotator_kind', 'human', 'task', 'pairwise', 'choice', CASE WHEN (a + il.seq) % 3 = 0 THEN 'B' ELSE 'A' END, 'strength', 2,
                'shown_order', jsonb_build_array(0, 1), 'created_at', '2026-01-01T00:00:00.000Z')
       FROM arbiter.item_line il CROSS JOIN generate_series(0, $2 - 1) AS a
       CROSS JOIN LATERAL (SELECT lpad(to_hex(a), 8, '0') || '-0000-7000-8000-' || lpad(to_hex(il.seq), 12, '0') AS id,
                                  ('00000000-0000-4000-8000-' || lpad(to_hex(a), 12, '0'))::uuid AS au) r
       WHERE il.project_id = $1 ORDER BY a, il.seq`,
      [hubProject, TEAMMATES],
    );
    // Then one for an item the hub never published, named by its external id only: ben imports it mid-sync.
    const late = { id: '0192f0c4-0000-7000-8000-00000000fa7e', item: 'late', annotator: 'mate0', annotator_uuid: '00000000-0000-4000-8000-000000000000', annotator_kind: 'human', task: 'pairwise', choice: 'B', created_at: '2026-01-02T00:00:00.000Z' };
    await admin.query('INSERT INTO arbiter.revision (id, project_id, annotator_uuid, line) VALUES ($1, $2, $3, $4)', [late.id, hubProject, late.annotator_uuid, JSON.stringify(late)]);

    // Every scan of the project's external ids that ben's database is asked for.
    let scans = 0;
    const prepare = ben.db.prepare.bind(ben.db);
    ben.db.prepare = ((sql: string) => {
      if (/external_id IS NOT NULL/.test(sql)) scans++;
      return prepare(sql);
    }) as typeof ben.db.prepare;
    let imported = false;
    const summary = await syncProject(ben.db, {
      project: PROJECT,
      onProgress: ({ phase, pulled }) => {
        if (phase !== 'pull' || pulled === 0 || imported) return;
        imported = true;
        const projectId = requireProject(ben.db, PROJECT).id;
        ben.db.transaction(() => itemInserter(ben.db, projectId).insert({ externalId: 'late', prompt: 'A late question?', responses: [{ content: 'Yes.', model: null, steps: null }, { content: 'No.', model: null, steps: null }], reference: null, metadata: {} }))();
      },
    });
    ben.db.prepare = prepare;

    expect(summary).toMatchObject({ pulled: ITEMS * TEAMMATES + 1, deferred: 0, conflicts: 0 });
    expect(imported).toBe(true);
    expect(findAnnotator(ben.db, 'mate9')).toBeDefined();
    // Once before the import, once after it (the old code: twice per slice, 10 for 5 slices).
    expect(scans).toBeLessThanOrEqual(2);
    const merged = labelState(ben.db).revisions;
    expect(merged).toHaveLength(ITEMS * TEAMMATES + 1);
    expect(merged.some((r) => r.id === late.id)).toBe(true);
    expect(await syncProject(ben.db, { project: PROJECT })).toMatchObject({ pulled: 0, deferred: 0 });
    await admin.end();
  }, 180_000);
});
