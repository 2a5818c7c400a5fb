// The app's background sync pulls in a worker, so the thread that answers saves never merges: on a real
// PostgreSQL hub (a throwaway cluster) holding 90k revisions (30 teammates × 3,000 items, written by one bulk
// INSERT … SELECT straight into arbiter.revision as the cluster's superuser, which row security exempts), a
// desktop connects (connectHub joins the project and starts the sync) and, once the pull is under way:
// - the pull goes on while this thread is held busy (a merge on this thread could not move meanwhile);
// - label saves go through the service, one every 60 ms, each acknowledged while the pull still runs, and
//   all of them are kept and go up after it.
// How long a save takes meanwhile (target: under 50 ms at 300k revisions) is a figure of
// bench/hub-sync.mjs (`npm run bench:hub`, its "saves during the app's pull" lines), not of this test:
// it counts and orders, never times.
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishProject } from '../../electron/core/hub/publish';
import { grant, loginRoleFor } from '../../electron/core/hub/roles';
import { initHub } from '../../electron/core/hub/schema';
import { ArbiterService } from '../../electron/core/service/index';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';
import { pairProject } from '../helpers/project';
import { bulkRevisions } from '../helpers/hubRevisions';

const reason = hubSkipReason('hub-app-load');

const ITEMS = 3000;
const TEAMMATES = 30;
const SAVES = 30;
const EVERY_MS = 60;

describe.skipIf(reason)('saves while the app syncs 90k revisions', () => {
  const hub = useHubCluster('hub-app-load');
  let admin: pg.Client;
  let db: Db;
  let service: ArbiterService;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: hub.cluster.url() });
    admin.on('error', () => undefined);
    await admin.connect();
    await initHub(admin, 'test hub');
    const lead = pairProject(join(hub.dir, 'lead.db'), { items: ITEMS, texts: (i) => [`first ${i}`, `second ${i}`], annotator: 'lead', visibleSeq: 'all' });
    const published = await publishProject(lead.db, admin, 'p', { where: 'test hub', url: hub.cluster.url() });
    lead.service.stopBackgroundWork();
    lead.db.close();
    const count = await bulkRevisions(admin, published.hubProject, TEAMMATES);
    expect(count).toBe(ITEMS * TEAMMATES + published.revisions);

    const dbPath = join(hub.dir, 'ana.db');
    db = openDb(dbPath);
    const me = ensureAnnotator(db, 'ana', 'human');
    await grant(admin, 'test hub', { annotator: 'ana', role: 'annotator', uuid: me.uuid, password: null });
    service = new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'ana' });
  }, 300_000);

  afterAll(async () => {
    await service?.team.stop();
    service?.stopBackgroundWork();
    db?.close();
    await admin?.end().catch(() => undefined);
  });

  it(`merges off this thread and acknowledges ${SAVES} saves while the pull runs`, async () => {
    const labels = db.prepare('SELECT count(*) FROM label').pluck();
    const syncing = () => service.team.status('p').syncing;
    await service.dispatch('connectHub', { project: 'p', url: hub.cluster.url(loginRoleFor('ana')) });
    const items = db.prepare('SELECT id FROM item ORDER BY seq').pluck().all() as number[];
    expect(items).toHaveLength(ITEMS);
    // Start once the pull is under way (its first batches merged).
    await expect.poll(() => labels.get() as number, { timeout: 240_000, interval: 20 }).toBeGreaterThanOrEqual(10_000);

    // This thread held busy (no turn of its event loop): the pull still moves, so it is not merging here.
    const held = labels.get() as number;
    let movedWhileHeld = held;
    for (const until = performance.now() + 60_000; movedWhileHeld === held && performance.now() < until; ) movedWhileHeld = labels.get() as number;
    expect(movedWhileHeld, 'the pull did not move while this thread was busy: it merges on this thread').toBeGreaterThan(held);

    // Saves, each acknowledged while the pull still runs (none waits for it), at the pull's points.
    const pulledAtStart = labels.get() as number;
    const acks: { labels: number; syncing: boolean }[] = [];
    for (let i = 0; i < SAVES; i++) {
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
      await service.dispatch('saveLabel', { project: 'p', annotator: 'ana', itemId: items[i]!, choice: 'A', strength: 1, shownOrder: [1, 0] });
      acks.push({ labels: labels.get() as number, syncing: syncing() });
    }
    const pulledAtEnd = labels.get() as number;
    console.log(
      `hub-app-load: ${SAVES} saves during the pull (${pulledAtStart.toLocaleString('en')} → ${pulledAtEnd.toLocaleString('en')} labels meanwhile, ` +
        `${new Set(acks.map((a) => a.labels)).size} different points); the pull moved ${(movedWhileHeld - held).toLocaleString('en')} while this thread was held`,
    );
    expect(acks.every((a) => a.syncing)).toBe(true);
    expect(pulledAtEnd).toBeGreaterThan(pulledAtStart);
    expect(pulledAtEnd).toBeLessThan(ITEMS * TEAMMATES);

    // The whole pull (and the saves going up) ends well.
    await expect.poll(() => syncing() || service.team.status('p').waiting > 0, { timeout: 480_000, interval: 200 }).toBe(false);
    expect(service.team.status('p').lastError).toBeNull();
    expect(labels.get() as number).toBeGreaterThanOrEqual(ITEMS * TEAMMATES + SAVES);
    expect(Number((await admin.query("SELECT count(*) AS n FROM arbiter.revision WHERE line->>'annotator' = 'ana'")).rows[0].n)).toBe(SAVES);
  }, 600_000);
});
