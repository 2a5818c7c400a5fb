// A lead the admin granted without --uuid (the hub made their uuid) publishes from their own desktop:
// `hub publish`, connected as their login role, gives their local annotator the hub's uuid, as `hub join`
// does, so the labels they make after publishing pass the hub's row-level security. A lead who labeled
// here under another uuid before publishing is refused with the grant the admin runs, and nothing is
// published; the admin's publish adopts nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../electron/core/formats';
import { connectHub } from '../../electron/core/hub/connect';
import { initHub } from '../../electron/core/hub/schema';
import { syncProject } from '../../electron/core/hub/sync';
import { ArbiterService } from '../../electron/core/service';
import { ensureAnnotator, findAnnotator } from '../../electron/core/store/annotators';
import { openDb } from '../../electron/core/store/db';
import { cli, itemIds, PROJECT, teamItems, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-publish-uuid');

describe.skipIf(reason)('hub publish adopts the uuid the hub granted the lead', () => {
  const hub = useHubCluster('hub-publish-uuid');
  const opened: Desktop[] = [];
  beforeAll(async () => {
    const postgres = await connectHub(hub.cluster.url());
    await postgres.query('CREATE DATABASE hub_pub');
    await postgres.end();
    const admin = await connectHub(hub.cluster.url(undefined, undefined, 'hub_pub'));
    await initHub(admin, 'the hub');
    await admin.end();
  }, 120_000);
  afterAll(async () => {
    for (const d of opened) d.db.close();
  });

  async function desktop(name: string, project: string): Promise<Desktop> {
    const dbPath = join(hub.dir, `${name}.db`);
    const db = openDb(dbPath);
    const file = join(hub.dir, `${name}.jsonl`);
    writeFileSync(file, `${teamItems(3)}\n`);
    await importFile(db, { path: file, project, format: 'arbiter', createProject: true });
    const d = { name, dbPath, db, service: new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: name }), url: hub.cluster.url(`arbiter_${name}`, undefined, 'hub_pub') };
    opened.push(d);
    return d;
  }

  it('grant a lead without --uuid, publish as that role: the local annotator takes the hub uuid and the labels after it go up; a lead who labeled first is refused with the grant to run; the admin adopts nothing', async () => {
    const adminUrl = hub.cluster.url(undefined, undefined, 'hub_pub');
    // Lena: granted without --uuid; her desktop has her annotator already (the app makes it), no labels yet.
    const granted = await cli(['hub', 'grant', '--hub', adminUrl, '--annotator', 'lena', '--role', 'lead', '--no-password']);
    expect(granted.code, granted.err.join('\n')).toBe(0);
    const hubUuid = (JSON.parse(granted.out[0]!) as { uuid: string }).uuid;
    const lena = await desktop('lena', PROJECT);
    expect(ensureAnnotator(lena.db, 'lena', 'human').uuid).not.toBe(hubUuid);
    const published = await cli(['hub', 'publish', '--project', PROJECT, '--hub', lena.url, '--db', lena.dbPath]);
    expect(published.code, published.err.join('\n')).toBe(0);
    expect(findAnnotator(lena.db, 'lena')?.uuid).toBe(hubUuid);
    expect(JSON.parse(published.out[0]!)).toMatchObject({ annotator: { name: 'lena', uuid: hubUuid, uuidHere: 'adopted' } });
    const ids = itemIds(lena);
    for (const q of ['q0', 'q1']) await lena.service.dispatch('saveLabel', { project: PROJECT, annotator: 'lena', itemId: ids.get(q)!, choice: 'A', shownOrder: [0, 1] });
    expect(await syncProject(lena.db, { project: PROJECT })).toMatchObject({ as: 'lena', pushed: 2, notPushed: 0, notPushedBy: [] });
    // Publishing again changes nothing.
    expect((await cli(['hub', 'publish', '--project', PROJECT, '--hub', lena.url, '--db', lena.dbPath])).code).toBe(0);
    expect(findAnnotator(lena.db, 'lena')?.uuid).toBe(hubUuid);

    // Lars: granted without --uuid, but he labeled his project here before publishing it.
    expect((await cli(['hub', 'grant', '--hub', adminUrl, '--annotator', 'lars', '--role', 'lead', '--no-password'])).code).toBe(0);
    const lars = await desktop('lars', 'lars-project');
    await lars.service.dispatch('saveLabel', { project: 'lars-project', annotator: 'lars', itemId: lars.db.prepare("SELECT i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'lars-project' LIMIT 1").pluck().get() as number, choice: 'B', shownOrder: [0, 1] });
    const localUuid = findAnnotator(lars.db, 'lars')!.uuid;
    const refused = await cli(['hub', 'publish', '--project', 'lars-project', '--hub', lars.url, '--db', lars.dbPath]);
    expect(refused.code).not.toBe(0);
    expect(refused.err.join('\n')).toContain('nothing was published');
    expect(refused.err.join('\n')).toContain(`arbiter hub grant --hub URL --annotator lars --role lead --uuid ${localUuid}`);
    const admin = await connectHub(adminUrl);
    expect((await admin.query("SELECT count(*)::int AS n FROM arbiter.project WHERE name = 'lars-project'")).rows[0].n).toBe(0);
    expect(findAnnotator(lars.db, 'lars')?.uuid).toBe(localUuid);
    // The admin does what it says; Lars publishes, and his label goes up.
    expect((await cli(['hub', 'grant', '--hub', adminUrl, '--annotator', 'lars', '--role', 'lead', '--uuid', localUuid])).code).toBe(0);
    const again = await cli(['hub', 'publish', '--project', 'lars-project', '--hub', lars.url, '--db', lars.dbPath]);
    expect(again.code, again.err.join('\n')).toBe(0);
    expect(JSON.parse(again.out[0]!)).toMatchObject({ annotator: { name: 'lars', uuid: localUuid, uuidHere: 'same' } });
    expect(await syncProject(lars.db, { project: 'lars-project' })).toMatchObject({ as: 'lars', pushed: 1, notPushed: 0 });

    // The admin (no annotator row on the hub) publishes and adopts nothing.
    const owner = await desktop('owner', 'owned');
    const byAdmin = await cli(['hub', 'publish', '--project', 'owned', '--hub', adminUrl, '--db', owner.dbPath]);
    expect(byAdmin.code, byAdmin.err.join('\n')).toBe(0);
    expect(JSON.parse(byAdmin.out[0]!)).toMatchObject({ annotator: null });
    expect(owner.db.prepare("SELECT count(*) AS n FROM annotator WHERE kind = 'human'").get()).toEqual({ n: 0 });
    await admin.end();
  }, 180_000);
});
