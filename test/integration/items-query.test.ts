// The items explorer's engine on a real SQLite file holding every shape and task: every facet value's
// count equals a brute-force count over what the seed put in (test/helpers/itemsSeed.ts), under queries,
// with the facet's own clauses left out; the clause a value offers selects exactly those items; every
// sort column pages both ways by cursor, without a gap or a repeat, equal to a plain sort.
import { describe, expect, it } from 'vitest';
import { SORT_COLUMNS, type SortColumn } from '../../shared/itemFacets';
import { parseQuery, type Clause } from '../../shared/itemQuery';
import { importLines } from '../../electron/core/formats';
import { runItemsQuery } from '../../electron/core/service/itemsQuery';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { weekOf } from '../../electron/core/review/itemFactsPeople';
import { facetBounds } from '../../electron/core/review/itemFacetCounts';
import { MODELS, PEOPLE, seedItems, type SeedItem } from '../helpers/itemsSeed';

const ME = 'alice';
type Value = string[] | number | null;

function majority(votes: Record<string, number> | undefined): string[] {
  if (!votes) return [];
  const top = Math.max(...Object.values(votes));
  const leaders = Object.keys(votes).filter((k) => votes[k] === top);
  return [leaders.length === 1 ? leaders[0]! : 'split'];
}

/** Every facet's values of one item, worked out from the seed alone. */
function factsOf(item: SeedItem): Record<string, Value> {
  const tasks = [...item.judgements.keys()];
  const labeledIn = (task?: string) => {
    const lists = task ? [item.judgements.get(task)] : [...item.judgements.values()];
    const people = new Set(lists.flatMap((m) => (m ? [...m.keys()] : [])));
    return [...(people.has(ME) ? ['mine'] : []), ...(people.size ? ['anyone'] : ['nobody'])];
  };
  const differ = (task: string) => new Set(item.judgements.get(task)?.values() ?? []).size > 1;
  const stepsParts = (i: number) => new Set([...(item.judgements.get('steps')?.values() ?? [])].map((j) => JSON.stringify(JSON.parse(j)[i]))).size > 1;
  const disagree: string[] = [];
  if (differ('pairwise')) disagree.push('pairwise');
  if (differ('ranking')) disagree.push('ranking');
  if (stepsParts(0)) disagree.push('first_error');
  if (differ('verdict')) disagree.push('verdict');
  if (item.rubricSplit) disagree.push('rubric');
  if (item.shape === 'trajectory' && stepsParts(1)) disagree.push('outcome');
  const split: string[] = [];
  for (const judged of item.judgements.values()) {
    const entries = [...judged];
    for (let i = 0; i < entries.length; i++)
      for (let j = i + 1; j < entries.length; j++) if (entries[i]![1] !== entries[j]![1]) split.push([entries[i]![0], entries[j]![0]].sort().join('\u0000'));
  }
  const ps = [...item.p.values()];
  // The engine keeps scores at single precision (4 bytes an item): compared as it holds them.
  const score = ps.length ? Math.fround(ps.reduce((a, b) => a + b, 0) / ps.length) : null;
  const consensus = majority(item.votes.pairwise)[0];
  const reference = item.adjudicated ?? item.gold ?? consensus;
  const wrong = [...item.p].filter(([, p]) => (reference === 'A' || reference === 'B') && p !== 0.5 && (p > 0.5 ? 'A' : 'B') !== reference).map(([m]) => m);
  const pick = score === null ? null : score > 0.5 ? 'A' : score < 0.5 ? 'B' : null;
  const people = new Set([...item.judgements.values()].flatMap((m) => [...m.keys()]));
  const out: Record<string, Value> = {
    shape: [item.shape],
    images: ['no'],
    labeled: labeledIn(),
    disagree,
    consensus: majority(item.votes.pairwise),
    'consensus.ranking': majority(item.votes.ranking),
    'consensus.verdict': majority(item.votes.verdict),
    'consensus.outcome': majority(item.votes.outcome),
    adjudicated: [item.adjudicated ? 'yes' : 'no'],
    annotator: [...people],
    split: [...new Set(split)],
    score,
    model_disagrees: [pick !== null && (consensus === 'A' || consensus === 'B') && pick !== consensus ? 'yes' : 'no'],
    wrong,
    uncertainty: ps.length ? Math.fround(ps.reduce((a, p) => a + 1 - Math.abs(2 * p - 1), 0) / ps.length) : null,
    tag: [...item.tags],
    severity: [...item.severities],
    outcome: [...item.outcomes],
    'meta.category': item.meta.category ? [item.meta.category] : [],
    'meta.source': item.meta.source ? [item.meta.source] : [],
    'meta.model': [...new Set(item.responseModels)],
    length: item.length,
    labels: people.size,
    // The seed's labels are made now: this week (its Monday, UTC).
    week: item.judgements.has('pairwise') ? [weekOf(new Date().toISOString())!] : [],
    prelabel: [...item.prelabel],
  };
  for (const task of tasks) out[`labeled.${task}`] = labeledIn(task);
  for (const task of ['pairwise', 'ranking', 'steps', 'rubric', 'verdict']) out[`labeled.${task}`] ??= labeledIn(task);
  return out;
}

function passes(facts: Record<string, Value>, clause: Clause): boolean {
  const value = facts[clause.facet] ?? [];
  if (Array.isArray(value)) {
    const wanted = clause.facet === 'split' ? [[...clause.values].sort().join('\u0000')] : clause.values;
    const hit = wanted.some((v) => value.includes(v));
    return clause.op === '!=' ? !hit : hit;
  }
  if (value === null) return clause.op === '!=';
  const xs = clause.values.map(Number);
  switch (clause.op) {
    case '=': return xs.includes(value);
    case '!=': return !xs.includes(value);
    case '>=': return value >= xs[0]!;
    case '>': return value > xs[0]!;
    case '<=': return value <= xs[0]!;
    case '<': return value < xs[0]!;
  }
}

describe('the items query engine', () => {
  it("counts every facet's values exactly, under queries, as a brute-force count of the seed does", async () => {
    const { db, items } = await seedItems();
    const facts = items.map(factsOf);
    const queries = ['', 'shape=pair', 'labeled.pairwise=anyone consensus!=split', 'meta.category=math,code score>=0.5', 'disagree=pairwise,first_error,outcome,verdict,ranking,rubric', `annotator=${PEOPLE[1]} labeled=nobody,mine`, 'length<40 adjudicated=no', `wrong=${MODELS[0]}`, 'prelabel=shown disagree=pairwise', `week=${weekOf(new Date().toISOString())} prelabel=hidden`];
    let checked = 0;
    // Counted over the matching seqs alone (facetBounds.sparse 0) and over every item (1e9): the same counts.
    const sparse = facetBounds.sparse;
    for (const text of queries.flatMap((q) => [q, q])) {
      facetBounds.sparse = facetBounds.sparse === 0 ? 1e9 : 0;
      const query = parseQuery(text);
      const page = runItemsQuery(db, { project: 'p', query: text, limit: 500, annotator: ME, facets: true });
      const matching = facts.filter((f) => query.clauses.every((c) => passes(f, c)));
      expect(page.matching, text).toBe(matching.length);
      expect(page.exact).toBe(true);
      for (const facet of page.facets) {
        const others = query.clauses.filter((c) => c.facet !== facet.facet);
        const base = facts.filter((f) => others.every((c) => passes(f, c)));
        for (const value of facet.values) {
          const expected = base.filter((f) => parseQuery(value.clause).clauses.every((c) => passes(f, c))).length;
          expect(value.count, `${text} | ${facet.facet} ${value.value} (${value.clause})`).toBe(expected);
          checked++;
        }
        // Every value some matching item holds is listed (these facets are small: nothing left over).
        const held = new Set(base.flatMap((f) => { const v = f[facet.facet]; return Array.isArray(v) ? v : []; }));
        if (facet.kind !== 'number') expect(facet.values.filter((v) => v.count > 0).length, `${text} | ${facet.facet}`).toBe(facet.facet === 'split' ? held.size : [...held].length);
      }
    }
    // The facets the page offers cover every task judged and every metadata field.
    const names = runItemsQuery(db, { project: 'p', query: '', limit: 1, facets: true }).facets.map((f) => f.facet);
    for (const name of ['labeled.pairwise', 'labeled.ranking', 'labeled.steps', 'labeled.rubric', 'labeled.verdict', 'consensus', 'consensus.ranking', 'consensus.verdict', 'consensus.outcome', 'meta.category', 'meta.source', 'meta.model', 'split', 'wrong', 'score', 'tag', 'severity', 'outcome', 'week', 'prelabel'])
      expect(names).toContain(name);
    facetBounds.sparse = sparse;
    expect(checked).toBeGreaterThan(500);
    db.close();
  });

  it('sorts by every column both ways, paging by cursor without a gap or a repeat', async () => {
    const { db, items } = await seedItems();
    const facts = items.map(factsOf);
    const keyOf: Record<SortColumn, (i: SeedItem) => number | string | null> = {
      seq: (i) => i.seq,
      external_id: (i) => i.externalId,
      length: (i) => i.length,
      labels: (i) => facts[i.seq]!.labels as number,
      score: (i) => facts[i.seq]!.score as number | null,
      uncertainty: (i) => facts[i.seq]!.uncertainty as number | null,
      dispute: () => null,
      responses: (i) => (i.shape === 'pair' ? 2 : i.shape === 'ranking' ? 3 : 1),
      relevance: (i) => i.seq,
    };
    for (const column of SORT_COLUMNS) {
      for (const desc of [false, true]) {
        const seqs: number[] = [];
        const keys: unknown[] = [];
        let cursor: string | undefined;
        for (let n = 0; n < 100; n++) {
          const page = runItemsQuery(db, { project: 'p', query: 'shape!=single', sort: { column, desc }, limit: 7, facets: false, ...(cursor ? { cursor } : {}) });
          seqs.push(...page.rows.map((r) => r.seq));
          keys.push(...page.rows.map((r) => (column === 'dispute' ? r.dispute : null)));
          if (!page.next) break;
          cursor = page.next;
        }
        const wanted = items.filter((i) => i.shape !== 'single');
        expect(new Set(seqs).size, `${column} ${desc}`).toBe(wanted.length);
        if (column === 'dispute') {
          // The review's dispute: checked for order (its values are the review's own).
          const ds = keys as number[];
          for (let k = 1; k < ds.length; k++) expect(desc ? ds[k - 1]! >= ds[k]! : ds[k - 1]! <= ds[k]!).toBe(true);
          continue;
        }
        if (column === 'relevance') {
          // No search text: no relevance, file order either way (items-relevance.test.ts sorts a search).
          expect(seqs, `relevance ${desc}`).toEqual(wanted.map((i) => i.seq));
          continue;
        }
        const expected = [...wanted].sort((a, b) => {
          const ka = keyOf[column](a);
          const kb = keyOf[column](b);
          if ((ka === null) !== (kb === null)) return ka === null ? 1 : -1;
          if (ka !== null && kb !== null && ka !== kb) return (ka < kb ? -1 : 1) * (desc ? -1 : 1);
          return a.seq - b.seq;
        });
        expect(seqs, `${column} ${desc ? 'desc' : 'asc'}`).toEqual(expected.map((i) => i.seq));
      }
    }
    db.close();
  });

  it('rows carry every task’s judgements and the facts the facets count', async () => {
    const { db, items } = await seedItems();
    const page = runItemsQuery(db, { project: 'p', query: 'shape=trajectory', limit: 10, annotator: ME, facets: false });
    expect(page.rows.map((r) => r.externalId)).toEqual(items.filter((i) => i.shape === 'trajectory').map((i) => i.externalId));
    for (const row of page.rows) {
      const item = items[row.seq]!;
      expect(row.tags.sort()).toEqual([...item.tags].sort());
      expect(row.outcomes.sort()).toEqual([...item.outcomes].sort());
      expect(row.annotators.sort()).toEqual([...(item.judgements.get('steps')?.keys() ?? [])].sort());
    }
    expect(() => runItemsQuery(db, { project: 'p', query: 'colour=red', limit: 10, facets: false })).toThrow(/no facet "colour"/);
    // Search text while the full-text index is still being built: a lower bound, said so; clauses alone stay exact.
    expect(runItemsQuery(db, { project: 'p', query: 'question', limit: 10, facets: false })).toMatchObject({ exact: true, searchCapped: false, matching: 24 });
    db.prepare("INSERT INTO search_build (id, next_id, end_id, total, done, started_at) VALUES (1, 0, 10, 46, 0, '2026-01-01')").run();
    expect(runItemsQuery(db, { project: 'p', query: 'question', limit: 10, facets: false })).toMatchObject({ exact: false, searchCapped: true });
    expect(runItemsQuery(db, { project: 'p', query: 'shape=pair', limit: 10, facets: false })).toMatchObject({ exact: true, searchCapped: false });
    expect(() => runItemsQuery(db, { project: 'p', query: '', cursor: 'nonsense', limit: 10, facets: false })).toThrow(/cursor/);
    db.close();
  });

  it('follows an import and a label: the facts kept equal a fresh read of the project', async () => {
    const { db, path, projectId } = await seedItems();
    const ask = (on: typeof db) => runItemsQuery(on, { project: 'p', query: 'labeled=anyone', limit: 500, annotator: 'alice', facets: true });
    const before = ask(db);
    const lines = Array.from({ length: 7 }, (_, i) => JSON.stringify({ id: `late-${i}`, prompt: `late ${i}`, responses: [{ text: 'x', model: 'gen-z' }, { text: 'y' }], metadata: { category: i % 2 ? 'math' : 'poetry', lateField: 'yes' } }));
    await importLines(db, { project: 'p', fileName: 'late.jsonl', lines, sha256: 'late', format: 'arbiter', skipInvalid: false, createProject: false });
    const late = db.prepare("SELECT id FROM item WHERE external_id = 'late-3'").pluck().get() as number;
    labelAppender(db)({ projectId, itemId: late, annotatorId: ensureAnnotator(db, 'dana', 'human').id, choice: 'B', shownOrder: [0, 1] });
    const after = ask(db);
    const fresh = openDb(path);
    const again = ask(fresh);
    expect(after.total).toBe(before.total + 7);
    expect(after.matching).toBe(before.matching + 1);
    expect(after.facets).toEqual(again.facets);
    expect(after.rows.map((r) => r.seq)).toEqual(again.rows.map((r) => r.seq));
    expect(after.facets.find((f) => f.facet === 'meta.lateField')?.values).toEqual([{ value: 'yes', count: 1, clause: 'meta.lateField=yes' }]);
    expect(after.timing.factsMs).toBeGreaterThan(0);
    expect(ask(db).timing.factsMs).toBe(0);
    fresh.close();
    db.close();
  });
});
