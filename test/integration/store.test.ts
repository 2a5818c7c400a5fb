// The store as the app opens it: upgrades from the last release with everything kept and a backup made,
// databases from a newer Arbiter refused, idempotent saves, insertion order over wall clocks, counters,
// and the settings that make a shown-as-saved label durable.
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openApp } from '../../electron/core/service/openApp';
import { ArbiterService } from '../../electron/core/service/index';
import { listMigrations, openDb } from '../../electron/core/store/db';
import { uuidv7 } from '../../shared/ids';
import { tempDir } from '../helpers/tmp';

/** The newest schema version this Arbiter knows (the last numbered migration). */
const newest = () => Math.max(...listMigrations().map((m) => m.version));

const FIXTURE = join(__dirname, '..', 'fixtures', 'db', 'release-0.1.0-v2.sqlite');

function fixtureCopy(): string {
  const path = join(tempDir(), 'arbiter.db');
  copyFileSync(FIXTURE, path);
  return path;
}

const count = (db: Database.Database, sql: string) => db.prepare(sql).pluck().get() as number;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('upgrading a database written by release 0.1.0 (schema 2)', () => {
  it('keeps every item, response, segmentation, label revision and score, and backs the old file up first', async () => {
    const path = fixtureCopy();
    const before = new Database(path, { readonly: true });
    const old = {
      items: before.prepare('SELECT id, uid, external_id, seq, prompt, reference, metadata, responses FROM item ORDER BY id').all() as {
        id: number;
        responses: string;
      }[],
      labels: before.prepare('SELECT seq, id, item_id, annotator_id, created_at, choice, ranking, strength, shown_order, body FROM label ORDER BY seq').all(),
      scores: before.prepare('SELECT * FROM score ORDER BY model_id, content_hash').all(),
      annotators: before.prepare('SELECT id, uuid, name, kind FROM annotator ORDER BY id').all(),
      version: before.pragma('user_version', { simple: true }),
    };
    before.close();
    expect(old.version).toBe(2);
    expect(old.items.length).toBeGreaterThan(0);

    const db = openDb(path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(newest());
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      // The copy made before the migration opens as the old schema, with the old rows.
      const backups = readdirSync(join(path, '..')).filter((f) => /^arbiter\.db\.v2-\d{8}-\d{6}\.bak$/.test(f));
      expect(backups).toHaveLength(1);
      const backup = new Database(join(path, '..', backups[0]!), { readonly: true });
      expect(backup.pragma('user_version', { simple: true })).toBe(2);
      expect(count(backup, 'SELECT COUNT(*) FROM label')).toBe(old.labels.length);
      backup.close();

      const items = db.prepare('SELECT id, uid, external_id, seq, prompt, reference, metadata, response_count FROM item ORDER BY id').all() as { id: number; response_count: number }[];
      expect(items.map(({ response_count: _n, ...rest }) => rest)).toEqual(old.items.map(({ responses: _r, ...rest }) => rest));
      for (const item of old.items) {
        const responses = JSON.parse(item.responses) as { content: unknown; model: string | null; steps: string[] | null }[];
        const rows = db.prepare('SELECT idx, content, model FROM response WHERE item_id = ? ORDER BY idx').all(item.id) as { idx: number; content: string; model: string | null }[];
        expect(rows.map((r) => ({ content: JSON.parse(r.content) as unknown, model: r.model }))).toEqual(responses.map((r) => ({ content: r.content, model: r.model })));
        for (const [idx, r] of responses.entries()) {
          const steps = db.prepare('SELECT steps FROM segmentation WHERE item_id = ? AND response_idx = ? AND version = 1').pluck().get(item.id, idx) as string | undefined;
          expect(steps === undefined ? null : JSON.parse(steps)).toEqual(r.steps);
        }
      }
      expect(count(db, 'SELECT COUNT(*) FROM segmentation')).toBeGreaterThan(0);
      expect(db.prepare('SELECT seq, id, item_id, annotator_id, created_at, choice, ranking, strength, shown_order, body FROM label ORDER BY seq').all()).toEqual(old.labels);
      expect(count(db, "SELECT COUNT(*) FROM label WHERE task <> 'pairwise'")).toBe(0);
      expect(db.prepare('SELECT * FROM score ORDER BY model_id, content_hash').all()).toEqual(old.scores);
      expect(db.prepare('SELECT id, uuid, name, kind FROM annotator ORDER BY id').all()).toEqual(old.annotators);
    } finally {
      db.close();
    }

    // The app reads the upgraded data as it did before: labels, undo state, progress counters, pre-labels.
    const service = await openApp(path, 'http');
    try {
      const alice = await service.dispatch('progress', { project: 'fixture', annotator: 'alice' });
      const bob = await service.dispatch('progress', { project: 'fixture', annotator: 'bob' });
      // alice: item 1 (A), item 2 (tie after the undo), item 3 (both_bad); bob: item 1; 3 items have a human label.
      expect(alice).toEqual({ total: 5, labeledByMe: 3, labeled: 3 });
      expect(bob.labeledByMe).toBe(1);
      const first = await service.dispatch('getItem', { project: 'fixture', annotator: 'alice', seq: 0 });
      expect(first!.label).toMatchObject({ choice: 'A', strength: 3, body: { rationale: 'B compares digits wrongly' } });
      expect(first!.responses[1]!.steps).toEqual(['Compare 11 and 8.', '11 > 8, so 9.11 is larger.']);
      const second = await service.dispatch('getItem', { project: 'fixture', annotator: 'alice', seq: 1 });
      expect(second!.label).toMatchObject({ choice: 'tie' });
      expect(second!.prompt).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Capital of France?' },
      ]);
      const prelabels = await service.dispatch('prelabels', { project: 'fixture', itemId: first!.id });
      expect(prelabels.models.length).toBe(2);
      const stats = await service.dispatch('stats', { project: 'fixture' });
      expect(stats).toMatchObject({ items: 5, responses: 10, labeled: 3, source: { labeled: 2 } });
    } finally {
      service.db.close();
    }
  });

  it('refuses a database written by a newer Arbiter, and changes nothing', () => {
    const path = fixtureCopy();
    const raw = new Database(path);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => openDb(path)).toThrow(new RegExp(`written by a newer Arbiter \\(schema 99; this version knows up to ${newest()}\\)`));
    const after = new Database(path, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(99);
    expect(count(after, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'response'")).toBe(0);
    after.close();
    expect(readdirSync(join(path, '..')).filter((f) => f.endsWith('.bak'))).toEqual([]);
  });

  it('opens the way a saved label survives a crash: WAL, synchronous=FULL, foreign keys on', async () => {
    vi.stubEnv('ARBITER_NO_DEMO', '1');
    const service = await openApp(join(tempDir(), 'new.db'), 'http');
    try {
      expect(service.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(service.db.pragma('synchronous', { simple: true })).toBe(2);
      expect(service.db.pragma('foreign_keys', { simple: true })).toBe(1);
      // A new database has nothing to back up.
      expect(readdirSync(join(service.options.dbPath, '..')).filter((f) => f.endsWith('.bak'))).toEqual([]);
    } finally {
      service.db.close();
    }
  });
});

async function pairsService(n = 3) {
  const path = join(tempDir(), 'a.db');
  const db = openDb(path);
  const service = new ArbiterService(db, { dbPath: path, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ prompt: `q${i}`, chosen: `yes ${i}`, rejected: `no ${i}` }));
  const { importLines } = await import('../../electron/core/formats/index');
  await importLines(db, { project: 'p', fileName: 'p.jsonl', lines, sha256: 'x', format: 'trl', skipInvalid: false, createProject: true });
  const ids = db.prepare('SELECT id FROM item ORDER BY seq').pluck().all() as number[];
  return { service, db, ids };
}

describe('saving labels', () => {
  it('a retried save (the same client revision id) stores one revision', async () => {
    const { service, db, ids } = await pairsService();
    const id = uuidv7();
    const input = { project: 'p', annotator: 'alice', itemId: ids[0]!, id, choice: 'A', strength: 2, shownOrder: [0, 1] } as const;
    const first = await service.dispatch('saveLabel', input);
    const second = await service.dispatch('saveLabel', input);
    expect(second).toEqual(first);
    expect(first.id).toBe(id);
    expect(count(db, "SELECT COUNT(*) FROM label l JOIN annotator a ON a.id = l.annotator_id WHERE a.name = 'alice'")).toBe(1);
    expect((await service.dispatch('progress', { project: 'p', annotator: 'alice' })).labeledByMe).toBe(1);
    // The same id for another item is not a retry: refused, nothing stored.
    await expect(service.dispatch('saveLabel', { ...input, itemId: ids[1]! })).rejects.toThrow(/already used by another label/);
    expect(count(db, 'SELECT COUNT(*) FROM label l JOIN annotator a ON a.id = l.annotator_id WHERE a.name = \'alice\'')).toBe(1);
    db.close();
  });

  it('a clock stepping back hides nothing: the latest save is the current label', async () => {
    const { service, db, ids } = await pairsService();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
    await service.dispatch('saveLabel', { project: 'p', annotator: 'alice', itemId: ids[0]!, choice: 'A', shownOrder: [0, 1] });
    vi.setSystemTime(new Date('2026-11-22T08:00:00Z')); // the clock jumps back a day
    const later = await service.dispatch('saveLabel', { project: 'p', annotator: 'alice', itemId: ids[0]!, choice: 'B', shownOrder: [0, 1] });
    expect(later.createdAt < '2026-11-23').toBe(true);
    const view = await service.dispatch('getItem', { project: 'p', annotator: 'alice', itemId: ids[0]! });
    expect(view!.label!.choice).toBe('B');
    // Undo returns to the earlier revision, whatever the timestamps say.
    await service.dispatch('undoLabel', { project: 'p', annotator: 'alice', itemId: ids[0]! });
    expect((await service.dispatch('getItem', { project: 'p', annotator: 'alice', itemId: ids[0]! }))!.label!.choice).toBe('A');
    db.close();
  });

  it('keeps the progress counters equal to a recount through labels, undos and other annotators', async () => {
    const { service, db, ids } = await pairsService(4);
    const save = (annotator: string, itemId: number, choice: 'A' | 'B' | 'tie') => service.dispatch('saveLabel', { project: 'p', annotator, itemId, choice, shownOrder: [0, 1] });
    await save('alice', ids[0]!, 'A');
    await save('alice', ids[0]!, 'B');
    await save('bob', ids[0]!, 'tie');
    await save('alice', ids[1]!, 'A');
    await service.dispatch('undoLabel', { project: 'p', annotator: 'alice', itemId: ids[1]! });
    await save('bob', ids[2]!, 'A');
    await service.dispatch('undoLabel', { project: 'p', annotator: 'bob', itemId: ids[0]! });
    const recount = (annotator: string) =>
      count(db, `SELECT COUNT(*) FROM label_head h JOIN annotator a ON a.id = h.annotator_id WHERE a.name = '${annotator}' AND h.done = 1`);
    const labeledRecount = count(db, "SELECT COUNT(DISTINCT h.item_id) FROM label_head h JOIN annotator a ON a.id = h.annotator_id WHERE a.kind = 'human' AND h.done = 1");
    const alice = await service.dispatch('progress', { project: 'p', annotator: 'alice' });
    const bob = await service.dispatch('progress', { project: 'p', annotator: 'bob' });
    expect(alice).toEqual({ total: 4, labeledByMe: recount('alice'), labeled: labeledRecount });
    expect(bob.labeledByMe).toBe(recount('bob'));
    expect([alice.labeledByMe, bob.labeledByMe, labeledRecount]).toEqual([1, 1, 2]);
    db.close();
  });

  it('labels are append-only and rubric versions immutable, in the schema itself', async () => {
    const { service, db, ids } = await pairsService(1);
    await service.dispatch('saveLabel', { project: 'p', annotator: 'alice', itemId: ids[0]!, choice: 'A', shownOrder: [0, 1] });
    expect(() => db.prepare("UPDATE label SET choice = 'B'").run()).toThrow(/append-only/);
    db.prepare("INSERT INTO rubric (project_id, name, created_at) VALUES (1, 'r', 'now')").run();
    db.prepare("INSERT INTO rubric_version (rubric_id, version, criteria, hash, created_at) VALUES (1, 1, '[]', 'h', 'now')").run();
    expect(() => db.prepare("UPDATE rubric_version SET criteria = '[{}]'").run()).toThrow(/never changes/);
    db.close();
  });
});

describe('every operation checks that what it names belongs to its project', () => {
  it("refuses another project's item in each operation that takes one, and changes nothing", async () => {
    const { service, db, ids } = await pairsService(2);
    const { importLines } = await import('../../electron/core/formats/index');
    await importLines(db, { project: 'other', fileName: 'o.jsonl', lines: [JSON.stringify({ prompt: 'o', chosen: 'x', rejected: 'y' })], sha256: 'o', format: 'trl', skipInvalid: false, createProject: true });
    const foreign = db.prepare("SELECT i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'other'").pluck().get() as number;
    await service.dispatch('saveLabel', { project: 'other', annotator: 'alice', itemId: foreign, choice: 'A', shownOrder: [0, 1] });
    const labelsBefore = count(db, 'SELECT COUNT(*) FROM label');
    const asP = { project: 'p', annotator: 'alice', itemId: foreign };
    const refused: [string, Promise<unknown>][] = [
      ['getItem', service.dispatch('getItem', asP)],
      ['saveLabel', service.dispatch('saveLabel', { ...asP, choice: 'A', shownOrder: [0, 1] })],
      ['saveRationale', service.dispatch('saveRationale', { ...asP, rationale: 'sneaky' })],
      ['undoLabel', service.dispatch('undoLabel', asP)],
      ['labelHistory', service.dispatch('labelHistory', { project: 'p', itemId: foreign })],
      ['prelabels', service.dispatch('prelabels', { project: 'p', itemId: foreign })],
    ];
    for (const [name, result] of refused) await expect(result, name).rejects.toThrow(`Item ${foreign} is not in the project “p”: it belongs to “other”`);
    await expect(service.dispatch('startScoring', { project: 'p', modelIds: [424242] })).rejects.toThrow(/No model with id 424242/);
    expect(count(db, 'SELECT COUNT(*) FROM label')).toBe(labelsBefore);
    // The project's own items still work.
    expect((await service.dispatch('labelHistory', { project: 'p', itemId: ids[0]! })).map((l) => l.annotator)).toEqual(['source']);
    db.close();
  });
});

describe('projects', () => {
  it('rename keeps everything; delete backs up first, then removes the project in batches', async () => {
    const { service, db } = await pairsService(5);
    await service.dispatch('renameProject', { project: 'p', name: 'renamed' });
    expect((await service.dispatch('getProject', { project: 'renamed' })).items).toBe(5);
    await expect(service.dispatch('getProject', { project: 'p' })).rejects.toThrow(/No project named "p"/);
    const deleted = await service.dispatch('deleteProject', { project: 'renamed', confirm: true });
    expect(await service.dispatch('listProjects', {})).toEqual([]);
    const backup = join(service.options.dbPath, '..', 'backups', deleted.backup);
    expect(existsSync(backup)).toBe(true);
    await vi.waitFor(() => expect(count(db, 'SELECT COUNT(*) FROM item')).toBe(0));
    await vi.waitFor(() => expect(count(db, 'SELECT COUNT(*) FROM project')).toBe(0));
    const copy = new Database(backup, { readonly: true });
    expect(count(copy, 'SELECT COUNT(*) FROM item')).toBe(5);
    copy.close();
    db.close();
  });
});

describe('chat content with typed parts, and labels from another machine', () => {
  it('stores and exports message content given as typed parts exactly as it came (an image as its stored part)', async () => {
    const dir = tempDir();
    const db = openDb(join(dir, 'a.db'));
    const { importLines, exportProject } = await import('../../electron/core/formats/index');
    const record = {
      id: 'mm-1',
      prompt: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            // A 1 × 1 PNG: images are stored since issue 15, so it must be one.
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWP4z8AAAAMBAQCc479ZAAAAAElFTkSuQmCC' } },
          ],
        },
      ],
      responses: [
        { text: [{ role: 'assistant', content: [{ type: 'text', text: 'A cat on a mat.' }] }], model: 'm1' },
        { text: 'A dog.', model: 'm2' },
      ],
      reference: null,
      metadata: {},
    };
    await importLines(db, { project: 'mm', fileName: 'mm.jsonl', lines: [JSON.stringify(record)], sha256: 'm', format: 'arbiter', skipInvalid: false, createProject: true });
    const out = join(dir, 'items.jsonl');
    await exportProject(db, { project: 'mm', format: 'arbiter', out });
    const exported = JSON.parse((await import('node:fs')).readFileSync(out, 'utf8').trim()) as typeof record;
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWP4z8AAAAMBAQCc479ZAAAAAElFTkSuQmCC', 'base64');
    const sha256 = (await import('node:crypto')).createHash('sha256').update(png).digest('hex');
    expect(exported.prompt).toEqual([
      {
        role: 'user',
        content: [record.prompt[0]!.content[0], { type: 'image', image: { sha256, mime: 'image/png', width: 1, height: 1, bytes: png.length }, origin: { kind: 'inline' } }],
      },
    ]);
    expect(exported.responses[0]!.text).toEqual(record.responses[0]!.text);
    db.close();
  });

  it("keeps a teammate's annotator apart by uuid, even where a local annotator has the same name", async () => {
    const { importLabelsLines, importLines } = await import('../../electron/core/formats/index');
    const make = async (name: string) => {
      const db = openDb(join(tempDir(), `${name}.db`));
      const lines = [JSON.stringify({ id: 'q1', prompt: 'p', responses: [{ text: 'a' }, { text: 'b' }] })];
      await importLines(db, { project: 'p', fileName: 'x', lines, sha256: 'x', format: 'arbiter', skipInvalid: false, createProject: true });
      return db;
    };
    const mine = await make('mine');
    const theirs = await make('theirs');
    const save = (db: Database.Database, choice: 'A' | 'B') =>
      new ArbiterService(db, { dbPath: db.name, transport: 'http', version: 't', defaultAnnotator: 'alex' }).dispatch('saveLabel', {
        project: 'p',
        annotator: 'alex',
        itemId: db.prepare('SELECT id FROM item').pluck().get() as number,
        choice,
        shownOrder: [0, 1],
      });
    await save(mine, 'A');
    const theirLabel = await save(theirs, 'B');
    const line = JSON.stringify({ id: theirLabel.id, item: 'q1', annotator: 'alex', annotator_uuid: theirLabel.annotatorUuid, annotator_kind: 'human', choice: 'B', created_at: theirLabel.createdAt });
    const merged = await importLabelsLines(mine, { project: 'p', fileName: 'theirs.jsonl', lines: [line] });
    expect(merged).toMatchObject({ added: 1 });
    const people = mine.prepare("SELECT uuid, name FROM annotator WHERE kind = 'human' ORDER BY id").all() as { uuid: string; name: string }[];
    expect(people).toHaveLength(2);
    expect(people[1]).toEqual({ uuid: theirLabel.annotatorUuid, name: `alex@${theirLabel.annotatorUuid.slice(0, 8)}` });
    // Both alexes' choices stand side by side; merging the same file again adds nothing.
    expect(mine.prepare("SELECT choice FROM label_head WHERE task = 'pairwise' ORDER BY annotator_id").pluck().all()).toEqual(['A', 'B']);
    expect(await importLabelsLines(mine, { project: 'p', fileName: 'theirs.jsonl', lines: [line] })).toMatchObject({ added: 0, duplicates: 1 });
    mine.close();
    theirs.close();
  });
});
