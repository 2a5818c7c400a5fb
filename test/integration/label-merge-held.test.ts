// A labels file is read once when it fits (issue 20, "Speed that slipped"): the merge's first reading
// checks every line and keeps the revisions of the first HELD_MAX valid ones, so a file of up to that
// many is parsed and checked once, not twice; a longer one is read again from its first line not kept.
// Whatever is kept, the merge ends the same: the same revisions, heads, counters and search rows, the
// same counts of lines, duplicates, unmatched and invalid lines, and the same rejects.
import { describe, expect, it } from 'vitest';
import { importLabelsLines } from '../../electron/core/formats';
import type { Db } from '../../electron/core/store/db';
import { tempDir } from '../helpers/tmp';
import { importedPairs } from '../helpers/importedPairs';

const ITEMS = 8;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** 3 people on 8 items (some with a rationale, a later revision of one head), a blank line, an invalid line, an unknown item, a repeated line. */
function labelLines(): string[] {
  const lines: string[] = [];
  let n = 1;
  for (let i = 0; i < ITEMS; i++)
    for (let who = 0; who < 3; who++)
      lines.push(
        JSON.stringify({
          id: uuid(n++),
          item: `q-${i}`,
          annotator: `ann-${who}`,
          annotator_uuid: uuid(900 + who),
          task: 'pairwise',
          choice: (i + who) % 3 === 0 ? 'B' : 'A',
          shown_order: [0, 1],
          ...(who !== 1 ? { rationale: `word${i}x${who}` } : {}),
          created_at: `2026-11-01T00:00:0${who}.000Z`,
        }),
      );
  lines.splice(5, 0, '');
  lines.splice(9, 0, '{"id": "not a uuid", "item": "q-1"}');
  lines.splice(12, 0, JSON.stringify({ id: uuid(500), item: 'nowhere', annotator: 'ann-0', annotator_uuid: uuid(900), task: 'pairwise', choice: 'A', created_at: '2026-11-01T00:00:00.000Z' }));
  lines.push(lines[0]!);
  lines.push(JSON.stringify({ id: uuid(501), item: 'q-2', annotator: 'ann-1', annotator_uuid: uuid(901), task: 'pairwise', choice: 'tie', rationale: 'later2', created_at: '2026-11-02T00:00:00.000Z' }));
  return lines;
}

/** Project "p" of ITEMS imported pairs (`q-0`, `q-1`, …) in `<dir>/<name>.db`. */
const project = (dir: string, name: string): Promise<Db> => importedPairs(dir, name, ITEMS);

/** Everything a merge writes that readers see. */
function state(db: Db) {
  const all = (sql: string) => db.prepare(sql).raw().all();
  return {
    labels: all('SELECT id, item_id, annotator_id, task, created_at, choice, strength, shown_order, body FROM label ORDER BY id'),
    heads: all('SELECT h.item_id, h.annotator_id, h.task, l.id, h.done, h.choice FROM label_head h JOIN label l ON l.seq = h.label_seq ORDER BY 1, 2, 3'),
    progress: all('SELECT project_id, task, annotator_id, done FROM progress ORDER BY 1, 2, 3'),
    labeled: all('SELECT project_id, task, labeled FROM task_progress ORDER BY 1, 2'),
    search: all('SELECT rowid, rationale FROM label_search ORDER BY rowid'),
  };
}

async function merge(dir: string, name: string, heldMax?: number) {
  const db = await project(dir, name);
  const text = labelLines();
  let readings = 0;
  const lines = function* () {
    readings++;
    yield* text;
  };
  const { rejects, ...result } = await importLabelsLines(db, { project: 'p', fileName: 'labels.jsonl', lines, skipInvalid: true, heldMax });
  const out = { result, rejects, state: state(db), readings };
  db.close();
  return out;
}

describe('a labels file read once when it fits', () => {
  it('reads a file that fits once, a longer one again from its first line not kept, and ends the same', async () => {
    const dir = tempDir();
    const once = await merge(dir, 'once');
    expect(once.readings).toBe(1);
    expect(once.result).toMatchObject({ added: ITEMS * 3 + 1, duplicates: 1, unmatched: 1, skipped: 1, lines: ITEMS * 3 + 4 });
    expect(once.rejects).toEqual(['{"id": "not a uuid", "item": "q-1"}']);
    expect(once.state.search.map((r) => (r as [number, string])[1])).toContain('word2x0\nlater2\nword2x2');
    for (const heldMax of [0, 1, 7, 9, 24]) {
      const part = await merge(dir, `held-${heldMax}`, heldMax);
      expect(part.readings).toBe(2);
      expect(part.result).toEqual(once.result);
      expect(part.rejects).toEqual(once.rejects);
      expect(part.state).toEqual(once.state);
    }
  });

  it('stores many revisions a statement as one at a time: a repeated line, an id reused for another label, an id stored before', async () => {
    const dir = tempDir();
    const lines = labelLines().filter((l) => l.startsWith('{"id":"'));
    const extra: string[] = [];
    for (let k = 0; k < 150; k++) extra.push(JSON.stringify({ id: uuid(2000 + k), item: `q-${k % ITEMS}`, annotator: `bulk-${k % 5}`, annotator_uuid: uuid(950 + (k % 5)), task: 'pairwise', choice: k % 2 ? 'A' : 'B', ...(k % 3 ? { rationale: `bulk${k}` } : {}), created_at: `2026-11-03T00:00:${String(k % 60).padStart(2, '0')}.000Z` }));
    // Within the first 64 rows: a line twice, and an id given again for another label (its second line is refused as reused).
    extra.splice(10, 0, extra[3]!);
    extra.splice(20, 0, extra[5]!.replace('"choice":"A"', '"choice":"tie"').replace('"choice":"B"', '"choice":"tie"'));
    const all = [...lines, ...extra, lines[2]!];
    const whole = await project(dir, 'whole');
    const stored = await importLabelsLines(whole, { project: 'p', fileName: 'a.jsonl', lines: lines.slice(0, 4) });
    expect(stored.added).toBe(4);
    const merged = await importLabelsLines(whole, { project: 'p', fileName: 'b.jsonl', lines: () => all });
    const single = await project(dir, 'single');
    const sum = { added: 0, duplicates: 0, reusedIds: 0 };
    for (const l of [...lines.slice(0, 4), ...all]) {
      const r = await importLabelsLines(single, { project: 'p', fileName: 'c.jsonl', lines: [l] });
      sum.added += r.added;
      sum.duplicates += r.duplicates;
      sum.reusedIds += r.reusedIds;
    }
    // One line a merge (one row a statement): the same totals.
    expect({ added: stored.added + merged.added, duplicates: merged.duplicates, reusedIds: merged.reusedIds }).toEqual(sum);
    // 180 lines: 4 stored before, 3 repeated lines, 1 unknown item, 1 reused id.
    expect(merged).toMatchObject({ added: 171, duplicates: 7, reusedIds: 1, unmatched: 1 });
    expect(state(whole)).toEqual(state(single));
    whole.close();
    single.close();
  });
});
