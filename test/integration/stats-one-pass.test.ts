// `arbiter stats` reads the current labels of people once: the review's pass (agreement, consensus, the
// queue) counts the pairwise choices the stats print, so the project's labels are not grouped again
// (bench:review, docs/benchmarks.md). The counts are the ones a GROUP BY gives.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { useCliDir } from '../helpers/cliDir';

const dir = useCliDir('arbiter-stats-pass-');
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('arbiter stats', () => {
  it('prints the choices a GROUP BY counts, reading the current labels of people once', async () => {
    const items = join(dir.dir, 'items.jsonl');
    writeFileSync(items, Array.from({ length: 12 }, (_, i) => JSON.stringify({ id: `q${i}`, prompt: `Q${i}?`, responses: [{ text: `a${i}` }, { text: `bb${i}` }] })).join('\n') + '\n');
    await dir.cli(['import', items, '--project', 'p']);
    const choices = ['A', 'B', 'tie', 'both_bad'];
    const lines: string[] = [];
    let n = 0;
    for (let i = 0; i < 12; i++)
      for (let who = 0; who < 3; who++) {
        if ((i + who) % 5 === 0) continue; // not everyone labels everything
        // Two revisions for some: only the later one is current.
        for (const rev of (i + who) % 4 === 0 ? [0, 1] : [1]) {
          n++;
          lines.push(JSON.stringify({
            id: uuid(n), item: `q${i}`, annotator: `person-${who}`, annotator_uuid: uuid(1000 + who), task: 'pairwise',
            choice: choices[(i * 3 + who + rev) % 4], shown_order: [0, 1], created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
          }));
        }
      }
    const labels = join(dir.dir, 'labels.jsonl');
    writeFileSync(labels, lines.join('\n') + '\n');
    await dir.cli(['labels', 'import', labels, '--project', 'p']);

    const db = new Database(join(dir.dir, 'arbiter.db'), { readonly: true });
    const grouped = db
      .prepare(
        `SELECT h.choice, COUNT(*) FROM label_head h JOIN item i ON i.id = h.item_id JOIN annotator a ON a.id = h.annotator_id
         WHERE i.project_id = (SELECT id FROM project WHERE name = 'p') AND h.task = 'pairwise' AND h.done = 1 AND a.kind = 'human' GROUP BY h.choice`,
      )
      .raw()
      .all() as [string, number][];
    db.close();

    const prepare = vi.spyOn(Database.prototype, 'prepare');
    try {
      const [out] = await dir.cli(['stats', '--project', 'p', '--json']);
      const stats = JSON.parse(out!) as { labels: { current: number; byChoice: Record<string, number> }; review: { labels: number } };
      expect(Object.entries(stats.labels.byChoice)).toEqual(grouped);
      expect(stats.labels.current).toBe(grouped.reduce((s, [, c]) => s + c, 0));
      expect(stats.review.labels).toBe(stats.labels.current);
      const passes = prepare.mock.calls.map(([sql]) => String(sql)).filter((sql) => /FROM label_head h\s+JOIN item i/.test(sql));
      expect(passes, passes.join('\n---\n')).toHaveLength(1);
    } finally {
      prepare.mockRestore();
    }
  });
});
