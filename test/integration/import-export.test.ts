// Import and export on a real SQLite file: every format's round trip, all-or-nothing refusal, skip-invalid
// rejects, idempotent re-import, which label decides an item, the labels round trip, and a streamed export.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Choice } from '../../shared/domain';
import type { ExportFormat, ImportFormat } from '../../shared/formatNames';
import { InvalidFileError } from '../../electron/core/base/errors';
import { exportProject, importFile, importLabelsFile, importLines } from '../../electron/core/formats';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { createProject, requireProject } from '../../electron/core/store/projects';

const FIXTURES = join(__dirname, '..', 'fixtures', 'formats');
const fixture = (name: string) => join(FIXTURES, name);
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-formats-'));
  db = openDb(join(dir, 'arbiter.db'));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (table: string) => (db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number);
const itemIds = (project = 'p') =>
  db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY seq').pluck().all(requireProject(db, project).id) as number[];

function label(annotator: string, itemId: number, choice: Choice | null, strength: 1 | 2 | 3 | null = null, createdAt?: string) {
  const a = ensureAnnotator(db, annotator, 'human');
  return labelAppender(db)({ projectId: requireProject(db, 'p').id, itemId, annotatorId: a.id, choice, strength, createdAt, shownOrder: [1, 0], body: { rationale: `${annotator} says ${choice}` } });
}

describe('round trips: import → export gives the same lines', () => {
  const cases: [string, ImportFormat, ExportFormat][] = [
    ['trl.jsonl', 'trl', 'trl'],
    ['trl-implicit.jsonl', 'trl-implicit', 'trl-implicit'],
    ['trl-chat.jsonl', 'trl-chat', 'trl-chat'],
    ['trl-chat-implicit.jsonl', 'trl-chat-implicit', 'trl-chat-implicit'],
    ['hh-rlhf.jsonl', 'hh-rlhf', 'hh-rlhf'],
    ['rewardbench.jsonl', 'rewardbench', 'rewardbench'],
    ['arbiter.jsonl', 'arbiter', 'arbiter'],
  ];
  for (const [file, format, exportFormat] of cases) {
    it(`${format}: auto-detected, imported, exported identically`, async () => {
      const input = fixture(file);
      const summary = await importFile(db, { path: input, project: 'p', createProject: true });
      expect(summary.format).toBe(format);
      expect(summary.formatReason.startsWith(`${format}:`)).toBe(true);
      const n = lines(input).length;
      expect(summary).toMatchObject({ lines: n, items: n, duplicates: 0, rejected: 0, rejectsFile: null });
      expect(summary.labels).toBe(format === 'arbiter' ? 0 : n);
      const out = join(dir, `out.${format}.jsonl`);
      const exported = await exportProject(db, { project: 'p', format: exportFormat, out });
      expect(exported.written).toBe(n);
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(input, 'utf8'));
      expect(existsSync(`${out}.partial`)).toBe(false);
    });
  }

  it('records the import in import_file', async () => {
    await importFile(db, { path: fixture('trl.jsonl'), project: 'p', createProject: true });
    const row = db.prepare('SELECT file_name, format, items, labels, length(sha256) AS h FROM import_file').get();
    expect(row).toEqual({ file_name: 'trl.jsonl', format: 'trl', items: 3, labels: 3, h: 64 });
  });

  it('stores chosen first, models on responses, subset in metadata, id as the external id', async () => {
    await importFile(db, { path: fixture('rewardbench.jsonl'), project: 'p', createProject: true });
    const row = db
      .prepare("SELECT external_id, prompt, metadata, (SELECT json_group_array(json_object('content', json(content), 'model', model)) FROM response WHERE item_id = item.id ORDER BY idx) AS responses FROM item ORDER BY seq LIMIT 1")
      .get() as { external_id: string; metadata: string; responses: string };
    expect(row.external_id).toBe('3012');
    expect(JSON.parse(row.metadata)).toEqual({ subset: 'hep-python' });
    const responses = JSON.parse(row.responses) as { content: string; model: string }[];
    expect(responses.map((r) => [r.content, r.model])).toEqual([
      ['Use sorted(xs) or xs.sort().', 'gpt-4'],
      ['You cannot.', 'llama-2-7b'],
    ]);
    const source = db.prepare("SELECT l.id, l.choice, l.strength FROM label l JOIN annotator a ON a.id = l.annotator_id WHERE a.kind = 'source' ORDER BY l.seq LIMIT 1").get();
    expect(source).toMatchObject({ choice: 'A', strength: null });
    // A time-ordered UUIDv7, like every other revision id.
    expect((source as { id: string }).id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('keeps a multi-turn HH prompt as a chat list ending with the user turn', async () => {
    await importFile(db, { path: fixture('hh-rlhf.jsonl'), project: 'p', createProject: true });
    const prompts = (db.prepare('SELECT prompt FROM item ORDER BY seq').pluck().all() as string[]).map((p) => JSON.parse(p));
    expect(prompts[0]).toBe('What is the capital of France?');
    expect(prompts[1]).toEqual([
      { role: 'user', content: 'Can you help me bake bread?' },
      { role: 'assistant', content: 'Sure. What kind?' },
      { role: 'user', content: 'Sourdough.' },
    ]);
    // The two differ in the first assistant turn: the rest of the conversation belongs to the responses.
    expect(prompts[2]).toBe('Tell me a joke.');
    const third = JSON.parse(
      db.prepare("SELECT (SELECT json_group_array(json_object('content', json(content))) FROM response WHERE item_id = item.id ORDER BY idx) FROM item ORDER BY seq LIMIT 1 OFFSET 2").pluck().get() as string,
    );
    expect(third[0].content).toBe('Why did the chicken cross the road?\n\nHuman: Why?\n\nAssistant: To get to the other side.');
  });
});

describe('conversions between shapes', () => {
  it('chat → standard renders every prompt as an HH transcript once one is a conversation, and says so', async () => {
    await importFile(db, { path: fixture('trl-chat.jsonl'), project: 'p', createProject: true });
    const out = join(dir, 'trl.jsonl');
    const summary = await exportProject(db, { project: 'p', format: 'trl', out });
    const rows = lines(out).map((l) => JSON.parse(l));
    expect(rows[0]).toEqual({ prompt: '\n\nHuman: What color is the sky?\n\nAssistant:', chosen: ' It is blue.', rejected: ' It is green.' });
    expect(rows[1]).toEqual({
      prompt: '\n\nSystem: You are terse.\n\nHuman: Capital of France?\n\nAssistant: Paris.\n\nHuman: And of Italy?\n\nAssistant:',
      chosen: ' Rome.',
      rejected: ' Milan.',
    });
    expect(summary.note).toMatch(/Every prompt is an HH-style transcript.*1 prompt\(s\) are conversations, and the 1 single-turn prompt\(s\) were wrapped/);
  });

  it('standard → chat wraps text in user and assistant messages', async () => {
    await importFile(db, { path: fixture('trl.jsonl'), project: 'p', createProject: true });
    const out = join(dir, 'chat.jsonl');
    await exportProject(db, { project: 'p', format: 'trl-chat-implicit', out });
    expect(JSON.parse(lines(out)[0]!)).toEqual({
      chosen: [
        { role: 'user', content: 'The sky is' },
        { role: 'assistant', content: ' blue.' },
      ],
      rejected: [
        { role: 'user', content: 'The sky is' },
        { role: 'assistant', content: ' green.' },
      ],
    });
    const implicit = join(dir, 'implicit.jsonl');
    await exportProject(db, { project: 'p', format: 'trl-implicit', out: implicit });
    expect(JSON.parse(lines(implicit)[0]!)).toEqual({ chosen: 'The sky is blue.', rejected: 'The sky is green.' });
  });

  it('hh-rlhf → trl-implicit reproduces the HH file, single-turn prompts included (one prompt shape)', async () => {
    await importFile(db, { path: fixture('hh-rlhf.jsonl'), project: 'p', createProject: true });
    const out = join(dir, 'implicit.jsonl');
    await exportProject(db, { project: 'p', format: 'trl-implicit', out });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(fixture('hh-rlhf.jsonl'), 'utf8'));
  });

  it('exports a 3-response item only in lossless formats', async () => {
    await importFile(db, { path: fixture('arbiter.jsonl'), project: 'p', createProject: true });
    const [a, , c] = itemIds();
    label('alice', a!, 'B', 2);
    label('alice', c!, 'A');
    const out = join(dir, 'rb.jsonl');
    const summary = await exportProject(db, { project: 'p', format: 'rewardbench', out });
    expect(summary.written).toBe(2);
    expect(summary.skipped).toEqual({ unlabeled: 0, tie: 0, both_bad: 0, conflict: 0, not_pairwise: 1, not_adjudicated: 0, low_agreement: 0 });
    expect(JSON.parse(lines(out)[0]!)).toEqual({
      prompt: 'Which is larger, 9.8 or 9.11?',
      chosen: '9.11 is larger.',
      chosen_model: 'm2',
      rejected: '9.8 is larger.',
      rejected_model: 'm1',
      subset: null,
      id: 'q-17',
    });
  });
});

describe('malformed files', () => {
  const BAD_LINES = [2, 3, 5, 6, 8];

  it('are refused whole, every bad line listed by number, the database unchanged', async () => {
    createProject(db, 'p');
    const before = ['item', 'label', 'annotator', 'import_file'].map(count);
    const error = await importFile(db, { path: fixture('malformed.jsonl'), project: 'p', format: 'trl' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidFileError);
    const errors = (error as InvalidFileError).errors;
    expect(errors.map((e) => e.line)).toEqual(BAD_LINES);
    expect(errors[0]!.reason).toMatch(/^invalid JSON/);
    expect(errors[1]!.reason).toBe('rejected: missing');
    expect(errors[2]!.reason).toBe('chosen: empty text');
    expect(errors[3]!.reason).toBe('not a JSON object (a list)');
    expect(errors[4]!.reason).toBe('prompt: expected a string, got number');
    expect((error as InvalidFileError).message).toContain('5 invalid line(s)');
    expect((error as InvalidFileError).file).toBe(fixture('malformed.jsonl'));
    expect(['item', 'label', 'annotator', 'import_file'].map(count)).toEqual(before);
    expect(existsSync(`${fixture('malformed.jsonl')}.rejects.jsonl`)).toBe(false);
  });

  it('do not create the project they were to create', async () => {
    await expect(importFile(db, { path: fixture('malformed.jsonl'), project: 'new', format: 'auto', createProject: true })).rejects.toThrow(
      InvalidFileError,
    );
    expect(count('project')).toBe(0);
  });

  it('with skipInvalid import the rest and write the rejects beside the input', async () => {
    const input = join(dir, 'bad.jsonl');
    writeFileSync(input, readFileSync(fixture('malformed.jsonl')));
    const summary = await importFile(db, { path: input, project: 'p', createProject: true, skipInvalid: true });
    expect(summary).toMatchObject({ format: 'trl', lines: 7, items: 2, rejected: 5, labels: 2, rejectsFile: `${input}.rejects.jsonl` });
    expect(summary.errors.map((e) => e.line)).toEqual(BAD_LINES);
    const all = readFileSync(input, 'utf8').split('\n');
    expect(readFileSync(`${input}.rejects.jsonl`, 'utf8')).toBe(BAD_LINES.map((n) => all[n - 1]).join('\n') + '\n');
    expect(count('item')).toBe(2);
  });

  it('returns the rejects as text for the UI (importLines)', async () => {
    const content = readFileSync(fixture('malformed.jsonl'), 'utf8');
    const result = await importLines(db, {
      project: 'p',
      fileName: 'upload.jsonl',
      lines: content.split('\n'),
      sha256: 'x',
      format: 'auto',
      skipInvalid: true,
      createProject: true,
    });
    expect(result.rejects).toHaveLength(5);
    expect(result.summary.rejectsFile).toBeNull();
  });

  it('refuse a file whose format cannot be told', async () => {
    createProject(db, 'p');
    await expect(importLines(db, { project: 'p', fileName: 'x.jsonl', lines: ['{"a":1}'], sha256: 'x', format: 'auto', skipInvalid: false })).rejects.toThrow(
      /Cannot tell the format of x\.jsonl: not a known format/,
    );
    await expect(importLines(db, { project: 'p', fileName: 'x.jsonl', lines: ['', '  '], sha256: 'x', format: 'trl', skipInvalid: false })).rejects.toThrow(
      /no records/,
    );
  });

  it('refuse an unknown project unless asked to create it', async () => {
    await expect(importFile(db, { path: fixture('trl.jsonl'), project: 'nope' })).rejects.toThrow(/No project named "nope"/);
  });
});

describe('re-import', () => {
  it('adds nothing: no items, no label revisions', async () => {
    const first = await importFile(db, { path: fixture('trl.jsonl'), project: 'p', createProject: true });
    const labels = count('label');
    const second = await importFile(db, { path: fixture('trl.jsonl'), project: 'p' });
    expect(first.items).toBe(3);
    expect(second).toMatchObject({ items: 0, duplicates: 3, labels: 0 });
    expect(count('item')).toBe(3);
    expect(count('label')).toBe(labels);
  });

  it('leaves every foreign key satisfied and foreign keys switched back on', async () => {
    for (const name of ['trl.jsonl', 'hh-rlhf.jsonl', 'rewardbench.jsonl', 'arbiter.jsonl'])
      await importFile(db, { path: fixture(name), project: 'p', createProject: true });
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('blank lines and CRLF line ends are fine', async () => {
    const input = join(dir, 'crlf.jsonl');
    writeFileSync(input, '\uFEFF' + lines(fixture('trl.jsonl')).join('\r\n\r\n') + '\r\n');
    const summary = await importFile(db, { path: input, project: 'p', createProject: true });
    expect(summary).toMatchObject({ format: 'trl', lines: 3, items: 3 });
  });
});

describe('which label decides', () => {
  // Items 0..7 of a trl import: each carries the file's preference (source: A).
  async function setup() {
    const rows = Array.from({ length: 8 }, (_, i) => JSON.stringify({ prompt: `p${i}`, chosen: `c${i}`, rejected: `r${i}` }));
    await importLines(db, { project: 'p', fileName: 'f.jsonl', lines: rows, sha256: 'x', format: 'trl', skipInvalid: false, createProject: true });
    return itemIds();
  }

  it('majority of humans, even split = conflict, ties and both_bad left out, source where no human labeled', async () => {
    const ids = await setup();
    // 0: alice B, bob B, carol A → B (majority)
    label('alice', ids[0]!, 'B', 3);
    label('bob', ids[0]!, 'B', 2);
    label('carol', ids[0]!, 'A', 1);
    // 1: alice A, bob B → conflict
    label('alice', ids[1]!, 'A');
    label('bob', ids[1]!, 'B');
    // 2: alice tie → tie
    label('alice', ids[2]!, 'tie');
    // 3: alice both_bad, bob both_bad → both_bad
    label('alice', ids[3]!, 'both_bad');
    label('bob', ids[3]!, 'both_bad');
    // 4: alice B then undo (a revision clearing it) → no human label → source A
    label('alice', ids[4]!, 'B', null, '2026-01-01T00:00:00Z');
    label('alice', ids[4]!, null, null, '2026-01-01T00:00:01Z');
    // 5: a model's label does not count → source A
    labelAppender(db)({ projectId: requireProject(db, 'p').id, itemId: ids[5]!, annotatorId: ensureAnnotator(db, 'rm-1', 'model').id, choice: 'B' });
    // 6, 7: no labels but the source → A
    const out = join(dir, 'trl.jsonl');
    const summary = await exportProject(db, { project: 'p', format: 'trl', out });
    expect(summary.skipped).toEqual({ unlabeled: 0, tie: 1, both_bad: 1, conflict: 1, not_pairwise: 0, not_adjudicated: 0, low_agreement: 0 });
    expect(summary.written).toBe(5);
    const rows = lines(out).map((l) => JSON.parse(l));
    expect(rows.map((r) => r.prompt)).toEqual(['p0', 'p4', 'p5', 'p6', 'p7']);
    expect(rows[0]).toEqual({ prompt: 'p0', chosen: 'r0', rejected: 'c0' });
    expect(rows[1]).toEqual({ prompt: 'p4', chosen: 'c4', rejected: 'r4' });
  });

  it('with an annotator, only that annotator counts; items they did not label are unlabeled', async () => {
    const ids = await setup();
    label('alice', ids[0]!, 'B', 3);
    label('bob', ids[0]!, 'A');
    label('alice', ids[1]!, 'tie');
    const out = join(dir, 'alice.jsonl');
    const summary = await exportProject(db, { project: 'p', format: 'openrlhf', out, annotator: 'alice' });
    expect(summary.written).toBe(1);
    expect(summary.skipped).toEqual({ unlabeled: 6, tie: 1, both_bad: 0, conflict: 0, not_pairwise: 0, not_adjudicated: 0, low_agreement: 0 });
    expect(JSON.parse(lines(out)[0]!)).toEqual({ prompt: 'p0', chosen: 'r0', rejected: 'c0', margin: 3 });
    await expect(exportProject(db, { project: 'p', format: 'trl', out, annotator: 'nobody' })).rejects.toThrow(/No annotator named "nobody"/);
  });

  it('openrlhf margin is the mean strength of the winning labels, 0 when none is known', async () => {
    const ids = await setup();
    label('alice', ids[0]!, 'A', 3);
    label('bob', ids[0]!, 'A', 2);
    label('carol', ids[0]!, 'B', 1);
    label('alice', ids[1]!, 'B', 1);
    label('alice', ids[2]!, 'A', null);
    const out = join(dir, 'openrlhf.jsonl');
    const summary = await exportProject(db, { project: 'p', format: 'openrlhf', out });
    const rows = lines(out).map((l) => JSON.parse(l));
    expect(rows[0]).toEqual({ prompt: 'p0', chosen: 'c0', rejected: 'r0', margin: 2.5 });
    expect(rows[1]).toEqual({ prompt: 'p1', chosen: 'r1', rejected: 'c1', margin: 1 });
    expect(rows[2]).toEqual({ prompt: 'p2', chosen: 'c2', rejected: 'r2', margin: 0 });
    expect(rows[3]).toEqual({ prompt: 'p3', chosen: 'c3', rejected: 'r3', margin: 0 }); // source label: no strength
    expect(summary.note).toMatch(/6 line\(s\) have "margin": 0 because no label recorded a strength/);
  });

  it('items with no label at all are counted as unlabeled', async () => {
    await importFile(db, { path: fixture('arbiter.jsonl'), project: 'p', createProject: true });
    const summary = await exportProject(db, { project: 'p', format: 'trl', out: join(dir, 'x.jsonl') });
    expect(summary).toMatchObject({ written: 0, skipped: { unlabeled: 2, not_pairwise: 1 } });
  });
});

describe('labels', () => {
  it('export → import into a fresh database → the same labels export', async () => {
    await importFile(db, { path: fixture('arbiter.jsonl'), project: 'p', createProject: true });
    await importFile(db, { path: fixture('trl.jsonl'), project: 'p' });
    const ids = itemIds();
    label('alice', ids[0]!, 'B', 2, '2026-11-21T10:00:00Z');
    labelAppender(db)({
      projectId: requireProject(db, 'p').id,
      itemId: ids[0]!,
      annotatorId: ensureAnnotator(db, 'bob', 'human').id,
      choice: 'A',
      strength: 1,
      shownOrder: [0, 1],
      createdAt: '2026-11-21T10:00:05Z',
      body: { ratings: { A: { correctness: 5 }, B: { correctness: 2 } }, steps: { B: [1, -1] }, first_error: { B: 1 }, rationale: 'B compares digits wrongly', time_ms: 5120, prelabel_visible: false },
    });
    labelAppender(db)({ projectId: requireProject(db, 'p').id, itemId: ids[1]!, annotatorId: ensureAnnotator(db, 'bob', 'human').id, choice: null, ranking: [[2], [0], [1]], createdAt: '2026-11-21T10:01:00Z' });
    label('alice', ids[0]!, null, null, '2026-11-21T10:02:00Z'); // an undo
    labelAppender(db)({ projectId: requireProject(db, 'p').id, itemId: ids[2]!, annotatorId: ensureAnnotator(db, 'rm-1', 'model').id, choice: 'A', createdAt: '2026-11-21T10:03:00Z' });

    const labelsOut = join(dir, 'labels.jsonl');
    const itemsOut = join(dir, 'items.jsonl');
    const s1 = await exportProject(db, { project: 'p', format: 'labels', out: labelsOut });
    await exportProject(db, { project: 'p', format: 'arbiter', out: itemsOut });
    expect(s1.written).toBe(count('label'));
    const first = lines(labelsOut).map((l) => JSON.parse(l));
    const bob = first.find((l) => l.annotator === 'bob' && l.choice === 'A');
    expect(bob).toEqual({
      id: bob.id,
      item: 'q-17',
      item_uid: bob.item_uid,
      annotator: 'bob',
      annotator_uuid: bob.annotator_uuid,
      annotator_kind: 'human',
      task: 'pairwise',
      choice: 'A',
      strength: 1,
      shown_order: [0, 1],
      ratings: { A: { correctness: 5 }, B: { correctness: 2 } },
      steps: { B: [1, -1] },
      first_error: { B: 1 },
      rationale: 'B compares digits wrongly',
      time_ms: 5120,
      prelabel_visible: false,
      created_at: '2026-11-21T10:00:05.000Z',
    });
    expect(first.find((l) => l.ranking)).toMatchObject({ ranking: [[2], [0], [1]], item: 'q-18' });
    expect(first.find((l) => l.annotator === 'source')).toMatchObject({ annotator_kind: 'source', choice: 'A' });

    const db2 = openDb(join(dir, 'fresh.db'));
    try {
      await importFile(db2, { path: itemsOut, project: 'q', createProject: true });
      const r1 = await importLabelsFile(db2, { path: labelsOut, project: 'q' });
      expect(r1).toMatchObject({ added: s1.written, duplicates: 0, lines: s1.written, unmatched: 0 });
      const again = await importLabelsFile(db2, { path: labelsOut, project: 'q' });
      expect(again).toMatchObject({ added: 0, duplicates: s1.written, lines: s1.written, unmatched: 0 });
      const bobOnly = join(dir, 'bob.jsonl');
      const bobSummary = await exportProject(db2, { project: 'q', format: 'labels', out: bobOnly, annotator: 'bob' });
      expect(bobSummary.written).toBe(2);
      expect(lines(bobOnly).every((l) => JSON.parse(l).annotator === 'bob')).toBe(true);
      const labelsOut2 = join(dir, 'labels2.jsonl');
      await exportProject(db2, { project: 'q', format: 'labels', out: labelsOut2 });
      expect(readFileSync(labelsOut2, 'utf8')).toBe(readFileSync(labelsOut, 'utf8'));
      const kinds = db2.prepare('SELECT name, kind FROM annotator ORDER BY name').all();
      expect(kinds).toEqual([
        { name: 'alice', kind: 'human' },
        { name: 'bob', kind: 'human' },
        { name: 'rm-1', kind: 'model' },
        { name: 'source', kind: 'source' },
      ]);
    } finally {
      db2.close();
    }
  });

  it('a labels file with a bad field is refused whole; an unknown item is only reported', async () => {
    await importFile(db, { path: fixture('arbiter.jsonl'), project: 'p', createProject: true });
    const input = join(dir, 'labels.jsonl');
    const rows = [
      { id: 'l1', item: 'q-17', annotator: 'alice', choice: 'A', created_at: '2026-11-21T10:00:00Z' },
      { id: 'l2', item: 'q-99', annotator: 'alice', choice: 'A', created_at: '2026-11-21T10:00:00Z' },
      { id: 'l3', item: 'q-17', annotator: 'alice', choice: 'C', created_at: '2026-11-21T10:00:00Z' },
      { id: 'l4', item: 'q-17', annotator: 'alice', choice: 'A', strength: 5, created_at: 'yesterday' },
      { id: 'l5', item: 'q-18', annotator: 'alice', ranking: [0, 3, 1], created_at: '2026-11-21T10:00:00Z' },
      { item: 'q-17', annotator: 'alice', created_at: '2026-11-21T10:00:00Z' },
    ];
    writeFileSync(input, rows.map((r) => JSON.stringify(r)).join('\n') + '\n\n');
    const error = await importLabelsFile(db, { path: input, project: 'p' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidFileError);
    expect((error as InvalidFileError).errors).toEqual([
      { line: 3, reason: 'choice: the item has 2 responses (A, B), not "C"' },
      { line: 4, reason: 'strength: expected a strength of 1, 2 or 3; created_at: not a timestamp' },
      { line: 5, reason: "ranking: must put each of the item's 3 responses in exactly one place" },
      { line: 6, reason: 'id: missing' },
    ]);
    expect(count('label')).toBe(0);
    expect(count('annotator')).toBe(0);
  });

  it('a label on an existing model annotator keeps its kind; "source" defaults to kind source', async () => {
    await importFile(db, { path: fixture('arbiter.jsonl'), project: 'p', createProject: true });
    ensureAnnotator(db, 'rm-1', 'model');
    const input = join(dir, 'labels.jsonl');
    writeFileSync(
      input,
      [
        { id: 'l1', item: 'q-17', annotator: 'rm-1', choice: 'A', created_at: '2026-11-21T10:00:00Z' },
        { id: 'l2', item: 'q-17', annotator: 'source', choice: 'B', created_at: '2026-11-21T10:00:00Z' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    expect(await importLabelsFile(db, { path: input, project: 'p' })).toEqual({
      added: 2,
      duplicates: 0,
      lines: 2,
      unmatched: 0,
      unmatchedItems: [],
      reusedIds: 0,
      reusedIdLines: [],
      skipped: 0,
      rejectsFile: null,
      errors: [],
    });
    expect(db.prepare('SELECT name, kind FROM annotator ORDER BY name').all()).toEqual([
      { name: 'rm-1', kind: 'model' },
      { name: 'source', kind: 'source' },
    ]);
  });
});

describe('streaming export', () => {
  it('writes 500 items, checked line by line', async () => {
    const rows = Array.from({ length: 500 }, (_, i) =>
      JSON.stringify({ prompt: `Question ${i}: ${'x'.repeat(i % 37)}`, chosen: `Answer ${i} ✓`, rejected: `Wrong ${i}\n"quoted"` }),
    );
    await importLines(db, { project: 'p', fileName: 'big.jsonl', lines: rows, sha256: 'x', format: 'auto', skipInvalid: false, createProject: true });
    const ids = itemIds();
    for (let i = 0; i < 500; i += 7) label('alice', ids[i]!, 'B', 2);
    const out = join(dir, 'big.out.jsonl');
    const progress: number[] = [];
    const summary = await exportProject(db, { project: 'p', format: 'trl', out, onProgress: (written) => progress.push(written) });
    expect(summary.written).toBe(500);
    const written = lines(out);
    expect(written).toHaveLength(500);
    written.forEach((line, i) => {
      const row = JSON.parse(line);
      const flipped = i % 7 === 0;
      expect(row).toEqual({
        prompt: `Question ${i}: ${'x'.repeat(i % 37)}`,
        chosen: flipped ? `Wrong ${i}\n"quoted"` : `Answer ${i} ✓`,
        rejected: flipped ? `Answer ${i} ✓` : `Wrong ${i}\n"quoted"`,
      });
    });
    expect(progress.at(-1)).toBe(500);
  });

  it('a failed export leaves neither a half file nor a .partial, and an older file at out untouched', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => JSON.stringify({ prompt: `p${i}`, chosen: `c${i}`, rejected: `r${i}` }));
    await importLines(db, { project: 'p', fileName: 'f.jsonl', lines: rows, sha256: 'x', format: 'trl', skipInvalid: false, createProject: true });
    const out = join(dir, 'out.jsonl');
    writeFileSync(out, 'previous export\n');
    await expect(
      exportProject(db, {
        project: 'p',
        format: 'trl',
        out,
        onProgress: (written) => {
          if (written >= 1000) throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(readFileSync(out, 'utf8')).toBe('previous export\n');
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});

describe('bulk import paths', () => {
  // Everything an import leaves behind, ids included, in a form two databases can be compared by.
  const snapshot = (d: Db) => ({
    items: d.prepare('SELECT id, project_id, uid, external_id, seq, prompt, reference, metadata, response_count FROM item ORDER BY id').all(),
    responses: d.prepare('SELECT item_id, idx, content, model FROM response ORDER BY item_id, idx').all(),
    labels: d
      .prepare(
        `SELECT l.seq, l.item_id, a.name, l.created_at = i.imported_at AS at_import, l.choice, l.ranking, l.strength, l.shown_order, l.body
         FROM label l JOIN annotator a ON a.id = l.annotator_id, (SELECT MAX(imported_at) AS imported_at FROM import_file) i ORDER BY l.seq`,
      )
      .all(),
    heads: d.prepare('SELECT h.item_id, a.name, h.task, h.done, h.choice, h.label_seq = l.seq AS current FROM label_head h JOIN annotator a ON a.id = h.annotator_id JOIN label l ON l.item_id = h.item_id AND l.annotator_id = h.annotator_id ORDER BY h.item_id, a.name').all(),
    counters: [d.prepare('SELECT * FROM progress ORDER BY annotator_id').all(), d.prepare('SELECT visible_seq, item_count FROM project').all()],
  });
  // 3,000 lines: repeats within a 64-row statement and across chunks, blank and bad lines.
  const rows = Array.from({ length: 3000 }, (_, i) => {
    if (i % 997 === 5) return '';
    if (i % 501 === 7) return '{"prompt": "broken"';
    const n = i % 7 === 3 ? i - 3 : i % 1000 === 999 ? 17 : i;
    return JSON.stringify({ prompt: `Question ${n}?`, chosen: ` yes ${n} ✓`, rejected: ` no ${n}`, id: `q-${n}` });
  });

  it('the worker gives the same items, labels, counts and errors as this thread', async () => {
    const input = join(dir, 'many.jsonl');
    writeFileSync(input, rows.join('\n') + '\n');
    const results = [];
    const snapshots = [];
    for (const parallel of [false, true]) {
      const d = openDb(join(dir, `paths-${parallel}.db`));
      try {
        createProject(d, 'p');
        // A few items are there before: their repeats are duplicates, and one lacks its source label.
        await importLines(d, { project: 'p', fileName: 'pre.jsonl', lines: rows.slice(40, 45), sha256: 'x', format: 'trl', skipInvalid: false });
        d.prepare("DELETE FROM label_head WHERE item_id = (SELECT MIN(id) FROM item)").run();
        const summary = await importFile(d, { path: input, project: 'p', skipInvalid: true, parallel });
        const again = await importLines(d, { project: 'p', fileName: 'again.jsonl', lines: rows, sha256: 'y', format: 'auto', skipInvalid: true, parallel });
        results.push({ summary: { ...summary, rejectsFile: null }, again: again.summary, errors: again.errors, rejects: again.rejects });
        snapshots.push(snapshot(d));
        expect(d.pragma('foreign_key_check')).toEqual([]);
        const seqs = d.prepare('SELECT seq FROM item ORDER BY id').pluck().all() as number[];
        expect(seqs).toEqual(seqs.map((_, i) => i));
      } finally {
        d.close();
      }
    }
    expect(results[1]).toEqual(results[0]);
    expect(snapshots[1]).toEqual(snapshots[0]);
    const [local] = results;
    expect(local!.summary).toMatchObject({ lines: 2996, rejected: 6, duplicates: 2996 - 6 - local!.summary.items });
    expect(local!.again).toMatchObject({ items: 0, labels: 0 });
    expect(local!.errors.map((e) => e.line)).toEqual([8, 509, 1010, 1511, 2012, 2513]);
  });

  it('an all-or-nothing import through the worker reports every bad line and keeps nothing', async () => {
    createProject(db, 'p');
    const error = await importLines(db, { project: 'p', fileName: 'f.jsonl', lines: rows, sha256: 'x', format: 'auto', skipInvalid: false, parallel: true }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidFileError);
    expect((error as InvalidFileError).errors.map((e) => e.line)).toEqual([8, 509, 1010, 1511, 2012, 2513]);
    expect(count('item')).toBe(0);
    expect(count('label')).toBe(0);
  });

  it('new items between duplicates get ids and seqs with no gaps, in file order', async () => {
    const pair = (n: number) => JSON.stringify({ prompt: `p${n}`, chosen: `c${n}`, rejected: `r${n}` });
    await importLines(db, { project: 'p', fileName: 'a.jsonl', lines: [0, 2, 4].map(pair), sha256: 'a', format: 'trl', skipInvalid: false, createProject: true });
    const summary = await importLines(db, { project: 'p', fileName: 'b.jsonl', lines: [0, 1, 2, 3, 3, 4, 5, 1].map(pair), sha256: 'b', format: 'trl', skipInvalid: false });
    expect(summary.summary).toMatchObject({ items: 3, duplicates: 5, labels: 3 });
    const items = db.prepare('SELECT id, seq, prompt FROM item ORDER BY id').all();
    expect(items).toEqual(['p0', 'p2', 'p4', 'p1', 'p3', 'p5'].map((p, i) => ({ id: i + 1, seq: i, prompt: JSON.stringify(p) })));
    expect(db.prepare('SELECT item_id FROM label ORDER BY seq').pluck().all()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
