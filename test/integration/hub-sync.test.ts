// Two desktops (their own SQLite files) joined to one project published on a real PostgreSQL hub, each
// person under their own login role, label the same 50 items offline and disagree: pairs, step ratings
// (one on a cut of their own), a rubric rating (one under a rubric version the lead made after joining),
// and the lead's adjudication. Synced in either order (A, B, A and B, A, B) they end with the same
// revisions, current labels, adjudications, counters, cuts, rubric versions and review queues, and
// syncing again changes nothing (pushed 0, pulled 0). Each order runs on a hub database of its own.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { importFile } from '../../electron/core/formats';
import { encodeLabel } from '../../electron/core/formats/exchange/labels';
import { connectHub } from '../../electron/core/hub/connect';
import { joinProject } from '../../electron/core/hub/join';
import { publishProject } from '../../electron/core/hub/publish';
import { grant } from '../../electron/core/hub/roles';
import { syncProject, type SyncSummary } from '../../electron/core/hub/sync';
import { findAnnotator } from '../../electron/core/store/annotators';
import { hubLink, ownRevisionsAfter, ownRevisionsWaiting } from '../../electron/core/store/hub';
import { requireProject } from '../../electron/core/store/projects';
import { itemIds, labelState, PROJECT, QUALITY, reviewQueues, setUpTeam, teamItems, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-sync');

const ITEMS = 50;

/** Each person labels every item on their own desktop, offline; they disagree on many. */
async function labelOffline(alice: Desktop, bob: Desktop): Promise<void> {
  const a = itemIds(alice);
  const b = itemIds(bob);
  const save = (d: Desktop, ids: Map<string, number>, i: number, choice: 'A' | 'B' | 'tie', strength?: 1 | 2 | 3) =>
    d.service.dispatch('saveLabel', { project: PROJECT, annotator: d.name, itemId: ids.get(`q${i}`)!, choice, shownOrder: [0, 1], ...(strength ? { strength } : {}) });
  for (let i = 0; i < ITEMS; i++) {
    await save(alice, a, i, i % 3 === 0 ? 'B' : 'A', 2);
    await save(bob, b, i, i % 4 === 0 ? 'B' : i % 7 === 0 ? 'tie' : 'A');
  }
  // Alice changes her mind on q5: her later revision is her current label everywhere.
  await save(alice, a, 5, 'tie');
  // Step ratings on q0–q4, disagreeing on the first error.
  const steps = (d: Desktop, ids: Map<string, number>, i: number, response: number, ratings: (1 | 0 | -1 | null)[], firstError: number | null, version = 1) =>
    d.service.dispatch('saveSteps', { project: PROJECT, annotator: d.name, itemId: ids.get(`q${i}`)!, response, steps: { version, ratings, firstError } } as never);
  for (let i = 0; i < 5; i++) {
    await steps(alice, a, i, 1, [1, 1, -1], 2);
    await steps(bob, b, i, 1, i % 2 ? [1, -1, null] : [1, 1, -1], i % 2 ? 1 : 2);
  }
  // Bob rates q6's first answer on Arbiter's cut; Alice splits its first step (a cut of her own, version 2)
  // and rates on that.
  await steps(bob, b, 6, 0, [1, 1, 1], null);
  await alice.service.dispatch('resegment', { project: PROJECT, annotator: 'alice', itemId: a.get('q6')!, response: 0, op: 'split', fromVersion: 1, step: 0, at: 3 } as never);
  await steps(alice, a, 6, 0, [1, 1, 1, -1], 3, 2);
  // Rubric ratings under the published version 1.
  for (let i = 10; i < 13; i++) {
    const rate = (d: Desktop, ids: Map<string, number>, x: number, y: number) =>
      d.service.dispatch('saveRatings', { project: PROJECT, annotator: d.name, itemId: ids.get(`q${i}`)!, rubric: 'quality', version: 1, ratings: { A: { correctness: x }, B: { correctness: y } } } as never);
    await rate(alice, a, 5, 2);
    await rate(bob, b, i === 11 ? 2 : 4, 3);
  }
  // Bob, a lead, makes version 2 of the rubric after joining and rates q13 under it.
  await bob.service.dispatch('saveRubric', { project: PROJECT, name: 'quality', criteria: [{ ...QUALITY[0]!, scale: { type: 'likert', min: 1, max: 3 } }] as never });
  await bob.service.dispatch('saveRatings', { project: PROJECT, annotator: 'bob', itemId: b.get('q13')!, rubric: 'quality', version: 2, ratings: { A: { correctness: 3 }, B: { correctness: 1 } } } as never);
  // Bob resolves q3, where they disagree (Alice B, Bob B … q0: both B; q3: Alice B, Bob A).
  await bob.service.dispatch('adjudicate', { project: PROJECT, annotator: 'bob', itemId: b.get('q3')!, task: 'pairwise', choice: 'B', note: 'The sum is wrong in A.' } as never);
}

const done = new WeakSet<Promise<unknown>>();
/** Whether a promise has settled (checked while polling). */
function settled(p: Promise<unknown>): boolean {
  void p.then(
    () => done.add(p),
    () => done.add(p),
  );
  return done.has(p);
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('waited 30 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const sync = (d: Desktop): Promise<SyncSummary> => syncProject(d.db, { project: PROJECT, password: undefined, batch: 40 });

describe.skipIf(reason)('sync through a PostgreSQL hub', () => {
  const hub = useHubCluster('hub-sync');
  const opened: Desktop[] = [];
  afterAll(async () => {
    for (const d of opened) d.db.close();
  });

  it('never skips a revision whose push commits after a later one (hub_seq in commit order)', async () => {
    const { desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_late', 5, [
      { name: 'alice', role: 'annotator' },
      { name: 'bob', role: 'annotator' },
    ]);
    opened.push(...desktops);
    const [alice, bob] = desktops as [Desktop, Desktop];
    const saved = await alice.service.dispatch('saveLabel', { project: PROJECT, annotator: 'alice', itemId: itemIds(alice).get('q1')!, choice: 'A', shownOrder: [0, 1] });
    await bob.service.dispatch('saveLabel', { project: PROJECT, annotator: 'bob', itemId: itemIds(bob).get('q1')!, choice: 'B', shownOrder: [0, 1] });
    // Alice's push is slow: its transaction has inserted her revision and not committed yet.
    const slow = await connectHub(alice.url);
    const [mine] = ownRevisionsAfter(alice.db, requireProject(alice.db, PROJECT).id, 0, 10);
    expect(mine!.id).toBe(saved.id);
    await slow.query('BEGIN');
    await slow.query(
      "INSERT INTO arbiter.revision (id, project_id, annotator_uuid, adjudicated, line) SELECT l->>'id', $1, (l->>'annotator_uuid')::uuid, false, l FROM (SELECT $2::jsonb AS l) x",
      [hubLink(alice.db, requireProject(alice.db, PROJECT).id)!.hubProjectId, JSON.stringify(encodeLabel(mine!))],
    );
    // Meanwhile Bob syncs: his push waits for hers to commit (else his revision would take a later
    // hub_seq, commit first, and his pull would move his watermark past hers for good).
    const bobSync = sync(bob);
    await until(async () => ((await admin.query("SELECT 1 FROM pg_stat_activity WHERE usename = 'arbiter_bob' AND wait_event_type = 'Lock'")).rowCount ?? 0) > 0 || settled(bobSync));
    await slow.query('COMMIT');
    await slow.end();
    await bobSync;
    await sync(bob);
    expect(labelState(bob.db).revisions.map((r) => r.id)).toContain(saved.id);
    await admin.end();
  }, 120_000);

  it("carries the lead's guidelines revisions to every desktop at its next sync; the newest is the text people read; a number held here with another text is kept", async () => {
    const { publisher, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_guide', 3, [{ name: 'alice', role: 'annotator' }]);
    opened.push(publisher, ...desktops);
    const [alice] = desktops as [Desktop];
    const write = (d: Desktop, text: string, baseRevision: number) => d.service.dispatch('saveGuidelines', { project: PROJECT, text, baseRevision, annotator: d.name });
    const read = (d: Desktop) => d.service.dispatch('getGuidelines', { project: PROJECT });
    await write(publisher, '# Rules\n\nPrefer the correct answer.', 0);
    expect((await sync(publisher)).guidelines).toEqual({ pushed: 1, pulled: 0, conflicts: 0 });
    expect((await sync(alice)).guidelines).toEqual({ pushed: 0, pulled: 1, conflicts: 0 });
    expect(await read(alice)).toMatchObject({ text: '# Rules\n\nPrefer the correct answer.', revision: 1 });
    await write(publisher, '# Rules\n\nPrefer the correct answer; a tie when both are wrong.', 1);
    await sync(publisher);
    expect((await sync(alice)).guidelines).toEqual({ pushed: 0, pulled: 1, conflicts: 0 });
    expect(await read(alice)).toMatchObject({ text: '# Rules\n\nPrefer the correct answer; a tie when both are wrong.', revision: 2 });
    // Syncing again moves nothing.
    expect((await sync(publisher)).guidelines).toEqual({ pushed: 0, pulled: 0, conflicts: 0 });
    expect((await sync(alice)).guidelines).toEqual({ pushed: 0, pulled: 0, conflicts: 0 });
    // Alice edits her own copy (revision 3 here); an annotator's guidelines never go up, and the lead's
    // revision 3 does not overwrite hers: it is counted as a conflict.
    await write(alice, 'My notes.', 2);
    await write(publisher, '# Rules v3', 2);
    expect((await sync(alice)).guidelines).toEqual({ pushed: 0, pulled: 0, conflicts: 0 });
    expect((await sync(publisher)).guidelines).toEqual({ pushed: 1, pulled: 0, conflicts: 0 });
    expect((await sync(alice)).guidelines).toEqual({ pushed: 0, pulled: 0, conflicts: 1 });
    expect(await read(alice)).toMatchObject({ text: 'My notes.', revision: 3 });
    expect((await admin.query('SELECT revision, text FROM arbiter.guidelines ORDER BY revision')).rows).toEqual([
      { revision: 1, text: '# Rules\n\nPrefer the correct answer.' },
      { revision: 2, text: '# Rules\n\nPrefer the correct answer; a tie when both are wrong.' },
      { revision: 3, text: '# Rules v3' },
    ]);
    await admin.end();
  }, 120_000);

  it("keeps every desktop on the lead's settings and rubric in force: a lead's change goes up at their sync, everyone else's sync takes the hub's", async () => {
    const { publisher, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_settings', 4, [{ name: 'alice', role: 'annotator' }]);
    opened.push(publisher, ...desktops);
    const [alice] = desktops as [Desktop];
    const settingsOf = async (d: Desktop) => (await d.service.dispatch('getProject', { project: PROJECT })) as unknown as { settings: Record<string, unknown>; rubricInForce?: string | null };
    const inForce = (d: Desktop) => d.db.prepare('SELECT rubric FROM project WHERE name = ?').pluck().get(PROJECT);
    expect((await sync(publisher)).settings).toBe('same');
    expect((await sync(alice)).settings).toBe('same');
    // The lead splits the work between two people and puts a new rubric in force.
    await publisher.service.dispatch('updateProjectSettings', { project: PROJECT, settings: { overlap: 1, team: ['alice', 'bob'], order: 'random' } as never });
    await publisher.service.dispatch('saveRubric', { project: PROJECT, name: 'tone', criteria: QUALITY as never });
    await publisher.service.dispatch('setRubricInForce', { project: PROJECT, name: 'tone' });
    expect((await sync(publisher)).settings).toBe('sent');
    expect((await sync(alice)).settings).toBe('taken');
    expect((await settingsOf(alice)).settings).toMatchObject({ overlap: 1, team: ['alice', 'bob'], order: 'random' });
    expect(inForce(alice)).toBe('tone');
    expect((await sync(publisher)).settings).toBe('same');
    expect((await sync(alice)).settings).toBe('same');
    // An annotator's own change does not go up: their next sync puts the lead's back.
    await alice.service.dispatch('updateProjectSettings', { project: PROJECT, settings: { overlap: 0, order: 'source' } as never });
    expect((await sync(alice)).settings).toBe('taken');
    expect((await settingsOf(alice)).settings).toMatchObject({ overlap: 1, order: 'random' });
    expect((await admin.query('SELECT settings FROM arbiter.project')).rows[0].settings).toMatchObject({ overlap: 1, team: ['alice', 'bob'], order: 'random' });
    // A lead who has not changed anything since takes the hub's (another lead's change is not undone).
    await admin.query("UPDATE arbiter.project SET settings = jsonb_set(settings, '{overlap}', '2')");
    expect((await sync(publisher)).settings).toBe('taken');
    expect((await settingsOf(publisher)).settings).toMatchObject({ overlap: 2 });
    await admin.end();
  }, 120_000);

  it("two leads: a publish again or a new rubric version never undoes the other lead's settings or rubric in force; items the hub holds but this desktop refuses do not stop the rest of the sync", async () => {
    const { publisher, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_leads', 4, [
      { name: 'alice', role: 'annotator' },
      { name: 'bob', role: 'lead' },
    ]);
    opened.push(publisher, ...desktops);
    const [alice, bob] = desktops as [Desktop, Desktop];
    const where = `127.0.0.1:${hub.cluster.port}`;
    const settingsOf = async (d: Desktop) => ((await d.service.dispatch('getProject', { project: PROJECT })) as unknown as { settings: Record<string, unknown> }).settings;
    const inForce = (d: Desktop) => d.db.prepare('SELECT rubric FROM project WHERE name = ?').pluck().get(PROJECT);
    const hubInForce = async () => (await admin.query('SELECT DISTINCT name FROM arbiter.rubric_version WHERE in_force ORDER BY name')).rows.map((r) => r.name as string);
    // The publisher walks the items in random order now; Bob, a lead who joined before, takes that at his
    // first sync (his join agreed on the hub's settings, so his copy is older, not his own change).
    await publisher.service.dispatch('updateProjectSettings', { project: PROJECT, settings: { order: 'random' } as never });
    expect((await sync(publisher)).settings).toBe('sent');
    expect((await sync(bob)).settings).toBe('taken');
    expect(await settingsOf(bob)).toMatchObject({ order: 'random', overlap: 0 });
    // Bob splits the work; his next sync sends it.
    await bob.service.dispatch('updateProjectSettings', { project: PROJECT, settings: { overlap: 1, team: ['alice', 'bob'] } as never });
    expect((await sync(bob)).settings).toBe('sent');
    // The publisher, whose copy is older, imports one more item and publishes again: the item goes up, Bob's settings stay.
    writeFileSync(join(hub.dir, 'leads-more.jsonl'), `${teamItems(5).split('\n')[4]}\n`);
    await importFile(publisher.db, { path: join(hub.dir, 'leads-more.jsonl'), project: PROJECT, format: 'arbiter' });
    const client = await connectHub(publisher.url);
    expect(await publishProject(publisher.db, client, PROJECT, { where, url: publisher.url })).toMatchObject({ items: 1, settings: 'same' });
    await client.end();
    expect((await admin.query('SELECT settings FROM arbiter.project')).rows[0].settings).toMatchObject({ overlap: 1, team: ['alice', 'bob'] });
    expect(await sync(publisher)).toMatchObject({ settings: 'taken', items: 0 });
    expect(await settingsOf(publisher)).toMatchObject({ overlap: 1, team: ['alice', 'bob'], order: 'random' });
    expect(await sync(alice)).toMatchObject({ settings: 'taken', items: 1 });
    // The publisher puts a new rubric in force; Bob, not synced since, saves a new version of the old one.
    await publisher.service.dispatch('saveRubric', { project: PROJECT, name: 'tone', criteria: QUALITY as never });
    await publisher.service.dispatch('setRubricInForce', { project: PROJECT, name: 'tone' });
    expect((await sync(publisher)).settings).toBe('sent');
    expect(await hubInForce()).toEqual(['tone']);
    await bob.service.dispatch('saveRubric', { project: PROJECT, name: 'quality', criteria: [{ ...QUALITY[0]!, description: 'Is it right, and why?' }] as never });
    expect(inForce(bob)).toBe('quality');
    expect(await sync(bob)).toMatchObject({ settings: 'taken', rubricVersions: { pushed: 1 } });
    expect(await hubInForce()).toEqual(['tone']);
    expect(inForce(bob)).toBe('tone');
    // A line on the hub this desktop refuses: the items wait, said why; Bob's label still comes down.
    const hubProject = hubLink(alice.db, requireProject(alice.db, PROJECT).id)!.hubProjectId;
    await admin.query(`INSERT INTO arbiter.item_line (project_id, seq, uid, line) VALUES ($1, 99, 'not-an-item', '{"prompt": 5}')`, [hubProject]);
    await bob.service.dispatch('saveLabel', { project: PROJECT, annotator: 'bob', itemId: itemIds(bob).get('q1')!, choice: 'A', shownOrder: [0, 1] });
    await sync(bob);
    const refused = await sync(alice);
    expect(refused).toMatchObject({ items: 0, pulled: 1 });
    expect(refused.itemsProblem).toMatch(/prompt/);
    expect((await sync(alice)).itemsProblem).toMatch(/prompt/);
    await admin.end();
  }, 120_000);

  it('holds a revision for an item the hub lacks until the lead publishes the item (which the sync brings), then it merges everywhere; holds what this role may not push until a role that may sends it; prints one JSON line', async () => {
    const { publisher, desktops, admin } = await setUpTeam(hub.cluster, hub.dir, 'hub_wait', 5, [
      { name: 'alice', role: 'annotator' },
      { name: 'bob', role: 'annotator' },
    ]);
    opened.push(publisher, ...desktops);
    const [alice, bob] = desktops as [Desktop, Desktop];
    const where = `127.0.0.1:${hub.cluster.port}`;
    const again = async (d: Desktop, work: typeof publishProject | typeof joinProject) => {
      const client = await connectHub(d.url);
      await work(d.db, client, PROJECT, { where, url: d.url });
      await client.end();
    };
    // Alice has one more item, from a file of her own that the hub does not have yet, and labels it.
    writeFileSync(join(hub.dir, 'more.jsonl'), `${teamItems(6).split('\n')[5]}\n`);
    await importFile(alice.db, { path: join(hub.dir, 'more.jsonl'), project: PROJECT, format: 'arbiter' });
    await alice.service.dispatch('saveLabel', { project: PROJECT, annotator: 'alice', itemId: itemIds(alice).get('q5')!, choice: 'B', shownOrder: [0, 1] });
    await alice.service.dispatch('saveLabel', { project: PROJECT, annotator: 'alice', itemId: itemIds(alice).get('q1')!, choice: 'A', shownOrder: [0, 1] });
    // Someone else labels under their own name on Alice's desktop: her login role may not push that.
    await alice.service.dispatch('saveLabel', { project: PROJECT, annotator: 'carol', itemId: itemIds(alice).get('q2')!, choice: 'A', shownOrder: [0, 1] });
    // She merges two steps of q5's first response, and of q1's.
    for (const q of ['q5', 'q1']) await alice.service.dispatch('resegment', { project: PROJECT, annotator: 'alice', itemId: itemIds(alice).get(q)!, response: 0, op: 'merge', fromVersion: 1, step: 0 });
    // The hub refuses a revision or a cut for an item it does not hold (schema 3): Alice's label and cut of q5
    // are held here, the label said apart; the cut of q1 goes up.
    expect(await sync(alice)).toMatchObject({ pushed: 1, notPushed: 1, notPushedBy: ['carol'], waitingForItems: 1, segmentations: { pushed: 1 } });
    // Carol's revision is held, not passed over: it still waits, and a later sync by alice still says so.
    const aliceProject = requireProject(alice.db, PROJECT).id;
    expect(ownRevisionsWaiting(alice.db, aliceProject)).toBe(2);
    expect(await sync(alice)).toMatchObject({ pushed: 0, notPushed: 1, notPushedBy: ['carol'], waitingForItems: 1, segmentations: { pushed: 0 } });
    // Carol is granted (under the uuid her label carries) and syncs the same desktop as herself: it goes up.
    const carolUuid = findAnnotator(alice.db, 'carol')!.uuid;
    await grant(admin, where, { annotator: 'carol', role: 'annotator', uuid: carolUuid, password: null });
    const asCarol = await syncProject(alice.db, { project: PROJECT, url: hub.cluster.url('arbiter_carol', undefined, 'hub_wait'), batch: 40 });
    // (Alice's on q5 is not Carol's to push.)
    expect(asCarol).toMatchObject({ as: 'carol', pushed: 1, notPushed: 1, notPushedBy: ['alice'] });
    expect(ownRevisionsWaiting(alice.db, aliceProject)).toBe(1);
    expect(Number((await admin.query('SELECT count(*) AS n FROM arbiter.revision WHERE annotator_uuid = $1', [carolUuid])).rows[0].n)).toBe(1);
    expect(await sync(alice)).toMatchObject({ pushed: 0, notPushed: 0, waitingForItems: 1 });

    // Alice's label on q1 and Carol's on q2 merge; Alice's on q5 is not on the hub.
    expect(await sync(bob)).toMatchObject({ pulled: 2, deferred: 0 });
    expect(await sync(bob)).toMatchObject({ pulled: 0, deferred: 0, items: 0 });
    // The lead publishes that item: Alice's next sync sends her label on it (she has the item already);
    // Bob's next sync brings the item (no join again), then Alice's label on it.
    await importFile(publisher.db, { path: join(hub.dir, 'more.jsonl'), project: PROJECT, format: 'arbiter' });
    await again(publisher, publishProject);
    expect(await sync(alice)).toMatchObject({ pushed: 1, notPushed: 0, waitingForItems: 0, items: 0, segmentations: { pushed: 1 } });
    expect(ownRevisionsWaiting(alice.db, aliceProject)).toBe(0);
    expect(itemIds(bob).has('q5')).toBe(false);
    // The CLI: one JSON line on stdout, the same summary.
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['sync', '--project', PROJECT, '--db', bob.dbPath], { out: (l) => out.push(l), err: (l) => err.push(l) });
    expect(code, err.join('\n')).toBe(0);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!)).toMatchObject({ pushed: 0, pulled: 1, items: 1, deferred: 0, deferredReason: null });
    expect(itemIds(bob).get('q5')).toBeDefined();
    // Alice's cut of q5 came with it.
    expect(bob.db.prepare("SELECT count(*) FROM segmentation s JOIN item i ON i.id = s.item_id WHERE i.external_id = 'q5' AND s.origin = 'annotator'").pluck().get()).toBe(1);
    // Alice had it already (the same content is the same item): nothing new; nothing more for Bob either.
    expect(await sync(alice)).toMatchObject({ items: 0 });
    expect(await sync(bob)).toMatchObject({ pulled: 0, items: 0 });
    expect(itemIds(alice).size).toBe(6);
    expect(itemIds(bob).size).toBe(6);
    const bobProject = requireProject(bob.db, PROJECT).id;
    expect(hubLink(bob.db, bobProject)!.pulledItemSeq).toBe(6);
    // A link made before the item mark was kept (migration 0010) reads every line once, adds nothing, and keeps the mark.
    bob.db.prepare('UPDATE hub_link SET pulled_item_seq = NULL').run();
    expect(await sync(bob)).toMatchObject({ items: 0, pulled: 0 });
    expect(hubLink(bob.db, bobProject)!.pulledItemSeq).toBe(6);
    expect(itemIds(bob).size).toBe(6);
    const mine = (d: Desktop) => labelState(d.db).revisions.filter((r) => (r as { kind?: string }).kind === 'human' && (r as { annotator?: string }).annotator === findAnnotator(d.db, 'alice')?.uuid);
    expect(mine(bob)).toEqual(mine(alice));
    // A hub other than the project's own is refused, naming both.
    const other = await runCli(['sync', '--project', PROJECT, '--hub', hub.cluster.url('arbiter_bob', undefined, 'postgres'), '--db', bob.dbPath], { out: () => undefined, err: (l) => err.push(l) });
    expect(other).toBe(1);
    expect(err.at(-1)).toMatch(/is linked to the hub .*hub_wait, not .*postgres/);
    await admin.end();
  }, 120_000);

  for (const order of [
    ['alice', 'bob', 'alice'],
    ['bob', 'alice', 'bob'],
  ] as const) {
    it(`ends the same on both desktops when they sync ${order.join(', ')}, and a second sync changes nothing`, async () => {
      const { desktops, admin } = await setUpTeam(hub.cluster, hub.dir, `hub_${order[0]}`, ITEMS, [
        { name: 'alice', role: 'annotator' },
        { name: 'bob', role: 'lead' },
      ]);
      await admin.end();
      opened.push(...desktops);
      const [alice, bob] = desktops as [Desktop, Desktop];
      await labelOffline(alice, bob);
      const own = { alice: ownRevisionsWaiting(alice.db, requireProject(alice.db, PROJECT).id), bob: ownRevisionsWaiting(bob.db, requireProject(bob.db, PROJECT).id) };
      expect(own.alice).toBeGreaterThan(ITEMS);
      expect(own.bob).toBeGreaterThan(ITEMS);
      const before = { alice: labelState(alice.db), bob: labelState(bob.db) };
      expect(before.alice.current).not.toEqual(before.bob.current);

      const by = { alice, bob };
      const summaries: SyncSummary[] = [];
      for (const who of order) summaries.push(await sync(by[who]));
      // Each pushed exactly its own revisions, once; the one who synced twice pulled the other's the second time.
      const [first, second, third] = summaries as [SyncSummary, SyncSummary, SyncSummary];
      expect(first).toMatchObject({ pushed: own[order[0]], pulled: 0, notPushed: 0, deferred: 0, conflicts: 0 });
      expect(second).toMatchObject({ pushed: own[order[1]], pulled: own[order[0]], notPushed: 0, deferred: 0, conflicts: 0 });
      expect(third).toMatchObject({ pushed: 0, pulled: own[order[1]], alreadyHere: 0, deferred: 0 });
      // The lead's new rubric version and Alice's cut travelled.
      expect(summaries.reduce((n, s) => n + s.rubricVersions.pushed, 0)).toBe(1);
      expect(summaries.reduce((n, s) => n + s.segmentations.pushed, 0)).toBe(1);

      const after = { alice: labelState(alice.db), bob: labelState(bob.db) };
      expect(after.alice.revisions).toHaveLength(own.alice + own.bob);
      expect(after.alice).toEqual(after.bob);
      expect(after.alice.adjudications).toHaveLength(1);
      expect(await reviewQueues(alice)).toEqual(await reviewQueues(bob));
      expect((await reviewQueues(alice)).pairwise!.length).toBeGreaterThan(10);

      // Again, both: nothing moves.
      for (const d of [alice, bob]) {
        expect(await sync(d)).toMatchObject({ pushed: 0, pulled: 0, alreadyHere: 0, alreadyOnHub: 0, deferred: 0, rubricVersions: { pushed: 0, pulled: 0 }, segmentations: { pulled: 0 } });
        expect(hubLink(d.db, requireProject(d.db, PROJECT).id)).toMatchObject({ lastError: null });
      }
      expect(labelState(alice.db)).toEqual(after.alice);
      expect(labelState(bob.db)).toEqual(after.bob);
    }, 180_000);
  }
});
