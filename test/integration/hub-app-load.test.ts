// Saves stay under 50 ms while the app's background sync pulls 300k revisions from a real PostgreSQL hub
// (a throwaway cluster). The hub gets 300,000 revisions (100 teammates × 3,000 items) by one bulk
// INSERT … SELECT straight into arbiter.revision (as the cluster's superuser, which row security exempts);
// a desktop connects (connectHub joins the project and starts the sync) and, once the pull is under way,
// 50 label saves go through the service, one every 60 ms. Each save's time runs from the moment it was
// due, so time spent waiting for the event loop (a merge batch holding it) counts against it.
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishProject } from '../../electron/core/hub/publish';
import { grant, loginRoleFor } from '../../electron/core/hub/roles';
import { initHub } from '../../electron/core/hub/schema';
import { ArbiterService } from '../../electron/core/service/index';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { pairProject } from '../helpers/project';
import { skipReason, startCluster, type PgCluster } from '../helpers/postgres';
import { tempDir } from '../helpers/tmp';

const reason = skipReason();
if (reason) console.warn(`hub-app-load skipped: ${reason}`);

const ITEMS = 3000;
const TEAMMATES = 100;
const SAVES = 50;
const EVERY_MS = 60;

describe.skipIf(reason)('saves while the app syncs 300k revisions', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let db: Db;
  let service: ArbiterService;

  beforeAll(async () => {
    cluster = await startCluster();
    admin = new pg.Client({ connectionString: cluster.url() });
    admin.on('error', () => undefined);
    await admin.connect();
    await initHub(admin, 'test hub');
    const dir = tempDir('arbiter-hub-load-');
    const lead = pairProject(join(dir, 'lead.db'), { items: ITEMS, texts: (i) => [`first ${i}`, `second ${i}`], annotator: 'lead', visibleSeq: 'all' });
    const published = await publishProject(lead.db, admin, 'p', { where: 'test hub', url: cluster.url() });
    lead.service.stopBackgroundWork();
    lead.db.close();
    const started = performance.now();
    await admin.query(
      `INSERT INTO arbiter.revision (id, project_id, annotator_uuid, line)
       SELECT r.id, $1, r.au, jsonb_build_object('id', r.id, 'item', il.uid, 'item_uid', il.uid, 'annotator', 'mate' || a, 'annotator_uuid', r.au::text,
                'annotator_kind', 'human', 'task', 'pairwise', 'choice', CASE WHEN (a + il.seq) % 3 = 0 THEN 'B' ELSE 'A' END, 'strength', 2,
                'shown_order', jsonb_build_array(0, 1), 'created_at', '2026-01-01T00:00:00.000Z')
       FROM arbiter.item_line il CROSS JOIN generate_series(0, $2 - 1) AS a
       CROSS JOIN LATERAL (SELECT lpad(to_hex(a), 8, '0') || '-0000-7000-8000-' || lpad(to_hex(il.seq), 12, '0') AS id,
                                  ('00000000-0000-4000-8000-' || lpad(to_hex(a), 12, '0'))::uuid AS au) r
       WHERE il.project_id = $1`,
      [published.hubProject, TEAMMATES],
    );
    const count = Number((await admin.query('SELECT count(*) AS n FROM arbiter.revision WHERE project_id = $1', [published.hubProject])).rows[0].n);
    console.log(`hub-app-load: ${count.toLocaleString('en')} revisions written to the hub in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(count).toBe(ITEMS * TEAMMATES + published.revisions);

    const dbPath = join(dir, 'ana.db');
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
    await cluster?.stop();
  });

  it(`keeps ${SAVES} saves under 50 ms while the pull runs`, async () => {
    const labels = () => db.prepare('SELECT count(*) FROM label').pluck().get() as number;
    const syncStarted = performance.now();
    await service.dispatch('connectHub', { project: 'p', url: cluster.url(loginRoleFor('ana')) });
    const items = db.prepare('SELECT id FROM item ORDER BY seq').pluck().all() as number[];
    expect(items).toHaveLength(ITEMS);
    // Start once the pull is under way (its first batches merged).
    while (labels() < 10_000) {
      if (performance.now() - syncStarted > 240_000) throw new Error('the pull did not start within 240 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const pulledAtStart = labels();
    const times: number[] = [];
    const start = performance.now();
    for (let i = 0; i < SAVES; i++) {
      const due = start + i * EVERY_MS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await service.dispatch('saveLabel', { project: 'p', annotator: 'ana', itemId: items[i]!, choice: 'A', strength: 1, shownOrder: [1, 0] });
      times.push(performance.now() - due);
    }
    const pulledAtEnd = labels();
    const stillSyncing = service.team.status('p').syncing;
    // Wait for the whole pull (and the saves going up) to see the sync end well.
    while (service.team.status('p').syncing || service.team.status('p').waiting > 0) {
      if (performance.now() - syncStarted > 480_000) throw new Error('the sync did not end within 480 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const syncSeconds = (performance.now() - syncStarted) / 1000;
    const sorted = [...times].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    console.log(
      `hub-app-load: ${SAVES} saves during the pull (${pulledAtStart.toLocaleString('en')} → ${pulledAtEnd.toLocaleString('en')} revisions merged meanwhile${stillSyncing ? ', sync still running at the last save' : ''}): ` +
        `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; the sync of ${(ITEMS * TEAMMATES).toLocaleString('en')} revisions took ${syncSeconds.toFixed(1)} s`,
    );
    expect(pulledAtEnd).toBeGreaterThan(pulledAtStart);
    expect(stillSyncing).toBe(true);
    expect(at(0.95)).toBeLessThan(50);
    expect(sorted.at(-1)!).toBeLessThan(50);
    const status = service.team.status('p');
    expect(status.lastError).toBeNull();
    expect(db.prepare('SELECT count(*) FROM label').pluck().get()).toBeGreaterThanOrEqual(ITEMS * TEAMMATES + SAVES);
    expect(Number((await admin.query("SELECT count(*) AS n FROM arbiter.revision WHERE line->>'annotator' = 'ana'")).rows[0].n)).toBe(SAVES);
  }, 600_000);
});
