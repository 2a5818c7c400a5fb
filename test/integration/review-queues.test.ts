// The disagreement queues read alone (review/report.ts reviewQueues: what the items explorer's facts read,
// no agreement figure worked out, no pair's length read) are the queues the whole review makes, row by row
// in every task: on a project of every shape and task (people who split, two reward models, adjudications,
// gold), and again after more labels that split.
import { describe, expect, it } from 'vitest';
import { buildReview, reviewQueues } from '../../electron/core/review/report';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { seedItems } from '../helpers/itemsSeed';

const rowsOf = (queues: ReturnType<typeof reviewQueues>) => Object.fromEntries(Object.entries(queues).map(([task, rows]) => [task, rows]));

describe('the review queues read alone', () => {
  it('are the whole review’s queues, in every task', async () => {
    const { db, projectId } = await seedItems();
    const project = requireProject(db, 'p');
    const whole = rowsOf(buildReview(db, project).queues);
    expect(Object.values(whole).flat().length).toBeGreaterThan(5);
    expect(whole.pairwise!.some((r) => r.reasons.includes('model'))).toBe(true);
    expect(rowsOf(reviewQueues(db, project))).toEqual(whole);
    // More people split on more pairs: still the same.
    const append = labelAppender(db);
    const dan = ensureAnnotator(db, 'dan', 'human').id;
    const pairs = db.prepare('SELECT id FROM item WHERE project_id = ? AND response_count = 2 ORDER BY seq').pluck().all(projectId) as number[];
    pairs.forEach((itemId, i) => append({ projectId, itemId, annotatorId: dan, choice: i % 3 === 0 ? 'A' : i % 3 === 1 ? 'B' : 'tie', body: {} }));
    const after = rowsOf(buildReview(db, project).queues);
    expect(after).not.toEqual(whole);
    expect(rowsOf(reviewQueues(db, project))).toEqual(after);
  });
});
