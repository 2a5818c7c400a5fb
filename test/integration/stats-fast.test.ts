// `arbiter stats`'s fast paths equal the full computation (issue 20, stats ≤ 4×): on seeded random labels
// (people, a model and the file's own labels, superseded revisions, cleared labels, items not yet visible
// and a label merge left pending), projectStats with the review pass's counts gives exactly what a full
// read of every revision row computes in JavaScript, with and without a pending merge. The columns kept
// beside label_head (migration 17: what the review reads instead of each revision row) equal what each
// head's revision says, after every path that writes a head: a save, a rationale, an undo, another task's
// save, an import's own labels and judgements, a labels-file merge (a hub pull merges through it too:
// stats-columns-hub.test.ts), and the pairwise review read from them equals the one read from the rows.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildReview } from '../../electron/core/review/report';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { projectStats } from '../../electron/core/store/stats';
import { writeNow } from '../../electron/core/store/write';
import { importFile, importLabelsFile } from '../../electron/core/formats/index';
import { expectHeadColumns, expectPairwiseReviewFromHeads } from '../helpers/headColumns';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';
import { seededRng } from '../helpers/seeded';

/** The full computation: every revision row read and judged in JavaScript. */
function fullStats(db: Db, projectId: number) {
  const visible = db.prepare('SELECT visible_seq FROM project WHERE id = ?').pluck().get(projectId) as number;
  const pending = new Set(db.prepare("SELECT id FROM label_import WHERE state = 'pending'").pluck().all() as number[]);
  const rows = db
    .prepare('SELECT l.seq, l.item_id, l.annotator_id, l.task, l.choice, l.import_id, i.seq AS itemSeq, a.kind FROM label l JOIN item i ON i.id = l.item_id JOIN annotator a ON a.id = l.annotator_id WHERE i.project_id = ?')
    .all(projectId) as { seq: number; item_id: number; annotator_id: number; task: string; choice: string | null; import_id: number | null; itemSeq: number; kind: string }[];
  const heads = new Map<string, { seq: number; done: number }>();
  for (const h of db.prepare('SELECT item_id, annotator_id, task, label_seq AS seq, done FROM label_head').all() as { item_id: number; annotator_id: number; task: string; seq: number; done: number }[])
    heads.set(`${h.item_id}:${h.annotator_id}:${h.task}`, h);
  let revisions = 0;
  const byChoice: Record<string, number> = {};
  for (const r of rows) {
    if (r.itemSeq >= visible) continue;
    if (r.import_id === null || !pending.has(r.import_id)) revisions++;
    const head = heads.get(`${r.item_id}:${r.annotator_id}:${r.task}`);
    if (r.task === 'pairwise' && r.kind === 'human' && head?.seq === r.seq && head.done === 1 && r.choice !== null) byChoice[r.choice] = (byChoice[r.choice] ?? 0) + 1;
  }
  return { revisions, current: Object.values(byChoice).reduce((s, n) => s + n, 0), byChoice: Object.fromEntries(Object.entries(byChoice).sort(([a], [b]) => (a < b ? -1 : 1))) };
}

describe('stats fast paths', () => {
  for (const seed of [1, 20261128, 77]) {
    it(`equal the full computation on seeded random labels (seed ${seed})`, () => {
      const next = seededRng(seed);
      const { db, project, ids } = pairProject(join(tempDir(), 'arbiter.db'), { items: 60, texts: (i) => [`a${i}`, `bb${i}`], annotator: 'lead', visibleSeq: 50 });
      const people = ['ann', 'bo', 'cy', 'di'].map((name) => ensureAnnotator(db, name, 'human'));
      const others = [ensureAnnotator(db, 'rm-1', 'model'), ensureAnnotator(db, 'source', 'source')];
      const append = labelAppender(db);
      const choices = ['A', 'B', 'tie', 'both_bad', null] as const;
      writeNow(db, () => {
        for (const itemId of ids)
          for (const who of [...people, ...others]) {
            const revisions = Math.floor(next() * 3); // 0, 1 or 2 revisions: a later one supersedes
            for (let r = 0; r < revisions; r++) {
              const choice = choices[Math.floor(next() * choices.length)]!;
              const strength = choice === 'A' || choice === 'B' ? (next() < 0.8 ? ((1 + Math.floor(next() * 3)) as 1 | 2 | 3) : null) : null;
              const marks = next() < 0.1 ? { regions: [{ image: 'f'.repeat(64), at: 'prompt' as const, kind: 'box' as const, box: [0.1, 0.1, 0.2 + next() / 2, 0.5] as [number, number, number, number], tag: 'artifact' }] } : {};
              const visible = next() < 0.7 ? { prelabel_visible: next() < 0.5 } : {};
              append({ projectId: project.id, itemId, annotatorId: who.id, task: 'pairwise', choice, strength, shownOrder: next() < 0.5 ? [0, 1] : [1, 0], body: { time_ms: 1000 + Math.floor(next() * 9000), ...visible, ...marks } });
            }
          }
      });
      const check = () => {
        const row = requireProject(db, 'p');
        const review = buildReview(db, row);
        const fast = projectStats(db, row, review.pairwiseChoices);
        const full = fullStats(db, project.id);
        expect(fast.labels).toEqual(full);
        expect(projectStats(db, row).labels).toEqual(full); // the GROUP BY path, without the review's counts
        const { set } = expectHeadColumns(db);
        for (const column of ['strength', 'shown_left', 'time_ms', 'prelabel_visible', 'regions']) expect(set[column], column).toBeGreaterThan(0);
        expectPairwiseReviewFromHeads(db, project.id);
      };
      check();
      // A merge left pending: its revisions are not seen until it completes.
      const importId = Number(db.prepare("INSERT INTO label_import (project_id, file_name, state, owner, started_at) VALUES (?, 'x.jsonl', 'pending', 'test', '2026-11-28T00:00:00Z')").run(project.id).lastInsertRowid);
      // Its revisions are written, not yet anyone's current label (the merge stages heads apart).
      const stage = db.prepare("INSERT INTO label (id, item_id, annotator_id, task, created_at, choice, body, import_id) VALUES (?, ?, ?, 'pairwise', ?, 'A', '{}', ?)");
      writeNow(db, () => ids.slice(0, 40).forEach((itemId, n) => stage.run(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, itemId, people[n % 4]!.id, '2026-11-28T00:00:00.000Z', importId)));
      check();
      db.close();
    });
  }

  it('keep the head columns through every path that writes a head', async () => {
    const dir = tempDir();
    const { db, project, service, ids } = pairProject(join(dir, 'arbiter.db'), { items: 12, texts: (i) => [`a${i}`, `bb${i}`], annotator: 'ann', visibleSeq: 'all' });
    const check = () => {
      expectHeadColumns(db);
      expectPairwiseReviewFromHeads(db, project.id);
    };
    // The app's saves: a judgement with everything review reads, a rationale, an undo, a clearing undo.
    const save = (annotator: string, itemId: number, choice: 'A' | 'B' | 'tie', extra: object = {}) =>
      service.dispatch('saveLabel', { project: 'p', annotator, itemId, choice, strength: choice === 'tie' ? null : 3, shownOrder: [1, 0], timeMs: 4321, prelabelVisible: true, ...extra });
    await save('ann', ids[0]!, 'A');
    await save('bo', ids[0]!, 'B', { prelabelVisible: false, shownOrder: [0, 1] });
    await save('ann', ids[1]!, 'tie');
    await save('ann', ids[1]!, 'B', { timeMs: 99 });
    check();
    await service.dispatch('saveRationale', { project: 'p', annotator: 'ann', itemId: ids[0]!, rationale: 'longer and right' });
    check();
    await service.dispatch('undoLabel', { project: 'p', annotator: 'ann', itemId: ids[1]! }); // back to the tie
    await service.dispatch('undoLabel', { project: 'p', annotator: 'bo', itemId: ids[0]! }); // cleared
    check();
    // Another task's save goes through the same head statement (pairs ranked: two responses, in one order).
    await service.dispatch('saveRanking', { project: 'p', annotator: 'cy', itemId: ids[2]!, ranking: [[1], [0]], shownOrder: [1, 0], timeMs: 10, prelabelVisible: false });
    expect(db.prepare("SELECT COUNT(*) FROM label_head WHERE task = 'ranking' AND time_ms = 10 AND shown_left = 1 AND prelabel_visible = 0").pluck().get()).toBe(1);
    check();
    // A labels file merged from a teammate: new heads and heads it supersedes (later created_at).
    const lines = ['di', 'ann'].flatMap((who, w) =>
      [3, 4, 1].map((n, k) =>
        JSON.stringify({
          id: `00000000-0000-4000-8000-${String(w * 10 + k).padStart(12, '0')}`,
          item: `q${n}`,
          annotator: who,
          task: 'pairwise',
          choice: k % 2 ? 'B' : 'A',
          strength: 1 + k,
          shown_order: k % 2 ? [0, 1] : [1, 0],
          time_ms: 700 + k,
          prelabel_visible: k === 1,
          created_at: `2099-01-0${k + 1}T00:00:00.000Z`,
        }),
      ),
    );
    const labelsFile = join(dir, 'labels.jsonl');
    writeFileSync(labelsFile, `${lines.join('\n')}\n`);
    expect((await importLabelsFile(db, { path: labelsFile, project: 'p' })).added).toBe(6);
    check();
    // An import's own labels: the file's preferences (source heads) in a second project.
    const trl = join(dir, 'pairs.jsonl');
    writeFileSync(trl, `${[0, 1, 2].map((i) => JSON.stringify({ prompt: `p${i}`, chosen: `yes ${i}`, rejected: `no ${i}` })).join('\n')}\n`);
    await importFile(db, { path: trl, project: 'imported', format: 'auto', createProject: true });
    expect(db.prepare("SELECT COUNT(*) FROM label_head h JOIN annotator a ON a.id = h.annotator_id WHERE a.kind = 'source'").pluck().get()).toBe(3);
    check();
    db.close();
  });

  it('are backfilled by the upgrade to the heads a database holds', () => {
    // Release 0.1.0's database (schema 2): strengths, shown orders, a body with time_ms and prelabel_visible.
    const path = join(tempDir(), 'arbiter.db');
    copyFileSync(join(__dirname, '..', 'fixtures', 'db', 'release-0.1.0-v2.sqlite'), path);
    // One revision with a time not in the canonical form (an older writer's): its head keeps no ms, and
    // the review parses its created_at as it did before.
    const old = new Database(path);
    old.prepare("UPDATE label SET created_at = '2026-11-23 12:53:56' WHERE seq = 9").run();
    old.close();
    const db = openDb(path);
    const { heads, set } = expectHeadColumns(db);
    expect(heads).toBeGreaterThan(0);
    for (const column of ['strength', 'shown_left', 'time_ms']) expect(set[column], column).toBeGreaterThan(0);
    expect(db.prepare('SELECT label_seq FROM label_head WHERE saved_ms IS NULL').pluck().all()).toEqual([9]);
    expectPairwiseReviewFromHeads(db, requireProject(db, db.prepare('SELECT name FROM project').pluck().get() as string).id);
    db.close();
  });
});
