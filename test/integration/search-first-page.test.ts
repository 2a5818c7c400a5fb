// A search's pages against the brute-force answer on random corpora (issue 22 §7, the first page's speed
// must not change which items come): every hit of the index with its bm25 rank, the project's visible
// ones, sorted by (rank, id) — page by page for store/search.ts searchPage, and for the items explorer
// (service/itemsQuery.ts runItemsQuery) under every sort, both ways. The corpora mix projects whose ids
// interleave, a hidden tail (a pending import), a few common words (ties in rank run across pages) and
// many rare ones.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SORT_COLUMNS } from '../../shared/itemFacets';
import { mulberry32 } from '../../shared/order';
import { parseSearch, type SearchColumn, type SearchNode } from '../../shared/searchQuery';
import { importLines } from '../../electron/core/formats/index';
import { runItemsQuery } from '../../electron/core/service/itemsQuery';
import { openDb, type Db } from '../../electron/core/store/db';
import { requireProject } from '../../electron/core/store/projects';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { labelAppender } from '../../electron/core/store/labels';
import { matchingRanks, pageSnippets, resolveSearch, searchPage, type SearchCursor } from '../../electron/core/store/search';
import { ITEM_COLUMNS, LABEL_COLUMNS, sideAny, sideMatch } from '../../electron/core/store/searchSql';
import { eachMatch } from '../../electron/core/store/searchMatches';
import { bothPage, bothSplit } from '../../electron/core/store/searchBoth';
import { searchBounds } from '../../electron/core/store/searchTop';
import { tempDir } from '../helpers/tmp';

const WORDS = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 've', 'da', 'zu', 'fe', 'gi', 'ho', 'ju', 'ba', 'kalo', 'mine', 'suta', 'ripo'];

async function corpus(seed: number): Promise<{ db: Db; rand: () => number }> {
  const rand = mulberry32(seed);
  // Zipf-like: the first words in most items, the last in a few.
  const word = () => WORDS[Math.min(WORDS.length - 1, Math.floor(WORDS.length * rand() ** 2.2))]!;
  const text = (n: number) => Array.from({ length: n }, word).join(' ');
  const db = openDb(join(tempDir(), 'a.db'));
  const lines = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) =>
      JSON.stringify({
        id: `${prefix}${i}`,
        prompt: text(1 + Math.floor(rand() * 4)),
        // Short texts of few lengths: many equal ranks.
        responses: [{ text: text(1 + Math.floor(rand() * 3)) }, { text: text(1 + Math.floor(rand() * 6)) }],
      }),
    );
  const load = (project: string, prefix: string, count: number) =>
    importLines(db, { project, fileName: `${prefix}.jsonl`, lines: lines(prefix, count), sha256: prefix, format: 'arbiter', skipInvalid: false, createProject: true });
  await load('p', 'a', 150);
  await load('other', 'o', 200);
  await load('p', 'b', 150);
  await load('other', 'x', 100);
  await load('p', 'c', 60);
  // The last 40 of p's items not shown yet (as while an import is pending).
  db.prepare("UPDATE project SET visible_seq = visible_seq - 40 WHERE name = 'p'").run();
  return { db, rand };
}

function queries(rand: () => number): string[] {
  const w = () => WORDS[Math.floor(rand() * WORDS.length)]!;
  const common = () => WORDS[Math.floor(rand() * 5)]!;
  return [
    common(), w(), w(), `${common()} ${w()}`, `"${common()} ${common()}"`, `${w().slice(0, 2)}*`,
    `prompt:${common()}`, `response:${w()}`, `${w()} OR ${w()}`, `${common()} NOT ${w()}`, `${common()} ${common()} ${common()}`,
  ];
}

type Hit = { itemId: number; seq: number; rank: number };

/** Every visible hit of project p, by (rank, id): the brute-force answer. */
function bruteForce(db: Db, query: string): Hit[] {
  const parsed = parseSearch(query);
  if (!parsed.ok) throw new Error(parsed.error);
  const all = db.prepare('SELECT rowid AS itemId, rank FROM item_search WHERE item_search MATCH ?').all(parsed.query.match) as { itemId: number; rank: number }[];
  const visible = new Map(
    (db.prepare("SELECT i.id, i.seq FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'p' AND i.seq < p.visible_seq").raw(true).all() as [number, number][]).map(([id, seq]) => [id, seq]),
  );
  return all
    .filter((h) => visible.has(h.itemId))
    .map((h) => ({ ...h, seq: visible.get(h.itemId)! }))
    .sort((a, b) => a.rank - b.rank || a.itemId - b.itemId);
}

/**
 * Every visible hit of project p over both halves, by (rank, id), from sets built in JS: each word's items
 * in either half (one MATCH a half and word), AND / OR / NOT as set operations; the rank each half's bm25
 * for the query's words, summed.
 */
function bruteForceBoth(db: Db, query: string): Hit[] {
  const parsed = parseSearch(query);
  if (!parsed.ok) throw new Error(parsed.error);
  const ids = (table: string, match: string | null) => (match === null ? [] : (db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).pluck().all(match) as number[]));
  const build = (n: SearchNode, columns: readonly SearchColumn[]): Set<number> => {
    if (n.kind === 'term') return new Set([...ids('item_search', sideMatch(n, 'item', columns)), ...ids('label_search', sideMatch(n, 'label', columns))]);
    if (n.kind === 'field') return build(n.child, columns.filter((c) => n.columns.includes(c)));
    if (n.kind === 'not') {
      const drop = build(n.drop, columns);
      return new Set([...build(n.keep, columns)].filter((id) => !drop.has(id)));
    }
    const sets = n.children.map((c) => build(c, columns));
    return n.kind === 'or' ? new Set(sets.flatMap((x) => [...x])) : new Set([...sets[0]!].filter((id) => sets.every((x) => x.has(id))));
  };
  const matching = build(parsed.query.node, [...ITEM_COLUMNS, ...LABEL_COLUMNS]);
  const ranks = (table: string, match: string | null) =>
    new Map(match === null ? [] : (db.prepare(`SELECT rowid, rank FROM ${table} WHERE ${table} MATCH ?`).raw(true).all(match) as [number, number][]));
  const a = ranks('item_search', sideAny(parsed.query.node, 'item'));
  const b = ranks('label_search', sideAny(parsed.query.node, 'label'));
  const visible = new Map(
    (db.prepare("SELECT i.id, i.seq FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'p' AND i.seq < p.visible_seq").raw(true).all() as [number, number][]).map(([id, seq]) => [id, seq]),
  );
  return [...matching]
    .filter((id) => visible.has(id))
    .map((itemId) => ({ itemId, seq: visible.get(itemId)!, rank: (a.get(itemId) ?? 0) + (b.get(itemId) ?? 0) }))
    .sort((x, y) => x.rank - y.rank || x.itemId - y.itemId);
}

/** Rationales and critiques of random words on random items of both projects, shown or not. */
function labelSome(db: Db, rand: () => number, count: number): void {
  const annotatorId = ensureAnnotator(db, 'ann', 'human').id;
  const save = labelAppender(db);
  const items = db.prepare('SELECT id, project_id FROM item').raw(true).all() as [number, number][];
  const words = () => Array.from({ length: 1 + Math.floor(rand() * 4) }, () => WORDS[Math.floor(rand() ** 1.5 * WORDS.length)]).join(' ');
  for (let k = 0; k < count; k++) {
    const [itemId, projectId] = items[Math.floor(rand() * items.length)]!;
    save({ projectId, itemId, annotatorId, choice: 'A', body: rand() < 0.7 ? { rationale: words() } : { rationale: words(), critique: { A: words() } } });
  }
}

describe("a search's pages equal the brute-force answer on random corpora", () => {
  it('searchPage: the first page and every page after it, for pages of 1, 7 and 50', async () => {
    for (const seed of [1, 2, 3]) {
      const { db, rand } = await corpus(seed);
      const project = requireProject(db, 'p').id;
      for (const query of queries(rand)) {
        const expected = bruteForce(db, query);
        for (const limit of [1, 7, 50]) {
          const first = searchPage(db, project, query, { limit });
          expect(first.rows.map((r) => [r.itemId, r.seq, r.rank]), `${query} (seed ${seed}, first page of ${limit})`).toEqual(expected.slice(0, limit).map((h) => [h.itemId, h.seq, h.rank]));
          expect(first.next === null, `${query}: a next page exactly when more hits remain`).toBe(expected.length <= limit);
          const seen: number[] = first.rows.map((r) => r.itemId);
          let after: SearchCursor | null = first.next;
          while (after && limit > 1) {
            const page = searchPage(db, project, query, { limit, after });
            seen.push(...page.rows.map((r) => r.itemId));
            after = page.next;
          }
          if (limit > 1) expect(seen, `${query} (seed ${seed}, pages of ${limit})`).toEqual(expected.map((h) => h.itemId));
        }
        // Every hit in a page holds a snippet with a hit in it (asked after the page is chosen), and a
        // page's snippets asked together (one pass over their range for a prefix) are each one's alone.
        const page = searchPage(db, project, query, { limit: 12 }).rows;
        for (const hit of page) expect(hit.snippets.some((s) => s.parts.some((p) => p.hit)), query).toBe(true);
        const together = pageSnippets(db, query, page.map((h) => h.itemId));
        for (const hit of page) {
          expect(together.get(hit.itemId), query).toEqual(hit.snippets);
          expect(pageSnippets(db, query, [hit.itemId]).get(hit.itemId), query).toEqual(hit.snippets);
        }
      }
      db.close();
    }
  });

  it('the items explorer: the first page and the count under every sort, both ways', async () => {
    const { db, rand } = await corpus(4);
    // Every visible item in each sort's order, with no search: the order the matches must keep.
    const order = (column: (typeof SORT_COLUMNS)[number], desc: boolean, clause = '') => {
      const out: string[] = [];
      let cursor: string | undefined;
      do {
        const page = runItemsQuery(db, { project: 'p', query: clause, sort: { column, desc }, limit: 500, facets: false, ...(cursor ? { cursor } : {}) });
        out.push(...page.rows.map((r) => r.externalId!));
        cursor = page.next ?? undefined;
      } while (cursor);
      return out;
    };
    const externalOf = new Map((db.prepare('SELECT id, external_id FROM item').raw(true).all() as [number, string][]).map(([id, e]) => [id, e]));
    for (const query of queries(rand)) {
      const expected = bruteForce(db, query);
      const matching = new Set(expected.map((h) => externalOf.get(h.itemId)!));
      for (const column of SORT_COLUMNS) {
        for (const desc of [false, true]) {
          const page = runItemsQuery(db, { project: 'p', query, sort: { column, desc }, limit: 20, facets: false });
          const want =
            column === 'relevance'
              ? (desc ? expected : [...expected].sort((a, b) => b.rank - a.rank || a.seq - b.seq)).map((h) => externalOf.get(h.itemId)!)
              : order(column, desc).filter((e) => matching.has(e));
          expect(page.matching, `${query}: the count`).toBe(expected.length);
          expect(page.rows.map((r) => r.externalId), `${query} by ${column}${desc ? ', descending' : ''}`).toEqual(want.slice(0, 20));
        }
      }
      // By relevance, best first, page after page by cursor, alone and under clauses keeping some or few of
      // the hits.
      for (const clause of ['', 'length<30', 'length<12']) {
        const kept = clause ? new Set(order('seq', false, clause)) : null;
        const want = expected.map((h) => externalOf.get(h.itemId)!).filter((e) => !kept || kept.has(e));
        for (const limit of [1, 7]) {
          const seen: string[] = [];
          let cursor: string | undefined;
          do {
            const page = runItemsQuery(db, { project: 'p', query: `${clause} ${query}`.trim(), limit, facets: false, ...(cursor ? { cursor } : {}) });
            seen.push(...page.rows.map((r) => r.externalId!));
            cursor = page.next ?? undefined;
          } while (cursor && seen.length <= want.length);
          expect(seen, `${clause} ${query}: by relevance, pages of ${limit}`).toEqual(want);
        }
      }
    }
    db.close();
  });
  it("the items explorer with words in labels' text too: the same items and order as the store's joined set", async () => {
    const { db, rand } = await corpus(5);
    const project = requireProject(db, 'p').id;
    const annotatorId = ensureAnnotator(db, 'ann', 'human').id;
    const save = labelAppender(db);
    // Rationales of random words on items of both projects, shown or not.
    const items = db.prepare('SELECT id, project_id FROM item').raw(true).all() as [number, number][];
    for (let k = 0; k < 80; k++) {
      const [itemId, projectId] = items[Math.floor(rand() * items.length)]!;
      const words = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
      save({ projectId, itemId, annotatorId, choice: 'A', body: { rationale: words } });
    }
    const externalOf = new Map((db.prepare('SELECT seq, external_id FROM item WHERE project_id = ?').raw(true).all(project) as [number, string][]).map(([seq, e]) => [seq, e]));
    for (const query of [...queries(rand), 'rationale:ripo', 'rationale:ka OR prompt:lo', 'suta NOT rationale:ka']) {
      // The store's own set: both halves joined to the project's visible items in SQL.
      const ranked = matchingRanks(db, project, query).sort((a, b) => a.rank - b.rank || a.seq - b.seq);
      const bySeq = ranked.map((r) => r.seq).sort((a, b) => a - b);
      const best = runItemsQuery(db, { project: 'p', query, limit: 15, facets: false });
      expect(best.matching, query).toBe(ranked.length);
      expect(best.rows.map((r) => r.externalId), `${query} by relevance`).toEqual(ranked.slice(0, 15).map((r) => externalOf.get(r.seq)));
      const inOrder = runItemsQuery(db, { project: 'p', query, sort: { column: 'seq', desc: true }, limit: 15, facets: false });
      expect(inOrder.rows.map((r) => r.externalId), `${query} in file order`).toEqual(bySeq.reverse().slice(0, 15).map((s) => externalOf.get(s)));
    }
    db.close();
  });
  it("searchPage with words in labels' text too: every page equals the brute force over both halves", async () => {
    for (const seed of [6, 7, 8]) {
      const { db, rand } = await corpus(seed);
      const project = requireProject(db, 'p').id;
      // Seed 8 labels most items: a common word's labelled hits pass SEEK_MAX (store/searchBoth.ts), read in one pass.
      labelSome(db, rand, seed === 8 ? 1500 : 40 + seed * 30);
      for (const query of [...queries(rand), 'rationale:ripo', 'rationale:ka OR prompt:lo', 'suta NOT rationale:ka', '(ka rationale:lo) OR mi', 'critique:ta ne', 'ka* NOT critique:su']) {
        const expected = bruteForceBoth(db, query);
        for (const limit of [1, 7, 50]) {
          const first = searchPage(db, project, query, { limit });
          expect(first.rows.map((r) => [r.itemId, r.seq, r.rank]), `${query} (seed ${seed}, first page of ${limit})`).toEqual(expected.slice(0, limit).map((h) => [h.itemId, h.seq, h.rank]));
          expect(first.next === null, `${query}: a next page exactly when more hits remain`).toBe(expected.length <= limit);
          const seen = first.rows.map((r) => r.itemId);
          for (let after = first.next; after && limit > 1; ) {
            const page = searchPage(db, project, query, { limit, after });
            seen.push(...page.rows.map((r) => r.itemId));
            after = page.next;
          }
          if (limit > 1) expect(seen, `${query} (seed ${seed}, pages of ${limit})`).toEqual(expected.map((h) => h.itemId));
        }
        // The joined set, which runs past SPLIT_LABELED_MAX labelled hits: the same first page.
        const joined = bothPage(db, resolveSearch(query).node, project, 50, null);
        expect(joined.map((r) => [r.itemId, r.seq, r.rank]), `${query}: the joined set`).toEqual(expected.slice(0, 50).map((h) => [h.itemId, h.seq, h.rank]));
        for (const hit of searchPage(db, project, query, { limit: 12 }).rows) expect(hit.snippets.some((s) => s.parts.some((p) => p.hit)), query).toBe(true);
        // The explorer's hits by id (every project's, the caller keeps its own): the project's visible ones
        // with the same ranks.
        const got = new Map<number, number>();
        eachMatch(db, project, query, true, (id, rank) => got.set(id, rank));
        expect(expected.map((h) => [h.itemId, got.get(h.itemId)]), query).toEqual(expected.map((h) => [h.itemId, h.rank]));
      }
      db.close();
    }
  });

  it("searchPage with words in labels' text too, read every way searchBounds chooses among: the brute force's pages", async () => {
    const saved = { ...searchBounds };
    // Each way to read the same rows (store/searchTop.ts searchBounds): every labelled id asked by seek; seeks
    // only where the words' rows say (fts5vocab's counts); the split at any size; the joined set always;
    // the split past those bounds where the joined set would rank many more items' hits (joinedPerLabeled);
    // the bounded sort given up at once (the join over every hit, the labelled items' ranks in a pass of their own).
    const ways = [{ seekMax: 1e9 }, { seekMax: 0 }, { splitMatchingMax: 1e9, splitLabeledMax: 1e9 }, { splitMatchingMax: 0, splitLabeledMax: 0, joinedPerLabeled: Infinity }, { splitMatchingMax: 0, splitLabeledMax: 0 }, { topMax: 1 }];
    try {
      for (const seed of [8]) {
        const { db, rand } = await corpus(seed);
        const project = requireProject(db, 'p').id;
        labelSome(db, rand, 1500);
        const extra = ['rationale:ripo', '(ka rationale:lo) OR mi', 'critique:ta ne', 'ka* NOT critique:su', 'ripo ka lo', '"ka lo" mi', 'suta NOT "lo ka"'];
        for (const query of [...queries(rand), ...extra]) {
          const expected = bruteForceBoth(db, query);
          for (const way of ways) {
            Object.assign(searchBounds, saved, way);
            const label = `${query} (seed ${seed}, ${JSON.stringify(way)})`;
            const first = searchPage(db, project, query, { limit: 1 });
            expect(first.rows.map((r) => [r.itemId, r.seq, r.rank]), `${label}, first page of 1`).toEqual(expected.slice(0, 1).map((h) => [h.itemId, h.seq, h.rank]));
            // The first two pages of 25 (the second after the first's cursor).
            const one = searchPage(db, project, query, { limit: 25 });
            const two = one.next ? searchPage(db, project, query, { limit: 25, after: one.next }).rows : [];
            expect([...one.rows, ...two].map((r) => [r.itemId, r.seq, r.rank]), `${label}, two pages of 25`).toEqual(expected.slice(0, 50).map((h) => [h.itemId, h.seq, h.rank]));
            const got = new Map<number, number>();
            eachMatch(db, project, query, true, (id, rank) => got.set(id, rank));
            expect(expected.map((h) => [h.itemId, got.get(h.itemId)]), `${label}, the explorer's ranks`).toEqual(expected.map((h) => [h.itemId, h.rank]));
          }
        }
        db.close();
      }
    } finally {
      Object.assign(searchBounds, saved);
    }
  });

  it('splits a query past the labelled bounds where the joined set would rank many more items\' hits (10M: `ripo mida`)', async () => {
    const saved = { ...searchBounds };
    try {
      const { db, rand } = await corpus(9);
      labelSome(db, rand, 60);
      // A word in labels' text and in far more items than labelled ones.
      const node = resolveSearch('lo').node;
      const labelled = (db.prepare("SELECT COUNT(*) FROM label_search WHERE label_search MATCH 'lo'").pluck().get() as number);
      const items = (db.prepare("SELECT COUNT(*) FROM item_search WHERE item_search MATCH 'lo'").pluck().get() as number);
      expect(labelled).toBeGreaterThan(0);
      expect(items).toBeGreaterThan(4 * labelled);
      Object.assign(searchBounds, { splitMatchingMax: 0, splitLabeledMax: 0, joinedPerLabeled: 4 });
      expect(bothSplit(db, node)?.labeled.size).toBe(labelled);
      // Where the items' hits are not that many more, the joined set runs, as before.
      Object.assign(searchBounds, { joinedPerLabeled: Math.ceil(items / labelled) + 1 });
      expect(bothSplit(db, node)).toBeNull();
      db.close();
    } finally {
      Object.assign(searchBounds, saved);
    }
  });

  it("searches on a connection that may not write, not even its temp schema (the words' counts unknown there)", async () => {
    const { db, rand } = await corpus(6);
    const project = requireProject(db, 'p').id;
    labelSome(db, rand, 200);
    db.pragma('query_only = 1');
    for (const query of ['ka lo', 'mi ne su', '"ka lo" mi', 'suta ka']) {
      const expected = bruteForceBoth(db, query);
      const rows = searchPage(db, project, query, { limit: 50 }).rows;
      expect(rows.map((r) => [r.itemId, r.seq, r.rank]), query).toEqual(expected.slice(0, 50).map((h) => [h.itemId, h.seq, h.rank]));
    }
    db.close();
  });
});
