// What a desktop pulls from the hub is untrusted, even where the hub let it through: rows written here
// as the cluster's superuser (row security and the hub's triggers off) stand for a hub that failed to
// refuse them. Forged cuts, a line naming someone else, a lead's settings and rubric versions the app
// would refuse, lines past a labels file's bounds and revisions for items nobody has: each is refused
// (or bounded), counted and said, and the rest of the sync goes on.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { importFile } from '../../electron/core/formats';
import { connectHub } from '../../electron/core/hub/connect';
import { joinProject } from '../../electron/core/hub/join';
import { grant } from '../../electron/core/hub/roles';
import { syncProject, type SyncSummary } from '../../electron/core/hub/sync';
import { ArbiterService } from '../../electron/core/service';
import { syncResultOf } from '../../electron/core/service/teamBackend';
import { syncNotices } from '../../electron/core/service/teamWords';
import { ensureAnnotator, ensureAnnotatorByUuid, findAnnotator } from '../../electron/core/store/annotators';
import { openDb } from '../../electron/core/store/db';
import { hubLink } from '../../electron/core/store/hub';
import { itemIdsByUid, pulledCutProblem } from '../../electron/core/store/hubProject';
import { projectSettings, requireProject } from '../../electron/core/store/projects';
import { rubricInForce } from '../../electron/core/store/rubrics';
import { uuidv7 } from '../../shared/ids';
import { itemIds, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-audit-pull');

const sync = (d: Desktop): Promise<SyncSummary> => syncProject(d.db, { project: PROJECT, password: undefined, batch: 40 });

/** Writes rows as the superuser with the hub's triggers off (row security does not hold a superuser). */
async function forge(admin: pg.Client, sql: string, params: unknown[] = []): Promise<void> {
  await admin.query('BEGIN');
  try {
    await admin.query('SET LOCAL session_replication_role = replica');
    await admin.query(sql, params);
    await admin.query('COMMIT');
  } catch (error) {
    await admin.query('ROLLBACK');
    throw error;
  }
}

const hubProjectOf = (d: Desktop) => hubLink(d.db, requireProject(d.db, PROJECT).id)!.hubProjectId;

/** A revision line as the labels format writes it, for item q`i`. */
function line(i: number, uid: string, who: { name: string; uuid: string; kind?: string }, extra: Record<string, unknown> = {}) {
  return { id: uuidv7(), item: `q${i}`, item_uid: uid, annotator: who.name, annotator_uuid: who.uuid, annotator_kind: who.kind ?? 'human', task: 'pairwise', choice: 'A', shown_order: [0, 1], created_at: new Date().toISOString(), ...extra };
}

async function insertLines(admin: pg.Client, hubProject: number, lines: Record<string, unknown>[]): Promise<void> {
  await forge(
    admin,
    `INSERT INTO arbiter.revision (id, project_id, annotator_uuid, adjudicated, line)
     SELECT l->>'id', $1, (l->>'annotator_uuid')::uuid, false, l FROM jsonb_array_elements($2::jsonb) l`,
    [hubProject, JSON.stringify(lines)],
  );
}

describe('a pulled cut is checked against its response (store/hubProject.ts pulledCutProblem)', () => {
  it("passes a split of the file's own steps where they are not the response's text, and refuses what is neither", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-cut-'));
    const db = openDb(join(dir, 'a.db'));
    try {
      const file = join(dir, 'items.jsonl');
      writeFileSync(file, `${JSON.stringify({ id: 'q', prompt: 'Sum?', responses: [{ text: 'The answer is 4.', steps: ['Add 2 and 2.', 'So 4.'] }] })}\n`);
      await importFile(db, { path: file, project: 'p', format: 'arbiter', createProject: true });
      const itemId = itemIdsByUid(db, requireProject(db, 'p').id).values().next().value!;
      const check = (steps: unknown) => pulledCutProblem(db, itemId, { response: 0, version: 2, steps, origin: 'annotator', byLead: false });
      expect(check(['Add 2', 'and 2.', 'So 4.'])).toBeNull();
      expect(check(['The answer', 'is 4.'])).toBeNull();
      expect(check(['Add 3 and 1.', 'So 4.'])).toMatch(/version 2 of the steps of response A of item q: the steps put together are not the response's text/);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(reason)('a sync and a join check what they pull from the hub', () => {
  const hub = useHubCluster('hub-audit-pull');
  const opened: Desktop[] = [];
  const env = { ...process.env };
  afterEach(() => {
    process.env = { ...env };
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    for (const d of opened) d.db.close();
  });

  async function team(database: string) {
    const made = await setUpTeam(hub.cluster, hub.dir, database, 5, [
      { name: 'alice', role: 'annotator' },
      { name: 'bob', role: 'annotator' },
    ]);
    opened.push(made.publisher, ...made.desktops);
    const [alice, bob] = made.desktops as [Desktop, Desktop];
    const uids = new Map((await made.admin.query<{ uid: string; line: { id: string } }>('SELECT uid, line FROM arbiter.item_line WHERE project_id = $1', [hubProjectOf(bob)])).rows.map((r) => [r.line.id, r.uid]));
    return { ...made, alice, bob, uids, hubProject: hubProjectOf(bob), where: `127.0.0.1:${hub.cluster.port}` };
  }

  /** A desktop that joins now (person `name`, granted as an annotator). */
  async function joiner(admin: pg.Client, database: string, name: string, where: string) {
    const dbPath = join(hub.dir, `${database}-${name}.db`);
    const db = openDb(dbPath);
    await grant(admin, where, { annotator: name, role: 'annotator', uuid: ensureAnnotator(db, name, 'human').uuid, password: null });
    const url = hub.cluster.url(`arbiter_${name}`, undefined, database);
    const client = await connectHub(url);
    try {
      return { db, joined: await joinProject(db, client, PROJECT, { where, url }) };
    } finally {
      await client.end();
    }
  }

  it('refuses cuts that are not a list of texts making up the response, and file or auto cuts by anyone but a lead; the rest come down', async () => {
    const { admin, bob, uids, hubProject, where } = await team('hub_cuts');
    const cut = (uid: string, response: number, version: number, steps: unknown, origin: string, by: string) =>
      forge(admin, 'INSERT INTO arbiter.segmentation (project_id, item_uid, response, version, steps, origin, pushed_by) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)', [hubProject, uid, response, version, JSON.stringify(steps), origin, by]);
    const q1 = uids.get('q1')!;
    await cut(q1, 0, 2, '1. Take 1.', 'annotator', 'arbiter_alice');
    await cut(q1, 0, 3, ['Buy the thing.'], 'annotator', 'arbiter_alice');
    await cut(q1, 1, 1, ['1. Take 1.', '2. Double it.\n3. So 3.'], 'file', 'arbiter_alice');
    await cut(q1, 1, 2, ['1. Take 1.\n2. Double it.', '3. So 3.'], 'annotator', 'arbiter_alice');
    await cut(uids.get('q2')!, 0, 1, ['1. Take 2.', '2. Add 2.', '3. So 4.'], 'auto', 'arbiter_lead');

    const summary = await sync(bob);
    expect(summary.segmentations).toMatchObject({ pulled: 2, refused: 3 });
    expect(summary.refused.join('\n')).toMatch(/3 cuts .*refused.*not a list of texts/);
    const stored = bob.db.prepare('SELECT i.external_id AS item, s.response_idx AS response, s.version, s.steps, s.origin FROM segmentation s JOIN item i ON i.id = s.item_id ORDER BY 1, 2, 3').all();
    expect(stored).toEqual([
      { item: 'q1', response: 1, version: 2, steps: JSON.stringify(['1. Take 1.\n2. Double it.', '3. So 3.']), origin: 'annotator' },
      { item: 'q2', response: 0, version: 1, steps: JSON.stringify(['1. Take 2.', '2. Add 2.', '3. So 4.']), origin: 'auto' },
    ]);
    // The step screen shows lists of texts: Arbiter's own cut where every pulled one was refused.
    const view = await bob.service.dispatch('getSteps', { project: PROJECT, annotator: 'bob', itemId: itemIds(bob).get('q1')! });
    expect(view.responses.map((r) => r.steps)).toEqual([
      ['1. Take 1.', '2. Add 1.', '3. So 2.'],
      ['1. Take 1.\n2. Double it.', '3. So 3.'],
    ]);
    // The Team panel says it.
    expect(syncNotices(syncResultOf(summary), bob.url).join('\n')).toMatch(/3 cuts/);
    // A join reads every cut with the same rule.
    const carol = await joiner(admin, 'hub_cuts', 'carol', where);
    expect(carol.joined.segmentations).toBe(2);
    expect(carol.joined.refused.join('\n')).toMatch(/3 cuts .*refused/);
    carol.db.close();
    // Joined from the app (the Team panel's Connect): its notices say what the join refused.
    const danPath = join(hub.dir, 'hub_cuts-dan.db');
    const danDb = openDb(danPath);
    const dan = new ArbiterService(danDb, { dbPath: danPath, transport: 'http', version: 'test', defaultAnnotator: 'dan' });
    try {
      await grant(admin, where, { annotator: 'dan', role: 'annotator', uuid: ensureAnnotator(danDb, 'dan', 'human').uuid, password: null });
      const status = await dan.dispatch('connectHub', { project: PROJECT, url: hub.cluster.url('arbiter_dan', undefined, 'hub_cuts') });
      expect(status.notices.join('\n')).toMatch(/3 cuts .*refused/);
    } finally {
      await dan.team.stop();
      dan.stopBackgroundWork();
      danDb.close();
    }
    await admin.end();
  }, 120_000);

  it("names people after the hub's annotator row of their uuid, never after the name a line carries", async () => {
    const { admin, bob, alice, uids, hubProject, where } = await team('hub_names');
    const aliceUuid = findAnnotator(alice.db, 'alice')!.uuid;
    await insertLines(admin, hubProject, [
      line(1, uids.get('q1')!, { name: 'lead', uuid: aliceUuid }),
      line(2, uids.get('q2')!, { name: 'judge-model', uuid: aliceUuid, kind: 'model' }),
    ]);
    expect(await sync(bob)).toMatchObject({ pulled: 2 });
    const who = bob.db.prepare('SELECT name, kind FROM annotator WHERE uuid = ?').all(aliceUuid);
    expect(who).toEqual([{ name: 'alice', kind: 'human' }]);
    expect(findAnnotator(bob.db, 'lead')).toBeUndefined();
    // A person named here before after what a line said (an older sync) takes the hub's name at the next line of theirs.
    const carolUuid = '0195f0a2-7c1d-7000-8000-00000000ca01';
    await grant(admin, where, { annotator: 'carol', role: 'annotator', uuid: carolUuid, password: null });
    ensureAnnotatorByUuid(bob.db, carolUuid, 'mallory', 'human');
    await insertLines(admin, hubProject, [line(3, uids.get('q3')!, { name: 'mallory', uuid: carolUuid })]);
    expect(await sync(bob)).toMatchObject({ pulled: 1 });
    expect(bob.db.prepare('SELECT name FROM annotator WHERE uuid = ?').pluck().all(carolUuid)).toEqual(['carol']);
    await admin.end();
  }, 120_000);

  it("keeps this desktop's settings and rubric in force where the hub's fail the app's checks, refuses malformed rubric versions, and says so", async () => {
    const { admin, bob, publisher, hubProject, where } = await team('hub_settings');
    await forge(admin, `UPDATE arbiter.project SET settings = '{"prelabels": "show-everything", "overlap": -7, "team": [1, 2, "carol"]}' WHERE id = $1`, [hubProject]);
    await forge(
      admin,
      `INSERT INTO arbiter.rubric_version (project_id, name, version, criteria, in_force) VALUES
         ($1, 'quality', 2, '[{"key": 5, "scale": "big"}]', false), ($1, 'evil', 1, '{"not": "a list"}', true)`,
      [hubProject],
    );
    await forge(admin, "UPDATE arbiter.rubric_version SET in_force = false WHERE project_id = $1 AND name = 'quality'", [hubProject]);
    const before = projectSettings(requireProject(bob.db, PROJECT));

    const summary = await sync(bob);
    expect(summary).toMatchObject({ settings: 'refused', rubricVersions: { pulled: 0, refused: 2 } });
    const said = summary.refused.join('\n');
    expect(said).toMatch(/settings .*prelabels/);
    expect(said).toMatch(/2 rubric versions/);
    expect(projectSettings(requireProject(bob.db, PROJECT))).toEqual(before);
    expect(rubricInForce(bob.db, requireProject(bob.db, PROJECT).id)).toBe('quality');
    expect(syncNotices(syncResultOf(summary), bob.url).join('\n')).toMatch(/settings/);
    // The screens that read them still work.
    await bob.service.dispatch('getSteps', { project: PROJECT, annotator: 'bob', itemId: itemIds(bob).get('q1')! });
    const rubric = await bob.service.dispatch('getRubric', { project: PROJECT, rubric: 'quality' });
    expect(rubric.version).toBe(1);
    // Again at the next sync (the hub still holds them), never taken.
    expect(await sync(bob)).toMatchObject({ settings: 'refused' });
    // A join takes neither.
    const carol = await joiner(admin, 'hub_settings', 'carol', where);
    expect(carol.joined).toMatchObject({ settings: 'refused', rubricVersions: 1, rubricInForce: null });
    expect(carol.joined.refused.join('\n')).toMatch(/prelabels/);
    const carolProject = requireProject(carol.db, PROJECT);
    expect(projectSettings(carolProject).prelabels).toBe('blind');
    expect(rubricInForce(carol.db, carolProject.id)).toBeNull();
    carol.db.close();
    // The lead's sync puts the lead's own back on the hub (its settings are the defaults), and the next sync here finds them the same.
    expect(await sync(publisher)).toMatchObject({ settings: 'sent' });
    const back = (await admin.query<{ settings: { prelabels: string } }>('SELECT settings FROM arbiter.project WHERE id = $1', [hubProject])).rows[0]!.settings;
    expect(back.prelabels).toBe('blind');
    expect(await sync(bob)).toMatchObject({ settings: 'same' });
    // Also where the rubric in force is the same on both sides and only the settings are bad.
    await forge(admin, `UPDATE arbiter.project SET settings = '{"order": "chaos"}' WHERE id = $1`, [hubProject]);
    expect(await sync(publisher)).toMatchObject({ settings: 'sent' });
    expect((await admin.query<{ settings: { order: string } }>('SELECT settings FROM arbiter.project WHERE id = $1', [hubProject])).rows[0]!.settings.order).toBe('source');
    await admin.end();
  }, 120_000);

  it("refuses lines past a labels file's bounds without loading them, and reads a batch up to a byte budget", async () => {
    const { admin, bob, alice, uids, hubProject } = await team('hub_bounds');
    process.env.ARBITER_RECORD_MAX_BYTES = '64KiB';
    process.env.ARBITER_HUB_PULL_BATCH_BYTES = '64KiB';
    const aliceWho = { name: 'alice', uuid: findAnnotator(alice.db, 'alice')!.uuid };
    let deep: unknown = 'bottom';
    for (let i = 0; i < 150; i++) deep = [deep];
    await insertLines(admin, hubProject, [
      line(0, uids.get('q0')!, aliceWho, { note: 'x'.repeat(4 * 1024 * 1024) }),
      line(0, uids.get('q0')!, aliceWho, { deep }),
      ...Array.from({ length: 8 }, (_, i) => line(i % 5, uids.get(`q${i % 5}`)!, aliceWho, { note: `${i}`.repeat(30_000) })),
    ]);
    // Cuts too: six of 30,000 characters each (not cuts of their response: refused once read).
    for (let v = 2; v < 8; v++)
      await forge(admin, "INSERT INTO arbiter.segmentation (project_id, item_uid, response, version, steps, origin, pushed_by) VALUES ($1, $2, 0, $3, $4::jsonb, 'annotator', 'arbiter_alice')", [
        hubProject,
        uids.get('q1')!,
        v,
        JSON.stringify([`${v}`.repeat(30_000)]),
      ]);
    // What comes back from the hub to this process, per query: the longest text in it, and its total.
    const reads: { longest: number; total: number; sql: string }[] = [];
    const query = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise)
        void result.then(
          (r: { rows?: Record<string, unknown>[] }) => {
            let longest = 0;
            let total = 0;
            for (const row of r?.rows ?? [])
              for (const value of Object.values(row))
                if (typeof value === 'string') {
                  longest = Math.max(longest, value.length);
                  total += value.length;
                }
            reads.push({ longest, total, sql: String(typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text) });
          },
          () => undefined,
        );
      return result;
    });

    const summary = await sync(bob);
    expect(summary).toMatchObject({ pulled: 8, tooLarge: 1 });
    const said = summary.refused.join('\n');
    expect(said).toMatch(/1 revision .* longer than 64 KiB/);
    expect(said).toMatch(/nested more than 100 levels/);
    expect(Math.max(...reads.map((r) => r.longest))).toBeLessThan(64 * 1024);
    const revisionReads = reads.filter((r) => /octet_length\(line::text\)/.test(r.sql) && r.total > 0);
    expect(revisionReads.length).toBeGreaterThanOrEqual(3);
    for (const r of revisionReads) expect(r.total).toBeLessThan(2 * 64 * 1024);
    const cutReads = reads.filter((r) => /octet_length\(steps::text\)/.test(r.sql) && r.total > 0);
    expect(cutReads.length).toBeGreaterThanOrEqual(2);
    for (const r of cutReads) expect(r.total).toBeLessThan(2 * 64 * 1024);
    expect(summary.segmentations.refused).toBe(6);
    // Said once: the next sync has nothing new.
    expect(await sync(bob)).toMatchObject({ pulled: 0, tooLarge: 0, refused: [] });
    await admin.end();
  }, 120_000);

  it('keeps at most the cap of revisions waiting for items this project lacks, drops those waiting too long, and says how many', async () => {
    const { admin, bob, alice, hubProject } = await team('hub_ghosts');
    process.env.ARBITER_HUB_DEFERRED_MAX = '1000';
    const aliceUuid = findAnnotator(alice.db, 'alice')!.uuid;
    await forge(
      admin,
      `INSERT INTO arbiter.revision (id, project_id, annotator_uuid, adjudicated, line)
       SELECT 'ghost-' || g, $1, $2::uuid, false,
              jsonb_build_object('id', 'ghost-' || g, 'item', 'ghost' || g, 'annotator', 'alice', 'annotator_uuid', $2::text, 'task', 'pairwise', 'choice', 'A', 'created_at', '2026-01-01T00:00:00.000Z')
       FROM generate_series(1, 3000) g`,
      [hubProject, aliceUuid],
    );
    const first = await sync(bob);
    expect(first).toMatchObject({ deferred: 1000, deferredDropped: 2000 });
    expect(first.refused.join('\n')).toMatch(/2,000 revisions .*dropped/);
    expect(await sync(bob)).toMatchObject({ deferred: 1000, deferredDropped: 0 });
    // A month later they still wait: they go, counted.
    bob.db.prepare("UPDATE hub_deferred SET deferred_at = '2000-01-01T00:00:00.000Z'").run();
    const late = await sync(bob);
    expect(late).toMatchObject({ deferred: 0, deferredDropped: 1000 });
    expect(late.refused.join('\n')).toMatch(/1,000 revisions .*waited longer than/);
    await admin.end();
  }, 120_000);
});
