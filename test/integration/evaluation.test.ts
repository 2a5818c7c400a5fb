// The evaluation engine on a real SQLite file, nothing re-run: two people, a reward model (rows in the
// score table) and a judge (rows in judge_result) measured on the same gold (a file's labels a lead
// marked), per facet, with RewardBench, best-of-N, accuracy with ties, calibration, position consistency
// and κ; a measure without gold falls back to the others' consensus, said as such; `arbiter evaluate`
// prints the same figures and exports per-item results in a benchmark's shape.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Evaluation, SubjectEvaluation } from '../../shared/api/evaluation';
import { runCli } from '../../electron/cli/main';
import { evaluateFigures } from '../../electron/core/review/evaluation/inputs';
import { judgeVerdicts } from '../../electron/core/review/evaluation/judgeResults';
import { startTask } from '../../electron/core/tasks/client';
import { ensureAnnotator, SOURCE_ANNOTATOR } from '../../electron/core/store/annotators';
import { appendJudgeResults, type JudgeResultDraft } from '../../electron/core/store/judges';
import { labelAppender } from '../../electron/core/store/labels';
import { writeNow } from '../../electron/core/store/write';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function setup() {
  const dir = tempDir();
  const dbPath = join(dir, 'arbiter.db');
  const s = pairProject(dbPath, { items: 5, texts: (i) => [`answer a ${i}`, `answer b ${i}`], annotator: 'lead', visibleSeq: 'all' });
  const { db, project, ids } = s;
  db.prepare("UPDATE item SET metadata = json_object('category', CASE WHEN seq < 2 THEN 'math' ELSE 'chat' END) WHERE project_id = ?").run(project.id);
  const source = ensureAnnotator(db, SOURCE_ANNOTATOR, 'source');
  const append = labelAppender(db);
  const person = (name: string) => ensureAnnotator(db, name, 'human').id;
  writeNow(db, () => {
    (['A', 'A', 'B', 'tie'] as const).forEach((choice, i) => append({ projectId: project.id, itemId: ids[i]!, annotatorId: source.id, task: 'pairwise', choice }));
    (['A', 'B', 'B', 'tie'] as const).forEach((choice, i) => append({ projectId: project.id, itemId: ids[i]!, annotatorId: person('alice'), task: 'pairwise', choice, shownOrder: [0, 1] }));
    (['A', 'A', 'A'] as const).forEach((choice, i) => append({ projectId: project.id, itemId: ids[i]!, annotatorId: person('bob'), task: 'pairwise', choice, shownOrder: [0, 1] }));
    // Verdicts on item 4 have no gold: the consensus of the others decides (dave against alice, bob, carol).
    for (const [name, verdict] of [['alice', 'good'], ['bob', 'good'], ['carol', 'good'], ['dave', 'bad']] as const) append({ projectId: project.id, itemId: ids[4]!, annotatorId: person(name), task: 'verdict', choice: verdict });
    const model = db.prepare("INSERT INTO model (name, hash, dir, kind, manifest, added_at) VALUES ('rm', 'h1', '/m', 'outcome', '{}', 'now')").run().lastInsertRowid;
    const score = db.prepare("INSERT INTO score (model_id, content_hash, item_id, response_index, reward, provider, created_at) VALUES (?, ?, ?, ?, ?, 'cpu', 'now')");
    [[2, 1], [0, 1], [0, 3], [1, 1.02]].forEach(([a, b], i) => {
      score.run(model, `a${i}`, ids[i], 0, a);
      score.run(model, `b${i}`, ids[i], 1, b);
    });
    const base: Omit<JudgeResultDraft, 'itemId' | 'verdict' | 'flipped'> = {
      runId: 'r1', projectId: project.id, response: null, kind: 'pairwise', engine: 'llama', modelName: 'tiny.gguf', modelHash: 'x'.repeat(64), templateVersion: 1,
      rubricVersion: null, params: {}, seed: 1, answer: null, answerSwapped: null, strength: null, firstError: null, outcome: null, critique: null, error: null, tokens: 1, ms: 1,
    };
    appendJudgeResults(db, [
      { ...base, itemId: ids[0]!, verdict: 'A', flipped: false },
      { ...base, itemId: ids[1]!, verdict: 'A', flipped: true },
      { ...base, itemId: ids[2]!, verdict: 'B', flipped: false },
      { ...base, itemId: ids[3]!, verdict: 'B', flipped: null },
    ]);
  });
  return { ...s, dir, dbPath };
}

const subject = (e: Evaluation, name: string) => e.subjects.find((s) => s.subject === name) as SubjectEvaluation;
const pairwise = (s: SubjectEvaluation) => s.measures.find((m) => m.measure === 'pairwise')!;

describe('evaluation', () => {
  it('measures people, a reward model and a judge on the same gold, with n, intervals and facets', async () => {
    const s = setup();
    await s.service.dispatch('markGold', { project: 'p', itemIds: s.ids.slice(0, 4) });
    const e = await s.service.dispatch('evaluate', { project: 'p' });
    expect(e.references.find((r) => r.measure === 'pairwise')).toEqual({ measure: 'pairwise', reference: 'gold', items: 4 });

    const alice = pairwise(subject(e, 'alice'));
    expect(alice.reference).toBe('gold');
    expect(alice.accuracy).toMatchObject({ value: 0.75, n: 4 });
    expect(alice.accuracy.low!).toBeLessThan(0.75);
    expect(alice.accuracy.high!).toBeGreaterThan(0.75);
    expect(alice.facets.filter((f) => f.facet === 'category').map((f) => [f.value, f.accuracy.value, f.accuracy.n])).toEqual([
      ['chat', 1, 2],
      ['math', 0.5, 2],
    ]);
    expect(alice.facets.find((f) => f.facet === 'length')).toMatchObject({ value: 'under 1k', accuracy: { n: 4 } });
    expect(pairwise(subject(e, 'bob')).accuracy).toMatchObject({ value: 2 / 3, n: 3 });

    const rm = subject(e, 'rm');
    expect(rm.kind).toBe('reward model');
    // Picks A, B, B, B (1 < 1.02) against gold A, A, B, tie.
    expect(pairwise(rm).accuracy).toMatchObject({ value: 0.5, n: 4 });
    // Gold pairs 0–2: chosen above rejected on 0 and 2.
    expect(rm.benchmarks.rewardBench?.accuracy).toMatchObject({ value: 2 / 3, n: 3 });
    expect(rm.benchmarks.rewardBench?.subsets).toEqual({ math: { value: 0.5, n: 2 }, chat: { value: 1, n: 1 } });
    expect(rm.benchmarks.bestOfN).toMatchObject({ value: 2 / 3, n: 3 });
    // h = [1, 1, −1, 0], m = [1, −1, −3, −0.02]: best 3/4 with the 0.02 pair a tie; without ties 2/3.
    expect(rm.benchmarks.accuracyWithTies?.accuracy).toBeCloseTo(0.75, 12);
    expect(rm.benchmarks.accuracyWithTies?.epsilon).toBeCloseTo(0.02, 12);
    expect(rm.benchmarks.accuracyWithTies?.withoutTies).toBeCloseTo(2 / 3, 12);
    // p = σ(1), σ(−1), σ(−3) against 1, 1, 0: one per bin, so ECE = ((1 − σ(1)) + (1 − σ(−1)) + σ(−3)) / 3 = (1 + σ(−3)) / 3.
    expect(rm.calibration?.ece.value).toBeCloseTo((1 + sigmoid(-3)) / 3, 12);
    expect(rm.calibration?.brier.value).toBeCloseTo(((1 - sigmoid(1)) ** 2 + (1 - sigmoid(-1)) ** 2 + sigmoid(-3) ** 2) / 3, 12);

    const judge = subject(e, 'tiny.gguf · template v1');
    expect(judge.kind).toBe('judge');
    expect(pairwise(judge).accuracy).toMatchObject({ value: 0.75, n: 4 });
    // Items 0–2 ran in both orders; item 1 flipped.
    expect(judge.positionConsistency).toMatchObject({ value: 2 / 3, n: 3 });
    // κ with alice (A A B B vs A B B tie) = (0.5 − 0.375) / 0.625 = 0.2; with bob (A A B vs A A A) = 0: mean 0.1 over 4 + 3 pairs.
    expect(judge.kappaWithPeople?.value).toBeCloseTo(0.1, 12);
    expect(judge.kappaWithPeople?.n).toBe(7);
    // Alice and bob on items 0–2: p_o = 1/3 = p_e, κ = 0.
    expect(e.humanKappa).toMatchObject({ value: 0, n: 3 });
    // The figures come from a task worker (its own connection), the same as computed here.
    const fromWorker = await startTask(s.dbPath, { kind: 'evaluate', project: 'p' }).promise;
    expect(fromWorker).toEqual(evaluateFigures(s.db, s.project.id));
    expect(fromWorker.subjects).toEqual(e.subjects);
  });

  it('falls back to the others’ consensus where a measure has no gold, and says so', async () => {
    const s = setup();
    const e = await s.service.dispatch('evaluate', { project: 'p' });
    expect(e.references.find((r) => r.measure === 'verdict')).toMatchObject({ reference: 'consensus', items: 0 });
    const dave = subject(e, 'dave').measures.find((m) => m.measure === 'verdict')!;
    expect(dave).toMatchObject({ reference: 'consensus', accuracy: { value: 0, n: 1 } });
    expect(subject(e, 'alice').measures.find((m) => m.measure === 'verdict')).toMatchObject({ reference: 'consensus', accuracy: { value: 1, n: 1 } });
    // Without gold marks the pairwise figures rest on consensus too: alice against bob alone.
    expect(pairwise(subject(e, 'alice'))).toMatchObject({ reference: 'consensus', accuracy: { value: 1 / 3, n: 3 } });
    await expect(s.service.dispatch('evaluate', { project: 'p', subjects: ['nobody'] })).rejects.toThrow(/no person, model or judge named “nobody”/);
  });

  it('counts a chain the judge found all correct (first error null: every step passed) as no error, −1', () => {
    const s = setup();
    const steps: Omit<JudgeResultDraft, 'itemId' | 'response' | 'firstError' | 'error'> = {
      runId: 'r2', projectId: s.project.id, kind: 'steps', engine: 'llama', modelName: 'prm.gguf', modelHash: 'y'.repeat(64), templateVersion: 1, rubricVersion: null,
      params: {}, seed: 1, answer: null, answerSwapped: null, verdict: null, strength: null, flipped: null, outcome: null, critique: null, tokens: 1, ms: 1,
    };
    writeNow(s.db, () =>
      appendJudgeResults(s.db, [
        { ...steps, itemId: s.ids[0]!, response: 0, firstError: null, error: null },
        { ...steps, itemId: s.ids[0]!, response: 1, firstError: 2, error: null },
        { ...steps, itemId: s.ids[1]!, response: 0, firstError: null, error: 'the answer did not parse' },
      ]),
    );
    const judge = judgeVerdicts(s.db, s.project.id).find((j) => j.name === 'prm.gguf · template v1')!;
    expect(judge.values.filter((v) => v.measure === 'first_error').map((v) => [v.unit, v.value]).sort()).toEqual([
      [`${s.ids[0]}:A`, '-1'],
      [`${s.ids[0]}:B`, '2'],
    ]);
  });

  it('arbiter evaluate prints the figures and exports per-item results in RewardBench’s shape', async () => {
    const s = setup();
    await s.service.dispatch('markGold', { project: 'p', itemIds: s.ids.slice(0, 4) });
    const run = async (args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli([...args, '--db', s.dbPath], { out: (l) => out.push(l), err: (l) => err.push(l), ask: async () => 'no' });
      expect(code, err.join('\n')).toBe(0);
      return out;
    };
    const json = JSON.parse((await run(['evaluate', '--project', 'p', '--model', 'rm', '--json']))[0]!) as Evaluation;
    expect(json.subjects.map((x) => x.subject)).toEqual(['rm']);
    const text = await run(['evaluate', '--project', 'p']);
    expect(text).toContain('  pairwise vs gold: 75.0% [30.1–95.4] n 4');
    const out = join(s.dir, 'rm.rewardbench.jsonl');
    await run(['evaluate', '--project', 'p', '--model', 'rm', '--export', 'rewardbench', '--out', out]);
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toEqual([
      { id: 'q0', subset: 'math', scores_chosen: 2, scores_rejected: 1, results: 1 },
      { id: 'q1', subset: 'math', scores_chosen: 0, scores_rejected: 1, results: 0 },
      { id: 'q2', subset: 'chat', scores_chosen: 3, scores_rejected: 0, results: 1 },
    ]);
    const ties = join(s.dir, 'rm.videoalign.jsonl');
    await run(['evaluate', '--project', 'p', '--model', 'rm', '--export', 'videoalign', '--out', ties]);
    expect(readFileSync(ties, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { human: number }).human)).toEqual([1, 1, -1, 0]);
  });
});
