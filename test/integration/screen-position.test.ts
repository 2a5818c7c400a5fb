// Each screen numbers an item among the items it walks (issue 20, item 22): getItem and nextItem answer
// the item's place among the project's items of its shape and that screen's total, in a mixed project of
// more than one block of the position index (store/shapes.ts POSITION_BLOCK), against a plain count.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importLines } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { POSITION_BLOCK } from '../../electron/core/store/shapes';
import { tempDir } from '../helpers/tmp';

/** Item k has 1, 2 or 3 responses by a pattern that is not periodic with the block. */
const sizeOf = (k: number) => 1 + ((k * 7 + (k >> 5)) % 3);

describe('an item’s place on its screen', () => {
  it('counts the items of its shape before it, across blocks, and the screen’s total', async () => {
    const count = 2 * POSITION_BLOCK + 123;
    const lines = Array.from({ length: count }, (_, k) =>
      JSON.stringify({ id: `i${k}`, prompt: `p${k}`, responses: Array.from({ length: sizeOf(k) }, (_, r) => ({ text: `r${r}` })) }),
    );
    const dbPath = join(tempDir(), 'a.db');
    const db = openDb(dbPath);
    await importLines(db, { project: 'p', fileName: 'p.jsonl', lines, sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
    const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
    const totals = { 1: 0, 2: 0, 3: 0 } as Record<number, number>;
    for (let k = 0; k < count; k++) totals[sizeOf(k)]!++;
    const expected = (seq: number) => {
      let before = 0;
      for (let k = 0; k < seq; k++) if (sizeOf(k) === sizeOf(seq)) before++;
      return { position: before + 1, total: totals[sizeOf(seq)] };
    };
    for (const seq of [0, 1, 2, POSITION_BLOCK - 1, POSITION_BLOCK, POSITION_BLOCK + 5, 2 * POSITION_BLOCK + 7, count - 1]) {
      const item = (await service.dispatch('getItem', { project: 'p', annotator: 'ann', seq }))!;
      expect({ position: item.position, total: item.total }, `seq ${seq}`).toEqual(expected(seq));
    }
    // The compare screen's first pair and the rank screen's first ranking are item 1 of theirs.
    const pair = (await service.dispatch('nextItem', { project: 'p', annotator: 'ann', task: 'pairwise' }))!;
    expect([pair.responses.length, pair.position, pair.total]).toEqual([2, 1, totals[2]]);
    const ranked = (await service.dispatch('nextItem', { project: 'p', annotator: 'ann', task: 'ranking' }))!;
    expect([ranked.responses.length, ranked.position, ranked.total]).toEqual([3, 1, totals[3]]);
    db.close();
  }, 60_000);
});
