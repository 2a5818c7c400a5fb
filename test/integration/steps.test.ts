// Step labels, rankings and verdicts through the service, on a real SQLite file: Arbiter's own cut
// is stored with the first rating, ratings after the first error are cleared, a split or merge makes a
// new version and carries the judgement over with a notice, and rankings and verdicts are checked.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importLines } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { tempDir } from '../helpers/tmp';

async function setup() {
  const dbPath = join(tempDir(), 'a.db');
  const db = openDb(dbPath);
  const items = [
    { id: 'chain', prompt: 'Which is larger, 9.8 or 9.11?', responses: [{ text: 'Step 1: Compare 11 and 8.\nStep 2: 11 > 8.\nStep 3: So 9.11 is larger.' }] },
    { id: 'given', prompt: 'p', responses: [{ text: 'x', steps: ['first', 'second'] }, { text: 'y' }] },
    { id: 'four', prompt: 'rank', responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }] },
  ];
  await importLines(db, { project: 'p', fileName: 'p.jsonl', lines: items.map((i) => JSON.stringify(i)), sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
  const id = (external: string) => db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(external) as number;
  return { db, service, id };
}

describe('step labels', () => {
  it('rates Arbiter-cut steps, stores the cut with the first rating, and clears ratings after the first error', async () => {
    const { db, service, id } = await setup();
    const view = await service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: id('chain') });
    expect(view.responses[0]).toMatchObject({ id: null, version: 1, origin: 'auto', method: 'markers', steps: ['Step 1: Compare 11 and 8.', 'Step 2: 11 > 8.', 'Step 3: So 9.11 is larger.'] });
    expect(view.tags).toContain('calculation');
    const saved = await service.dispatch('saveSteps', {
      project: 'p',
      annotator: 'ann',
      itemId: id('chain'),
      response: 0,
      steps: { version: 1, ratings: [1, 1, 1], firstError: 1, tags: { '1': ['logic'] }, corrections: { '1': '8 > 11 in hundredths: 0.80 > 0.11.' } },
      outcome: 'incorrect',
      finishReason: 'found_error',
    });
    expect(saved.task).toBe('steps');
    expect(saved.body).toMatchObject({ steps: { A: [1, -1, null] }, first_error: { A: 1 }, step_tags: { A: { '1': ['logic'] } }, segmentation: { A: 1 }, outcome: { A: 'incorrect' }, finish_reason: { A: 'found_error' } });
    expect(db.prepare("SELECT origin FROM segmentation WHERE item_id = ?").pluck().all(id('chain'))).toEqual(['auto']);
    const again = await service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: id('chain') });
    expect(again.judgements[0]).toMatchObject({ ratings: [1, -1, null], firstError: 1, outcome: 'incorrect' });
    expect((await service.dispatch('progress', { project: 'p', annotator: 'ann' })).labeledByMe).toBe(0); // pairwise progress is its own
    // A stale version is refused, not silently applied.
    await expect(service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: id('chain'), response: 0, steps: { version: 2, ratings: [1, 1, 1], firstError: -1 } })).rejects.toThrow(/version 2/);
    await expect(service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: id('chain'), response: 0, steps: { version: 1, ratings: [1], firstError: -1 } })).rejects.toThrow(/has 3 steps/);
    db.close();
  });

  it("keeps the file's own steps, and a split or merge makes a new version with the judgement carried over and said", async () => {
    const { db, service, id } = await setup();
    const item = id('given');
    const view = await service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: item });
    expect(view.responses[0]).toMatchObject({ origin: 'file', version: 1, steps: ['first', 'second'] });
    await service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: item, response: 0, steps: { version: 1, ratings: [1, 0], firstError: -1 } });
    const merged = await service.dispatch('resegment', { project: 'p', annotator: 'ann', itemId: item, response: 0, op: 'merge', fromVersion: 1, step: 0 });
    expect(merged.view.responses[0]).toMatchObject({ version: 2, origin: 'annotator', steps: ['first\nsecond'] });
    expect(merged.view.judgements[0]).toMatchObject({ version: 2, ratings: [0] });
    expect(merged.notices).toEqual(['Steps 1 and 2 were rated +1 and 0; the merged step keeps the worse, 0.']);
    const split = await service.dispatch('resegment', { project: 'p', annotator: 'ann', itemId: item, response: 0, op: 'split', fromVersion: 2, step: 0, at: 5 });
    expect(split.view.responses[0]!.steps).toEqual(['first', 'second']);
    expect(split.notices[0]).toMatch(/Step 1 was rated 0; its two halves are unrated now/);
    // Every version is kept: the labels on version 1 and 2 still say what they rated.
    expect(db.prepare('SELECT version FROM segmentation WHERE item_id = ? AND response_idx = 0 ORDER BY version').pluck().all(item)).toEqual([1, 2, 3]);
    await expect(service.dispatch('resegment', { project: 'p', annotator: 'ann', itemId: item, response: 0, op: 'merge', fromVersion: 3, step: 1 })).rejects.toThrow(/no next step/);
    // A retried split of a version that has moved on is refused, not applied twice.
    await expect(service.dispatch('resegment', { project: 'p', annotator: 'ann', itemId: item, response: 0, op: 'split', fromVersion: 2, step: 0, at: 5 })).rejects.toThrow(/at version 3, not 2/);
    db.close();
  });
});

describe('rankings and verdicts', () => {
  it('saves a ranking with ties that places every response once, and refuses one that does not', async () => {
    const { db, service, id } = await setup();
    const saved = await service.dispatch('saveRanking', { project: 'p', annotator: 'ann', itemId: id('four'), ranking: [[2], [0, 3], [1]], shownOrder: [3, 1, 0, 2] });
    expect(saved).toMatchObject({ task: 'ranking', ranking: [[2], [0, 3], [1]] });
    await expect(service.dispatch('saveRanking', { project: 'p', annotator: 'ann', itemId: id('four'), ranking: [[2], [0]], shownOrder: [0, 1, 2, 3] })).rejects.toThrow(/exactly one place/);
    await expect(service.dispatch('saveVerdict', { project: 'p', annotator: 'ann', itemId: id('four'), verdict: 'good' })).rejects.toThrow(/verdict is for an item with one/);
    const verdict = await service.dispatch('saveVerdict', { project: 'p', annotator: 'ann', itemId: id('chain'), verdict: 'bad' });
    expect(verdict).toMatchObject({ task: 'verdict', choice: 'bad' });
    // Undo per task: back to nothing, and the verdict counter with it; the ranking is untouched.
    const undone = await service.dispatch('undoLabel', { project: 'p', annotator: 'ann', itemId: id('chain'), task: 'verdict' });
    expect(undone).toMatchObject({ task: 'verdict', choice: null });
    expect((await service.dispatch('progress', { project: 'p', annotator: 'ann', task: 'verdict' })).labeledByMe).toBe(0);
    expect((await service.dispatch('progress', { project: 'p', annotator: 'ann', task: 'ranking' })).labeledByMe).toBe(1);
    await service.dispatch('saveVerdict', { project: 'p', annotator: 'ann', itemId: id('chain'), verdict: 'bad' });
    // Each screen walks its own items, and a judgement of one task leaves the others unlabeled.
    expect(await service.dispatch('nextItem', { project: 'p', annotator: 'ann', task: 'ranking' })).toBeNull();
    expect(await service.dispatch('nextItem', { project: 'p', annotator: 'ann', task: 'verdict' })).toBeNull();
    expect((await service.dispatch('nextItem', { project: 'p', annotator: 'ann', task: 'steps' }))!.id).toBe(id('chain'));
    expect((await service.dispatch('nextItem', { project: 'p', annotator: 'ann', task: 'pairwise' }))!.id).toBe(id('given'));
    db.close();
  });
});
