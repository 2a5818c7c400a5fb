// An import keeps the WAL bounded (store/imports.ts importWal): between batches, once the WAL has grown
// past the bound, it is copied into the database and written again from its start. Before, the WAL held
// all an import wrote until it ended (a 10M-item file had made 28 GB of WAL and counting). A WAL file
// keeps the largest size it reached, so its size after the import is the import's peak.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importFile } from '../../electron/core/formats';
import { openDb } from '../../electron/core/store/db';
import { importWal } from '../../electron/core/store/imports';

const ITEMS = 6_000;
let dir: string;
const saved = importWal.checkpointBytes;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-import-wal-'));
  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu'.split(' ');
  const text = (i: number, n: number) => Array.from({ length: n }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ') + ` ${i}`;
  const lines = Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ prompt: `Question ${i}: ${text(i, 30)}`, chosen: text(i + 1, 60), rejected: text(i + 2, 50) }));
  writeFileSync(join(dir, 'pairs.jsonl'), lines.join('\n') + '\n');
});

afterEach(() => {
  importWal.checkpointBytes = saved;
  rmSync(dir, { recursive: true, force: true });
});

async function importedWal(bound: number): Promise<{ wal: number; db: number; items: number }> {
  importWal.checkpointBytes = bound;
  const path = join(dir, `bound-${bound}.db`);
  const db = openDb(path);
  try {
    const summary = await importFile(db, { path: join(dir, 'pairs.jsonl'), project: 'p', createProject: true, format: 'trl' });
    return { wal: statSync(`${path}-wal`).size, db: statSync(path).size, items: summary.items };
  } finally {
    db.close();
  }
}

describe('an import keeps its WAL bounded', () => {
  it('copies the WAL into the database once it passes the bound, so the WAL never holds the whole import', async () => {
    const unbounded = await importedWal(Number.MAX_SAFE_INTEGER);
    const bounded = await importedWal(256 * 1024);
    expect(bounded.items).toBe(ITEMS);
    expect(unbounded.items).toBe(ITEMS);
    // Without checkpoints the WAL holds at least the whole database the import wrote.
    expect(unbounded.wal).toBeGreaterThan(4 * 1024 * 1024);
    // With them, it stays within the bound and one write batch past it: far below the unbounded WAL.
    expect(bounded.wal).toBeLessThan(unbounded.wal / 2);
  });
});
