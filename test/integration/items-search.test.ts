// The items table's search and adjudicated column (issue 13, finding 26): an external id is found exactly
// or by prefix through an index (never a scan), prompt text by a bounded walk that says where to go on,
// pages never repeat an item, and a row says whether a lead adjudicated the item.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importLines } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { tempDir } from '../helpers/tmp';

const N = 12_000;

async function setup() {
  const dbPath = join(tempDir(), 'a.db');
  const db = openDb(dbPath);
  const lines = Array.from({ length: N }, (_, i) =>
    JSON.stringify({ id: `case-${String(i).padStart(5, '0')}`, prompt: i === 11_500 ? 'Where is the Eiffel Tower?' : `Question number ${i}`, responses: [{ text: 'a' }, { text: 'b' }] }),
  );
  await importLines(db, { project: 'p', fileName: 'p.jsonl', lines, sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'me' });
  return { db, service };
}

describe('items table search', () => {
  it('finds an external id exactly or by prefix through an index, first', async () => {
    const { db, service } = await setup();
    const exact = await service.dispatch('listItems', { project: 'p', annotator: 'me', search: 'case-11999' });
    expect(exact.rows[0]?.externalId).toBe('case-11999');
    const prefix = await service.dispatch('listItems', { project: 'p', annotator: 'me', search: 'case-0001', limit: 50 });
    expect(prefix.rows.slice(0, 10).map((r) => r.externalId)).toEqual(Array.from({ length: 10 }, (_, i) => `case-0001${i}`));
    // The id lookup reads an index on (project, external id), whatever the project's size.
    const plan = (db.prepare("EXPLAIN QUERY PLAN SELECT id FROM item WHERE project_id = 1 AND external_id >= 'a' AND external_id < 'b'").all() as { detail: string }[]).map((r) => r.detail).join(' ');
    expect(plan).toMatch(/USING (COVERING )?INDEX item_by_external_id/);
  });

  it('finds prompt text by a bounded walk, page by page, without repeats', async () => {
    const { service } = await setup();
    const seen: string[] = [];
    let afterSeq: number | undefined;
    for (let calls = 0; calls < 200; calls++) {
      const page = await service.dispatch('listItems', { project: 'p', annotator: 'me', search: 'eiffel', ...(afterSeq === undefined ? {} : { afterSeq }) });
      seen.push(...page.rows.map((r) => r.externalId ?? ''));
      if (page.next === null) break;
      afterSeq = page.next;
    }
    expect(seen).toEqual(['case-11500']);
  });

  it('says which items a lead adjudicated', async () => {
    const { service } = await setup();
    const [first] = (await service.dispatch('listItems', { project: 'p', annotator: 'me', limit: 1 })).rows;
    await service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: first!.id, choice: 'A', note: 'A is right' });
    const rows = (await service.dispatch('listItems', { project: 'p', annotator: 'me', limit: 2 })).rows;
    expect(rows.map((r) => r.adjudicated)).toEqual([true, false]);
  });
});
