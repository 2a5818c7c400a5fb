// Publish a project to a real PostgreSQL hub (a throwaway cluster) and join it into another SQLite file,
// through the command line: text pairs with the file's own preferences, a chain with its steps and a
// person's later cut, a ranking, chat prompts holding data-URI images (one shared by two items), a
// response holding a NUL, a line separator and an emoji, metadata in unsorted key order, a rubric in force (two
// versions) and one not, an item's own criteria, guidelines revisions and settings. The joined project
// has the same items (uids and stored contents byte for byte), the same images by hash and bytes, the
// same rubrics, guidelines, settings and cuts; the file's own labels are on the hub as label lines that
// merge into the joined project. A second publish and a second join add nothing. A lead publishes (row
// security lets the file's labels up), an annotator is refused; a join of a project the hub lacks says so.
// A publish killed (kill -9) while it writes leaves no trace of the project on the hub.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { importLabelsLines } from '../../electron/core/formats/index';
import { grant } from '../../electron/core/hub/roles';
import { initHub } from '../../electron/core/hub/schema';
import { imageFile, imageStoreOf } from '../../electron/core/images/store';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb, type Db } from '../../electron/core/store/db';
import { findAnnotator } from '../../electron/core/store/annotators';
import { hubLink, unlinkProject } from '../../electron/core/store/hub';
import { skipReason, startCluster, type PgCluster } from '../helpers/postgres';

const reason = skipReason();
if (reason) console.warn(`hub-publish skipped: ${reason}`);

async function png(color: string): Promise<string> {
  const bytes = await sharp({ create: { width: 3, height: 2, channels: 3, background: color } }).png().toBuffer();
  return `data:image/png;base64,${bytes.toString('base64')}`;
}

/** `arbiter ARGS` in this process: exit code, stdout lines and stderr lines. */
async function arbiter(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

async function ok(args: string[]): Promise<Record<string, unknown>> {
  const r = await arbiter(args);
  expect(r.code, `arbiter ${args.join(' ')}\n${r.err.join('\n')}`).toBe(0);
  return JSON.parse(r.out.at(-1)!) as Record<string, unknown>;
}

/** Everything of a project a join must carry, read from its SQLite file as stored (text as it is). */
function snapshot(db: Db, project: string) {
  const id = db.prepare("SELECT id FROM project WHERE name = ? AND state = 'active'").pluck().get(project) as number;
  const all = (sql: string) => db.prepare(sql).all(id);
  return {
    items: all('SELECT uid, external_id, prompt, reference, metadata, criteria, response_count FROM item WHERE project_id = ? ORDER BY seq'),
    responses: all('SELECT i.uid, r.idx, r.content, r.model FROM response r JOIN item i ON i.id = r.item_id WHERE i.project_id = ? ORDER BY i.seq, r.idx'),
    segmentations: all('SELECT i.uid, s.response_idx, s.version, s.steps, s.origin FROM segmentation s JOIN item i ON i.id = s.item_id WHERE i.project_id = ? ORDER BY i.seq, s.response_idx, s.version'),
    images: all('SELECT sha256 FROM project_image WHERE project_id = ? ORDER BY sha256'),
    rubrics: all('SELECT r.name, v.version, v.hash FROM rubric_version v JOIN rubric r ON r.id = v.rubric_id WHERE r.project_id = ? ORDER BY r.name, v.version'),
    inForce: all('SELECT rubric, guidelines FROM project WHERE id = ?'),
    guidelines: all('SELECT revision, text, author FROM guidelines_revision WHERE project_id = ? ORDER BY revision'),
    settings: JSON.parse(db.prepare('SELECT settings FROM project WHERE id = ?').pluck().get(id) as string) as unknown,
  };
}

/** The file's own labels of a project, by item uid. */
function sourceLabels(db: Db, project: string) {
  return db
    .prepare(
      `SELECT i.uid, l.id, l.task, l.choice, l.body FROM label l JOIN item i ON i.id = l.item_id JOIN annotator a ON a.id = l.annotator_id JOIN project p ON p.id = i.project_id
       WHERE p.name = ? AND a.kind = 'source' ORDER BY l.id`,
    )
    .all(project);
}

describe.skipIf(reason)('hub publish and join (a real PostgreSQL)', () => {
  let cluster: PgCluster;
  let admin: pg.Client;
  let hub = '';
  // One folder for the whole file (the tests follow on from each other), removed after it.
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-hub-publish-'));
  const leadDb = join(dir, 'lead.db');
  const joinDb = join(dir, 'mate.db');

  beforeAll(async () => {
    cluster = await startCluster();
    admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await initHub(admin, 'test hub');
    hub = cluster.url();

    const red = await png('#ff0000');
    const blue = await png('#0000ff');
    // Text pairs whose file says which is better (the `source` labels).
    writeFileSync(
      join(dir, 'pairs.jsonl'),
      [
        { prompt: 'Which is larger, 9.8 or 9.11?', chosen: '9.8 is larger.', rejected: '9.11 is larger.' },
        { prompt: 'Capital of France?', chosen: 'Paris.', rejected: 'Lyon.' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    writeFileSync(
      join(dir, 'items.jsonl'),
      [
        { id: 'chain-1', prompt: 'What is 2 + 2 * 3?', responses: [{ text: 'First, 2 * 3 = 6.\n\nThen 2 + 6 = 8.', steps: ['First, 2 * 3 = 6.', 'Then 2 + 6 = 8.'] }], reference: '8' },
        { id: 'rank-1', prompt: 'Name a prime.', responses: [{ text: '2', model: 'm1' }, { text: '9', model: 'm2' }, { text: '7', model: 'm3' }], metadata: { zeta: 1, alpha: { y: 2, b: [3, { k: 'v', a: null }] } } },
        {
          id: 'img-1',
          prompt: [{ role: 'user', content: [{ type: 'text', text: 'What colour is this?' }, { type: 'image_url', image_url: { url: red } }] }],
          responses: [{ text: 'Red.' }, { text: 'Blue.' }],
        },
        {
          id: 'img-2',
          prompt: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: blue } }, { type: 'text', text: 'And these two?' }, { type: 'image_url', image_url: { url: red } }] }],
          responses: [{ text: 'Blue, then red.' }, { text: 'Odd \u0000 bytes \u2028 😀 here.' }],
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    await ok(['import', join(dir, 'pairs.jsonl'), '--project', 'team', '--format', 'trl', '--db', leadDb]);
    await ok(['import', join(dir, 'items.jsonl'), '--project', 'team', '--format', 'arbiter', '--db', leadDb]);

    const db = openDb(leadDb);
    const service = new ArbiterService(db, { dbPath: leadDb, transport: 'http', version: 't', defaultAnnotator: 'lena' });
    const id = (external: string) => db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(external) as number;
    await service.dispatch('saveRubric', { project: 'team', name: 'quality', criteria: [{ key: 'correct', scale: { type: 'binary' } }] });
    await service.dispatch('saveRubric', { project: 'team', name: 'quality', criteria: [{ key: 'correct', scale: { type: 'likert', min: 1, max: 5 }, weight: 2 }] });
    await service.dispatch('saveRubric', { project: 'team', name: 'style', criteria: [{ key: 'terse', scale: { type: 'binary' } }] });
    await service.dispatch('saveItemCriteria', { project: 'team', itemId: id('rank-1'), criteria: [{ key: 'is-prime', scale: { type: 'binary' }, required: true }] });
    await service.dispatch('saveGuidelines', { project: 'team', text: '# Rules\n\nPrefer the correct answer.', baseRevision: 0, annotator: 'lena' });
    await service.dispatch('saveGuidelines', { project: 'team', text: '# Rules\n\nPrefer the correct answer. Ties are rare.', baseRevision: 1, annotator: 'lena' });
    await service.dispatch('updateProjectSettings', { project: 'team', settings: { overlap: 2, team: ['lena', 'max', 'nia'], order: 'random' } });
    // A person's cut of the chain's steps (version 2) and a human label (which publish leaves to sync).
    await service.dispatch('resegment', { project: 'team', annotator: 'lena', itemId: id('chain-1'), response: 0, op: 'merge', fromVersion: 1, step: 0 });
    await service.dispatch('saveLabel', { project: 'team', annotator: 'lena', itemId: id('img-1'), choice: 'A', strength: 2, shownOrder: [0, 1] });
    db.close();
  }, 60_000);

  afterAll(async () => {
    await admin?.end();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a lead publishes the whole project; an annotator is refused, and nothing is left of that try', async () => {
    // Lena labeled before publishing: she is granted under the uuid her labels carry (publish would refuse otherwise).
    const here = openDb(leadDb);
    const lenaUuid = findAnnotator(here, 'lena')!.uuid;
    here.close();
    await grant(admin, 'test hub', { annotator: 'lena', role: 'lead', uuid: lenaUuid, password: null });
    const ann = await grant(admin, 'test hub', { annotator: 'max', role: 'annotator', password: null });
    const refused = await arbiter(['hub', 'publish', '--project', 'team', '--hub', cluster.url(ann.pgRole), '--db', leadDb]);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(/refused to publish "team": publishing needs the lead role/);
    expect(Number((await admin.query('SELECT count(*) AS n FROM arbiter.project')).rows[0].n)).toBe(0);

    hub = cluster.url('arbiter_lena');
    const first = await ok(['hub', 'publish', '--project', 'team', '--hub', hub, '--db', leadDb]);
    expect(first).toMatchObject({ project: 'team', created: true, items: 6, itemsOnHub: 6, images: 2, rubricVersions: 4, rubricInForce: 'quality', guidelines: 2, segmentations: 1, revisions: 2, settings: 'new', linked: true });
    // The file's labels went up as label lines, under the source annotator's uuid; the person's did not.
    const lines = (await admin.query<{ line: Record<string, unknown> }>('SELECT line FROM arbiter.revision ORDER BY hub_seq')).rows.map((r) => r.line);
    expect(lines.map((l) => [l.annotator_kind, l.task, l.choice])).toEqual([
      ['source', 'pairwise', 'A'],
      ['source', 'pairwise', 'A'],
    ]);
    const lead = openDb(leadDb);
    expect(hubLink(lead, 1)).toMatchObject({ hubProjectId: first.hubProject, pulledSeq: 0, pushedLabelSeq: 0 });
    lead.close();
  });

  it('a second publish adds nothing and changes nothing', async () => {
    const before = (await admin.query('SELECT (SELECT count(*) FROM arbiter.item_line) AS items, (SELECT count(*) FROM arbiter.image) AS images, (SELECT count(*) FROM arbiter.revision) AS revisions, (SELECT count(*) FROM arbiter.segmentation) AS cuts')).rows[0];
    const again = await ok(['hub', 'publish', '--project', 'team', '--hub', hub, '--db', leadDb]);
    expect(again).toMatchObject({ created: false, items: 0, itemsOnHub: 6, images: 0, rubricVersions: 0, guidelines: 0, segmentations: 0, revisions: 0, settings: 'same' });
    const after = (await admin.query('SELECT (SELECT count(*) FROM arbiter.item_line) AS items, (SELECT count(*) FROM arbiter.image) AS images, (SELECT count(*) FROM arbiter.revision) AS revisions, (SELECT count(*) FROM arbiter.segmentation) AS cuts')).rows[0];
    expect(after).toEqual(before);
  });

  it('a join makes the same project in another SQLite file: uids, contents byte for byte, images, rubrics, guidelines, settings, cuts', async () => {
    const joined = await ok(['hub', 'join', '--project', 'team', '--hub', hub, '--db', joinDb]);
    expect(joined).toMatchObject({ project: 'team', created: true, items: 6, itemsOnHub: 6, images: 2, rubricVersions: 4, rubricInForce: 'quality', guidelines: 2, criteria: 1, segmentations: 1, differing: 0, settings: 'set', revisionsOnHub: 2 });
    const lead = openDb(leadDb);
    const mate = openDb(joinDb);
    try {
      const a = snapshot(lead, 'team');
      const b = snapshot(mate, 'team');
      expect(b.items).toEqual(a.items);
      expect(b.responses).toEqual(a.responses);
      expect(b).toEqual(a);
      expect(a.images).toHaveLength(2);
      for (const { sha256 } of a.images as { sha256: string }[]) expect(readFileSync(imageFile(imageStoreOf(mate), sha256))).toEqual(readFileSync(imageFile(imageStoreOf(lead), sha256)));
      // The NUL, U+2028 and the emoji came through as they were.
      expect((b.responses as { content: string }[]).some((r) => r.content === JSON.stringify('Odd \u0000 bytes \u2028 😀 here.'))).toBe(true);
      // Revisions come with the first sync; the item lines and cuts read here are not read again by it.
      const lastCut = Number((await admin.query('SELECT max(hub_seq) AS s FROM arbiter.segmentation')).rows[0].s);
      const lastItem = Number((await admin.query('SELECT max(seq) AS s FROM arbiter.item_line')).rows[0].s);
      expect(hubLink(mate, 1)).toMatchObject({ hubProjectId: joined.hubProject, pulledSeq: 0, pulledSegmentationSeq: lastCut, pulledItemSeq: lastItem });
      // The file's labels on the hub find their items here by uid and merge as any label lines do.
      const lines = (await admin.query<{ line: string }>('SELECT line::text AS line FROM arbiter.revision ORDER BY hub_seq')).rows.map((r) => r.line);
      const merged = await importLabelsLines(mate, { project: 'team', fileName: 'hub', lines });
      expect(merged).toMatchObject({ added: 2, unmatched: 0 });
      expect(sourceLabels(mate, 'team').map((l) => ({ ...(l as object), body: undefined }))).toEqual(sourceLabels(lead, 'team').map((l) => ({ ...(l as object), body: undefined })));
    } finally {
      lead.close();
      mate.close();
    }
  });

  it('a second join adds nothing; a join of a project the hub lacks says so', async () => {
    const again = await ok(['hub', 'join', '--project', 'team', '--hub', hub, '--db', joinDb]);
    expect(again).toMatchObject({ created: false, items: 0, images: 0, rubricVersions: 0, guidelines: 0, criteria: 0, segmentations: 0, differing: 0, settings: 'same' });
    const unknown = await arbiter(['hub', 'join', '--project', 'nope', '--hub', hub, '--db', joinDb]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toEqual([`arbiter hub: 127.0.0.1:${cluster.port} has no project named "nope"; it has "team". Check the name (it is case-sensitive).`]);
    const db = openDb(joinDb);
    expect(db.prepare("SELECT count(*) FROM project WHERE name = 'nope'").pluck().get()).toBe(0);
    db.close();
  });

  it('a join cut short before its link is completed by the next one; a project here with items the hub lacks is not joined into', async () => {
    const cut = join(dir, 'cut.db');
    await ok(['hub', 'join', '--project', 'team', '--hub', hub, '--db', cut]);
    // As if killed after the import and the rest, before the link was written.
    let db = openDb(cut);
    unlinkProject(db, 1);
    db.close();
    expect(await ok(['hub', 'join', '--project', 'team', '--hub', hub, '--db', cut])).toMatchObject({ created: false, items: 0, images: 0, rubricVersions: 0, differing: 0 });
    db = openDb(cut);
    expect(hubLink(db, 1)).toMatchObject({ url: hub });
    db.close();

    const other = join(dir, 'other-team.db');
    writeFileSync(join(dir, 'mine.jsonl'), JSON.stringify({ id: 'mine', prompt: 'Only here?', responses: [{ text: 'yes' }, { text: 'no' }] }) + '\n');
    await ok(['import', join(dir, 'mine.jsonl'), '--project', 'team', '--format', 'arbiter', '--db', other]);
    const refused = await arbiter(['hub', 'join', '--project', 'team', '--hub', hub, '--db', other]);
    expect(refused.code).toBe(1);
    expect(refused.err[0]).toMatch(/A project named "team" is here already, with 1 item the hub's "team" at 127\.0\.0\.1:\d+ does not have; nothing was joined\. Rename yours first/);
    db = openDb(other);
    expect(db.prepare('SELECT count(*) FROM item').pluck().get()).toBe(1);
    expect(hubLink(db, 1)).toBeNull();
    db.close();
  });

  it('a publish killed (kill -9) while it writes leaves nothing of the project on the hub', async () => {
    // Another project with an image, published by a real child process that waits, mid-transaction, on
    // a lock the test holds on the image table: its item lines are written by then.
    const db2 = join(dir, 'other.db');
    const items = Array.from({ length: 300 }, (_, i) => JSON.stringify({ id: `k${i}`, prompt: `Kill test ${i}?`, responses: [{ text: 'yes' }, { text: 'no' }] }));
    items.push(JSON.stringify({ id: 'pic', prompt: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: await png('#00ff00') } }] }], responses: [{ text: 'green' }, { text: 'grey' }] }));
    writeFileSync(join(dir, 'kill.jsonl'), items.join('\n') + '\n');
    await ok(['import', join(dir, 'kill.jsonl'), '--project', 'killed', '--format', 'arbiter', '--db', db2]);

    const locker = new pg.Client({ connectionString: cluster.url() });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE arbiter.image IN ACCESS EXCLUSIVE MODE');
    const cli = pathToFileURL(join(__dirname, '../../electron/cli/main.ts')).href;
    const script = `const { runCli } = await import(${JSON.stringify(cli)}); process.exitCode = await runCli(process.argv.slice(1));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, 'hub', 'publish', '--project', 'killed', '--hub', hub, '--db', db2], {
      env: { ...process.env, ARBITER_NO_DEMO: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      // The publisher is waiting on the lock, inside its transaction, with its item lines written.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const waiting = await admin.query("SELECT 1 FROM pg_stat_activity WHERE usename = 'arbiter_lena' AND wait_event_type = 'Lock' AND query LIKE '%arbiter.image%'");
        if (waiting.rowCount) break;
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the publish never waited on the image lock: ${output}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    // The server sees the connection go and rolls the transaction back.
    const deadline = Date.now() + 30_000;
    while ((await admin.query("SELECT 1 FROM pg_stat_activity WHERE usename = 'arbiter_lena'")).rowCount && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const left = (await admin.query("SELECT (SELECT count(*) FROM arbiter.project WHERE name = 'killed') AS projects, (SELECT count(*) FROM arbiter.item_line l JOIN arbiter.project p ON p.id = l.project_id WHERE p.name = 'killed') AS lines")).rows[0];
    expect(left).toEqual({ projects: '0', lines: '0' });
    // And the next publish puts it all up.
    expect(await ok(['hub', 'publish', '--project', 'killed', '--hub', hub, '--db', db2])).toMatchObject({ created: true, items: 301, images: 1 });
  }, 120_000);
});
