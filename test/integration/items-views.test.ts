// Saved views and `arbiter items` / `arbiter export --view` on a real SQLite file: a view saves a query
// and a sort by name, replaces itself, deletes to a tombstone; its query must read; a page or the CLI
// given a view shows exactly its items in its order; an export of a view writes exactly its items.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { runItemsQuery } from '../../electron/core/service/itemsQuery';
import { deleteView, listViews, saveView } from '../../electron/core/service/itemsViews';
import { findView } from '../../electron/core/store/views';
import { seedItems } from '../helpers/itemsSeed';
import { tempDir } from '../helpers/tmp';

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('saved views', () => {
  it('save, replace, list, delete (a tombstone), and a query that does not read is refused', async () => {
    const { db, projectId } = await seedItems();
    const first = saveView(db, 'p', { name: 'math pairs', query: 'shape=pair meta.category=math', sort: { column: 'length', desc: true }, author: 'alice' });
    expect(listViews(db, 'p')).toEqual([first]);
    const again = saveView(db, 'p', { name: 'math pairs', query: 'shape=pair meta.category=math,code', sort: { column: 'seq', desc: false } });
    expect(again.id).toBe(first.id);
    expect(again.updatedAt > first.updatedAt).toBe(true);
    expect(listViews(db, 'p').map((v) => v.query)).toEqual(['shape=pair meta.category=math,code']);
    saveView(db, 'p', { name: 'another', query: '', sort: { column: 'seq', desc: false } });
    expect(listViews(db, 'p').map((v) => v.name)).toEqual(['another', 'math pairs']);
    expect(deleteView(db, 'p', 'math pairs')).toEqual({ deleted: true });
    expect(deleteView(db, 'p', 'math pairs')).toEqual({ deleted: false });
    expect(listViews(db, 'p').map((v) => v.name)).toEqual(['another']);
    expect(findView(db, projectId, 'math pairs')).toMatchObject({ id: first.id, deleted: true });
    expect(() => saveView(db, 'p', { name: 'bad', query: 'colour=red', sort: { column: 'seq', desc: false } })).toThrow(/no facet "colour"/);
    expect(() => runItemsQuery(db, { project: 'p', query: '', view: 'math pairs', limit: 5, facets: false })).toThrow(/no saved view named “math pairs”/);
    db.close();
  });

  it('a page of a view shows its items in its order, and narrows by the page’s own query', async () => {
    const { db, items } = await seedItems();
    saveView(db, 'p', { name: 'long first', query: 'shape=pair,ranking', sort: { column: 'length', desc: true } });
    const page = runItemsQuery(db, { project: 'p', query: '', view: 'long first', limit: 500, facets: false });
    const wanted = items.filter((i) => i.shape === 'pair' || i.shape === 'ranking').sort((a, b) => b.length - a.length || a.seq - b.seq);
    expect(page.rows.map((r) => r.seq)).toEqual(wanted.map((i) => i.seq));
    const narrowed = runItemsQuery(db, { project: 'p', query: 'meta.category=code', view: 'long first', limit: 500, facets: false });
    expect(narrowed.rows.map((r) => r.seq)).toEqual(wanted.filter((i) => i.meta.category === 'code').map((i) => i.seq));
    expect(narrowed.query.canonical).toBe('shape=pair,ranking meta.category=code');
    db.close();
  });
});

describe('arbiter items and arbiter export --view', () => {
  it('lists, sorts and filters items in the page’s language; refuses what it cannot read', async () => {
    const { db, path, items } = await seedItems();
    db.close();
    const json = await cli(['items', '--project', 'p', '--where', 'shape=pair', '--where', 'meta.category=math', '--sort', 'length:desc', '--limit', '5', '--json', '--db', path]);
    expect(json.code, json.err.join('\n')).toBe(0);
    const answer = JSON.parse(json.out[0]!) as { matching: number; query: string; rows: { seq: number }[] };
    const math = items.filter((i) => i.shape === 'pair' && i.meta.category === 'math').sort((a, b) => b.length - a.length || a.seq - b.seq);
    expect(answer.matching).toBe(math.length);
    expect(answer.query).toBe('shape=pair meta.category=math');
    expect(answer.rows.map((r) => r.seq)).toEqual(math.slice(0, 5).map((i) => i.seq));
    const spaced = await cli(['items', '--project', 'p', '--where', 'meta.category!=math,code', '--facets', '--db', path]);
    expect(spaced.code, spaced.err.join('\n')).toBe(0);
    expect(spaced.out[0]).toMatch(new RegExp(`^${items.filter((i) => i.meta.category !== 'math' && i.meta.category !== 'code').length} of ${items.length} items match`));
    expect(spaced.out.some((l) => l.startsWith('shape: '))).toBe(true);
    const bad = await cli(['items', '--project', 'p', '--where', 'colour=red', '--db', path]);
    expect(bad.code).toBe(1);
    expect(bad.err.join('\n')).toMatch(/no facet "colour"/);
    const badSort = await cli(['items', '--project', 'p', '--sort', 'colour', '--db', path]);
    expect(badSort.code).toBe(2);
  });

  it('exports exactly a view’s items, in the arbiter and labels formats', async () => {
    const { db, path, items } = await seedItems();
    saveView(db, 'p', { name: 'code or chains', query: 'meta.category=code', sort: { column: 'seq', desc: false } });
    saveView(db, 'p', { name: 'chains', query: 'shape=chain', sort: { column: 'seq', desc: false } });
    db.close();
    const out = join(tempDir(), 'view.jsonl');
    const run = await cli(['export', '--project', 'p', '--format', 'arbiter', '--view', 'code or chains', '--out', out, '--db', path]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const ids = readFileSync(out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids).toEqual(items.filter((i) => i.meta.category === 'code').map((i) => i.externalId));
    const labels = join(tempDir(), 'labels.jsonl');
    const run2 = await cli(['export', '--project', 'p', '--format', 'labels', '--view', 'chains', '--out', labels, '--db', path]);
    expect(run2.code, run2.err.join('\n')).toBe(0);
    const labeled = readFileSync(labels, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { item: { id?: string } });
    const chains = new Set(items.filter((i) => i.shape === 'chain').map((i) => i.externalId));
    expect(labeled.length).toBeGreaterThan(0);
    expect(labeled.length).toBe(items.filter((i) => i.shape === 'chain').reduce((n, i) => n + (i.judgements.get('steps')?.size ?? 0), 0));
    expect(labeled.every((l) => JSON.stringify(l).match(/"chain-\d"/))).toBe(true);
    expect(chains.size).toBe(6);
    const missing = await cli(['export', '--project', 'p', '--format', 'arbiter', '--view', 'nope', '--out', join(tempDir(), 'x.jsonl'), '--db', path]);
    expect(missing.code).toBe(1);
    expect(missing.err.join('\n')).toMatch(/no saved view named “nope”/);
  });
});
