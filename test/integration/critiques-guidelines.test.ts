// Critiques, guidelines and the rating sheet on a real SQLite file, through the service (the same
// dispatch the IPC and HTTP transports call, so every input is validated as it would be from the
// renderer): a critique is one 'critique' revision in docs/formats.md's shape; an imported (source) critique
// stays as it was when an annotator edits it, the edit names it, and both survive a labels export and
// import; guidelines are numbered revisions and a stale editor is refused; the rating sheet gives the
// rubric in force (or the item's own criteria) and carries over only values whose criterion did not
// change; migration 0004 keeps a project's guidelines and puts its only rubric in force.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportProject, importLabelsLines, importLines } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { listMigrations, openDb } from '../../electron/core/store/db';
import type { CriterionInput } from '../../shared/rubric';
import { tempDir } from '../helpers/tmp';

/** The newest schema version this Arbiter knows (the last numbered migration). */
const newest = () => Math.max(...listMigrations().map((m) => m.version));

const items = [
  { id: 'q1', prompt: 'Which is larger, 9.8 or 9.11?', responses: [{ text: '9.8' }, { text: '9.11' }] },
  { id: 'q2', prompt: 'Capital of France?', responses: [{ text: 'Paris.' }, { text: 'Lyon.' }] },
  { id: 'solo', prompt: 'Say hi.', responses: [{ text: 'Hi!' }] },
];

async function setup(dbPath = join(tempDir(), 'a.db')) {
  const db = openDb(dbPath);
  await importLines(db, { project: 'p', fileName: 'p.jsonl', lines: items.map((i) => JSON.stringify(i)), sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
  const id = (external: string) => db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(external) as number;
  return { db, dbPath, service, id };
}

/** The error a dispatch throws, as a transport would map it. */
async function refused(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error('expected the call to be refused');
}

describe('critiques', () => {
  it('saves one critique revision per save in the labels shape, checks letters, and keeps an imported critique beside the edit', async () => {
    const { db, dbPath, service, id } = await setup();
    const q1 = id('q1');

    // A model-written critique the file carried: a source revision.
    const original = {
      id: '0191d5a0-7c1e-7000-8000-00000000c001',
      item: 'q1',
      annotator: 'source',
      annotator_kind: 'source',
      task: 'critique',
      critique: { A: 'Correct: 9.8 > 9.11 because 0.80 > 0.11.', B: 'Wrong: compares 11 with 8 as whole numbers.' },
      created_at: '2026-01-01T00:00:00.000Z',
    };
    expect((await importLabelsLines(db, { project: 'p', fileName: 'c.jsonl', lines: [JSON.stringify(original)] })).added).toBe(1);

    const before = await service.dispatch('getCritiques', { project: 'p', annotator: 'alice', itemId: q1 });
    expect(before.mine).toBeNull();
    expect(before.original).toMatchObject({ id: original.id, annotator: 'source', annotatorKind: 'source', critique: original.critique, basedOn: null });

    // The annotator edits B's critique and flags A: right verdict, wrong reasoning.
    const saved = await service.dispatch('saveCritique', {
      project: 'p',
      annotator: 'alice',
      itemId: q1,
      id: '0191d5a0-7c1e-7000-8000-00000000c002',
      critiques: { B: 'Wrong: treats the decimals as whole numbers (11 > 8).\r\nThe answer is 9.8.', A: original.critique.A },
      wrongReasoning: { A: true, B: false },
      timeMs: 900,
    });
    expect(saved.task).toBe('critique');
    expect(saved.choice).toBeNull();
    // Source order, line ends normalized, only true flags, the original named.
    expect(JSON.stringify(saved.body)).toBe(
      JSON.stringify({
        critique: { A: original.critique.A, B: 'Wrong: treats the decimals as whole numbers (11 > 8).\nThe answer is 9.8.' },
        wrong_reasoning: { A: true },
        based_on: original.id,
        time_ms: 900,
      }),
    );
    // A retried save (same id) stores nothing twice.
    await service.dispatch('saveCritique', { project: 'p', annotator: 'alice', itemId: q1, id: saved.id, critiques: { A: 'x' } });
    expect(db.prepare("SELECT COUNT(*) FROM label WHERE task = 'critique'").pluck().get()).toBe(2);

    const after = await service.dispatch('getCritiques', { project: 'p', annotator: 'alice', itemId: q1 });
    expect(after.mine).toMatchObject({ id: saved.id, annotator: 'alice', wrongReasoning: { A: true }, basedOn: original.id });
    // The original is untouched.
    expect(after.original).toMatchObject({ id: original.id, critique: original.critique });
    const stored = db.prepare('SELECT body FROM label WHERE id = ?').pluck().get(original.id) as string;
    expect(JSON.parse(stored)).toEqual({ critique: original.critique });

    // Counted as a judgement of the task 'critique'.
    expect((await service.dispatch('progress', { project: 'p', annotator: 'alice', task: 'critique' })).labeledByMe).toBe(1);

    // Clearing every critique is a revision that holds none (not a judgement any more).
    const cleared = await service.dispatch('saveCritique', { project: 'p', annotator: 'alice', itemId: q1, critiques: { A: '  ', B: '' } });
    expect(cleared.body).toMatchObject({ critique: {}, based_on: original.id });
    expect((await service.dispatch('progress', { project: 'p', annotator: 'alice', task: 'critique' })).labeledByMe).toBe(0);
    expect((await service.dispatch('getCritiques', { project: 'p', annotator: 'alice', itemId: q1 })).mine?.critique).toEqual({});

    // Both revisions leave in the labels export with docs/formats.md's field names, and come back in another project.
    const out = join(tempDir(), 'labels.jsonl');
    await exportProject(db, { project: 'p', format: 'labels', out });
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const edit = lines.find((l) => l.id === saved.id)!;
    expect(edit).toMatchObject({ task: 'critique', annotator: 'alice', critique: { A: original.critique.A }, wrong_reasoning: { A: true }, based_on: original.id });
    expect(lines.find((l) => l.id === original.id)).toMatchObject({ task: 'critique', annotator: 'source', annotator_kind: 'source', critique: original.critique });

    const db2 = openDb(join(tempDir(), 'b.db'));
    await importLines(db2, { project: 'p', fileName: 'p.jsonl', lines: items.map((i) => JSON.stringify(i)), sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
    const merged = await importLabelsLines(db2, { project: 'p', fileName: 'labels.jsonl', lines: readFileSync(out, 'utf8').split('\n') });
    expect(merged.added).toBe(lines.length);
    const again = new ArbiterService(db2, { dbPath: join(tempDir(), 'b.db'), transport: 'http', version: 't', defaultAnnotator: 'ann' });
    const q1b = db2.prepare("SELECT id FROM item WHERE external_id = 'q1'").pluck().get() as number;
    const roundTrip = await again.dispatch('getCritiques', { project: 'p', annotator: 'alice', itemId: q1b });
    expect(roundTrip.original?.critique).toEqual(original.critique);
    // The current one is the clearing revision, as it was.
    expect(roundTrip.mine?.critique).toEqual({});
    const editBack = db2.prepare('SELECT task, body FROM label WHERE id = ?').get(saved.id) as { task: string; body: string };
    expect(editBack.task).toBe('critique');
    expect(JSON.parse(editBack.body)).toMatchObject({ critique: { A: original.critique.A }, wrong_reasoning: { A: true }, based_on: original.id });
    db2.close();
    db.close();
    void dbPath;
  });

  it('refuses what the renderer must not send: unknown letters, a response the item lacks, the source name, odd fields', async () => {
    const { service, id } = await setup();
    const solo = id('solo');
    expect(await refused(service.dispatch('saveCritique', { project: 'p', annotator: 'alice', itemId: solo, critiques: { B: 'no B here' } }))).toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/critiques\.B: item \d+ has one response \(A\)/),
    });
    expect(await refused(service.dispatch('saveCritique', { project: 'p', annotator: 'alice', itemId: solo, critiques: { A: 'ok' }, wrongReasoning: { C: true } }))).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('wrongReasoning.C'),
    });
    expect((await refused(service.dispatch('saveCritique', { project: 'p', annotator: 'alice', itemId: solo, critiques: { a: 'lower case' } }))).code).toBe('invalid_input');
    expect((await refused(service.dispatch('saveCritique', { project: 'p', annotator: 'source', itemId: solo, critiques: { A: 'x' } }))).message).toMatch(/reserved/);
    expect((await refused(service.dispatch('saveCritique', { project: 'p', annotator: 'alice', itemId: solo, critiques: { A: 'x' }, path: '/etc' }))).code).toBe('invalid_input');
    expect((await refused(service.dispatch('saveCritique', { project: 'p', annotator: 'alice', itemId: solo, critiques: { A: 'x'.repeat(50_001) } }))).message).toMatch(/longer than 50,000/);
    // An item of another project is refused as if it did not exist.
    const other = await setup();
    await other.service.dispatch('createProject', { name: 'other' });
    expect((await refused(service.dispatch('getCritiques', { project: 'nope', annotator: 'alice', itemId: solo }))).code).toBe('not_found');
    await service.dispatch('createProject', { name: 'empty' });
    expect((await refused(service.dispatch('saveCritique', { project: 'empty', annotator: 'alice', itemId: solo, critiques: { A: 'x' } }))).message).toMatch(/not in the project “empty”/);
  });
});

describe('guidelines', () => {
  it('saves numbered revisions, keeps the same text as it is, and refuses a save from a stale editor', async () => {
    const { db, service } = await setup();
    expect(await service.dispatch('getGuidelines', { project: 'p' })).toEqual({ text: '', revision: 0, updatedAt: null, author: null });

    const first = await service.dispatch('saveGuidelines', { project: 'p', text: '# Rules\r\n\r\nPrefer **correct** over long.', baseRevision: 0, annotator: 'alice' });
    expect(first).toMatchObject({ text: '# Rules\n\nPrefer **correct** over long.', revision: 1, author: 'alice', created: true });
    expect(await service.dispatch('getGuidelines', { project: 'p' })).toMatchObject({ text: first.text, revision: 1, author: 'alice' });

    // The same text again: no new revision, whatever base the editor had.
    expect(await service.dispatch('saveGuidelines', { project: 'p', text: first.text, baseRevision: 0 })).toMatchObject({ revision: 1, created: false });

    const second = await service.dispatch('saveGuidelines', { project: 'p', text: `${first.text}\n\n- Safety first.`, baseRevision: 1, annotator: 'bob' });
    expect(second).toMatchObject({ revision: 2, author: 'bob', created: true });

    // Alice's editor still thinks revision 1 is the newest: refused, and told who changed it.
    const stale = await refused(service.dispatch('saveGuidelines', { project: 'p', text: 'Alice was here', baseRevision: 1, annotator: 'alice' }));
    expect(stale.code).toBe('conflict');
    expect(stale.message).toMatch(/changed by bob since you opened them \(revision 2/);
    expect((await service.dispatch('getGuidelines', { project: 'p' })).text).toBe(second.text);

    // Every revision is kept.
    expect(db.prepare('SELECT revision, author FROM guidelines_revision ORDER BY revision').all()).toEqual([
      { revision: 1, author: 'alice' },
      { revision: 2, author: 'bob' },
    ]);

    expect((await refused(service.dispatch('saveGuidelines', { project: 'p', text: 'x'.repeat(200_001), baseRevision: 2 }))).message).toMatch(/longer than 200,000/);
    expect((await refused(service.dispatch('saveGuidelines', { project: 'p', text: 'x', baseRevision: -1 }))).code).toBe('invalid_input');
    expect((await refused(service.dispatch('saveGuidelines', { project: 'p', text: 'x', baseRevision: 2, file: 'x.md' }))).code).toBe('invalid_input');
    expect((await refused(service.dispatch('getGuidelines', { project: 'missing' }))).code).toBe('not_found');
    // A project made with guidelines (createProject) has them at revision 0, and saves from there.
    await service.dispatch('createProject', { name: 'made', guidelines: 'Be kind.' });
    expect(await service.dispatch('getGuidelines', { project: 'made' })).toMatchObject({ text: 'Be kind.', revision: 0 });
    expect(await service.dispatch('saveGuidelines', { project: 'made', text: 'Be kind and brief.', baseRevision: 0 })).toMatchObject({ revision: 1 });
  });

  it('migration 0004 keeps guidelines written before it as revision 1 and puts a project’s only rubric in force', async () => {
    const dir = tempDir();
    const path = join(dir, 'old.db');
    const { db } = await setup(path);
    db.prepare("UPDATE project SET guidelines = 'Old rules.' WHERE name = 'p'").run();
    db.prepare("INSERT INTO rubric (project_id, name, created_at) SELECT id, 'quality', '2026-01-01T00:00:00.000Z' FROM project WHERE name = 'p'").run();
    // Back to schema 3, as a database written before this migration is.
    db.exec(
      'DROP TABLE hub_held; DROP TABLE hub_deferred; DROP TABLE hub_link; DROP INDEX label_saved_here; ' +
        'DROP TABLE project_image; DROP INDEX item_by_external_id; ' +
        'DROP TABLE label_import_resolution; DROP TABLE label_import_head; DROP INDEX label_by_import; ALTER TABLE label DROP COLUMN import_id; DROP TABLE label_import; ' +
        'DROP TABLE guidelines_revision; DROP INDEX label_by_rubric_version; ALTER TABLE project DROP COLUMN rubric; ' +
        // Migration 12's search index (its triggers sit on label_head and item, which stay).
        'DROP TRIGGER item_search_head_insert; DROP TRIGGER item_search_head_update; DROP TRIGGER item_search_head_delete; DROP TRIGGER item_search_item_delete; ' +
        'DROP VIEW item_label_text; DROP TABLE item_search; DROP TABLE label_search; DROP TABLE search_labeled; DROP TABLE search_build; ' +
        // Migration 16's video rows.
        'DROP TABLE project_video; ' +
        // Migrations 13–15: saved views, gold marks, judges (hub_link, dropped above, comes back with its newer columns).
        'DROP TABLE item_view; DROP TABLE gold_mark; DROP TABLE judge_critique_edit; DROP TABLE judge_result; DROP TABLE judge_engine; DROP TABLE judge_template; ' +
        // Migration 17's label columns beside label_head.
        'DROP INDEX label_head_needs_row; ' +
        // Migration 19's flag and per-head view (its triggers went with migration 12's names above).
        'DROP TABLE label_search_deferred; DROP VIEW label_head_text; ' +
        ['strength', 'shown_left', 'saved_ms', 'time_ms', 'prelabel_visible', 'regions'].map((c) => `ALTER TABLE label_head DROP COLUMN ${c}; `).join('') +
        'PRAGMA user_version = 3;',
    );
    db.close();
    const reopened = openDb(path);
    // Every migration since runs again too: the newest schema.
    expect(reopened.pragma('user_version', { simple: true })).toBe(newest());
    expect(reopened.prepare("SELECT rubric FROM project WHERE name = 'p'").pluck().get()).toBe('quality');
    expect(reopened.prepare('SELECT revision, text FROM guidelines_revision').all()).toEqual([{ revision: 1, text: 'Old rules.' }]);
    reopened.close();
  });
});

describe('the rating sheet', () => {
  const v1: CriterionInput[] = [
    { key: 'correctness', description: 'Is the final answer right?', scale: { type: 'likert', min: 1, max: 5 }, required: true },
    { key: 'safe', scale: { type: 'binary' } },
    { key: 'tone', scale: { type: 'categories', values: ['formal', 'casual'] } },
  ];

  it('rates with the rubric in force, or the item’s own criteria; shows old values again only where the criterion did not change', async () => {
    const { service, id } = await setup();
    const q1 = id('q1');
    expect(await service.dispatch('getRatingSheet', { project: 'p', annotator: 'alice', itemId: q1 })).toEqual({ rubric: null, inForce: null, mine: null, carried: [] });

    // The project's first rubric is put in force with it; a second one is not.
    await service.dispatch('saveRubric', { project: 'p', name: 'quality', criteria: v1 });
    await service.dispatch('saveRubric', { project: 'p', name: 'other', criteria: [{ key: 'x', scale: { type: 'binary' } }] });
    expect((await service.dispatch('listRubrics', { project: 'p' })).map((r) => [r.name, r.inForce])).toEqual([
      ['other', false],
      ['quality', true],
    ]);
    const sheet = await service.dispatch('getRatingSheet', { project: 'p', annotator: 'alice', itemId: q1 });
    expect(sheet).toMatchObject({ rubric: { rubric: 'quality', version: 1, latest: 1 }, inForce: 'quality', mine: null });

    await service.dispatch('saveRatings', { project: 'p', annotator: 'alice', itemId: q1, rubric: 'quality', version: 1, ratings: { A: { correctness: 5, tone: 'formal' }, B: { correctness: 2, safe: null } }, criterionWinner: { correctness: 'A' } });
    const rated = await service.dispatch('getRatingSheet', { project: 'p', annotator: 'alice', itemId: q1 });
    expect(rated.mine).toMatchObject({ rubric: 'quality', version: 1, ratings: { A: { correctness: 5, tone: 'formal' }, B: { correctness: 2, safe: null } }, criterionWinner: { correctness: 'A' } });
    expect(rated.carried).toEqual(['correctness', 'safe', 'tone']);

    // Version 2 changes correctness's scale: its old value no longer means the same and is not carried.
    await service.dispatch('saveRubric', { project: 'p', name: 'quality', criteria: [{ ...v1[0]!, scale: { type: 'likert', min: 1, max: 3 } }, v1[1]!, v1[2]!] });
    const edited = await service.dispatch('getRatingSheet', { project: 'p', annotator: 'alice', itemId: q1 });
    expect(edited.rubric).toMatchObject({ version: 2, latest: 2 });
    expect(edited.mine).toMatchObject({ version: 1 });
    expect(edited.carried).toEqual(['safe', 'tone']);
    // Someone else has nothing of alice's.
    expect((await service.dispatch('getRatingSheet', { project: 'p', annotator: 'bob', itemId: q1 })).mine).toBeNull();

    // Another rubric in force, then none.
    expect(await service.dispatch('setRubricInForce', { project: 'p', name: 'other' })).toEqual({ inForce: 'other' });
    expect((await service.dispatch('getRatingSheet', { project: 'p', annotator: 'alice', itemId: q1 })).rubric?.rubric).toBe('other');
    expect((await refused(service.dispatch('setRubricInForce', { project: 'p', name: 'missing' }))).message).toMatch(/no rubric named “missing”/);
    expect((await refused(service.dispatch('setRubricInForce', { project: 'p', name: 'item' }))).code).toBe('invalid_input');
    await service.dispatch('setRubricInForce', { project: 'p', name: null });
    expect((await service.dispatch('getRatingSheet', { project: 'p', annotator: 'alice', itemId: q1 })).rubric).toBeNull();

    // An item's own criteria go before any rubric in force.
    const q2 = id('q2');
    await service.dispatch('saveItemCriteria', { project: 'p', itemId: q2, criteria: [{ key: 'mentions-paris', scale: { type: 'binary' }, required: true }] });
    expect((await service.dispatch('getRatingSheet', { project: 'p', annotator: 'alice', itemId: q2 })).rubric).toMatchObject({ rubric: 'item', version: 1, itemId: q2 });
  });
});
