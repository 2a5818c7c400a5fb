// Full-text search (issue 22 §1–2) on real SQLite files: what an import writes is found, and only once
// the import completes; a failed import leaves no index rows; a saved rationale, critique, correction or
// region note is found at once and an edited one no longer matches its old words; hits are ranked by
// bm25 and come with their words in context as plain text; pages do not repeat; a malformed query is a
// sentence.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importLines } from '../../electron/core/formats/index';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { itemInserter } from '../../electron/core/store/itemInsert';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { matchingItemIds, searchPage } from '../../electron/core/store/search';
import { tempDir } from '../helpers/tmp';

const record = (id: string, prompt: string, a: unknown, b: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ id, prompt, responses: [a, b], ...extra });

async function imported(lines: string[], project = 'p') {
  const db = openDb(join(tempDir(), 'a.db'));
  await importLines(db, { project, fileName: 'p.jsonl', lines, sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
  return db;
}

const ids = (db: Db, query: string, project = 'p') => searchPage(db, requireProject(db, project).id, query).rows.map((r) => r.itemId);
const externalIds = (db: Db, query: string) =>
  ids(db, query).map((id) => db.prepare('SELECT external_id FROM item WHERE id = ?').pluck().get(id) as string);

const TRAJECTORY = [
  { role: 'assistant', content: 'I will search the repository.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'grep_repo', arguments: '{"pattern":"frobnicate"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'src/widget.py:12: def frobnicate()' },
  { role: 'assistant', content: 'Found it; the bug is in widget.' },
];

describe('search after an import', () => {
  it('finds a word in any response, a phrase, a prefix, a word without its accents, and a field', async () => {
    const db = await imported([
      record('sky', 'Why is the sky blue?', { text: 'Because of Rayleigh scattering of sunlight.' }, { text: 'The sea reflects.' }, { reference: 'Rayleigh scattering' }),
      record('cafe', 'Where to get coffee?', { text: 'A café near the station.' }, { text: 'At home.' }),
    ]);
    const agent = JSON.stringify({ id: 'agent', task: [{ role: 'user', content: 'Fix the widget bug' }], trajectories: [{ id: 'run', messages: TRAJECTORY }] });
    await importLines(db, { project: 'p', fileName: 'agent.jsonl', lines: [agent], sha256: 'agent', format: 'arbiter-trajectory', skipInvalid: false });
    expect(externalIds(db, 'rayleigh')).toEqual(['sky']);
    expect(externalIds(db, 'Rayleigh AND sunlight')).toEqual(['sky']);
    expect(externalIds(db, '"sea reflects"')).toEqual(['sky']);
    expect(externalIds(db, '"reflects sea"')).toEqual([]);
    expect(externalIds(db, 'scatter*')).toEqual(['sky']);
    expect(externalIds(db, 'cafe')).toEqual(['cafe']);
    expect(externalIds(db, 'prompt:coffee')).toEqual(['cafe']);
    expect(externalIds(db, 'response:coffee')).toEqual([]);
    expect(externalIds(db, 'reference:rayleigh')).toEqual(['sky']);
    expect(externalIds(db, 'reference:sunlight')).toEqual([]);
    // Every turn of a trajectory, its tool calls (name, arguments) and results.
    expect(externalIds(db, 'tool:frobnicate')).toEqual(['agent']);
    expect(externalIds(db, 'tool:grep_repo')).toEqual(['agent']);
    expect(externalIds(db, 'response:"def frobnicate"')).toEqual(['agent']);
    expect(externalIds(db, 'prompt:frobnicate')).toEqual([]);
    expect(externalIds(db, 'widget NOT repository')).toEqual([]);
    expect(externalIds(db, 'bug NOT repository')).toEqual([]);
    expect(externalIds(db, 'sunlight OR bug')).toHaveLength(2);
    expect(externalIds(db, '(coffee OR sunlight) NOT cafe')).toEqual(['sky']);
    expect(matchingItemIds(db, requireProject(db, 'p').id, 'home OR sky').count).toBe(2);
    db.close();
  });

  it('ranks by bm25 and shows the hits in context as plain text parts', async () => {
    const db = await imported([
      record('once', 'q1', { text: 'A long answer about many things, among them a zebra, and then more words about other things.' }, { text: 'b' }),
      record('often', 'q2', { text: 'zebra zebra zebra' }, { text: 'the <b>zebra</b>' }),
    ]);
    const page = searchPage(db, requireProject(db, 'p').id, 'zebra');
    expect(page.rows.map((r) => db.prepare('SELECT external_id FROM item WHERE id = ?').pluck().get(r.itemId))).toEqual(['often', 'once']);
    expect(page.rows[0]!.rank).toBeLessThan(page.rows[1]!.rank);
    const snippet = page.rows[1]!.snippets[0]!;
    expect(snippet.field).toBe('response');
    expect(snippet.parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['zebra']);
    expect(snippet.parts.map((p) => p.text).join('')).toContain('among them a zebra, and then');
    // Markup in the data stays text.
    expect(page.rows[0]!.snippets[0]!.parts.map((p) => p.text).join('')).toContain('<b>');
    db.close();
  });

  it('pages through every hit once, in rank order', async () => {
    const lines = Array.from({ length: 130 }, (_, i) => record(`q${i}`, `prompt ${i}`, { text: `walrus ${'walrus '.repeat(i % 7)}` }, { text: 'x' }));
    const db = await imported(lines);
    const project = requireProject(db, 'p').id;
    const seen: number[] = [];
    let after = null;
    let ranks: number[] = [];
    for (let pages = 0; pages < 10; pages++) {
      const page = searchPage(db, project, 'walrus', { limit: 50, after });
      seen.push(...page.rows.map((r) => r.itemId));
      ranks = ranks.concat(page.rows.map((r) => r.rank));
      after = page.next;
      if (!after) break;
    }
    expect(seen).toHaveLength(130);
    expect(new Set(seen).size).toBe(130);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    // bm25 ties (the same text, the same length) run across pages: within a tie, item ids go up.
    const order = seen.map((id, i) => [ranks[i]!, id] as const);
    expect([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1])).toEqual(order);
    expect(new Set(ranks).size).toBeLessThan(20);
    db.close();
  });

  it("finds a project's hits when another project's items rank above them all", async () => {
    const db = await imported([record('mine', 'q', { text: 'a walrus among many other words here' }, { text: 'b' })]);
    const theirs = Array.from({ length: 400 }, (_, i) => record(`o${i}`, `q${i}`, { text: 'walrus walrus' }, { text: 'x' }));
    await importLines(db, { project: 'other', fileName: 'o.jsonl', lines: theirs, sha256: 'o', format: 'arbiter', skipInvalid: false, createProject: true });
    expect(externalIds(db, 'walrus')).toEqual(['mine']);
    expect(searchPage(db, requireProject(db, 'other').id, 'walrus', { limit: 10 }).rows).toHaveLength(10);
    db.close();
  });

  it('finds nothing of an import that failed, and leaves no index rows behind', async () => {
    const db = await imported([record('a', 'first', { text: 'aardvark' }, { text: 'b' })]);
    // Good lines enough for several written batches, then a bad one: the import is removed batch by batch.
    const lines = Array.from({ length: 6000 }, (_, i) => record(`b${i}`, `second ${i}`, { text: `okapi ${i}` }, { text: 'b' }));
    lines.push('{"not": "a record"}');
    await expect(importLines(db, { project: 'p', fileName: 'bad.jsonl', lines, sha256: 't', format: 'arbiter', skipInvalid: false, parallel: false })).rejects.toThrow(/invalid line/);
    expect(db.prepare('SELECT COUNT(*) FROM item').pluck().get()).toBe(1);
    expect(ids(db, 'okapi')).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) FROM item_search').pluck().get()).toBe(1);
    expect(db.prepare("SELECT COUNT(*) FROM item_search WHERE item_search MATCH 'okapi'").pluck().get()).toBe(0);
    db.close();
  });

  it('drops the index rows of an import a kill cut short, with its items, when the database opens again', async () => {
    const path = join(tempDir(), 'killed.db');
    let db = openDb(path);
    await importLines(db, { project: 'p', fileName: 'p.jsonl', lines: [record('a', 'first', { text: 'aardvark' }, { text: 'b' })], sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
    const project = requireProject(db, 'p').id;
    // What a killed import leaves: its rows written (index rows with them), above visible_seq, its record pending under a dead process.
    const visible = db.prepare('SELECT visible_seq FROM project WHERE id = ?').pluck().get(project) as number;
    db.transaction(() => {
      const insert = itemInserter(db, project);
      for (let i = 0; i < 3; i++) insert.insert({ externalId: `k${i}`, prompt: 'killed', responses: [{ content: `okapi ${i}`, model: null, steps: null }], reference: null, metadata: {} });
      db.prepare('UPDATE project SET visible_seq = ? WHERE id = ?').run(visible, project);
      db.prepare("INSERT INTO import_file (project_id, sha256, file_name, format, imported_at, items, labels, state, owner, first_seq) VALUES (?, '', 'k.jsonl', 'arbiter', '', 0, 0, 'pending', ?, ?)").run(project, `${hostname()}:999999999`, visible);
    })();
    expect(ids(db, 'okapi')).toEqual([]);
    expect(db.prepare("SELECT COUNT(*) FROM item_search WHERE item_search MATCH 'okapi'").pluck().get()).toBe(3);
    db.close();
    db = openDb(path);
    expect(db.prepare('SELECT COUNT(*) FROM item').pluck().get()).toBe(1);
    expect(db.prepare('SELECT COUNT(*) FROM item_search').pluck().get()).toBe(1);
    expect(db.prepare("SELECT COUNT(*) FROM item_search WHERE item_search MATCH 'okapi'").pluck().get()).toBe(0);
    db.close();
  });

  it('never returns an item its project does not show yet (a pending import), nor another project\'s', async () => {
    const db = await imported([record('a', 'first', { text: 'aardvark' }, { text: 'b' })]);
    await importLines(db, { project: 'other', fileName: 'o.jsonl', lines: [record('o', 'x', { text: 'aardvark' }, { text: 'b' })], sha256: 'o', format: 'arbiter', skipInvalid: false, createProject: true });
    expect(externalIds(db, 'aardvark')).toEqual(['a']);
    db.prepare("UPDATE project SET visible_seq = 0 WHERE name = 'p'").run();
    expect(ids(db, 'aardvark')).toEqual([]);
    db.close();
  });
});

describe('search keeps current with every write', () => {
  async function labeled() {
    const db = await imported([record('a', 'first', { text: 'one' }, { text: 'two' }), record('b', 'second', { text: 'three' }, { text: 'four' })]);
    const project = requireProject(db, 'p').id;
    const itemId = db.prepare("SELECT id FROM item WHERE external_id = 'a'").pluck().get() as number;
    const annotatorId = ensureAnnotator(db, 'ann', 'human').id;
    const save = labelAppender(db);
    return { db, project, itemId, annotatorId, save };
  }

  it('finds a saved rationale at once, and an edited one no longer by its old words', async () => {
    const { db, project, itemId, annotatorId, save } = await labeled();
    save({ projectId: project, itemId, annotatorId, choice: 'A', body: { rationale: 'the first one cites its quokka sources' } });
    expect(ids(db, 'rationale:quokka')).toEqual([itemId]);
    expect(ids(db, 'quokka')).toEqual([itemId]);
    save({ projectId: project, itemId, annotatorId, choice: 'A', body: { rationale: 'shorter and kinder' } });
    expect(ids(db, 'quokka')).toEqual([]);
    expect(ids(db, 'rationale:kinder')).toEqual([itemId]);
    // The item's own text is still found after its label columns were rewritten.
    expect(ids(db, 'prompt:first')).toEqual([itemId]);
    db.close();
  });

  it("combines the labels' words with the item's in one query, with snippets from both", async () => {
    const { db, project, itemId, annotatorId, save } = await labeled();
    const other = db.prepare("SELECT id FROM item WHERE external_id = 'b'").pluck().get() as number;
    save({ projectId: project, itemId, annotatorId, choice: 'A', body: { rationale: 'the quokka answer is right' } });
    expect(ids(db, 'quokka AND first')).toEqual([itemId]);
    expect(ids(db, 'quokka AND second')).toEqual([]);
    expect(ids(db, 'quokka OR second').sort()).toEqual([itemId, other].sort());
    expect(ids(db, 'prompt:(first OR second) NOT rationale:quokka')).toEqual([other]);
    expect(ids(db, '"quokka answer"')).toEqual([itemId]);
    expect(ids(db, 'rationale:first')).toEqual([]);
    expect(matchingItemIds(db, project, 'quokka OR second').count).toBe(2);
    const hit = searchPage(db, project, 'quokka first').rows[0]!;
    expect(hit.snippets.map((s) => s.field)).toEqual(['rationale', 'prompt']);
    expect(hit.snippets[0]!.parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['quokka']);
    db.close();
  });

  it('finds critiques, corrections (text and tool calls) and region notes, by their fields', async () => {
    const { db, project, itemId, annotatorId, save } = await labeled();
    save({ projectId: project, itemId, annotatorId, task: 'critique', choice: null, done: true, body: { critique: { A: 'misses the pangolin case' } } });
    save({
      projectId: project,
      itemId,
      annotatorId,
      task: 'steps',
      choice: null,
      done: true,
      body: { corrections: { A: { '0': 'use the narwhal formula', '1': { tool_calls: [{ name: 'run_tests', arguments: { path: 'axolotl.py' } }] } } } },
    });
    save({ projectId: project, itemId, annotatorId, task: 'verdict', choice: 'good', body: { regions: [{ image: 'x', kind: 'box', box: [0, 0, 1, 1], tag: 't', note: 'a blurry ocelot' }] } as never });
    expect(ids(db, 'critique:pangolin')).toEqual([itemId]);
    expect(ids(db, 'correction:narwhal')).toEqual([itemId]);
    expect(ids(db, 'correction:axolotl')).toEqual([itemId]);
    expect(ids(db, 'correction:run_tests')).toEqual([itemId]);
    expect(ids(db, 'note:ocelot')).toEqual([itemId]);
    expect(ids(db, 'rationale:pangolin')).toEqual([]);
    // Several annotators' current labels are all found.
    save({ projectId: project, itemId, annotatorId: ensureAnnotator(db, 'other', 'human').id, choice: 'B', body: { rationale: 'prefers the capybara' } });
    expect(ids(db, 'capybara AND pangolin')).toEqual([itemId]);
    db.close();
  });
});
