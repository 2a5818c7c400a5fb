// The review queue's reason "judge" on a real SQLite file: a pair where a local judge's stored verdict
// differs from the people's (or from the lead's resolution), or where it flipped with the presentation
// order, is queued with the reason; a pair the judge agrees on is not; a pair already queued because people
// disagree gets the reason added.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendJudgeResults, type JudgeResultDraft } from '../../electron/core/store/judges';
import { writeNow } from '../../electron/core/store/write';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

describe('review queue: judge', () => {
  it('queues the pairs a judge disagrees on or flips on, beside the people’s own disputes', async () => {
    const { db, project, service, ids } = pairProject(join(tempDir(), 'arbiter.db'), { items: 5, texts: (i) => [`a ${i}`, `b ${i}`], annotator: 'lead', visibleSeq: 'all' });
    const people: Record<string, ('A' | 'B')[]> = { alice: ['A', 'A', 'A', 'A', 'A'], bob: ['A', 'A', 'A', 'B', 'A'] };
    for (const [annotator, choices] of Object.entries(people))
      for (const [i, choice] of choices.entries()) await service.dispatch('saveLabel', { project: 'p', annotator, itemId: ids[i]!, choice, shownOrder: [0, 1] });
    // The lead resolves q4 as B: a judge saying A there disagrees with the resolution, not the majority.
    await service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: ids[4]!, choice: 'B' });
    const base: Omit<JudgeResultDraft, 'itemId' | 'verdict' | 'flipped'> = {
      runId: 'r', projectId: project.id, response: null, kind: 'pairwise', engine: 'llama', modelName: 'j.gguf', modelHash: 'f'.repeat(64), templateVersion: 2,
      rubricVersion: null, params: { temperature: 0 }, seed: 7, answer: null, answerSwapped: null, strength: 2, firstError: null, outcome: null, critique: 'why', error: null, tokens: 5, ms: 5,
    };
    writeNow(db, () =>
      appendJudgeResults(db, [
        { ...base, itemId: ids[0]!, verdict: 'B', flipped: false },
        { ...base, itemId: ids[1]!, verdict: 'A', flipped: true },
        { ...base, itemId: ids[2]!, verdict: 'A', flipped: false },
        { ...base, itemId: ids[3]!, verdict: 'A', flipped: false },
        { ...base, itemId: ids[4]!, verdict: 'A', flipped: false },
      ]),
    );
    const judged = await service.dispatch('reviewQueue', { project: 'p', reason: 'judge' });
    expect(judged.rows.map((r) => r.externalId).sort()).toEqual(['q0', 'q1', 'q4']);
    expect(judged.rows.find((r) => r.externalId === 'q0')).toMatchObject({ reasons: ['judge'], votes: { A: 2 }, labels: 2, dispute: 0.5 });
    expect(judged.rows.find((r) => r.externalId === 'q1')).toMatchObject({ reasons: ['judge'], dispute: 0.25 });
    // q3: people split (A, B); the judge's A sides with nobody's majority, so only the people's reason.
    const all = await service.dispatch('reviewQueue', { project: 'p' });
    expect(all.rows.find((r) => r.externalId === 'q3')?.reasons).toEqual(['annotators']);
    const report = await service.dispatch('reviewReport', { project: 'p', refresh: true });
    expect(report.queue.byReason.judge).toBe(3);
  });
});
