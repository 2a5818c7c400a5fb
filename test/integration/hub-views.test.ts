// Saved views through a real PostgreSQL hub: a view saved on one desktop reaches another at its next
// sync, a newer save and a delete follow, the newest save of a name wins whatever the order of syncs; the
// hub keeps each save once and refuses updates; a malformed view row (written by the hub's owner past the
// app) is refused on pull, said in the sync's summary, and the desktop keeps its own.
import { afterAll, describe, expect, it } from 'vitest';
import { syncProject } from '../../electron/core/hub/sync';
import { PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-views');

const sync = (d: Desktop) => syncProject(d.db, { project: PROJECT, password: undefined, batch: 40 });
const views = async (d: Desktop) => (await d.service.dispatch('listViews', { project: PROJECT })).map((v) => [v.name, v.query, v.sort.column, v.sort.desc]);

describe.skipIf(reason)('saved views through a PostgreSQL hub', () => {
  const hub = useHubCluster('hub-views');
  const opened: Desktop[] = [];
  afterAll(async () => {
    for (const d of opened) {
      d.service.stopBackgroundWork();
      d.db.close();
    }
  });

  it('travel both ways, newest save of a name wins, deletes follow, and a malformed row is refused', async () => {
    const { desktops, admin, publisher } = await setUpTeam(hub.cluster, hub.dir, 'hub_views', 6, [
      { name: 'alice', role: 'annotator' },
      { name: 'bob', role: 'annotator' },
    ]);
    opened.push(publisher, ...desktops);
    const [alice, bob] = desktops as [Desktop, Desktop];
    await alice.service.dispatch('saveView', { project: PROJECT, name: 'to check', query: 'labeled=nobody', sort: { column: 'length', desc: true }, author: 'alice' });
    await alice.service.dispatch('saveView', { project: PROJECT, name: 'gone soon', query: 'shape=pair' });
    const up = await sync(alice);
    expect(up.views).toMatchObject({ pushed: 2, refused: 0 });
    const down = await sync(bob);
    expect(down.views).toMatchObject({ pulled: 2, refused: 0 });
    expect(await views(bob)).toEqual([
      ['gone soon', 'shape=pair', 'seq', false],
      ['to check', 'labeled=nobody', 'length', true],
    ]);
    // Bob changes one and deletes the other; Alice saves the first again offline, earlier than Bob did.
    const aliceEarlier = await alice.service.dispatch('saveView', { project: PROJECT, name: 'to check', query: 'labeled=nobody shape=pair' });
    await new Promise((r) => setTimeout(r, 5));
    await bob.service.dispatch('saveView', { project: PROJECT, name: 'to check', query: 'disagree=pairwise', sort: { column: 'dispute', desc: true } });
    await bob.service.dispatch('deleteView', { project: PROJECT, name: 'gone soon' });
    expect((await sync(bob)).views.pushed).toBe(2);
    const again = await sync(alice);
    expect(again.views.pulled).toBe(2);
    expect(await views(alice)).toEqual([['to check', 'disagree=pairwise', 'dispute', true]]);
    // Alice's older save reached the hub too, and changes nothing anywhere.
    await sync(bob);
    expect(await views(bob)).toEqual([['to check', 'disagree=pairwise', 'dispute', true]]);
    const saved = await admin.query<{ n: string }>("SELECT count(*) AS n FROM arbiter.item_view WHERE name = 'to check'");
    expect(Number(saved.rows[0]!.n)).toBe(3);
    expect(aliceEarlier.updatedAt < (await bob.service.dispatch('listViews', { project: PROJECT }))[0]!.updatedAt).toBe(true);
    await expect(admin.query("UPDATE arbiter.item_view SET query = 'x' WHERE name = 'to check'")).rejects.toThrow(/append-only/);

    // The hub's owner writes rows past the app: a query that does not read, a sort that is not one, and a
    // save dated far after the hub took it (it would pin the view). All refused on pull; Bob's stays.
    const project = (await admin.query<{ id: string }>('SELECT id FROM arbiter.project WHERE name = $1', [PROJECT])).rows[0]!.id;
    const insert = (id: string, name: string, query: string, sort: string, at: string) =>
      admin.query("INSERT INTO arbiter.item_view (id, project_id, name, query, sort, updated_at, annotator_uuid) VALUES ($1, $2, $3, $4, $5::jsonb, $6, '00000000-0000-4000-8000-000000000000')", [id, project, name, query, sort, at]);
    await insert('01900000-0000-7000-8000-000000000001', 'to check', 'colour=red', '{"column":"seq","desc":false}', '2099-01-01T00:00:00.000Z');
    await insert('01900000-0000-7000-8000-000000000002', 'odd sort', 'shape=pair', '{"column":"colour","desc":false}', '2026-01-01T00:00:00.000Z');
    await insert('01900000-0000-7000-8000-000000000003', 'future', 'shape=pair', '{"column":"seq","desc":false}', '2099-01-01T00:00:00.000Z');
    await expect(insert('01900000-0000-7000-8000-000000000004', 'bad time', '', '{}', '2026-01-01 00:00')).rejects.toThrow(/check constraint/);
    const refused = await sync(alice);
    expect(refused.views.refused).toBe(3);
    expect(refused.refused.join(' ')).toMatch(/3 saved views on the hub were refused and left out \(the first: the view "future": saved at 2099/);
    expect(await views(alice)).toEqual([['to check', 'disagree=pairwise', 'dispute', true]]);
  }, 180_000);
});
