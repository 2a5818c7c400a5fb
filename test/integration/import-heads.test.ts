// An import's source labels get their heads from the revisions just written (issue 20, performance of the
// import): one INSERT … SELECT over the seqs a flush wrote, not a second multi-row INSERT binding an item,
// a seq and a choice per row from JavaScript (which cost the 100k-pair import ~0.4–0.6 s of main thread).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { openDb } from '../../electron/core/store/db';
import { importFile } from '../../electron/core/formats/index';
import { tempDir } from '../helpers/tmp';

describe('an import of labelled pairs', () => {
  it('writes each head from its revision, bound per flush, not per row', async () => {
    const dir = tempDir();
    const file = join(dir, 'pairs.jsonl');
    // 150 pairs (two full flushes of 64 and a short one), one of them twice: stored once, labelled once.
    const lines = Array.from({ length: 150 }, (_, i) => JSON.stringify({ prompt: `Question ${i}?`, chosen: `Good ${i}.`, rejected: `Bad ${i}.` }));
    lines.push(lines[7]!);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const db = openDb(join(dir, 'arbiter.db'));
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    try {
      const summary = await importFile(db, { path: file, project: 'p', format: 'trl', createProject: true });
      expect(summary.items).toBe(150);
      const headInserts = prepare.mock.calls.map(([sql]) => String(sql).replace(/\s+/g, ' ')).filter((sql) => /INSERT INTO label_head .*VALUES \(.*\), \(/.test(sql)); // many rows bound at once
      expect(headInserts.map((sql) => sql.slice(0, 120))).toEqual([]);
    } finally {
      prepare.mockRestore();
    }
    const heads = db
      .prepare('SELECT h.item_id, h.annotator_id, h.task, h.label_seq, h.done, h.choice FROM label_head h ORDER BY h.item_id')
      .raw()
      .all() as unknown[][];
    const labels = db.prepare('SELECT item_id, annotator_id, task, seq, 1, choice FROM label ORDER BY item_id').raw().all();
    expect(heads).toHaveLength(150);
    expect(heads).toEqual(labels);
    expect(new Set(heads.map((h) => h[5]))).toEqual(new Set(['A']));
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });
});
