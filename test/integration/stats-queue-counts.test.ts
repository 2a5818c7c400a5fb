// `arbiter stats` prints the review queue's counts without making its rows (review/pairwiseQueue.ts: the
// pairwise rows are made when something asks for them). Those counts must be what the rows hold: on
// seeded projects with people who split, two reward models (reasons "model" and "uncertain"),
// adjudications, rankings, verdicts and steps, the report's queue figures equal the rows' own, whether the
// rows were made by a reason added to them (a lead's send) or only when read.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QueueReason, QueueRow } from '../../shared/api/review';
import { buildReview } from '../../electron/core/review/report';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { labelAppender, type RevisionDraft } from '../../electron/core/store/labels';
import { recordAdjudication, sendItemsToReview } from '../../electron/core/store/review';
import { writeNow } from '../../electron/core/store/write';
import { seedItems } from '../helpers/itemsSeed';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';
import { seededRng } from '../helpers/seeded';

function fromRows(queues: Record<string, QueueRow[]>) {
  const all = Object.values(queues).flat();
  const byReason = { annotators: 0, model: 0, uncertain: 0, judge: 0, sent: 0, moments: 0 } as Record<QueueReason, number>;
  for (const row of all) for (const reason of row.reasons) byReason[reason]++;
  return { total: all.length, byReason, adjudicated: all.filter((r) => r.adjudicated).length };
}

describe('the review queue counts stats prints', () => {
  it('equal the rows on the items seed (every task, models, adjudications), and after a send', async () => {
    const { db, projectId } = await seedItems();
    const project = { id: projectId, name: 'p' };
    const review = buildReview(db, project);
    expect(review.report.queue.total).toBeGreaterThan(0);
    expect(review.report.queue.byReason.model + review.report.queue.byReason.uncertain).toBeGreaterThan(0);
    expect(review.report.queue.adjudicated).toBeGreaterThan(0);
    expect(review.report.queue).toEqual(fromRows(review.queues));
    // A lead sends two pairs and a ranking: their rows get the reason, so the pairwise rows are made first.
    const pairs = db.prepare("SELECT id FROM item WHERE project_id = ? AND response_count = 2 ORDER BY seq LIMIT 2").pluck().all(projectId) as number[];
    const ranked = db.prepare('SELECT id FROM item WHERE project_id = ? AND response_count = 3 ORDER BY seq LIMIT 1').pluck().all(projectId) as number[];
    writeNow(db, () => sendItemsToReview(db, projectId, [...pairs, ...ranked], 'lead', 100));
    const sent = buildReview(db, project);
    expect(sent.report.queue.byReason.sent).toBe(3);
    expect(sent.report.queue).toEqual(fromRows(sent.queues));
    db.close();
  });

  for (const seed of [5, 2026]) {
    it(`equal the rows on seeded random pairs with models and adjudications (seed ${seed})`, () => {
      const next = seededRng(seed);
      const { db, project, ids } = pairProject(join(tempDir(), 'arbiter.db'), { items: 80, texts: (i) => [`a${i}`, `bb${i}`], annotator: 'lead', visibleSeq: 'all' });
      const people = ['ann', 'bo', 'cy'].map((name) => ensureAnnotator(db, name, 'human'));
      const lead = ensureAnnotator(db, 'lead', 'human');
      const append = labelAppender(db);
      const choices = ['A', 'B', 'tie', 'both_bad', null] as const;
      db.prepare("INSERT INTO model (id, name, hash, dir, kind, manifest, added_at) VALUES (1, 'rm-one', 'h1', '/m1', 'outcome', '{}', '2026-01-01'), (2, 'rm-two', 'h2', '/m2', 'outcome', '{}', '2026-01-01')").run();
      const score = db.prepare("INSERT INTO score (model_id, content_hash, item_id, response_index, reward, provider, created_at) VALUES (?, ?, ?, ?, ?, 'cpu', '2026')");
      writeNow(db, () => {
        for (const itemId of ids) {
          for (const who of people)
            if (next() < 0.8) append({ projectId: project.id, itemId, annotatorId: who.id, task: 'pairwise', choice: choices[Math.floor(next() * choices.length)]!, strength: null, shownOrder: [0, 1], body: {} });
          for (const model of [1, 2])
            if (next() < 0.6) for (const index of [0, 1]) score.run(model, `h${model}-${itemId}-${index}`, itemId, index, next() * 4 - 2);
          if (next() < 0.15) {
            const draft: Omit<RevisionDraft, 'id'> = { projectId: project.id, itemId, annotatorId: lead.id, task: 'pairwise', choice: 'A', strength: null, shownOrder: [0, 1], body: {} };
            recordAdjudication(db, draft, 'settled');
          }
        }
      });
      const review = buildReview(db, { id: project.id, name: 'p' });
      const { byReason } = review.report.queue;
      expect(byReason.annotators * byReason.model * byReason.uncertain * review.report.queue.adjudicated).toBeGreaterThan(0);
      expect(review.report.queue).toEqual(fromRows(review.queues));
      db.close();
    });
  }
});
