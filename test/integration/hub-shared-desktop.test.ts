// A shared desktop (issue 20, item 24): the lead published from it; ana types her name in the page and
// labels, so her annotator here gets a uuid of its own, while the hub granted "ana" another (hub grant
// without --uuid). Connected as ana's hub user, her labels wait. The Team panel's status says the hub's
// uuid and that she may take it (no labels of hers in another project here); adoptHubUuid takes it and
// the sync after sends what waited. With labels in another project the uuid stays and the status gives
// the exact grant command instead. "Where the team stands" lists every granted member, the lead at 0.
// Real PostgreSQL 15 (a throwaway cluster), real SQLite files, the service's background sync.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../electron/core/formats';
import { grant } from '../../electron/core/hub/roles';
import { findAnnotator } from '../../electron/core/store/annotators';
import { itemIds, PROJECT, setUpTeam, teamItems, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-shared-desktop');

describe.skipIf(reason)('a shared desktop: a name typed here, another uuid on the hub', () => {
  const hub = useHubCluster('hub-shared-desktop');
  let desk: Desktop;
  let admin: pg.Client;
  const url = (name: string) => hub.cluster.url(`arbiter_${name}`, undefined, 'shared');

  beforeAll(async () => {
    ({ publisher: desk, admin } = await setUpTeam(hub.cluster, hub.dir, 'shared', 4, []));
    const where = `127.0.0.1:${hub.cluster.port}`;
    // The hub makes ana's and ben's uuids (no --uuid): neither has labeled anywhere yet.
    await grant(admin, where, { annotator: 'ana', role: 'annotator', password: null });
    await grant(admin, where, { annotator: 'ben', role: 'annotator', password: null });
  }, 120_000);

  afterAll(async () => {
    if (desk) {
      await desk.service.team.stop();
      desk.service.stopBackgroundWork();
      desk.db.close();
    }
    await admin?.end().catch(() => undefined);
  });

  const hubUuid = async (name: string) => (await admin.query('SELECT uuid::text AS u FROM arbiter.annotator WHERE name = $1', [name])).rows[0].u as string;
  const onHub = async (id: string) => (await admin.query('SELECT annotator_uuid::text AS u FROM arbiter.revision WHERE id = $1', [id])).rows[0]?.u as string | undefined;
  const save = (annotator: string, index: number) =>
    desk.service.dispatch('saveLabel', { project: PROJECT, annotator, itemId: [...itemIds(desk).values()][index]!, choice: 'A', strength: 1, shownOrder: [0, 1] });
  const status = (annotator: string) => desk.service.dispatch('teamStatus', { project: PROJECT, annotator });

  it('ana takes the hub’s uuid with one call, and her waiting label goes up; every granted member is in the figures', async () => {
    const saved = await save('ana', 0);
    const local = findAnnotator(desk.db, 'ana')!.uuid;
    const granted = await hubUuid('ana');
    expect(local).not.toBe(granted);
    await desk.service.dispatch('connectHub', { project: PROJECT, url: url('ana') });
    await expect.poll(async () => (await status('ana')).you?.hub ?? null, { timeout: 20_000 }).toEqual({
      uuid: granted,
      role: 'annotator',
      adoptable: true,
      why: null,
      command: `arbiter hub grant --hub URL --annotator ana --role annotator --uuid ${local}`,
    });
    const before = await status('ana');
    expect(before.waiting).toBe(1);
    expect(await onHub(saved.id)).toBeUndefined();
    // Where the team stands: the lead and ben, granted, with nothing here, at 0; ana's row under this desktop's uuid.
    expect(before.annotators).toEqual([
      { name: 'ana', uuid: local, labels: 1, waiting: 1, granted: null },
      { name: 'ben', uuid: await hubUuid('ben'), labels: 0, waiting: 0, granted: 'annotator' },
      { name: 'lead', uuid: await hubUuid('lead'), labels: 0, waiting: 0, granted: 'lead' },
    ]);

    const after = await desk.service.dispatch('adoptHubUuid', { project: PROJECT, annotator: 'ana' });
    expect(after.you).toEqual({ name: 'ana', uuid: granted });
    expect(findAnnotator(desk.db, 'ana')!.uuid).toBe(granted);
    await expect.poll(() => onHub(saved.id), { timeout: 20_000 }).toBe(granted);
    await expect.poll(async () => (await status('ana')).waiting, { timeout: 10_000 }).toBe(0);
    expect((await status('ana')).annotators.find((a) => a.name === 'ana')).toMatchObject({ uuid: granted, labels: 1, granted: 'annotator' });
    await desk.service.dispatch('disconnectHub', { project: PROJECT });
  }, 90_000);

  it('with labels in another project here the uuid stays: the status gives the exact grant command, and adoptHubUuid refuses with it', async () => {
    // ben labels in another project on this desktop first, then in the team project.
    const file = join(hub.dir, 'solo.jsonl');
    writeFileSync(file, `${teamItems(1)}\n`);
    await importFile(desk.db, { path: file, project: 'solo', format: 'arbiter', createProject: true });
    const soloItem = desk.db.prepare("SELECT i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'solo'").pluck().get() as number;
    await desk.service.dispatch('saveLabel', { project: 'solo', annotator: 'ben', itemId: soloItem, choice: 'B', strength: 1, shownOrder: [0, 1] });
    await save('ben', 1);
    const local = findAnnotator(desk.db, 'ben')!.uuid;
    await desk.service.dispatch('connectHub', { project: PROJECT, url: url('ben') });
    const command = `arbiter hub grant --hub URL --annotator ben --role annotator --uuid ${local}`;
    await expect.poll(async () => (await status('ben')).you?.hub?.adoptable ?? null, { timeout: 20_000 }).toBe(false);
    expect((await status('ben')).you?.hub).toMatchObject({ why: 'ben has labels in "solo" on this desktop, which keep this desktop\'s uuid', command });
    await expect(desk.service.dispatch('adoptHubUuid', { project: PROJECT, annotator: 'ben' })).rejects.toThrow(
      `"ben" has labels in "solo" on this desktop, which keep the uuid ${local}; nothing was changed. Ask the hub's admin to run: ${command}`,
    );
    expect(findAnnotator(desk.db, 'ben')!.uuid).toBe(local);
    await desk.service.dispatch('disconnectHub', { project: PROJECT });
  }, 90_000);
});
