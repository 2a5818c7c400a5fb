// `arbiter stats`'s fast paths equal the full computation (issue 20, stats ≤ 4×): on seeded random labels
// (people, a model and the file's own labels, superseded revisions, cleared labels, items not yet visible
// and a label merge left pending), projectStats with the review pass's counts gives exactly what a full
// read of every revision row computes in JavaScript, with and without a pending merge.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReview } from '../../electron/core/review/report';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import type { Db } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { projectStats } from '../../electron/core/store/stats';
import { writeNow } from '../../electron/core/store/write';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
      const next = random(seed);
      const { db, project, ids } = pairProject(join(tempDir(), 'arbiter.db'), { items: 60, texts: (i) => [`a${i}`, `bb${i}`], annotator: 'lead', visibleSeq: 50 });
      const people = ['ann', 'bo', 'cy', 'di'].map((name) => ensureAnnotator(db, name, 'human'));
      const others = [ensureAnnotator(db, 'rm-1', 'model'), ensureAnnotator(db, 'source', 'source')];
      const append = labelAppender(db);
      const choices = ['A', 'B', 'tie', 'both_bad', null] as const;
      writeNow(db, () => {
        for (const itemId of ids)
          for (const who of [...people, ...others]) {
            const revisions = Math.floor(next() * 3); // 0, 1 or 2 revisions: a later one supersedes
            for (let r = 0; r < revisions; r++) append({ projectId: project.id, itemId, annotatorId: who.id, task: 'pairwise', choice: choices[Math.floor(next() * choices.length)]!, shownOrder: next() < 0.5 ? [0, 1] : [1, 0], body: { time_ms: 1000 + Math.floor(next() * 9000) } });
          }
      });
      const check = () => {
        const row = requireProject(db, 'p');
        const review = buildReview(db, row);
        const fast = projectStats(db, row, review.pairwiseChoices);
        const full = fullStats(db, project.id);
        expect(fast.labels).toEqual(full);
        expect(projectStats(db, row).labels).toEqual(full); // the GROUP BY path, without the review's counts
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
});
