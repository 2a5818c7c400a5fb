// A labels merge runs on the thread that saves labels (the app's service: an imported file, a hub sync in
// the background), so it must let that thread go often, also while it checks lines (before it writes any):
// a save then waits for a few hundred lines' checking at most, never for a whole batch of thousands.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { importFile, importLabelsLines } from '../../electron/core/formats';
import { openDb } from '../../electron/core/store/db';
import { uuidv7 } from '../../electron/core/uuidv7';
import { teamItems } from '../helpers/hubTeam';
import { tempDir } from '../helpers/tmp';

it('lets the event loop run at least every 200 lines while it checks a merge', async () => {
  const dir = tempDir();
  const db = openDb(join(dir, 'merge.db'));
  writeFileSync(join(dir, 'items.jsonl'), `${teamItems(50)}\n`);
  await importFile(db, { path: join(dir, 'items.jsonl'), project: 'team', format: 'arbiter', createProject: true });
  const items = db.prepare('SELECT uid, external_id FROM item').all() as { uid: string; external_id: string }[];
  const LINES = 4000;
  const lines = Array.from({ length: LINES }, (_, i) => {
    const item = items[i % items.length]!;
    return JSON.stringify({ id: uuidv7(), item: item.external_id, item_uid: item.uid, annotator: 'alice', annotator_uuid: '11111111-1111-4111-8111-111111111111', annotator_kind: 'human', task: 'pairwise', choice: 'A', created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString() });
  });
  // Counts the turns of the event loop (the checks of `setImmediate`) while the merge checks its lines.
  let turns = 0;
  let checking = true;
  const tick = () => {
    if (!checking) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  let checked = 0;
  const result = await importLabelsLines(db, {
    project: 'team',
    fileName: 'many.jsonl',
    lines,
    // Every line read (checked) is counted in the progress.
    onProgress: (n) => (checked = n),
  });
  checking = false;
  expect(result.added).toBe(LINES);
  expect(checked).toBe(LINES);
  // 4,000 lines checked with a pause every 200, then written in 4 batches and applied: well over 20 turns.
  expect(turns).toBeGreaterThanOrEqual(LINES / 200);
  db.close();
});
