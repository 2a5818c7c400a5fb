// The judges' tables (migrations/0015_judges.sql) through electron/core/store/judges.ts: templates are
// versioned like rubrics (same text keeps its version, a version never changes), results read back with
// everything a run named, newest-only per (item, kind, response, model, template version).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendJudgeResults, judgeResults, judgeTemplate, saveJudgeTemplate, type JudgeResultDraft } from '../../electron/core/store/judges';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

function draft(itemId: number, projectId: number, over: Partial<JudgeResultDraft> = {}): JudgeResultDraft {
  return {
    runId: 'r1', projectId, itemId, response: null, kind: 'pairwise', engine: 'llama', modelName: 'tiny.gguf', modelHash: 'h1',
    templateVersion: 1, rubricVersion: null, params: { temperature: 0.7 }, seed: 3,
    answer: { critique: 'A is right', verdict: 'A', strength: 2 }, answerSwapped: { critique: 'B is right', verdict: 'B', strength: 2 },
    verdict: 'A', strength: 2, flipped: false, firstError: null, outcome: null, critique: 'A is right', error: null, tokens: 10, ms: 5, ...over,
  };
}

describe('judge store', () => {
  it('versions templates like rubrics and refuses to change a version', () => {
    const { db, project } = pairProject(join(tempDir(), 'a.db'), { items: 1, texts: () => ['x', 'y'], annotator: 'ann' });
    expect(saveJudgeTemplate(db, project.id, 'pairwise', 'sys', 'p1')).toEqual({ version: 1, created: true });
    expect(saveJudgeTemplate(db, project.id, 'pairwise', 'sys', 'p1')).toEqual({ version: 1, created: false });
    expect(saveJudgeTemplate(db, project.id, 'pairwise', 'sys', 'p2')).toEqual({ version: 2, created: true });
    expect(judgeTemplate(db, project.id, 'pairwise', 1)?.prompt).toBe('p1');
    expect(judgeTemplate(db, project.id, 'pairwise')?.version).toBe(2);
    expect(judgeTemplate(db, project.id, 'rubric')).toBeNull();
    expect(() => db.prepare("UPDATE judge_template SET prompt = 'x' WHERE version = 1").run()).toThrow(/never changes/);
    db.close();
  });

  it('reads results back with model hash, template version, params and seed; newest only per key', () => {
    const { db, project, ids } = pairProject(join(tempDir(), 'b.db'), { items: 2, texts: () => ['x', 'y'], annotator: 'ann' });
    appendJudgeResults(db, [draft(ids[0]!, project.id), draft(ids[1]!, project.id, { verdict: 'tie', flipped: true })]);
    appendJudgeResults(db, [draft(ids[0]!, project.id, { runId: 'r2', verdict: 'B' })]);
    const all = judgeResults(db, project.id);
    expect(all).toHaveLength(3);
    expect(all[0]).toMatchObject({ itemId: ids[0], kind: 'pairwise', modelHash: 'h1', templateVersion: 1, seed: 3, params: { temperature: 0.7 }, flipped: false, verdict: 'A' });
    expect(all[0]!.answerSwapped).toEqual({ critique: 'B is right', verdict: 'B', strength: 2 });
    const newest = judgeResults(db, project.id, { newestOnly: true });
    // In item order, whatever order the parallel sequences finished in (a run's results compare item by item).
    expect(newest.map((r) => [r.itemId, r.verdict, r.flipped])).toEqual([[ids[0], 'B', false], [ids[1], 'tie', true]]);
    expect(judgeResults(db, project.id, { itemId: ids[1] })).toHaveLength(1);
    db.close();
  });
});
