// A person the lead granted without --uuid (the hub made their uuid) joins and labels: `hub join`,
// connected as their login role, gives their local annotator the hub's uuid, so their revisions pass the
// hub's row-level security and reach the team under their name. A desktop where that name already has
// revisions under another uuid is refused with what the lead must run; the admin's join adopts nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importFile } from '../../electron/core/formats';
import { syncProject } from '../../electron/core/hub/sync';
import { ArbiterService } from '../../electron/core/service';
import { adoptAnnotatorUuid, ensureAnnotator, ensureAnnotatorByUuid, findAnnotator } from '../../electron/core/store/annotators';
import { openDb } from '../../electron/core/store/db';
import { findProject } from '../../electron/core/store/projects';
import { cli, itemIds, labelState, PROJECT, setUpTeam, teamItems, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-join-uuid');

describe.skipIf(reason)('hub join adopts the uuid the hub granted', () => {
  const hub = useHubCluster('hub-join-uuid');
  const opened: Desktop[] = [];
  afterAll(async () => {
    for (const d of opened) d.db.close();
  });

  function desktop(name: string): Desktop {
    const dbPath = join(hub.dir, `${name}.db`);
    const db = openDb(dbPath);
    const d = { name, dbPath, db, service: new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: name }), url: hub.cluster.url(`arbiter_${name}`, undefined, 'hub_uuid') };
    opened.push(d);
    return d;
  }

  it('grant without --uuid, join as that role, label, sync: pushed under the hub uuid, pulled by the lead under the name; a name with revisions here is refused; the admin adopts nothing', async () => {
    const { publisher: lead, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_uuid', 5, []);
    opened.push(lead);
    const adminUrl = hub.cluster.url(undefined, undefined, 'hub_uuid');

    // Alice: granted without --uuid; her desktop has her annotator already (the app makes it), no labels yet.
    const granted = await cli(['hub', 'grant', '--hub', adminUrl, '--annotator', 'alice', '--role', 'annotator', '--no-password']);
    expect(granted.code, granted.err.join('\n')).toBe(0);
    const hubUuid = (JSON.parse(granted.out[0]!) as { uuid: string }).uuid;
    const alice = desktop('alice');
    const before = ensureAnnotator(alice.db, 'alice', 'human').uuid;
    expect(before).not.toBe(hubUuid);
    const joined = await cli(['hub', 'join', '--project', PROJECT, '--hub', alice.url, '--db', alice.dbPath]);
    expect(joined.code, joined.err.join('\n')).toBe(0);
    expect(findAnnotator(alice.db, 'alice')?.uuid).toBe(hubUuid);
    expect(JSON.parse(joined.out[0]!)).toMatchObject({ annotator: { name: 'alice', uuid: hubUuid } });

    const ids = itemIds(alice);
    for (const q of ['q0', 'q1', 'q2']) await alice.service.dispatch('saveLabel', { project: PROJECT, annotator: 'alice', itemId: ids.get(q)!, choice: 'A', shownOrder: [0, 1] });
    const up = await syncProject(alice.db, { project: PROJECT });
    expect(up).toMatchObject({ as: 'alice', pushed: 3, notPushed: 0, notPushedBy: [] });
    const down = await syncProject(lead.db, { project: PROJECT });
    expect(down.pulled).toBe(3);
    expect(findAnnotator(lead.db, 'alice')?.uuid).toBe(hubUuid);
    expect(labelState(lead.db).revisions.filter((r) => (r as { annotator?: string }).annotator === hubUuid)).toHaveLength(3);
    // Joining again changes nothing.
    expect((await cli(['hub', 'join', '--project', PROJECT, '--hub', alice.url, '--db', alice.dbPath])).code).toBe(0);
    expect(findAnnotator(alice.db, 'alice')?.uuid).toBe(hubUuid);

    // Bob: granted without --uuid, but he labeled another project here before joining.
    expect((await cli(['hub', 'grant', '--hub', adminUrl, '--annotator', 'bob', '--role', 'annotator', '--no-password'])).code).toBe(0);
    const bob = desktop('bob');
    writeFileSync(join(hub.dir, 'own.jsonl'), `${teamItems(1)}\n`);
    await importFile(bob.db, { path: join(hub.dir, 'own.jsonl'), project: 'own', format: 'arbiter', createProject: true });
    const ownItem = (bob.db.prepare("SELECT i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'own'").get() as { id: number }).id;
    await bob.service.dispatch('saveLabel', { project: 'own', annotator: 'bob', itemId: ownItem, choice: 'B', shownOrder: [0, 1] });
    const localUuid = findAnnotator(bob.db, 'bob')!.uuid;
    const refused = await cli(['hub', 'join', '--project', PROJECT, '--hub', bob.url, '--db', bob.dbPath]);
    expect(refused.code).not.toBe(0);
    expect(refused.err.join('\n')).toContain(`arbiter hub grant --hub URL --annotator bob --role annotator --uuid ${localUuid}`);
    expect(findProject(bob.db, PROJECT)).toBeUndefined();
    expect(findAnnotator(bob.db, 'bob')?.uuid).toBe(localUuid);
    // The lead does what it says; Bob joins, labels, syncs.
    const regrant = await cli(['hub', 'grant', '--hub', adminUrl, '--annotator', 'bob', '--role', 'annotator', '--uuid', localUuid]);
    expect(regrant.code, regrant.err.join('\n')).toBe(0);
    expect((await cli(['hub', 'join', '--project', PROJECT, '--hub', bob.url, '--db', bob.dbPath])).code).toBe(0);
    await bob.service.dispatch('saveLabel', { project: PROJECT, annotator: 'bob', itemId: itemIds(bob).get('q3')!, choice: 'B', shownOrder: [0, 1] });
    expect(await syncProject(bob.db, { project: PROJECT })).toMatchObject({ as: 'bob', pushed: 1, notPushed: 0, pulled: 3 });

    // The admin (no annotator row on the hub) joins and adopts nothing.
    const owner = desktop('owner');
    const byAdmin = await cli(['hub', 'join', '--project', PROJECT, '--hub', adminUrl, '--db', owner.dbPath]);
    expect(byAdmin.code, byAdmin.err.join('\n')).toBe(0);
    expect(JSON.parse(byAdmin.out[0]!)).toMatchObject({ annotator: null });
    expect(owner.db.prepare("SELECT count(*) AS n FROM annotator WHERE kind = 'human'").get()).toEqual({ n: 0 });
    await admin.end();
  }, 180_000);

  it("the app's connectHub joins the same way: a person granted without --uuid connects, saves, and the background sync pushes under the hub's uuid", async () => {
    const { publisher: lead, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_app', 3, []);
    opened.push(lead);
    const adminUrl = hub.cluster.url(undefined, undefined, 'hub_app');
    const granted = await cli(['hub', 'grant', '--hub', adminUrl, '--annotator', 'cara', '--role', 'annotator', '--no-password']);
    const hubUuid = (JSON.parse(granted.out[0]!) as { uuid: string }).uuid;
    const cara = desktop('cara');
    ensureAnnotator(cara.db, 'cara', 'human');
    try {
      await cara.service.dispatch('connectHub', { project: PROJECT, url: hub.cluster.url('arbiter_cara', undefined, 'hub_app') });
      expect((await cara.service.dispatch('teamStatus', { project: PROJECT, annotator: 'cara' })).you).toEqual({ name: 'cara', uuid: hubUuid });
      const saved = await cara.service.dispatch('saveLabel', { project: PROJECT, annotator: 'cara', itemId: itemIds(cara).get('q1')!, choice: 'B', shownOrder: [0, 1] });
      const deadline = Date.now() + 30_000;
      while ((await admin.query('SELECT annotator_uuid::text AS u FROM arbiter.revision WHERE id = $1', [saved.id])).rows[0]?.u !== hubUuid) {
        if (Date.now() > deadline) throw new Error(`cara's revision did not reach the hub within 30 s: ${JSON.stringify((await cara.service.dispatch('teamStatus', { project: PROJECT } as never)) ?? null)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await cara.service.dispatch('disconnectHub', { project: PROJECT }).catch(() => undefined);
      cara.service.stopBackgroundWork();
      await admin.end();
    }
  }, 120_000);
});

describe('adoptAnnotatorUuid (the local side of hub join)', () => {
  const uuid = '11111111-2222-4333-8444-555555555555';
  function fresh() {
    const d = mkdtempSync(join(tmpdir(), 'arbiter-adopt-'));
    return { db: openDb(join(d, 'a.db')), done: () => rmSync(d, { recursive: true, force: true }) };
  }

  it('makes, keeps, renames a pulled copy over an unused name, and refuses what would change owners', async () => {
    const { db, done } = fresh();
    try {
      expect(adoptAnnotatorUuid(db, 'dan', uuid)).toMatchObject({ outcome: 'made', annotator: { name: 'dan', uuid, kind: 'human' } });
      expect(adoptAnnotatorUuid(db, 'dan', uuid.toUpperCase())).toMatchObject({ outcome: 'same' });
      // Eve's revisions came down from the hub while "eve" here was an unused annotator: "eve@…" holds the uuid.
      const eveUuid = '21111111-2222-4333-8444-555555555555';
      const unused = ensureAnnotator(db, 'eve', 'human');
      ensureAnnotatorByUuid(db, eveUuid, 'eve', 'human');
      expect(findAnnotator(db, `eve@${eveUuid.slice(0, 8)}`)).toBeDefined();
      expect(adoptAnnotatorUuid(db, 'eve', eveUuid)).toMatchObject({ outcome: 'renamed', annotator: { name: 'eve', uuid: eveUuid } });
      expect(findAnnotator(db, 'eve')?.uuid).toBe(eveUuid);
      expect(db.prepare('SELECT 1 FROM annotator WHERE uuid = ?').get(unused.uuid)).toBeUndefined();
      // A model of that name is not a person.
      ensureAnnotator(db, 'gpt', 'model');
      expect(adoptAnnotatorUuid(db, 'gpt', '31111111-2222-4333-8444-555555555555')).toMatchObject({ outcome: 'not-human' });
      db.close();
    } finally {
      done();
    }
  });
});
