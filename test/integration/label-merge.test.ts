// Label exchange between machines that never talk: each labels its own copy of the data, exports "my
// labels", and merges the others' files. Items are matched by content (their uid), so different import
// orders and ids do not matter; merging is idempotent (A+A = A) and order-independent (A+B = B+A); a
// revision for an item this machine lacks is reported, and the rest merges.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportProject, importFile, importLabelsFile } from '../../electron/core/formats';
import { ArbiterService } from '../../electron/core/service';
import { openDb, type Db } from '../../electron/core/store/db';
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
