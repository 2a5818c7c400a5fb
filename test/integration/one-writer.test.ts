// One writer, short transactions (docs/data.md): while another process imports 100k pairs into the database
// the app has open, label saves go in between the import's batches (none waits for the whole import) and
// are all kept, and the import completes whole; an import killed half-way leaves nothing visible, and the
// next open removes what it wrote. How quickly a save is acknowledged meanwhile (every save ≤ 300 ms) is a
// figure of bench/save-during-import.mjs (`npm run bench:saves`, 400k pairs), not of this test: it counts,
// never times, so 100k pairs (~390 of the import's write batches) show the interleaving as well as 400k.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLines } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { buildNodeSide, ROOT } from '../helpers/host';
import { tempDir } from '../helpers/tmp';

const BIG = 100_000;
let bigFile = '';

async function writePairs(path: string, n: number): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < n; i++) {
    const line = `${JSON.stringify({ prompt: `Question ${i}: what follows ${i}?`, chosen: ` ${i + 1}, since counting goes up by one.`, rejected: ` ${i - 1}.` })}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function startImport(dbPath: string, file: string) {
  const child = spawn(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), 'import', file, '--project', 'big', '--db', dbPath], {
    env: { ...process.env, ARBITER_NO_DEMO: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, output: () => output };
}

async function labelingApp(dbPath: string, items: number) {
  const db = openDb(dbPath);
  const lines = Array.from({ length: items }, (_, i) => JSON.stringify({ id: `s${i}`, prompt: `small ${i}`, responses: [{ text: 'a' }, { text: 'b' }] }));
  await importLines(db, { project: 'labeling', fileName: 'small.jsonl', lines, sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
  const ids = db.prepare("SELECT i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'labeling' ORDER BY i.seq").pluck().all() as number[];
  return { db, service, ids };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  buildNodeSide();
  // Shared by both tests (tempDir's folders go after each test).
  bigFile = join(mkdtempSync(join(tmpdir(), 'arbiter-big-')), 'big.jsonl');
  await writePairs(bigFile, BIG);
}, 120_000);

afterAll(() => rmSync(join(bigFile, '..'), { recursive: true, force: true }));

describe('saves while another process imports 100k pairs', () => {
  it('takes saves between the import’s batches, none waiting for the whole import, keeps them all, and the import completes whole', async () => {
    const dbPath = join(tempDir(), 'shared.db');
    const { db, service, ids } = await labelingApp(dbPath, 400);
    const importer = startImport(dbPath, bigFile);
    // Wait until the import is writing (its pending record is there), so every save below meets it.
    const reader = new Database(dbPath, { readonly: true });
    while (!reader.prepare("SELECT 1 FROM import_file WHERE state = 'pending'").get()) await sleep(5);
    // How far the import's committed items have come (its rows, not yet visible under a project name: the
    // newest item id), and whether it is still under way: read as each save is acknowledged.
    const committed = reader.prepare('SELECT MAX(id) FROM item').pluck();
    const pending = reader.prepare("SELECT 1 FROM import_file WHERE state = 'pending'");
    const atAck: { committed: number; pending: boolean }[] = [];
    let running = true;
    void importer.exited.then(() => (running = false));
    for (let i = 0; running && i < ids.length; i++) {
      await service.dispatch('saveLabel', { project: 'labeling', annotator: 'alice', itemId: ids[i]!, choice: i % 2 ? 'A' : 'B', shownOrder: [0, 1] });
      atAck.push({ committed: committed.get() as number, pending: pending.get() !== undefined });
      await sleep(10);
    }
    const { code } = await importer.exited;
    expect(code, importer.output()).toBe(0);
    const during = atAck.filter((a) => a.pending);
    const stages = new Set(during.map((a) => a.committed));
    console.log(`saves during the import: ${atAck.length}, ${during.length} acknowledged while it ran, at ${stages.size} different points of the import`);
    // Interleaved: many saves were acknowledged while the import was still writing, each at another point
    // of it (a save that waited for the import, or an import in one or a few big transactions, gives one
    // or a few points), and the import moved on between them.
    expect(during.length).toBeGreaterThan(20);
    expect(stages.size).toBeGreaterThan(20);
    expect(atAck.slice(0, during.length)).toEqual(during);
    expect((await service.dispatch('progress', { project: 'labeling', annotator: 'alice' })).labeledByMe).toBe(atAck.length);
    expect(reader.prepare("SELECT item_count FROM project WHERE name = 'big'").pluck().get()).toBe(BIG);
    expect(reader.prepare("SELECT COUNT(*) FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'big'").pluck().get()).toBe(BIG);
    expect(JSON.parse(importer.output().trim().split('\n').pop()!)).toMatchObject({ items: BIG, labels: BIG });
    reader.close();
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  }, 180_000);
});

describe('an import killed half-way', () => {
  it('shows nothing of it while it runs or after, and the next open removes its rows', async () => {
    const dbPath = join(tempDir(), 'killed.db');
    const { db } = await labelingApp(dbPath, 10);
    db.close();
    const importer = startImport(dbPath, bigFile);
    const reader = new Database(dbPath, { readonly: true });
    // Let it commit a good part of its batches, then kill it without warning.
    for (let n = 0; n < 50_010; n = reader.prepare('SELECT COUNT(*) FROM item').pluck().get() as number) {
      if (importer.child.exitCode !== null) throw new Error(`the import ended before it could be killed:\n${importer.output()}`);
      await sleep(20);
    }
    // Written but not visible: a project made for the import is not listed by its name while the import
    // is pending (it takes its name when the import becomes visible), and no visible project counts items.
    expect(reader.prepare("SELECT item_count FROM project WHERE name = 'big'").pluck().get()).toBeUndefined();
    expect(reader.prepare("SELECT SUM(item_count) FROM project WHERE name = 'labeling'").pluck().get()).toBe(10);
    importer.child.kill('SIGKILL');
    const { signal } = await importer.exited;
    expect(signal).toBe('SIGKILL');
    reader.close();

    const reopened = openDb(dbPath);
    try {
      expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(reopened.pragma('foreign_key_check')).toEqual([]);
      expect(reopened.prepare("SELECT COUNT(*) FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'big'").pluck().get()).toBe(0);
      expect(reopened.prepare("SELECT COUNT(*) FROM response r JOIN item i ON i.id = r.item_id JOIN project p ON p.id = i.project_id WHERE p.name = 'big'").pluck().get()).toBe(0);
      expect(reopened.prepare("SELECT COUNT(*) FROM label").pluck().get()).toBe(0);
      expect(reopened.prepare("SELECT COUNT(*) FROM import_file WHERE state = 'pending'").pluck().get()).toBe(0);
      // The other project is untouched.
      expect(reopened.prepare("SELECT item_count FROM project WHERE name = 'labeling'").pluck().get()).toBe(10);
    } finally {
      reopened.close();
    }
  }, 180_000);
});
