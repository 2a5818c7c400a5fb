// The labels' half of the search index after a labels merge (issue 20, "Speed that slipped"; migration
// 19): the merge writes each item's label_search row once per batch, from every current head, instead of
// the triggers rewriting it at each head. The rows must be what the triggers write: every annotator's
// text of the item, an edited or cleared rationale no longer there, no row where no text is left, and
// the same rows as the same revisions saved one at a time (the trigger path). A save after a merge is
// found at once (nothing is left deferred), and a database upgraded from schema 18 keeps its index.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { importLabelsFile } from '../../electron/core/formats';
import { ensureAnnotatorByUuid } from '../../electron/core/store/annotators';
import { listMigrations, openDb, type Db } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { searchPage } from '../../electron/core/store/search';
import { tempDir } from '../helpers/tmp';
import { importedPairs } from '../helpers/importedPairs';

const ITEMS = 12;
const PEOPLE = 3;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const person = (a: number) => ({ annotator: `ann-${a}`, annotator_uuid: uuid(900 + a) });
let next = 1;

interface Line {
  item: number;
  who: number;
  rationale?: string;
  at: string;
}
const line = (l: Line) =>
  JSON.stringify({ id: uuid(next++), item: `q-${l.item}`, ...person(l.who), task: 'pairwise', choice: 'A', shown_order: [0, 1], ...(l.rationale ? { rationale: l.rationale } : {}), created_at: l.at });

/** Every annotator's rationale on every item: "kiwi<item>x<annotator>" (a word FTS5 keeps whole). */
const FIRST: Line[] = Array.from({ length: ITEMS * PEOPLE }, (_, n) => ({ item: Math.floor(n / PEOPLE), who: n % PEOPLE, rationale: `kiwi${Math.floor(n / PEOPLE)}x${n % PEOPLE} looked closely`, at: '2026-11-01T00:00:00.000Z' }));
/** Later revisions: ann-1 clears q-0's rationale, everyone clears q-1's, ann-2 rewrites q-2's, ann-0 writes on an item it had none. */
const SECOND: Line[] = [
  { item: 0, who: 1, at: '2026-11-02T00:00:00.000Z' },
  ...Array.from({ length: PEOPLE }, (_, who) => ({ item: 1, who, at: '2026-11-02T00:00:00.000Z' })),
  { item: 2, who: 2, rationale: 'mango2 instead', at: '2026-11-02T00:00:00.000Z' },
];

/** Project "p" of ITEMS imported pairs (`q-0`, `q-1`, …) in `<dir>/<name>.db`. */
const project = (dir: string, name: string): Promise<Db> => importedPairs(dir, name, ITEMS);

async function merge(db: Db, dir: string, lines: Line[]): Promise<void> {
  const file = join(dir, `labels-${next}.jsonl`);
  writeFileSync(file, lines.map(line).join('\n') + '\n');
  const result = await importLabelsFile(db, { path: file, project: 'p' });
  expect(result.added).toBe(lines.length);
}

/** The same revisions saved one at a time: the triggers write the rows, head by head. */
function saveOneByOne(db: Db, lines: Line[]): void {
  const projectId = requireProject(db, 'p').id;
  const append = labelAppender(db);
  const itemOf = db.prepare('SELECT id FROM item WHERE external_id = ?').pluck();
  db.transaction(() => {
    for (const l of lines) {
      const annotatorId = ensureAnnotatorByUuid(db, person(l.who).annotator_uuid, person(l.who).annotator, 'human').id;
      append({ projectId, itemId: itemOf.get(`q-${l.item}`) as number, annotatorId, choice: 'A', shownOrder: [0, 1], createdAt: l.at, body: l.rationale ? { rationale: l.rationale } : {} });
    }
  })();
}

const searchRows = (db: Db) => db.prepare('SELECT rowid, rationale, critique, correction, note FROM label_search ORDER BY rowid').all();
const labeled = (db: Db) => db.prepare('SELECT item_id FROM search_labeled ORDER BY item_id').pluck().all();
/** What a trigger writes for each item: item_label_text, the per-item view. */
const viewRows = (db: Db) =>
  db
    .prepare(
      `SELECT item_id AS rowid, rationale, critique, correction, note FROM item_label_text
       WHERE rationale <> '' OR critique <> '' OR correction <> '' OR note <> '' ORDER BY item_id`,
    )
    .all();
const found = (db: Db, query: string) =>
  searchPage(db, requireProject(db, 'p').id, query)
    .rows.map((r) => db.prepare('SELECT external_id FROM item WHERE id = ?').pluck().get(r.itemId) as string)
    .sort();

describe("a labels merge keeps the labels' search rows", () => {
  it("writes each item's row with every annotator's text, as the triggers write it one save at a time", async () => {
    const dir = tempDir();
    const merged = await project(dir, 'merged');
    const saved = await project(dir, 'saved');
    await merge(merged, dir, FIRST);
    saveOneByOne(saved, FIRST);
    const rows = searchRows(merged) as { rowid: number; rationale: string }[];
    expect(rows).toHaveLength(ITEMS);
    for (const [i, row] of rows.entries()) {
      for (let who = 0; who < PEOPLE; who++) expect(row.rationale).toContain(`kiwi${i}x${who}`);
    }
    expect(rows).toEqual(viewRows(merged));
    expect(rows).toEqual(searchRows(saved));
    expect(labeled(merged)).toEqual(labeled(saved));
    for (const who of [0, 1, 2]) expect(found(merged, `rationale:kiwi7x${who}`)).toEqual(['q-7']);
    expect(merged.prepare('SELECT COUNT(*) FROM label_search_deferred').pluck().get()).toBe(0);
    merged.close();
    saved.close();
  });

  it('rewrites a row whose heads move: a cleared rationale leaves it, an item with none left loses its row', async () => {
    const dir = tempDir();
    const merged = await project(dir, 'merged');
    const saved = await project(dir, 'saved');
    await merge(merged, dir, FIRST);
    await merge(merged, dir, SECOND);
    saveOneByOne(saved, [...FIRST, ...SECOND]);
    expect(searchRows(merged)).toEqual(searchRows(saved));
    expect(searchRows(merged)).toEqual(viewRows(merged));
    expect(labeled(merged)).toEqual(labeled(saved));
    expect(found(merged, 'rationale:kiwi0x0')).toEqual(['q-0']);
    expect(found(merged, 'rationale:kiwi0x1')).toEqual([]);
    expect(found(merged, 'kiwi1x0 OR kiwi1x1 OR kiwi1x2')).toEqual([]);
    const q1 = merged.prepare("SELECT id FROM item WHERE external_id = 'q-1'").pluck().get() as number;
    expect(merged.prepare('SELECT COUNT(*) FROM label_search WHERE rowid = ?').pluck().get(q1)).toBe(0);
    expect(labeled(merged)).not.toContain(q1);
    expect(found(merged, 'kiwi2x2')).toEqual([]);
    expect(found(merged, 'mango2')).toEqual(['q-2']);
    expect(found(merged, 'rationale:kiwi2x1')).toEqual(['q-2']);
    merged.close();
    saved.close();
  });

  it('leaves nothing deferred: a save after a merge is found at once', async () => {
    const dir = tempDir();
    const db = await project(dir, 'merged');
    await merge(db, dir, FIRST);
    saveOneByOne(db, [{ item: 5, who: 0, rationale: 'papaya later', at: '2026-11-03T00:00:00.000Z' }]);
    expect(found(db, 'papaya')).toEqual(['q-5']);
    expect(found(db, 'kiwi5x0')).toEqual([]);
    expect(found(db, 'kiwi5x1')).toEqual(['q-5']);
    expect(searchRows(db)).toEqual(viewRows(db));
    db.close();
  });
});

describe('upgrading from schema 18', () => {
  it('keeps the rows the old triggers wrote, and a merge since writes them as a save does', async () => {
    const dir = tempDir();
    (await project(dir, 'old')).close();
    // Back to schema 18: migration 12's view and triggers, as a database written before 19 has them.
    const path = join(dir, 'old.db');
    const raw = new Database(path);
    const twelve = readFileSync(join(__dirname, '../../migrations', listMigrations().find((m) => m.version === 12)!.name), 'utf8');
    const view = twelve.slice(twelve.indexOf('CREATE VIEW item_label_text'), twelve.indexOf('-- The items that have a label_search row'));
    const triggers = twelve.slice(twelve.indexOf('CREATE TRIGGER item_search_head_insert'), twelve.indexOf("-- An item's row goes with it"));
    raw.exec(
      'DROP TRIGGER item_search_head_insert; DROP TRIGGER item_search_head_update; DROP TRIGGER item_search_head_delete; ' +
        `DROP VIEW item_label_text; DROP VIEW label_head_text; DROP TABLE label_search_deferred;\n${view}\n${triggers}\nPRAGMA user_version = 18;`,
    );
    // Labels saved at schema 18: the old triggers write their rows.
    saveOneByOne(raw, FIRST);
    const before = searchRows(raw);
    expect(before).toHaveLength(ITEMS);
    raw.close();

    const db = openDb(path);
    expect(db.pragma('user_version', { simple: true })).toBe(Math.max(...listMigrations().map((m) => m.version)));
    expect(searchRows(db)).toEqual(before);
    expect(viewRows(db)).toEqual(before);
    await merge(db, dir, SECOND);
    const saved = await project(dir, 'saved');
    saveOneByOne(saved, [...FIRST, ...SECOND]);
    expect(searchRows(db)).toEqual(searchRows(saved));
    expect(labeled(db)).toEqual(labeled(saved));
    expect(found(db, 'mango2')).toEqual(['q-2']);
    expect(found(db, 'rationale:kiwi0x1')).toEqual([]);
    db.close();
    saved.close();
  });
});
