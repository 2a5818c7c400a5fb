// The team hub in the app, on a real PostgreSQL 15 (a throwaway cluster): two desktops (two SQLite files,
// two services, each logged in as its own annotator role) connect through the API (connectHub joins the
// published project), a save goes up by itself shortly after, a teammate's push reaches the other desktop
// through NOTIFY (no save there to start a sync), and a hub that goes away is said
// in a sentence in teamStatus while saves go on and are kept. The waits below are bounds against a hang,
// generous for a busy machine; how long each step took is printed, not asserted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-app');

interface Desk {
  name: string;
  db: Db;
  service: ArbiterService;
  events: { type?: string; project?: string; pulled?: number }[];
}

describe.skipIf(reason)('the team hub in the app', () => {
  const hub = useHubCluster('hub-app');
  let admin: pg.Client;
  let dir: string;
  let ana: Desk;
  let ben: Desk;

  async function desk(name: string): Promise<Desk> {
    const dbPath = join(dir, `${name}.db`);
    const db = openDb(dbPath);
    // The desktop's annotator and the hub's row for them share one uuid: their revisions carry it.
    const me = ensureAnnotator(db, name, 'human');
    await grant(admin, 'test hub', { annotator: name, role: 'annotator', uuid: me.uuid, password: null });
    const service = new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: name });
    const events: Desk['events'] = [];
    service.events.on('event', (e) => events.push(e as Desk['events'][number]));
    return { name, db, service, events };
  }

  const itemIds = (d: Desk) => d.db.prepare("SELECT i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'p' ORDER BY i.seq").pluck().all() as number[];
  const onHub = async (id: string) => (await admin.query('SELECT 1 FROM arbiter.revision WHERE id = $1', [id])).rowCount === 1;
  const here = (d: Desk, id: string) => d.db.prepare('SELECT 1 FROM label WHERE id = ?').get(id) !== undefined;
  const save = async (d: Desk, itemId: number, choice: 'A' | 'B') => {
    const started = performance.now();
    const revision = await d.service.dispatch('saveLabel', { project: 'p', annotator: d.name, itemId, choice, strength: 2, shownOrder: [0, 1] });
    return { id: revision.id, ms: performance.now() - started };
  };
  /** Polls `check` every 10 ms until it holds; the milliseconds it took. */
  async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
    const started = performance.now();
    while (!(await check())) {
      if (performance.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return performance.now() - started;
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: hub.cluster.url() });
    admin.on('error', () => undefined); // the last test stops the server under it
    await admin.connect();
    await initHub(admin, 'test hub');
    // Kept for the whole file (tempDir's folders go after each test): a sync's worker opens the files by path.
    dir = mkdtempSync(join(tmpdir(), 'arbiter-hub-app-'));
    // The lead's machine: 30 pairs, published by the hub's owner.
    const lead = pairProject(join(dir, 'lead.db'), { items: 30, texts: (i) => [`first ${i}`, `second ${i}`], annotator: 'lead', visibleSeq: 'all' });
    await publishProject(lead.db, admin, 'p', { where: 'test hub', url: hub.cluster.url() });
    lead.service.stopBackgroundWork();
    lead.db.close();
    ana = await desk('ana');
    ben = await desk('ben');
  }, 120_000);

  afterAll(async () => {
    for (const d of [ana, ben]) {
      if (!d) continue;
      await d.service.team.stop();
      d.service.stopBackgroundWork();
      d.db.close();
    }
    await admin?.end().catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('connects from the Team panel’s call: joins the published project, listens, syncs; the address is shown without a password', async () => {
    for (const d of [ana, ben]) {
      const status = await d.service.dispatch('connectHub', { project: 'p', url: hub.cluster.url(loginRoleFor(d.name)) });
      expect(status).toMatchObject({ project: 'p', connected: true, listening: true, hub: hub.cluster.url(loginRoleFor(d.name)) });
      expect(itemIds(d)).toHaveLength(30);
      await until(() => d.service.team.status('p').lastSyncAt !== null, 30_000, `${d.name}'s first sync`);
    }
    expect(ana.service.team.status('p')).toMatchObject({ waiting: 0, lastError: null });
  });

  it('a save goes up by itself: on the hub after the debounce and a sync, and nothing waits after', async () => {
    const saved = await save(ana, itemIds(ana)[0]!, 'A');
    expect(ana.service.team.status('p').waiting).toBe(1);
    const ms = await until(() => onHub(saved.id), 30_000, 'ana’s save on the hub');
    console.log(`hub-app: a save reached the hub ${ms.toFixed(0)} ms after it was saved (2 s of it the debounce); the save took ${saved.ms.toFixed(1)} ms`);
    await until(() => ana.service.team.status('p').waiting === 0, 30_000, 'nothing waiting');
    // ben, granted on the hub with nothing on this desktop, is in the figures at 0.
    expect(ana.service.team.status('p').annotators).toEqual([
      expect.objectContaining({ name: 'ana', labels: 1, waiting: 0, granted: 'annotator' }),
      expect.objectContaining({ name: 'ben', labels: 0, waiting: 0, granted: 'annotator' }),
    ]);
  });

  it('a teammate’s push reaches the other desktop through NOTIFY, with no save there', async () => {
    const saved = await save(ben, itemIds(ben)[1]!, 'B');
    const before = ana.events.length;
    await ben.service.dispatch('syncNow', { project: 'p' });
    expect(await onHub(saved.id)).toBe(true);
    const ms = await until(() => here(ana, saved.id), 30_000, 'ben’s label on ana’s desktop');
    console.log(`hub-app: ben's revision was on ana's desktop ${ms.toFixed(0)} ms after ben's sync committed it`);
    await until(() => ana.events.slice(before).some((e) => e.type === 'team' && e.project === 'p' && e.pulled === 1), 30_000, 'the team event saying 1 pulled');
    const figures = ana.service.team.status('p').annotators;
    expect(figures).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'ben', labels: 1, waiting: 0 }), expect.objectContaining({ name: 'ana', labels: 1 })]));
  });

  it('a lead’s adjudication on the Review screen goes up by itself too, as an adjudicated revision', async () => {
    const lea = await desk('lea');
    await grant(admin, 'test hub', { annotator: 'lea', role: 'lead', password: null });
    try {
      await lea.service.dispatch('connectHub', { project: 'p', url: hub.cluster.url(loginRoleFor('lea')) });
      await until(() => lea.service.team.status('p').lastSyncAt !== null, 30_000, 'lea’s first sync');
      const { labelId: id } = await lea.service.dispatch('adjudicate', { project: 'p', annotator: 'lea', itemId: itemIds(lea)[1]!, choice: 'B', strength: 2, note: 'B is right' });
      const ms = await until(async () => (await admin.query('SELECT adjudicated FROM arbiter.revision WHERE id = $1', [id])).rows[0]?.adjudicated === true, 30_000, 'the adjudication on the hub');
      console.log(`hub-app: the lead's adjudication reached the hub ${ms.toFixed(0)} ms after it was recorded`);
    } finally {
      await lea.service.team.stop();
      lea.service.stopBackgroundWork();
      lea.db.close();
    }
  });

  it('disconnect stops the background sync; connect resumes it and sends what waited', async () => {
    await ana.service.dispatch('disconnectHub', { project: 'p' });
    expect(ana.service.team.status('p')).toMatchObject({ connected: false, listening: false, hub: hub.cluster.url('arbiter_ana') });
    const saved = await save(ana, itemIds(ana)[2]!, 'B');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await onHub(saved.id)).toBe(false);
    expect(ana.service.team.status('p').waiting).toBe(1);
    await ana.service.dispatch('connectHub', { project: 'p', url: hub.cluster.url('arbiter_ana') });
    await until(() => onHub(saved.id), 30_000, 'the waiting save after connecting again');
  });

  it('a revision the hub’s user may not push (another person’s on this desktop) is said in a sentence, not counted as sent in silence', async () => {
    const other = await ana.service.dispatch('saveLabel', { project: 'p', annotator: 'zed', itemId: itemIds(ana)[5]!, choice: 'A', strength: 1, shownOrder: [0, 1] });
    const status = await ana.service.dispatch('syncNow', { project: 'p' });
    expect(await onHub(other.id)).toBe(false);
    expect(status.notices).toEqual([expect.stringMatching(/^1 revision saved here by zed did not go up: the hub's user arbiter_ana is granted to the annotator "ana"/)]);
    // Held, not passed over: it still waits to go up, under zed's name.
    expect(status.waiting).toBe(1);
    expect(status.annotators).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'zed', waiting: 1 })]));
    expect(ana.service.team.status('p', 'ana').you).toEqual({ name: 'ana', uuid: ana.db.prepare("SELECT uuid FROM annotator WHERE name = 'ana'").pluck().get() });
  });

  it('a hub that goes away: teamStatus says so in a sentence, and saves go on and are kept to go up later', async () => {
    await hub.cluster.stop();
    const status = await until(() => /Could not reach|refused|cut|lost/.test(ana.service.team.status('p').lastError ?? ''), 30_000, 'the error sentence');
    const s = ana.service.team.status('p');
    console.log(`hub-app: after the hub stopped, teamStatus said within ${status.toFixed(0)} ms: ${s.lastError}`);
    expect(s.lastError).toMatch(/127\.0\.0\.1:\d+/);
    expect(s.lastError).not.toMatch(/\n\s+at /);
    expect(s.retryAt).not.toBeNull();
    const times: number[] = [];
    for (const itemId of itemIds(ana).slice(3, 13)) times.push((await save(ana, itemId, 'A')).ms);
    console.log(`hub-app: 10 saves with the hub down: max ${Math.max(...times).toFixed(1)} ms`);
    // The 10 saves, and zed's revision held since the test before.
    expect(ana.service.team.status('p')).toMatchObject({ connected: true, waiting: 11 });
  });
});
