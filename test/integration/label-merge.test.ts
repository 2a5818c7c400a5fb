// Label exchange between machines that never talk: each labels its own copy of the data, exports "my
// labels", and merges the others' files. Items are matched by content (their uid), so different import
// orders and ids do not matter; merging is idempotent (A+A = A) and order-independent (A+B = B+A); a
// revision for an item this machine lacks is reported, and the rest merges.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { exportProject, importFile, importLabelsFile, importLabelsLines } from '../../electron/core/formats';
import { ArbiterService } from '../../electron/core/service';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { beginLabelImport, completeLabelImport, labelImportStager } from '../../electron/core/store/labelImports';
import { mergedRevisionWriter } from '../../electron/core/store/labelMerge';
import { writeNow } from '../../electron/core/store/write';
import { tempDir } from '../helpers/tmp';

const ITEMS = Array.from({ length: 6 }, (_, i) => ({
  id: `q-${i}`,
  prompt: `Question ${i}?`,
  // Items q-2 and q-3 are ranked (three responses); the others are pairs.
  responses: [{ text: `First answer ${i}.` }, { text: `Second answer ${i}.` }, ...(i === 2 || i === 3 ? [{ text: `Third answer ${i}.` }] : [])],
}));

interface Machine {
  db: Db;
  service: ArbiterService;
}

/** A machine with its own database, holding `items` imported in the given order. */
async function machine(dir: string, name: string, items: typeof ITEMS): Promise<Machine> {
  const dbPath = join(dir, `${name}.db`);
  const db = openDb(dbPath);
  const file = join(dir, `${name}-items.jsonl`);
  writeFileSync(file, items.map((i) => JSON.stringify(i)).join('\n') + '\n');
  await importFile(db, { path: file, project: 'p', format: 'arbiter', createProject: true });
  return { db, service: new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: name }) };
}

async function itemId(m: Machine, externalId: string): Promise<number> {
  const page = await m.service.dispatch('listItems', { project: 'p', annotator: 'x', limit: 100 });
  return page.rows.find((r) => r.externalId === externalId)!.id;
}

async function choose(m: Machine, annotator: string, externalId: string, choice: 'A' | 'B' | 'tie', rationale?: string) {
  const id = await itemId(m, externalId);
  await m.service.dispatch('saveLabel', { project: 'p', annotator, itemId: id, choice, shownOrder: [0, 1], rationale });
}

async function rank(m: Machine, annotator: string, externalId: string, ranking: number[][]) {
  await m.service.dispatch('saveRanking', { project: 'p', annotator, itemId: await itemId(m, externalId), ranking, shownOrder: [0, 1, 2] });
}

async function myLabels(m: Machine, dir: string, annotator: string): Promise<string> {
  const out = join(dir, `${annotator}-${Math.random().toString(36).slice(2)}.jsonl`);
  await exportProject(m.db, { project: 'p', format: 'labels', out, annotator });
  return out;
}

/** What a lead compares between machines: every revision, and each current label, keyed by content. */
function snapshot(db: Db) {
  const revisions = db
    .prepare(
      `SELECT l.id, i.uid AS item, a.uuid AS annotator, l.task, l.choice, l.ranking, l.body FROM label l
       JOIN item i ON i.id = l.item_id JOIN annotator a ON a.id = l.annotator_id WHERE a.kind = 'human' ORDER BY l.id`,
    )
    .all();
  const current = db
    .prepare(
      `SELECT i.uid AS item, a.uuid AS annotator, a.name, h.task, l.id FROM label_head h JOIN label l ON l.seq = h.label_seq
       JOIN item i ON i.id = h.item_id JOIN annotator a ON a.id = h.annotator_id WHERE a.kind = 'human' ORDER BY i.uid, a.uuid, h.task`,
    )
    .all();
  return { revisions, current };
}

describe('label exchange between machines', () => {
  it('merges idempotently and in any order, matching items by content, and reports what it cannot match', async () => {
    const dir = tempDir();
    // Alice's machine has the first five items; Bob's has all six, imported in reverse order.
    const alice = await machine(dir, 'alice', ITEMS.slice(0, 5));
    const bob = await machine(dir, 'bob', [...ITEMS].reverse());
    await choose(alice, 'alice', 'q-0', 'A', 'clearer');
    await choose(alice, 'alice', 'q-1', 'B');
    await choose(alice, 'alice', 'q-1', 'A', 'changed my mind');
    await rank(alice, 'alice', 'q-2', [[2], [0], [1]]);
    await choose(bob, 'bob', 'q-0', 'B');
    await choose(bob, 'bob', 'q-1', 'A');
    await rank(bob, 'bob', 'q-2', [[2], [0, 1]]);
    await choose(bob, 'bob', 'q-5', 'tie'); // an item Alice's machine never imported
    const aliceFile = await myLabels(alice, dir, 'alice');
    const bobFile = await myLabels(bob, dir, 'bob');

    // Alice merges Bob's file: the unknown item is reported by line, and everything else merges.
    const merged = await importLabelsFile(alice.db, { path: bobFile, project: 'p' });
    expect(merged).toMatchObject({ added: 3, duplicates: 0, unmatched: 1 });
    const q5Line = readFileSync(bobFile, 'utf8').split('\n').findIndex((l) => l.includes('"q-5"')) + 1;
    expect(merged.unmatchedItems).toEqual([{ line: q5Line, item: 'q-5' }]);
    // A+A = A: the same file again adds nothing.
    const before = snapshot(alice.db);
    expect(await importLabelsFile(alice.db, { path: bobFile, project: 'p' })).toMatchObject({ added: 0, duplicates: 3, unmatched: 1 });
    expect(snapshot(alice.db)).toEqual(before);

    // A+B = B+A: two fresh machines with the same items merge the files in opposite orders.
    const one = await machine(dir, 'one', ITEMS);
    const two = await machine(dir, 'two', [...ITEMS.slice(3), ...ITEMS.slice(0, 3)]);
    await importLabelsFile(one.db, { path: aliceFile, project: 'p' });
    await importLabelsFile(one.db, { path: bobFile, project: 'p' });
    await importLabelsFile(two.db, { path: bobFile, project: 'p' });
    await importLabelsFile(two.db, { path: aliceFile, project: 'p' });
    const a = snapshot(one.db);
    expect(a).toEqual(snapshot(two.db));
    expect(a.revisions).toHaveLength(8);
    // Nothing is overwritten: Alice's superseded choice is still there, and her later one is current.
    const q1Alice = (await one.service.dispatch('labelHistory', { project: 'p', itemId: await itemId(one, 'q-1') })).filter((r) => r.annotator === 'alice');
    expect(q1Alice.map((r) => r.choice)).toEqual(['B', 'A']);
    const q1 = await one.service.dispatch('getItem', { project: 'p', annotator: 'alice', itemId: await itemId(one, 'q-1') });
    expect(q1?.label?.choice).toBe('A');
    // Annotators keep their uuids across machines.
    const uuids = (db: Db) => db.prepare("SELECT name, uuid FROM annotator WHERE kind = 'human' ORDER BY name").all();
    expect(uuids(one.db)).toEqual(uuids(two.db));
    expect(uuids(one.db)).toEqual([...uuids(alice.db)].sort((x, y) => String((x as { name: string }).name).localeCompare((y as { name: string }).name)));
  });

  it('the same annotator labeling one item on two machines ends with the later label current, whatever the merge order', async () => {
    const dir = tempDir();
    const laptop = await machine(dir, 'laptop', ITEMS);
    const desktop = await machine(dir, 'desktop', ITEMS);
    // Carol's desktop learns who she is from a file of her laptop's labels.
    await choose(laptop, 'carol', 'q-1', 'A');
    await importLabelsFile(desktop.db, { path: await myLabels(laptop, dir, 'carol'), project: 'p' });
    // Then she labels q-0 on both machines, the desktop later, and each exports her labels.
    await choose(laptop, 'carol', 'q-0', 'A');
    const carolFile = await myLabels(laptop, dir, 'carol');
    await new Promise((r) => setTimeout(r, 5));
    await choose(desktop, 'carol', 'q-0', 'B');
    const laterFile = await myLabels(desktop, dir, 'carol');
    const current = async (m: Machine) => (await m.service.dispatch('getItem', { project: 'p', annotator: 'carol', itemId: await itemId(m, 'q-0') }))?.label?.choice;

    const x = await machine(dir, 'x', ITEMS);
    await importLabelsFile(x.db, { path: laterFile, project: 'p' });
    await importLabelsFile(x.db, { path: carolFile, project: 'p' });
    const y = await machine(dir, 'y', ITEMS);
    await importLabelsFile(y.db, { path: carolFile, project: 'p' });
    await importLabelsFile(y.db, { path: laterFile, project: 'p' });
    expect(await current(x)).toBe('B');
    expect(await current(y)).toBe('B');
    expect(snapshot(x.db)).toEqual(snapshot(y.db));
  });
});

/** Runs `arbiter ARGS` from the sources (tsx) as a real child process, so it can be killed mid-way. */
function startCli(args: string[]) {
  const cli = pathToFileURL(join(__dirname, '../../electron/cli/main.ts')).href;
  const script = `const { runCli } = await import(${JSON.stringify(cli)}); process.exitCode = await runCli(process.argv.slice(1));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, ...args], {
    env: { ...process.env, ARBITER_NO_DEMO: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, output: () => output };
}

describe('a labels merge killed half-way (kill -9 of the CLI)', () => {
  it('shows nothing of the file while it runs or after; the next open removes what it wrote, and a re-run merges it all', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 'team.db');
    const items = 20_000;
    const annotators = 3;
    const itemsFile = join(dir, 'items.jsonl');
    writeFileSync(itemsFile, Array.from({ length: items }, (_, i) => JSON.stringify({ id: `q${i}`, prompt: `Question ${i}?`, responses: [{ text: `One ${i}.` }, { text: `Two ${i}.` }] })).join('\n') + '\n');
    const labelsFile = join(dir, 'team-labels.jsonl');
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const lines: string[] = [];
    for (let n = 0; n < items * annotators; n++) {
      const who = n % annotators;
      lines.push(
        JSON.stringify({
          id: uuid(n + 1),
          item: `q${Math.floor(n / annotators)}`,
          annotator: `mate-${who}`,
          annotator_uuid: uuid(1_000_000 + who),
          task: 'pairwise',
          choice: n % 2 ? 'A' : 'B',
          strength: 2,
          shown_order: [0, 1],
          created_at: new Date(Date.parse('2026-11-01T00:00:00Z') + n * 1000).toISOString(),
        }),
      );
    }
    writeFileSync(labelsFile, lines.join('\n') + '\n');
    const db = openDb(dbPath);
    await importFile(db, { path: itemsFile, project: 'team', format: 'arbiter', createProject: true });
    db.close();

    const merge = startCli(['labels', 'import', labelsFile, '--project', 'team', '--db', dbPath]);
    const reader = new Database(dbPath, { readonly: true });
    const count = (sql: string) => reader.prepare(sql).pluck().get() as number;
    // What the app shows: current labels, progress counters, revisions in history and exports.
    const shown = () => ({
      heads: count('SELECT COUNT(*) FROM label_head'),
      progress: count('SELECT COALESCE(SUM(done), 0) FROM progress'),
      labeled: count('SELECT COALESCE(SUM(labeled), 0) FROM task_progress'),
    });
    // Let it write a good part of the file, then kill it without warning.
    for (let n = 0; n < 15_000; n = count('SELECT COUNT(*) FROM label')) {
      if (merge.child.exitCode !== null) throw new Error(`the merge ended before it could be killed:\n${merge.output()}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(shown()).toEqual({ heads: 0, progress: 0, labeled: 0 });
    merge.child.kill('SIGKILL');
    expect((await merge.exited).signal).toBe('SIGKILL');
    expect(shown()).toEqual({ heads: 0, progress: 0, labeled: 0 });
    reader.close();

    // The next open removes what the killed merge wrote; nothing of the file is seen anywhere.
    const reopened = openDb(dbPath);
    const service = new ArbiterService(reopened, { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'lead' });
    expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(reopened.pragma('foreign_key_check')).toEqual([]);
    expect(reopened.prepare('SELECT COUNT(*) FROM label').pluck().get()).toBe(0);
    expect(reopened.prepare("SELECT COUNT(*) FROM label_import WHERE state <> 'complete'").pluck().get()).toBe(0);
    const first = (await service.dispatch('listItems', { project: 'team', annotator: 'mate-0', limit: 1 })).rows[0]!;
    expect(await service.dispatch('labelHistory', { project: 'team', itemId: first.id })).toEqual([]);

    // Merged again, the whole file goes in.
    const again = await importLabelsFile(reopened, { path: labelsFile, project: 'team' });
    expect(again).toMatchObject({ added: items * annotators, duplicates: 0, reusedIds: 0 });
    expect(reopened.prepare('SELECT COUNT(*) FROM label_head').pluck().get()).toBe(items * annotators);
    expect(reopened.prepare('SELECT annotator_id, done FROM progress ORDER BY annotator_id').all().map((r) => (r as { done: number }).done)).toEqual([items, items, items]);
    expect(reopened.prepare("SELECT labeled FROM task_progress WHERE task = 'pairwise'").pluck().get()).toBe(items);
    expect((await service.dispatch('progress', { project: 'team', annotator: 'mate-1' })).labeledByMe).toBe(items);
    expect(await service.dispatch('labelHistory', { project: 'team', itemId: first.id })).toHaveLength(annotators);
    reopened.close();
  }, 180_000);
});

describe('a labels merge cut short while applying', () => {
  it('counts as done: the next open finishes its current labels and counters', async () => {
    const dir = tempDir();
    const dbPath = join(dir, 'apply.db');
    const items = 6000; // more staged heads than one apply batch (5000)
    const itemsFile = join(dir, 'items.jsonl');
    writeFileSync(itemsFile, Array.from({ length: items }, (_, i) => JSON.stringify({ id: `q${i}`, prompt: `Q ${i}?`, responses: [{ text: `a${i}` }, { text: `b${i}` }] })).join('\n') + '\n');
    const db = openDb(dbPath);
    await importFile(db, { path: itemsFile, project: 'p', format: 'arbiter', createProject: true });
    const projectId = db.prepare("SELECT id FROM project WHERE name = 'p'").pluck().get() as number;
    const annotatorId = ensureAnnotator(db, 'mate', 'human').id;
    const itemIds = db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY seq').pluck().all(projectId) as number[];
    const pending = writeNow(db, () => beginLabelImport(db, projectId, 'mate.jsonl'));
    writeNow(db, () => {
      const write = mergedRevisionWriter(db, pending.id);
      const stager = labelImportStager(db, pending);
      itemIds.forEach((itemId, i) => {
        const saved = write({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, projectId, itemId, task: 'pairwise', choice: 'A', createdAt: '2026-11-01T00:00:00Z' }, annotatorId);
        expect(saved.inserted).toBe(true);
        stager.stage({ ...saved, itemId, annotatorId, task: 'pairwise', choice: 'A' });
      });
    });
    // The first apply transaction commits (the merge counts as done), then the process "dies".
    await expect(completeLabelImport(db, pending, items, () => Promise.reject(new Error('killed')))).rejects.toThrow('killed');
    expect(db.prepare('SELECT COUNT(*) FROM label_head').pluck().get()).toBe(5000);
    db.prepare("UPDATE label_import SET owner = 'elsewhere:1' WHERE id = ?").run(pending.id);
    db.close();

    const reopened = openDb(dbPath);
    expect(reopened.prepare('SELECT COUNT(*) FROM label_head').pluck().get()).toBe(items);
    expect(reopened.prepare('SELECT done FROM progress WHERE annotator_id = ?').pluck().get(annotatorId)).toBe(items);
    expect(reopened.prepare("SELECT labeled FROM task_progress WHERE task = 'pairwise'").pluck().get()).toBe(items);
    expect(reopened.prepare('SELECT state FROM label_import WHERE id = ?').pluck().get(pending.id)).toBe('complete');
    expect(reopened.prepare('SELECT COUNT(*) FROM label_import_head').pluck().get()).toBe(0);
    reopened.close();
  });
});

describe('two merges at once', () => {
  it('one completing leaves what the other staged, and each ends with its own current labels', async () => {
    const dir = tempDir();
    const db = openDb(join(dir, 'two.db'));
    const itemsFile = join(dir, 'items.jsonl');
    writeFileSync(itemsFile, Array.from({ length: 10 }, (_, i) => JSON.stringify({ id: `q${i}`, prompt: `Q ${i}?`, responses: [{ text: `a${i}` }, { text: `b${i}` }] })).join('\n') + '\n');
    await importFile(db, { path: itemsFile, project: 'p', format: 'arbiter', createProject: true });
    const projectId = db.prepare("SELECT id FROM project WHERE name = 'p'").pluck().get() as number;
    const mate = ensureAnnotator(db, 'mate', 'human').id;
    const itemIds = db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY seq').pluck().all(projectId) as number[];
    // The first merge has written and staged its revisions and is still pending (another process, say).
    const first = writeNow(db, () => beginLabelImport(db, projectId, 'mate.jsonl'));
    writeNow(db, () => {
      const write = mergedRevisionWriter(db, first.id);
      const stager = labelImportStager(db, first);
      itemIds.forEach((itemId, i) => {
        const saved = write({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, projectId, itemId, task: 'pairwise', choice: 'A', createdAt: '2026-11-01T00:00:00Z' }, mate);
        stager.stage({ ...saved, itemId, annotatorId: mate, task: 'pairwise', choice: 'A' });
      });
    });
    // A second merge runs whole meanwhile.
    const lines = itemIds.map((_, i) => JSON.stringify({ id: `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`, item: `q${i}`, annotator: 'other', task: 'pairwise', choice: 'B', created_at: '2026-11-01T00:00:00Z' }));
    const second = await importLabelsLines(db, { project: 'p', fileName: 'other.jsonl', lines });
    expect(second.added).toBe(10);
    expect(db.prepare('SELECT COUNT(*) FROM label_import_head WHERE import_id = ?').pluck().get(first.id)).toBe(10);
    await completeLabelImport(db, first, 10);
    expect(db.prepare('SELECT COUNT(*) FROM label_head').pluck().get()).toBe(20);
    expect(db.prepare("SELECT COUNT(*) FROM label_head WHERE choice = 'A' AND annotator_id = ?").pluck().get(mate)).toBe(10);
    // The last to complete, alone, leaves nothing staged.
    expect(db.prepare('SELECT COUNT(*) FROM label_import_head').pluck().get()).toBe(0);
    db.close();
  });
});

describe('a labels merge and the disk', () => {
  it('from a file, commits its pending batches without waiting for the disk, and the commit that completes it with FULL', async () => {
    const dir = tempDir();
    const db = openDb(join(dir, 'sync.db'));
    const itemsFile = join(dir, 'items.jsonl');
    writeFileSync(itemsFile, Array.from({ length: 1500 }, (_, i) => JSON.stringify({ id: `q${i}`, prompt: `Q ${i}?`, responses: [{ text: `a${i}` }, { text: `b${i}` }] })).join('\n') + '\n');
    await importFile(db, { path: itemsFile, project: 'p', format: 'arbiter', createProject: true });
    // The connection's synchronous setting at each COMMIT (2: FULL, 1: NORMAL), and whether the merge counted as done by then.
    const commits: { synchronous: number; applying: boolean }[] = [];
    const exec = db.exec.bind(db);
    db.exec = ((sql: string) => {
      if (sql === 'COMMIT') commits.push({ synchronous: db.pragma('synchronous', { simple: true }) as number, applying: db.prepare("SELECT COUNT(*) FROM label_import WHERE state <> 'pending'").pluck().get() !== 0 });
      return exec(sql);
    }) as typeof db.exec;
    const lines = Array.from({ length: 1500 }, (_, i) => JSON.stringify({ id: `00000000-0000-4000-a000-${String(i).padStart(12, '0')}`, item: `q${i}`, annotator: 'mate', task: 'pairwise', choice: 'A', created_at: '2026-11-01T00:00:00Z' }));
    const merged = await importLabelsLines(db, { project: 'p', fileName: 'mate.jsonl', lines, relaxedBatches: true });
    // Where saves share the connection (a sync in the app), every batch waits for the disk, as before.
    const shared = await importLabelsLines(db, { project: 'p', fileName: 'other.jsonl', lines: lines.map((l) => l.replace('"mate"', '"other"').replace('-a000-', '-b000-')) });
    db.exec = exec;
    expect(shared.added).toBe(1500);
    expect(commits.slice(-4).map((c) => c.synchronous)).toEqual([2, 2, 2, 2]);
    commits.splice(-4);
    expect(merged.added).toBe(1500);
    const batches = commits.filter((c) => !c.applying);
    const completing = commits.find((c) => c.applying);
    // The record's own commit (FULL), then two batches of revisions (1000 + 500) without a sync each.
    expect(batches.map((c) => c.synchronous)).toEqual([2, 1, 1]);
    expect(completing?.synchronous).toBe(2);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });
});
