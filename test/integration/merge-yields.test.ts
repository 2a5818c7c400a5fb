// A labels merge runs on the thread that saves labels (the app's service: an imported file, a hub sync in
// the background), so it must let that thread go often, also while it checks lines (before it writes any):
// a save then waits for a few hundred lines' checking at most, never for a whole batch of thousands.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { importFile, importLabelsLines } from '../../electron/core/formats';
import { openDb } from '../../electron/core/store/db';
import { uuidv7 } from '../../shared/ids';
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
  // The merge reads its lines from this generator, which counts how many it has handed out: checking
  // happens as lines are taken, and nothing is written until every line is checked. At each turn of the
  // event loop (a check of `setImmediate`, where a save would get in) the count is noted; the lines taken
  // between two turns are the lines checked without letting go.
  let taken = 0;
  function* source() {
    for (const line of lines) {
      taken++;
      yield line;
    }
  }
  const takenAtTurns: number[] = [];
  let checking = true;
  const tick = () => {
    if (!checking) return;
    takenAtTurns.push(taken);
    // Once every line is taken the checking is over; the writing that follows is not counted here.
    if (taken === LINES) checking = false;
    else setImmediate(tick);
  };
  setImmediate(tick);
  let checked = 0;
  const result = await importLabelsLines(db, {
    project: 'team',
    fileName: 'many.jsonl',
    lines: source(),
    // Every line read (checked) is counted in the progress.
    onProgress: (n) => (checked = n),
  });
  checking = false;
  expect(result.added).toBe(LINES);
  expect(checked).toBe(LINES);
  expect(takenAtTurns.at(-1)).toBe(LINES);
  // The most lines checked between two turns: 200 at most (the merge pauses after every 200th line), so
  // 4,000 lines are checked over 20 turns at least.
  const gaps = takenAtTurns.map((n, i) => n - (takenAtTurns[i - 1] ?? 0));
  expect(Math.max(...gaps)).toBeLessThanOrEqual(200);
  db.close();
});
