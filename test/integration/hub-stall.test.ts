// A hub held up: another session holds a lock every sync needs (anyone granted could take the hub's
// commit-order advisory lock; here the admin locks the revision table) and never lets go. A sync must
// not wait for ever: it fails after the lock timeout with a sentence saying the hub did not answer in
// N s, and Disconnect in the app returns at once even while its sync waits (the connection is ended
// under the waiting statement). And a storm of NOTIFYs, which anyone granted may send, is taken as hints:
// a couple of syncs at most, none when nothing moved. Real PostgreSQL 15 (a throwaway cluster), real SQLite files, the
// service's background sync in its worker.
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectHub, HUB_TIMEOUTS } from '../../electron/core/hub/connect';
import { syncProject } from '../../electron/core/hub/sync';
import { DEFAULT_TIMING } from '../../electron/core/service/teamSync';
import { hubLink } from '../../electron/core/store/hub';
import { requireProject } from '../../electron/core/store/projects';
import { itemIds, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-stall');

describe.skipIf(reason)('a hub held up by a lock', () => {
  const hub = useHubCluster('hub-stall');
  let ana: Desktop;
  let publisher: Desktop;
  let admin: pg.Client;
  let holder: pg.Client | null = null;
  const lockSeconds = HUB_TIMEOUTS.lockSeconds;
  const stopWaitMs = DEFAULT_TIMING.stopWaitMs;

  beforeAll(async () => {
    let desktops: Desktop[];
    ({ desktops, admin, publisher } = await setUpTeam(hub.cluster, hub.dir, 'stall', 3, [{ name: 'ana', role: 'annotator' }]));
    ana = desktops[0]!;
  }, 120_000);

  afterEach(async () => {
    HUB_TIMEOUTS.lockSeconds = lockSeconds;
    DEFAULT_TIMING.stopWaitMs = stopWaitMs;
    await holder?.end().catch(() => undefined);
    holder = null;
  });

  afterAll(async () => {
    if (ana) {
      await ana.service.team.stop();
      ana.service.stopBackgroundWork();
      ana.db.close();
    }
    if (publisher) {
      publisher.service.stopBackgroundWork();
      publisher.db.close();
    }
    await admin?.end().catch(() => undefined);
  });

  /** A session that locks the hub's revision table and keeps it (until the test ends it). */
  async function holdTheHub(): Promise<void> {
    holder = await connectHub(hub.cluster.url(undefined, undefined, 'stall'));
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE arbiter.revision IN ACCESS EXCLUSIVE MODE');
  }

  /** Sessions on the hub waiting for a lock. */
  const waitingOnHub = async () => (await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = 'stall'")).rows[0].n as number;

  const save = (choice: 'A' | 'B') =>
    ana.service.dispatch('saveLabel', { project: PROJECT, annotator: 'ana', itemId: [...itemIds(ana).values()][0]!, choice, strength: 2, shownOrder: [0, 1] });

  it('a sync waiting for the lock fails after the lock timeout, saying the hub did not answer in N s', async () => {
    await save('A');
    await holdTheHub();
    HUB_TIMEOUTS.lockSeconds = 1;
    const started = performance.now();
    const error = await syncProject(ana.db, { project: PROJECT }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    const seconds = (performance.now() - started) / 1000;
    expect(error?.message).toBe(
      `The hub at 127.0.0.1:${hub.cluster.port} did not answer in 1 s: a statement waited that long for a lock another session holds there. What went up is kept there, your labels are kept here, and the next sync goes on from there; if it keeps happening, ask the hub's admin what holds the hub up (pg_stat_activity).`,
    );
    expect(seconds).toBeLessThan(10);
    expect(hubLink(ana.db, requireProject(ana.db, PROJECT).id)?.lastError).toBe(error?.message);
    // Once the lock is gone the next sync sends the label.
    await holder!.query('ROLLBACK');
    expect(await syncProject(ana.db, { project: PROJECT })).toMatchObject({ pushed: 1 });
  }, 60_000);

  it('Disconnect returns at once while the background sync waits on the hub', async () => {
    await save('B');
    await holdTheHub();
    await ana.service.dispatch('connectHub', { project: PROJECT, url: ana.url });
    // The sync after connecting reaches the lock and waits there.
    await expect.poll(async () => (await ana.service.dispatch('teamStatus', { project: PROJECT })).syncing, { timeout: 20_000 }).toBe(true);
    await expect.poll(waitingOnHub, { timeout: 20_000 }).toBeGreaterThan(0);
    // Disconnect ends the sync's connection under the waiting statement, so the sync ends at once. With the
    // stop's own bound (stopWaitMs, 2 s) set to 10 min here, a disconnect that waited for the sync could only
    // return when the hub's lock timeout ended it (15 s), with that timeout's sentence recorded.
    DEFAULT_TIMING.stopWaitMs = 600_000;
    const status = await ana.service.dispatch('disconnectHub', { project: PROJECT });
    expect(status).toMatchObject({ connected: false, syncing: false });
    expect(hubLink(ana.db, requireProject(ana.db, PROJECT).id)?.lastError ?? '').not.toMatch(/did not answer/);
    // The hub's session that waited is gone soon after (its client went away; the lock timeout ends it at the latest).
    await expect.poll(waitingOnHub, { timeout: (lockSeconds + 5) * 1000 }).toBe(0);
  }, 60_000);

  it('100 NOTIFYs from anyone make at most a couple of syncs; a teammate’s push still arrives', async () => {
    const syncs: unknown[] = [];
    ana.service.events.on('event', (e: { type?: string; pushed?: number }) => void (e.type === 'team' && e.pushed !== undefined && syncs.push(e)));
    await ana.service.dispatch('connectHub', { project: PROJECT, url: ana.url });
    await expect.poll(() => syncs.length, { timeout: 20_000 }).toBe(1);
    const hubProject = hubLink(ana.db, requireProject(ana.db, PROJECT).id)!.hubProjectId;
    // 100 notifications over about 6 s, as a script on the hub would send them.
    for (let i = 0; i < 100; i++) {
      await admin.query(`NOTIFY arbiter_hub, '${hubProject}'`);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    // Nothing moved on the hub: no sync for any of them (the hints are checked, one per notify gap).
    expect(syncs.length).toBe(1);
    // The lead labels and syncs: a real push, and its NOTIFY.
    const lead = publisher;
    const id = (await lead.service.dispatch('saveLabel', { project: PROJECT, annotator: 'lead', itemId: [...itemIds(lead).values()][1]!, choice: 'A', strength: 1, shownOrder: [0, 1] })).id;
    expect(await syncProject(lead.db, { project: PROJECT })).toMatchObject({ pushed: 1 });
    await expect.poll(() => ana.db.prepare('SELECT 1 FROM label WHERE id = ?').get(id) !== undefined, { timeout: 15_000 }).toBe(true);
    // The sync that brought it has said so.
    await expect.poll(() => syncs.some((e) => (e as { pulled: number }).pulled === 1), { timeout: 5_000 }).toBe(true);
    expect(syncs.length - 1).toBeLessThanOrEqual(2);
    await ana.service.dispatch('disconnectHub', { project: PROJECT });
  }, 60_000);
});
