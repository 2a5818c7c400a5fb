// One validation for a label, whichever way it comes (issue 13, findings 11, 12, 13, 28, 30): a labels
// file's revision passes the same schemas and item-aware checks as a save (step ratings, first error,
// response letters, rubric version, shown order), bad lines are named FILE:LINE: reason and nothing
// merges unless --skip-invalid; a revision id is one label's only (a save or a file reusing it for
// another is refused or reported, a true retry is idempotent); a binary criterion takes true / false,
// and a refused value says what was expected there.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { importLabelsFile, importLines } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb, type Db } from '../../electron/core/store/db';
import { tempDir } from '../helpers/tmp';

const ITEMS = [
  { id: 'q1', prompt: 'Which is larger, 9.8 or 9.11?', responses: [{ text: '9.8' }, { text: '9.11' }] },
  { id: 'q2', prompt: 'Capital of France?', responses: [{ text: 'Paris.' }, { text: 'Lyon.' }] },
  { id: 'three', prompt: 'Name a colour.', responses: [{ text: 'Red.' }, { text: 'Blue.' }, { text: 'Green.' }] },
  { id: 'one', prompt: 'Add 2 and 2.', responses: [{ text: 'First, 2 + 2 = 4.\n\nSo the answer is 4.' }] },
  { id: 'chain', prompt: 'Add 3 and 4.', responses: [{ text: '3 + 4 = 7.\nCheck: 7 - 4 = 3.\nSo 7.', steps: ['3 + 4 = 7.', 'Check: 7 - 4 = 3.', 'So 7.'] }] },
];

async function setup(dir = tempDir(), name = 'a') {
  const dbPath = join(dir, `${name}.db`);
  const db = openDb(dbPath);
  for (const project of ['p', 'q'])
    await importLines(db, { project, fileName: `${project}.jsonl`, lines: ITEMS.map((i) => JSON.stringify(i)), sha256: project, format: 'arbiter', skipInvalid: false, createProject: true });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
  const id = (project: string, external: string) =>
    db.prepare('SELECT i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = ? AND i.external_id = ?').pluck().get(project, external) as number;
  await service.dispatch('saveRubric', {
    project: 'p',
    name: 'default',
    criteria: [
      { key: 'correctness', scale: { type: 'likert', min: 1, max: 5 } },
      { key: 'safe', scale: { type: 'binary' } },
    ],
  });
  return { db, dbPath, dir, service, id };
}

const count = (db: Db, sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as number;
const cli = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
};

const base = { annotator: 'bob', annotator_uuid: '0190a0b0-0000-7000-8000-000000000001', created_at: '2026-11-02T10:00:00.000Z' };
let n = 0;
const rid = () => `0190a0b0-0000-7000-8000-${String(++n).padStart(12, '0')}`;

describe('a labels file passes the checks a save passes', () => {
  it('refuses what the API refuses, naming FILE:LINE and the field, and merges nothing (or, with --skip-invalid, the valid lines)', async () => {
    const { db, dbPath, dir } = await setup();
    const lines = [
      { ...base, id: rid(), item: 'q1', task: 'pairwise', choice: 'A', strength: 2, shown_order: [1, 0] }, // good
      { ...base, id: rid(), item: 'one', task: 'steps', steps: { A: [1, 42] } },
      { ...base, id: rid(), item: 'one', task: 'steps', steps: { A: [-9] } },
      { ...base, id: rid(), item: 'one', task: 'steps', steps: { A: [1e300] } },
      { ...base, id: rid(), item: 'one', task: 'steps', steps: { A: [1, 1] }, first_error: { A: 999999 } },
      { ...base, id: rid(), item: 'one', task: 'steps', steps: { A: [1, 1] }, first_error: { A: -7 } },
      { ...base, id: rid(), item: 'q1', task: 'rubric', ratings: { C: { correctness: 3 } }, rubric: 'default', rubric_version: 1 },
      { ...base, id: rid(), item: 'q1', task: 'rubric', ratings: { A: { correctness: 3 } }, rubric: 'default', rubric_version: -3 },
      { ...base, id: rid(), item: 'q1', task: 'pairwise', choice: 'B', shown_order: [0] },
      { ...base, id: rid(), item: 'q1', task: 'pairwise', choice: 'C' },
      { ...base, id: rid(), item: 'q1', task: 'critique', critique: { D: 'Wrong.' } },
      { ...base, id: rid(), item: 'q1', task: 'rubric', ratings: { A: { correctness: 9 } }, rubric: 'default', rubric_version: 1 },
      { ...base, id: rid(), item: 'q1', task: 'rubric', ratings: { A: { correctness: 3 } }, rubric: 'default', rubric_version: 7 },
      { ...base, id: rid(), item: 'three', task: 'ranking', ranking: [[2], [0]] },
      { ...base, id: rid(), item: 'chain', task: 'steps', steps: { A: [1, 1] }, segmentation: { A: 1 } },
    ];
    const file = join(dir, 'bob.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const refused = await cli(['labels', 'import', file, '--project', 'p', '--db', dbPath]);
    expect(refused.code).toBe(1);
    const said = refused.stderr.split('\n');
    const at = (line: number) => said.find((s) => s.startsWith(`${file}:${line}: `)) ?? `(nothing said about line ${line})`;
    expect(at(1)).toBe(`(nothing said about line 1)`);
    expect(at(2)).toMatch(/steps\.A\[1\]: expected a step rating of -1, 0 or 1 .*got 42/);
    expect(at(3)).toMatch(/steps\.A\[0\]: expected a step rating .*got -9/);
    expect(at(4)).toMatch(/steps\.A\[0\]: expected a step rating .*got 1e\+300/);
    expect(at(5)).toMatch(/steps\.A: the first error is step 1000000, but there are 2 steps/);
    expect(at(6)).toMatch(/first_error\.A: expected a step index of -1 \(no error\) or more/);
    expect(at(7)).toMatch(/ratings\.C: the item has 2 responses \(A, B\), not "C"/);
    expect(at(8)).toMatch(/rubric_version: expected a rubric version of 1 or more/);
    expect(at(9)).toMatch(/shown_order: must list each of the item's 2 response indexes once/);
    expect(at(10)).toMatch(/choice: the item has 2 responses \(A, B\), not "C"/);
    expect(at(11)).toMatch(/critique\.D: the item has 2 responses/);
    expect(at(12)).toMatch(/ratings\.A\.correctness: must be a whole number from 1 to 5/);
    expect(at(13)).toMatch(/rubric_version: this project’s rubric “default” has no version 7/);
    expect(at(14)).toMatch(/ranking: must put each of the item's 3 responses in exactly one place/);
    expect(at(15)).toMatch(/steps\.A: the response has 3 steps; the ratings list has 2/);
    expect(refused.stderr).toMatch(/14 invalid line\(s\); nothing was imported/);
    expect(count(db, 'SELECT COUNT(*) FROM label')).toBe(0);

    // --skip-invalid (which the message offers) merges the valid line and writes the rest beside the file.
    const skipped = await cli(['labels', 'import', file, '--project', 'p', '--db', dbPath, '--skip-invalid']);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ added: 1, skipped: 14, rejectsFile: `${file}.rejects.jsonl` });
    expect(readFileSync(`${file}.rejects.jsonl`, 'utf8').trim().split('\n')).toHaveLength(14);
    expect(count(db, 'SELECT COUNT(*) FROM label')).toBe(1);
    db.close();
  });

  it('takes a binary criterion’s true / false (stored as 1 / 0), in a file and in a save, and says what was expected where a value does not fit', async () => {
    const { db, dir, service, id } = await setup();
    const saved = await service.dispatch('saveRatings', { project: 'p', annotator: 'ann', itemId: id('p', 'q1'), rubric: 'default', version: 1, ratings: { A: { correctness: 4, safe: true }, B: { safe: false } } });
    expect(saved.body.ratings).toEqual({ A: { correctness: 4, safe: 1 }, B: { safe: 0 } });
    await expect(service.dispatch('saveRatings', { project: 'p', annotator: 'ann', itemId: id('p', 'q1'), rubric: 'default', version: 1, ratings: { A: { safe: 'maybe' } } })).rejects.toThrow(
      'ratings.A.safe: expected yes/no (true/false, 1/0) or null (not applicable), got "maybe"',
    );
    await expect(service.dispatch('saveRatings', { project: 'p', annotator: 'ann', itemId: id('p', 'q1'), rubric: 'default', version: 1, ratings: { A: { safe: [] } } } as never)).rejects.toThrow(
      /ratings\.A\.safe.*expected a rating \(a number, yes\/no as true\/false, a category name, or null\), got a list/,
    );
    const file = join(dir, 'ratings.jsonl');
    const good = { ...base, id: rid(), item: 'q2', task: 'rubric', ratings: { A: { safe: true }, B: { safe: false, correctness: 2 } }, rubric: 'default', rubric_version: 1 };
    const bad = { ...base, id: rid(), item: 'q1', task: 'rubric', ratings: { A: { safe: { yes: true } } }, rubric: 'default', rubric_version: 1 };
    writeFileSync(file, `${JSON.stringify(good)}\n${JSON.stringify(bad)}\n`);
    const refused = await importLabelsFile(db, { path: file, project: 'p' }).catch((e: { errors: unknown }) => e.errors);
    expect(refused).toEqual([{ line: 2, reason: 'ratings.A.safe: expected a rating (a number, yes/no as true/false, a category name, or null), got an object' }]);
    writeFileSync(file, `${JSON.stringify(good)}\n`);
    expect(await importLabelsFile(db, { path: file, project: 'p' })).toMatchObject({ added: 1 });
    const stored = JSON.parse(db.prepare('SELECT body FROM label WHERE id = ?').pluck().get(good.id) as string);
    expect(stored.ratings).toEqual({ A: { safe: 1 }, B: { correctness: 2, safe: 0 } });
    db.close();
  });
});

describe('a revision id belongs to one label', () => {
  it('every save refuses an id another project, item, task or annotator used, and a true retry answers ok with nothing new', async () => {
    const { db, service, id } = await setup();
    const steps = await service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: id('p', 'one') });
    const stepCount = steps.responses[0]!.steps.length;
    const saves = {
      saveCritique: (project: string, rev: string) => service.dispatch('saveCritique', { project, annotator: 'ann', itemId: id(project, 'q1'), id: rev, critiques: { A: 'Right.' } }),
      saveRanking: (project: string, rev: string) => service.dispatch('saveRanking', { project, annotator: 'ann', itemId: id(project, 'three'), id: rev, ranking: [[0], [1, 2]], shownOrder: [0, 1, 2] }),
      saveVerdict: (project: string, rev: string) => service.dispatch('saveVerdict', { project, annotator: 'ann', itemId: id(project, 'one'), id: rev, verdict: 'good' }),
      saveSteps: (project: string, rev: string) =>
        service.dispatch('saveSteps', { project, annotator: 'ann', itemId: id(project, 'one'), id: rev, response: 0, steps: { version: 1, ratings: Array(stepCount).fill(1), firstError: null } }),
      saveRatings: (project: string, rev: string) => service.dispatch('saveRatings', { project, annotator: 'ann', itemId: id(project, 'q1'), id: rev, rubric: 'default', version: 1, ratings: { A: { correctness: 5 } } }),
      saveLabel: (project: string, rev: string) => service.dispatch('saveLabel', { project, annotator: 'ann', itemId: id(project, 'q1'), id: rev, choice: 'A', shownOrder: [0, 1] }),
    };
    await service.dispatch('saveRubric', { project: 'q', name: 'default', criteria: [{ key: 'correctness', scale: { type: 'likert', min: 1, max: 5 } }] });
    for (const [name, save] of Object.entries(saves)) {
      const rev = rid();
      const first = await save('p', rev);
      expect(first.id, name).toBe(rev);
      const before = count(db, 'SELECT COUNT(*) FROM label');
      // The same id in another project: refused, with a sentence, and nothing saved.
      await expect(save('q', rev), name).rejects.toThrow(/already used by another label/);
      expect(count(db, 'SELECT COUNT(*) FROM label'), name).toBe(before);
      // A true retry: ok, the same revision, nothing new.
      expect((await save('p', rev)).id, name).toBe(rev);
      expect(count(db, 'SELECT COUNT(*) FROM label'), name).toBe(before);
    }
    // Another task or another annotator in the same project: refused too.
    const rev = rid();
    await saves.saveLabel('p', rev);
    await expect(service.dispatch('saveCritique', { project: 'p', annotator: 'ann', itemId: id('p', 'q1'), id: rev, critiques: { A: 'x' } })).rejects.toThrow(/already used by another label/);
    await expect(service.dispatch('saveLabel', { project: 'p', annotator: 'eve', itemId: id('p', 'q1'), id: rev, choice: 'A', shownOrder: [0, 1] })).rejects.toThrow(/already used by another label/);
    db.close();
  });

  it('a labels file reusing an id for a different label says so in the summary (count and lines), and merges nothing of those lines', async () => {
    const { db, dir } = await setup();
    const first = { ...base, id: rid(), item: 'q1', task: 'pairwise', choice: 'A', strength: 2, shown_order: [0, 1] };
    const file = join(dir, 'one.jsonl');
    writeFileSync(file, `${JSON.stringify(first)}\n`);
    expect(await importLabelsFile(db, { path: file, project: 'p' })).toMatchObject({ added: 1, duplicates: 0, reusedIds: 0 });
    // The same line again is a duplicate; the same id for another choice, or twice in one file, is a reused id.
    const other = { ...first, choice: 'B' };
    const fresh = { ...base, id: rid(), item: 'q2', task: 'pairwise', choice: 'A', strength: 2, shown_order: [0, 1] };
    const twice = { ...fresh, item: 'q1' };
    writeFileSync(file, [first, other, fresh, twice].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const summary = await importLabelsFile(db, { path: file, project: 'p' });
    expect(summary).toMatchObject({ added: 1, duplicates: 1, reusedIds: 2, reusedIdLines: [{ line: 2, id: first.id }, { line: 4, id: fresh.id }] });
    expect(db.prepare('SELECT choice FROM label WHERE id = ?').pluck().get(first.id)).toBe('A');
    const said = await cli(['labels', 'import', file, '--project', 'p', '--db', join(dir, 'a.db')]);
    expect(said.stderr).toMatch(/2 lines reuse a revision id stored here for a different label and were not merged \(lines 2, 4\)/);
    expect(existsSync(`${file}.rejects.jsonl`)).toBe(false);
    db.close();
  });
});

describe('rubric import', () => {
  it('takes a file that starts with a UTF-8 byte order mark, as the JSONL importers do', async () => {
    const { db, dbPath, dir } = await setup();
    db.close();
    const file = join(dir, 'rubric.json');
    writeFileSync(file, `\uFEFF${JSON.stringify({ name: 'bom', criteria: [{ key: 'safe', scale: { type: 'binary' } }] })}\n`);
    const result = await cli(['rubric', 'import', file, '--project', 'p', '--db', dbPath]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ rubric: 'bom', version: 1, created: true });
  });
});

describe('a refused value says what was expected at its field', () => {
  it('in the API: step ratings, first error, revision id, ranking group, response letter, rating value', async () => {
    const { db, service, id } = await setup();
    const refusal = (op: string, input: Record<string, unknown>) =>
      service.dispatch(op as never, { project: 'p', annotator: 'ann', itemId: id('p', 'q1'), ...input } as never).then(
        () => 'accepted',
        (error: Error) => error.message,
      );
    expect(await refusal('saveSteps', { response: 0, steps: { version: 1, ratings: [42], firstError: -7 } })).toBe(
      'Could not save the step ratings: steps.ratings[0]: expected a step rating of -1, 0 or 1 (or null: not rated), got 42; steps.firstError: expected a step index of -1 (no error) or more.',
    );
    expect(await refusal('saveLabel', { choice: 'A', shownOrder: [0, 1], id: 'abc' })).toBe('Could not save the label: id: expected a revision id (a lowercase UUID).');
    expect(await refusal('saveRanking', { ranking: [[]], shownOrder: [0, 1] })).toBe('Could not save the ranking: ranking[0]: expected a group of one or more response indexes, not an empty one.');
    expect(await refusal('saveRatings', { rubric: 'default', version: 1, ratings: { a: { safe: 1 } } })).toBe(
      'Could not save the ratings: “ratings.a” is not a key that fits here: expected a response letter, A to Z (it was “a”).',
    );
    db.close();
  });
});
