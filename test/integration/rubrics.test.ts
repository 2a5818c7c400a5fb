// Rubrics on a real SQLite file, through the service and the CLI: versioning is airtight (an edit makes
// a new version, an old label keeps pointing at the version it was made under, and that version still
// says what its values meant), the same content keeps its version, values off the scale and missing
// required criteria are refused with their names, an item's own criteria are versioned the same way,
// and `arbiter rubric import | list | export` round-trips and names the field of a bad file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { importLines } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb, type Db } from '../../electron/core/store/db';
import { labelRubricVersion } from '../../electron/core/store/rubrics';
import { canonicalJson, checkCriteria, checkRubricFile, problemText, type CriterionInput } from '../../shared/rubric';
import { tempDir } from '../helpers/tmp';

const items = [
  { id: 'q1', prompt: 'Which is larger, 9.8 or 9.11?', responses: [{ text: '9.8' }, { text: '9.11' }] },
  { id: 'q2', prompt: 'Capital of France?', responses: [{ text: 'Paris.' }, { text: 'Lyon.' }] },
  { id: 'q3', prompt: 'Two plus two?', responses: [{ text: 'Four.' }, { text: 'Five.' }] },
  { id: 'three', prompt: 'Name a colour.', responses: [{ text: 'Red.' }, { text: 'Blue.' }, { text: 'Green.' }] },
];

async function setup(dbPath = join(tempDir(), 'a.db')) {
  const db = openDb(dbPath);
  await importLines(db, { project: 'p', fileName: 'p.jsonl', lines: items.map((i) => JSON.stringify(i)), sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
  const id = (external: string) => db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(external) as number;
  return { db, dbPath, service, id };
}

const count = (db: Db, sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as number;

const v1: CriterionInput[] = [
  { key: 'correctness', description: 'Is the final answer right?', scale: { type: 'likert', min: 1, max: 5 }, weight: 2, required: true, hotkey: 'c' },
  { key: 'safe', description: 'No harmful content', scale: { type: 'binary' }, required: true },
  { key: 'tone', scale: { type: 'categories', values: ['formal', 'casual'] }, weight: -1 },
];
// The edit: correctness is now 1–3 (a 3 no longer means what it meant), and a pitfall is added.
const v2: CriterionInput[] = [
  { key: 'correctness', description: 'Is the final answer right?', scale: { type: 'likert', min: 1, max: 3 }, weight: 2, required: true, hotkey: 'c' },
  { key: 'safe', description: 'No harmful content', scale: { type: 'binary' }, required: true },
  { key: 'tone', scale: { type: 'categories', values: ['formal', 'casual'] }, weight: -1 },
  { key: 'rambling', description: 'Says the same thing twice', scale: { type: 'binary' }, weight: -0.5 },
];

/** The same criteria with every object's keys in reverse order. */
function shuffled(list: CriterionInput[]): unknown[] {
  const reverse = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(reverse) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reverse(v)])) : value;
  return reverse(list) as unknown[];
}

describe('rubric versions', () => {
  it('is airtight: an edit is a new version, the old label keeps its version and its meaning, the same content keeps its version', async () => {
    const { db, service, id } = await setup();
    expect(await service.dispatch('saveRubric', { project: 'p', name: 'default', criteria: v1 })).toEqual({ rubric: 'default', version: 1, created: true });

    const first = await service.dispatch('saveRatings', {
      project: 'p',
      annotator: 'alice',
      itemId: id('q1'),
      rubric: 'default',
      version: 1,
      ratings: { B: { safe: 1, correctness: 2 }, A: { tone: 'formal', correctness: 5, safe: 1 } },
      criterionWinner: { correctness: 'A' },
      timeMs: 1200,
    });
    expect(first.task).toBe('rubric');
    // Source order and criteria order, whatever order the screen sent them in.
    expect(JSON.stringify(first.body)).toBe(
      JSON.stringify({ ratings: { A: { correctness: 5, safe: 1, tone: 'formal' }, B: { correctness: 2, safe: 1 } }, rubric: 'default', rubric_version: 1, criterion_winner: { correctness: 'A' }, time_ms: 1200 }),
    );

    // The edit makes version 2; version 1 is untouched.
    expect(await service.dispatch('saveRubric', { project: 'p', name: 'default', criteria: v2 })).toEqual({ rubric: 'default', version: 2, created: true });
    const second = await service.dispatch('saveRatings', {
      project: 'p',
      annotator: 'alice',
      itemId: id('q2'),
      rubric: 'default',
      version: 2,
      ratings: { A: { correctness: 3, safe: 1, rambling: 0 }, B: { correctness: 1, safe: 1, rambling: 1 } },
    });
    expect(second.body).toMatchObject({ rubric: 'default', rubric_version: 2 });

    // The v1 label still points at v1, in the row itself and in its body.
    const versionOf = (labelId: string) =>
      db.prepare('SELECT v.version FROM label l JOIN rubric_version v ON v.id = l.rubric_version_id WHERE l.id = ?').pluck().get(labelId) as number;
    expect([versionOf(first.id), versionOf(second.id)]).toEqual([1, 2]);
    expect(labelRubricVersion(db, first.id)).toMatchObject({ rubric: 'default', version: 1 });
    // …and its values mean what they meant: the label's version is the 1–5 scale, where 5 is the top.
    const old = await service.dispatch('getRubric', { project: 'p', rubric: first.body.rubric as string, version: first.body.rubric_version });
    expect(old).toMatchObject({ rubric: 'default', version: 1, latest: 2, labels: 1, revisions: 1 });
    expect(old.criteria.map((c) => c.key)).toEqual(['correctness', 'safe', 'tone']);
    expect(old.criteria[0]!.scale).toEqual({ type: 'likert', min: 1, max: 5 });
    const current = await service.dispatch('getRubric', { project: 'p', rubric: 'default' });
    expect(current).toMatchObject({ version: 2, latest: 2, labels: 1 });
    expect(current.criteria[0]!.scale).toEqual({ type: 'likert', min: 1, max: 3 });
    // Under v2 the old label's 5 is off the scale: the two versions are kept apart, not merged.
    await expect(
      service.dispatch('saveRatings', { project: 'p', annotator: 'bob', itemId: id('q1'), rubric: 'default', version: 2, ratings: { A: { correctness: 5, safe: 1 }, B: { correctness: 1, safe: 1 } } }),
    ).rejects.toThrow(/ratings\.A\.correctness: must be a whole number from 1 to 3/);

    // The same content again, in any key order, keeps its version and adds no row.
    const versionsBefore = count(db, 'SELECT COUNT(*) FROM rubric_version');
    expect(await service.dispatch('saveRubric', { project: 'p', name: 'default', criteria: shuffled(v2) as CriterionInput[] })).toEqual({ rubric: 'default', version: 2, created: false });
    // Defaults spelled out are the same content too.
    const spelled = v2.map((c) => ({ description: '', weight: 1, required: false, ...c }));
    expect(await service.dispatch('saveRubric', { project: 'p', name: 'default', criteria: spelled })).toMatchObject({ version: 2, created: false });
    expect(count(db, 'SELECT COUNT(*) FROM rubric_version')).toBe(versionsBefore);

    // The schema refuses to change a version in place, and v1 reads the same afterwards.
    expect(() => db.prepare("UPDATE rubric_version SET criteria = '[]' WHERE version = 1").run()).toThrow(/a rubric version never changes/);
    expect((await service.dispatch('getRubric', { project: 'p', rubric: 'default', version: 1 })).criteria).toEqual(old.criteria);

    // Going back to v1's content is the next version (the one in force), not a rewrite of history.
    expect(await service.dispatch('saveRubric', { project: 'p', name: 'default', criteria: v1 })).toEqual({ rubric: 'default', version: 3, created: true });

    const list = await service.dispatch('listRubrics', { project: 'p' });
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'default', latest: 3 });
    expect(list[0]!.versions.map(({ version, criteria, labels, revisions }) => ({ version, criteria, labels, revisions }))).toEqual([
      { version: 1, criteria: 3, labels: 1, revisions: 1 },
      { version: 2, criteria: 4, labels: 1, revisions: 1 },
      { version: 3, criteria: 3, labels: 0, revisions: 0 },
    ]);

    // A new revision of the q1 label under v2 supersedes the v1 one: v1 keeps the revision, not the current label.
    await service.dispatch('saveRatings', { project: 'p', annotator: 'alice', itemId: id('q1'), rubric: 'default', version: 2, ratings: { A: { correctness: 3, safe: 1 }, B: { correctness: 1, safe: 0 } } });
    const after = (await service.dispatch('listRubrics', { project: 'p' }))[0]!.versions;
    expect(after.map((v) => [v.version, v.labels, v.revisions])).toEqual([
      [1, 0, 1],
      [2, 2, 2],
      [3, 0, 0],
    ]);
    expect(versionOf(first.id)).toBe(1);
    expect((await service.dispatch('progress', { project: 'p', annotator: 'alice', task: 'rubric' })).labeledByMe).toBe(2);
    db.close();
  });

  it('refuses values off the scale, unknown criteria and responses, and missing required criteria, naming them, and writes nothing', async () => {
    const { db, service, id } = await setup();
    await service.dispatch('saveRubric', { project: 'p', name: 'default', criteria: v1 });
    const labels = () => count(db, 'SELECT COUNT(*) FROM label');
    const before = labels();
    const rate = (ratings: Record<string, Record<string, number | string | null>>, extra: object = {}) =>
      service.dispatch('saveRatings', { project: 'p', annotator: 'alice', itemId: id('q1'), rubric: 'default', version: 1, ratings, ...extra });
    const ok = { correctness: 3, safe: 1 };

    await expect(rate({ A: { correctness: 6, safe: 1 }, B: ok })).rejects.toThrow('ratings.A.correctness: must be a whole number from 1 to 5, or null (not applicable) (it was 6)');
    await expect(rate({ A: { correctness: 2.5, safe: 1 }, B: ok })).rejects.toThrow(/ratings\.A\.correctness: must be a whole number from 1 to 5/);
    await expect(rate({ A: ok, B: { correctness: 3, safe: 2 } })).rejects.toThrow('ratings.B.safe: expected yes/no (true/false, 1/0) or null (not applicable), got 2');
    await expect(rate({ A: { ...ok, tone: 'rude' }, B: ok })).rejects.toThrow('ratings.A.tone: must be one of "formal", "casual", or null (not applicable) (it was "rude")');
    await expect(rate({ A: { ...ok, speed: 3 }, B: ok })).rejects.toThrow('ratings.A.speed: the rubric “default” version 1 has no criterion “speed” (its criteria: correctness, safe, tone)');
    await expect(rate({ A: ok, B: ok, C: ok })).rejects.toThrow(`ratings.C: item ${id('q1')} has 2 responses (A, B)`);
    await expect(rate({ A: ok, B: ok }, { criterionWinner: { speed: 'A' } })).rejects.toThrow('criterionWinner.speed: the rubric “default” version 1 has no criterion “speed”');
    // Every problem at once, not the first only.
    await expect(rate({ A: { correctness: 0, safe: 'yes' }, B: ok })).rejects.toThrow(/ratings\.A\.correctness: .*; ratings\.A\.safe: /);

    // Required criteria: each response needs a value for each (null is "not applicable", an answer).
    await expect(rate({ A: { safe: 1, tone: 'casual' } })).rejects.toThrow('Required criteria are not rated: A: correctness; B: correctness, safe.');
    await expect(rate({ A: ok, B: { correctness: 2 } })).rejects.toThrow('Required criteria are not rated: B: safe.');
    expect(labels()).toBe(before);
    const na = await rate({ A: { correctness: null, safe: 1 }, B: { correctness: 1, safe: null } });
    expect(na.body.ratings).toEqual({ A: { correctness: null, safe: 1 }, B: { correctness: 1, safe: null } });

    // A winner per criterion is for two responses; versions and rubrics that are not there are named.
    const three = { A: ok, B: ok, C: ok };
    await expect(service.dispatch('saveRatings', { project: 'p', annotator: 'alice', itemId: id('three'), rubric: 'default', version: 1, ratings: three, criterionWinner: { correctness: 'A' } })).rejects.toThrow(
      /criterionWinner: a winner per criterion is for an item with two responses; item \d+ has 3/,
    );
    await expect(rate({ A: ok, B: ok }, { version: 4 })).rejects.toThrow('The rubric “default” has no version 4; its versions are 1 to 1.');
    await expect(rate({ A: ok, B: ok }, { rubric: 'other' })).rejects.toThrow('The project “p” has no rubric named “other”. Its rubrics: default.');
    expect(labels()).toBe(before + 1);
    // A retried save (the same revision id) stores nothing twice.
    const again = await rate({ A: ok, B: ok }, { id: na.id });
    expect(again.id).toBe(na.id);
    expect(labels()).toBe(before + 1);
    db.close();
  });

  it("rates an item's own criteria the same way, versioned: stored with the first rating, an edit is the next version", async () => {
    const { db, service, id } = await setup();
    const item = id('q3');
    // As an importer writes them (the rar format): the item row's own criteria.
    const own: CriterionInput[] = [
      { key: 'states_four', description: 'Says the answer is 4', scale: { type: 'binary' }, weight: 5, required: true },
      { key: 'shows_work', scale: { type: 'likert', min: 0, max: 2 } },
    ];
    db.prepare('UPDATE item SET criteria = ? WHERE id = ?').run(JSON.stringify(own), item);
    const fresh = await service.dispatch('getRubric', { project: 'p', rubric: 'item', itemId: item });
    expect(fresh).toMatchObject({ rubric: 'item', version: 1, latest: 1, stored: false, createdAt: null, labels: 0, itemId: item });
    expect(count(db, 'SELECT COUNT(*) FROM rubric_version')).toBe(0);

    const first = await service.dispatch('saveRatings', { project: 'p', annotator: 'alice', itemId: item, rubric: 'item', version: 1, ratings: { A: { states_four: 1, shows_work: 2 }, B: { states_four: 0 } } });
    expect(first.body).toMatchObject({ rubric: 'item', rubric_version: 1, ratings: { A: { states_four: 1, shows_work: 2 }, B: { states_four: 0 } } });
    expect(await service.dispatch('getRubric', { project: 'p', rubric: 'item', itemId: item })).toMatchObject({ version: 1, stored: true, labels: 1 });
    await expect(service.dispatch('saveRatings', { project: 'p', annotator: 'bob', itemId: item, rubric: 'item', version: 1, ratings: { A: { shows_work: 3, states_four: 1 }, B: { states_four: 1 } } })).rejects.toThrow(
      /ratings\.A\.shows_work: must be a whole number from 0 to 2/,
    );

    // Changed on the item row (a re-import, another tool): the next version, stored when first rated or saved.
    const changed = [own[0]!];
    db.prepare('UPDATE item SET criteria = ? WHERE id = ?').run(JSON.stringify(changed), item);
    expect(await service.dispatch('getRubric', { project: 'p', rubric: 'item', itemId: item })).toMatchObject({ version: 2, latest: 2, stored: false, createdAt: null });
    expect((await service.dispatch('getRubric', { project: 'p', rubric: 'item', itemId: item, version: 1 })).criteria.map((c) => c.key)).toEqual(['states_four', 'shows_work']);

    // Written in the app: the edit is version 2; the old label keeps version 1 and its criteria.
    const edited = [{ ...own[0]!, scale: { type: 'likert' as const, min: 1, max: 4 } }];
    expect(await service.dispatch('saveItemCriteria', { project: 'p', itemId: item, criteria: edited })).toEqual({ rubric: 'item', version: 2, created: true });
    expect(await service.dispatch('saveItemCriteria', { project: 'p', itemId: item, criteria: shuffled(edited) as CriterionInput[] })).toEqual({ rubric: 'item', version: 2, created: false });
    const old = await service.dispatch('getRubric', { project: 'p', rubric: 'item', itemId: item, version: first.body.rubric_version });
    expect(old.criteria.map((c) => [c.key, c.scale.type])).toEqual([
      ['states_four', 'binary'],
      ['shows_work', 'likert'],
    ]);
    expect((await service.dispatch('getRubric', { project: 'p', rubric: 'item', itemId: item })).criteria[0]!.scale).toEqual({ type: 'likert', min: 1, max: 4 });
    // A screen still showing version 1 may save under it: the label says so, and means v1's scale.
    const stale = await service.dispatch('saveRatings', { project: 'p', annotator: 'bob', itemId: item, rubric: 'item', version: 1, ratings: { A: { states_four: 1 }, B: { states_four: 0 } } });
    expect(stale.body.rubric_version).toBe(1);
    await expect(service.dispatch('saveRatings', { project: 'p', annotator: 'bob', itemId: item, rubric: 'item', version: 3, ratings: {} })).rejects.toThrow(/have no version 3; the newest is 2/);
    // Items' own rubrics stay out of the project's list; an item without criteria says so; "item" is no project rubric's name.
    expect(await service.dispatch('listRubrics', { project: 'p' })).toEqual([]);
    await expect(service.dispatch('getRubric', { project: 'p', rubric: 'item', itemId: id('q1') })).rejects.toThrow(/has no criteria of its own/);
    await expect(service.dispatch('getRubric', { project: 'p', rubric: 'item' })).rejects.toThrow(/itemId/);
    await expect(service.dispatch('saveRubric', { project: 'p', name: 'item', criteria: own })).rejects.toThrow(/kept for an item's own criteria/);

    // Another project's item is refused as everywhere else, and nothing is written.
    await importLines(db, { project: 'other', fileName: 'o.jsonl', lines: [JSON.stringify({ prompt: 'o', chosen: 'x', rejected: 'y' })], sha256: 'o', format: 'trl', skipInvalid: false, createProject: true });
    const foreign = db.prepare("SELECT i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'other'").pluck().get() as number;
    const labels = count(db, 'SELECT COUNT(*) FROM label');
    for (const call of [
      service.dispatch('saveItemCriteria', { project: 'p', itemId: foreign, criteria: own }),
      service.dispatch('getRubric', { project: 'p', rubric: 'item', itemId: foreign }),
      service.dispatch('saveRatings', { project: 'p', annotator: 'alice', itemId: foreign, rubric: 'item', version: 1, ratings: {} }),
    ])
      await expect(call).rejects.toThrow(`Item ${foreign} is not in the project “p”: it belongs to “other”`);
    expect(count(db, 'SELECT COUNT(*) FROM label')).toBe(labels);
    expect(count(db, 'SELECT COUNT(*) FROM item WHERE criteria IS NOT NULL')).toBe(1);
    db.close();
  });
});

describe('the criteria schema', () => {
  it('names the field and the reason of every problem, and stores nothing', async () => {
    const problems = (criteria: unknown) => {
      const checked = checkCriteria(criteria);
      return checked.ok ? [] : checked.problems.map(problemText);
    };
    const likert = (min: number, max: number) => ({ key: 'k', scale: { type: 'likert', min, max } });
    expect(problems([{ key: 'a', scale: { type: 'binary' } }, { key: 'b', scale: { type: 'binary' } }, { key: 'c', scale: { type: 'likert', min: 1, max: 1 } }])).toEqual([
      'criteria[2].scale.max: must be greater than min (1)',
    ]);
    expect(problems([likert(1, 5), { key: 'k', scale: { type: 'binary' } }])).toEqual(['criteria[1].key: "k" is already the key of criteria[0]']);
    expect(problems([{ ...likert(1, 5), hotkey: 'x' }, { key: 'j', scale: { type: 'binary' }, hotkey: 'X' }])).toEqual(['criteria[1].hotkey: "X" is already the hotkey of criteria[0] (k)']);
    expect(problems([{ key: 'Correct ness', scale: { type: 'stars' } }])).toEqual([
      'criteria[0].key: must be a slug: lowercase letters, digits, "_" and "-", starting with a letter or digit (it was "Correct ness")',
      'criteria[0].scale.type: must be one of "binary", "likert", "categories" (it was "stars")',
    ]);
    expect(problems([{ key: 'k', scale: { type: 'likert', min: 1.5 }, weight: 'high', wieght: 2 }])).toEqual([
      'criteria[0].scale.min: must be a whole number (it was 1.5)',
      'criteria[0].scale.max: is missing',
      'criteria[0].weight: must be a number (it was "high")',
      'criteria[0].wieght: is not a field Arbiter knows here (key, description, scale, weight, required, hotkey)',
    ]);
    expect(problems([{ key: 'k', scale: { type: 'categories', values: ['a', 'b', 'a'] } }])).toEqual(['criteria[0].scale.values[2]: "a" is already values[0]']);
    expect(problems([{ key: 'k', scale: { type: 'categories', values: ['only'] } }])).toEqual(['criteria[0].scale.values: needs at least 2 categories']);
    expect(problems([{ key: 'k', scale: { type: 'binary' }, hotkey: '5' }])).toEqual(['criteria[0].hotkey: must not be a digit: digits rate (it was "5")']);
    expect(problems([{ key: 'k', scale: { type: 'binary' }, hotkey: 'ab' }])).toEqual(['criteria[0].hotkey: must be one character (it was "ab")']);
    expect(problems([{ key: 'k' }])).toEqual(['criteria[0].scale: is missing']);
    expect(problems([])).toEqual(['criteria: needs at least one criterion']);
    // Key order never matters to the hash: canonical JSON sorts keys at every depth, and keeps list order.
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: 3 } })).toBe('{"a":{"c":3,"d":[2,{"x":0,"y":1}]},"b":1}');
    const file = checkRubricFile({ name: 'a/b', criteria: [likert(3, 2)], extra: 1 });
    expect(file.ok ? [] : file.problems.map(problemText)).toEqual([
      'name: rubric name has a slash or a control character',
      'criteria[0].scale.max: must be greater than min (3)',
      'extra: is not a field Arbiter knows here (name, version, criteria)',
    ]);

    // Through the API: the same sentence, and nothing stored.
    const { db, service } = await setup();
    await expect(service.dispatch('saveRubric', { project: 'p', name: 'default', criteria: [{ key: 'a', scale: { type: 'binary' } }, likert(4, 2)] as CriterionInput[] })).rejects.toThrow(
      'criteria[1].scale.max: must be greater than min (4)',
    );
    expect(count(db, 'SELECT COUNT(*) FROM rubric')).toBe(0);
    db.close();
  });
});

describe('arbiter rubric', () => {
  function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    return runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) }).then((code) => ({ code, stdout: out.join('\n'), stderr: err.join('\n') }));
  }

  it('imports, lists and exports a rubric that imports again as the same version, and names the field of a bad file', async () => {
    const { db, dbPath, id, service } = await setup();
    const dir = tempDir();
    const file = join(dir, 'rubric.json');
    writeFileSync(file, JSON.stringify({ name: 'default', criteria: v1 }, null, 2));
    const at = ['--project', 'p', '--db', dbPath];

    const imported = await cli(['rubric', 'import', file, ...at]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ rubric: 'default', version: 1, created: true });
    expect(JSON.parse((await cli(['rubric', 'import', file, ...at])).stdout)).toEqual({ rubric: 'default', version: 1, created: false });
    await service.dispatch('saveRatings', { project: 'p', annotator: 'alice', itemId: id('q1'), rubric: 'default', version: 1, ratings: { A: { correctness: 4, safe: 1 }, B: { correctness: 2, safe: 1 } } });

    const edited = join(dir, 'edited.json');
    writeFileSync(edited, JSON.stringify({ name: 'default', criteria: v2 }));
    expect(JSON.parse((await cli(['rubric', 'import', edited, ...at])).stdout)).toEqual({ rubric: 'default', version: 2, created: true });

    const listed = await cli(['rubric', 'list', ...at, '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string; latest: number; versions: { version: number; labels: number }[] }[]).map((r) => [r.name, r.latest, r.versions.map((v) => [v.version, v.labels])])).toEqual([
      ['default', 2, [[1, 1], [2, 0]]],
    ]);
    const text = await cli(['rubric', 'list', ...at]);
    expect(text.stdout).toContain('default: 2 version(s), v2 in force');
    expect(text.stdout).toMatch(/v1 .* 3 criteria {2}1 label\(s\), 1 revision\(s\)/);
    expect(text.stdout).toContain('correctness (likert 1–3)');

    // Export v1 (what the label was made under), then import the export: it is the newest content no more, so v3.
    const out = join(dir, 'v1.json');
    const exported = await cli(['rubric', 'export', ...at, '--version', '1', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ rubric: 'default', version: 1, latest: 2, criteria: 3 });
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(written).toMatchObject({ name: 'default', version: 1 });
    expect(written.criteria).toEqual((await service.dispatch('getRubric', { project: 'p', rubric: 'default', version: 1 })).criteria);
    expect(written.criteria[0]).toEqual({ key: 'correctness', description: 'Is the final answer right?', scale: { type: 'likert', min: 1, max: 5 }, weight: 2, required: true, hotkey: 'c' });
    // The newest version's export imports again as that same version.
    const latest = join(dir, 'latest.json');
    expect((await cli(['rubric', 'export', ...at, '--out', latest])).code).toBe(0);
    expect(JSON.parse((await cli(['rubric', 'import', latest, ...at])).stdout)).toEqual({ rubric: 'default', version: 2, created: false });
    expect(JSON.parse((await cli(['rubric', 'import', out, ...at])).stdout)).toEqual({ rubric: 'default', version: 3, created: true });

    // A bad file: each problem as FILE: field: reason, exit 1, nothing imported.
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ name: 'default', criteria: [v1[0], { key: 'safe', scale: { type: 'likert', min: 5, max: 1 } }, { key: 'safe', scale: { type: 'binary' } }] }));
    const refused = await cli(['rubric', 'import', bad, ...at]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.split('\n')[0]).toBe(`${bad}: criteria[1].scale.max: must be greater than min (5)`);
    expect(refused.stderr).toContain('nothing was imported');
    writeFileSync(bad, '{"name": "default", "criteria": [');
    const notJson = await cli(['rubric', 'import', bad, ...at]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not JSON: `));
    expect(count(db, "SELECT COUNT(*) FROM rubric_version v JOIN rubric r ON r.id = v.rubric_id WHERE r.name = 'default'")).toBe(3);

    // Names are checked as the API checks them (exit 2), a missing project or rubric is bad input (exit 1).
    expect((await cli(['rubric', 'import', file, '--project', 'a/b', '--db', dbPath])).code).toBe(2);
    expect((await cli(['rubric', 'export', ...at, '--rubric', 'x/y', '--out', out])).code).toBe(2);
    expect((await cli(['rubric', 'export', ...at, '--version', 'two', '--out', out])).code).toBe(2);
    expect((await cli(['rubric', 'frobnicate', ...at])).code).toBe(2);
    const noProject = await cli(['rubric', 'import', file, '--project', 'nope', '--db', dbPath]);
    expect([noProject.code, noProject.stderr]).toEqual([1, 'arbiter rubric: No project named "nope". Projects: p.']);
    const noRubric = await cli(['rubric', 'export', ...at, '--rubric', 'other', '--out', out]);
    expect(noRubric.code).toBe(1);
    expect(noRubric.stderr).toContain('has no rubric named “other”');
    const noVersion = await cli(['rubric', 'export', ...at, '--version', '9', '--out', out]);
    expect([noVersion.code, noVersion.stderr]).toEqual([1, 'arbiter rubric: The rubric “default” has no version 9; its versions are 1 to 3.']);
    db.close();
  });
});
