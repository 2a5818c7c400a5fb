// The items explorer's "relevance" sort: with search text the rows come by bm25 (the full-text index's
// rank, store/search.ts matchingRanks) unless another sort is asked; both ways; without search text there
// is no relevance, and the rows keep file order.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importLines } from '../../electron/core/formats';
import { runItemsQuery } from '../../electron/core/service/itemsQuery';
import { openDb } from '../../electron/core/store/db';
import { tempDir } from '../helpers/tmp';

async function setup() {
  const db = openDb(join(tempDir(), 'a.db'));
  const filler = 'a long answer about the colour of the sky at noon and at dusk, with many other words around it';
  const texts = [
    `${filler} ${filler} ${filler} and once Rayleigh`, // one hit in a long text: the weakest
    `Rayleigh, then ${filler} Rayleigh`, // two hits, medium length
    'Rayleigh scattering: Rayleigh said Rayleigh', // three hits in a short text: the best, last in the file
  ];
  const lines = texts.map((text, i) => JSON.stringify({ id: `q${i}`, prompt: 'Why is the sky blue?', responses: [{ text }, { text: 'Because of the ocean.' }] }));
  await importLines(db, { project: 'p', fileName: 'p.jsonl', lines, sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
  return db;
}

const ids = (page: { rows: { externalId: string | null }[] }) => page.rows.map((r) => r.externalId);

describe('items sorted by relevance', () => {
  it('orders a search by bm25 by default, best first, and both ways when asked', async () => {
    const db = await setup();
    const best = runItemsQuery(db, { project: 'p', query: 'rayleigh', limit: 10, facets: false });
    expect(best.sort).toEqual({ column: 'relevance', desc: true });
    expect(ids(best)).toEqual(['q2', 'q1', 'q0']);
    const worst = runItemsQuery(db, { project: 'p', query: 'rayleigh', sort: { column: 'relevance', desc: false }, limit: 10, facets: false });
    expect(ids(worst)).toEqual(['q0', 'q1', 'q2']);
    // Paged by cursor, one row a page: the same order, no gap, no repeat.
    const paged: (string | null)[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 5; n++) {
      const page = runItemsQuery(db, { project: 'p', query: 'rayleigh', limit: 1, facets: false, ...(cursor ? { cursor } : {}) });
      paged.push(...ids(page));
      if (!page.next) break;
      cursor = page.next;
    }
    expect(paged).toEqual(['q2', 'q1', 'q0']);
    // Another sort asked for still wins.
    expect(ids(runItemsQuery(db, { project: 'p', query: 'rayleigh', sort: { column: 'seq', desc: false }, limit: 10, facets: false }))).toEqual(['q0', 'q1', 'q2']);
    db.close();
  });

  it('has no relevance without search text: file order', async () => {
    const db = await setup();
    const plain = runItemsQuery(db, { project: 'p', query: '', limit: 10, facets: false });
    expect(plain.sort).toEqual({ column: 'seq', desc: false });
    const asked = runItemsQuery(db, { project: 'p', query: 'shape=pair', sort: { column: 'relevance', desc: true }, limit: 10, facets: false });
    expect(asked.sort).toEqual({ column: 'seq', desc: false });
    expect(ids(asked)).toEqual(['q0', 'q1', 'q2']);
    db.close();
  });
});
