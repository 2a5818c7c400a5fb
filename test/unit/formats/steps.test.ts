// The process-supervision and unpaired formats without a database: detection with its one-line reasons,
// the parsers' field-named refusals, what a step export keeps of a chain, and the decisions on rankings,
// verdicts and step judgements (adjudication first, then the named annotator, the humans' consensus,
// the file's own label).
import { describe, expect, it } from 'vitest';
import { detectFormat, RecordError } from '../../../electron/core/formats';
import { keptChain } from '../../../electron/core/formats/process/chain';
import { PARSERS } from '../../../electron/core/formats/import/prepare';
import { decideChain, decideRanking, decideUnpaired, decideVerdict, rankingPairs, type HeadLabel } from '../../../electron/core/formats/base/resolve';
import type { AnnotatorKind } from '../../../shared/domain';

const PRM = {
  labeler: 'u',
  timestamp: 't',
  generation: null,
  is_quality_control_question: false,
  is_initial_screening_question: false,
  question: { problem: 'p', ground_truth_answer: '1' },
  label: { steps: [{ completions: [{ text: 'a', rating: 1, flagged: null }], human_completion: null, chosen_completion: 0 }], total_time: 1, finish_reason: 'solution' },
};

describe('detectFormat: the step and unpaired formats', () => {
  it.each([
    ['prm800k', PRM, 'a "question" with a "problem" and a "label" with rated "steps"'],
    ['math-shepherd', { input: 'q Step 1: a ки', label: 'q Step 1: a +', task: 'GSM8K' }, '"input" with "ки" step tags'],
    ['processbench', { id: 'x', generator: 'g', problem: 'p', steps: ['a'], final_answer_correct: true, label: -1 }, 'a numeric "label" (the earliest wrong step, or -1)'],
    ['trl-stepwise', { prompt: 'p', completions: ['a'], labels: [true] }, '"completions" list and a "labels" list'],
    ['trl-unpaired', { prompt: 'p', completion: 'a', label: true }, 'a true/false "label"'],
  ] as const)('%s, with a one-line reason', (format, record, why) => {
    const result = detectFormat([record]);
    expect(result.format).toBe(format);
    expect(result.reason).toBe(`${format}: ${result.reason.slice(format.length + 2)}`);
    expect(result.reason).toContain(why);
    expect(result.reason).not.toContain('\n');
  });
});

describe('parsers say which field is wrong', () => {
  const reason = (format: keyof typeof PARSERS, record: Record<string, unknown>) => {
    try {
      PARSERS[format](record);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(RecordError);
      return (error as Error).message;
    }
  };

  it('trl-stepwise', () => {
    expect(reason('trl-stepwise', { prompt: 'p', completions: ['a', 'b'], labels: [true] })).toBe('labels: 1 label(s) for 2 completion(s)');
    expect(reason('trl-stepwise', { prompt: 'p', completions: ['a'], labels: [1] })).toBe('labels[0]: expected true or false, got number');
    expect(reason('trl-stepwise', { prompt: 'p', completions: [], labels: [] })).toBe('completions: empty list');
    expect(reason('trl-stepwise', { prompt: [{ role: 'user', content: 'p' }], completions: ['a'], labels: [true] })).toBe('prompt: expected a string, got a list');
  });

  it('processbench', () => {
    const line = { id: 'x', generator: 'g', problem: 'p', steps: ['a', 'b'], final_answer_correct: true, label: -1 };
    expect(reason('processbench', line)).toBeNull();
    expect(reason('processbench', { ...line, label: 2 })).toBe('label: 2, but there are 2 steps (the earliest wrong step\'s index, 0 to 1, or -1)');
    expect(reason('processbench', { ...line, steps: ['a', ''] })).toBe('steps[1]: empty text');
    expect(reason('processbench', { ...line, final_answer_correct: 'yes' })).toBe('final_answer_correct: expected true or false, got string');
  });

  it('math-shepherd', () => {
    expect(reason('math-shepherd', { input: 'q Step 1: a', label: 'q Step 1: a' })).toBe('input: no "ки" step tag');
    expect(reason('math-shepherd', { input: 'q a ки', label: 'q a +' })).toBe('input: no "Step 1" before the first tag, so the problem cannot be told from the first step');
    expect(reason('math-shepherd', { input: 'q Step 1: a ки', label: 'q Step 1: a ?' })).toBe('label: step 1 is tagged "?", not + or -');
  });

  it('prm800k', () => {
    expect(reason('prm800k', PRM)).toBeNull();
    expect(reason('prm800k', { ...PRM, label: { ...PRM.label, finish_reason: 'done' } })).toBe('label.finish_reason: "done" is not one of solution, found_error, give_up, bad_problem');
    const badRating = { ...PRM, label: { ...PRM.label, steps: [{ completions: [{ text: 'a', rating: 2 }], human_completion: null, chosen_completion: 0 }] } };
    expect(reason('prm800k', badRating)).toBe('label.steps[0].completions[0].rating: expected -1, 0, 1 or null, got 2');
    expect(reason('prm800k', { ...PRM, label: { ...PRM.label, steps: [] } })).toBe('label.steps: no step to rate, and no question.pre_generated_steps (a session that judged nothing)');
  });

  it('trl-unpaired', () => {
    expect(reason('trl-unpaired', { prompt: 'p', completion: 'a', label: 'yes' })).toBe('label: expected true or false, got string');
    expect(reason('trl-unpaired', { prompt: 'p', completion: [{ role: 'assistant', content: 'a' }], label: true })).toMatch(/^completion: a message list after a text prompt/);
  });
});

describe('keptChain (docs/formats.md: what a step export keeps)', () => {
  const steps = ['a', 'b', 'c', 'd'];
  it('stops at the first error, that step included', () => {
    expect(keptChain(steps, [1, 0, -1, null], 2)).toEqual({ steps: ['a', 'b', 'c'], ratings: [1, 0, -1], cut: true });
    // Ratings after the first error (a labels file, a continued PRM800K session) are not kept unless every step is rated.
    expect(keptChain(steps, [1, -1, 1, null], 1)).toEqual({ steps: ['a', 'b'], ratings: [1, -1], cut: true });
  });
  it('keeps every step of a chain with no error, and of a chain whose every step is rated', () => {
    expect(keptChain(steps, [1, 1, 1, 1], -1)).toEqual({ steps, ratings: [1, 1, 1, 1], cut: false });
    expect(keptChain(steps, [1, -1, 1, -1], 1)).toEqual({ steps, ratings: [1, -1, 1, -1], cut: false });
  });
  it('keeps a chain with no error up to its last rated step; leaves an unrated chain out', () => {
    expect(keptChain(steps, [1, null, 1, null], null)).toEqual({ steps: ['a', 'b', 'c'], ratings: [1, null, 1], cut: false });
    expect(keptChain(steps, [null, null, null, null], null)).toBeNull();
  });
});

const h = (annotator: string, extra: Partial<HeadLabel> = {}, kind: AnnotatorKind = 'human'): HeadLabel => ({ annotator, kind, choice: null, ranking: null, strength: null, ...extra });

describe('rankings', () => {
  it('pairs: all, best-worst, adjacent; tied responses never pair; distance = rank groups apart', () => {
    const ranking = [[2], [0, 3], [1]];
    expect(rankingPairs(ranking, 'all')).toEqual([
      { winner: 2, loser: 0, distance: 1 },
      { winner: 2, loser: 3, distance: 1 },
      { winner: 2, loser: 1, distance: 2 },
      { winner: 0, loser: 1, distance: 1 },
      { winner: 3, loser: 1, distance: 1 },
    ]);
    expect(rankingPairs(ranking, 'best-worst')).toEqual([{ winner: 2, loser: 1, distance: 2 }]);
    expect(rankingPairs(ranking, 'adjacent')).toHaveLength(4);
    expect(rankingPairs([[0, 1, 2]], 'all')).toEqual([]);
  });

  it('adjudication first, then the named annotator, the most common human ranking, the source', () => {
    const labels = [h('a', { ranking: [[0], [1], [2]] }), h('b', { ranking: [[0], [1], [2]] }), h('c', { ranking: [[2], [1], [0]] }), h('source', { ranking: [[1], [0], [2]] }, 'source')];
    expect(decideRanking(labels)).toEqual({ ranking: [[0], [1], [2]] });
    expect(decideRanking(labels, 'c')).toEqual({ ranking: [[2], [1], [0]] });
    expect(decideRanking([...labels, h('lead', { ranking: [[1], [2], [0]], adjudicated: true })], 'c')).toEqual({ ranking: [[1], [2], [0]] });
    expect(decideRanking(labels.slice(2))).toEqual({ ranking: [[2], [1], [0]] });
    expect(decideRanking(labels.slice(3))).toEqual({ ranking: [[1], [0], [2]] });
    expect(decideRanking(labels.slice(1, 3))).toEqual({ skip: 'conflict' });
    expect(decideRanking([h('a', { ranking: [[0, 1, 2]] })])).toEqual({ skip: 'tie' });
  });
});

describe('verdicts and unpaired lines', () => {
  it('a verdict: majority, even split a conflict, source where no human judged', () => {
    expect(decideVerdict([h('a', { choice: 'good' }), h('b', { choice: 'bad' }), h('c', { choice: 'bad' })])).toEqual({ verdict: 'bad' });
    expect(decideVerdict([h('a', { choice: 'good' }), h('b', { choice: 'bad' })])).toEqual({ skip: 'conflict' });
    expect(decideVerdict([h('source', { choice: 'good' }, 'source')])).toEqual({ verdict: 'good' });
  });

  it('pairwise, both-bad, tie, ranking', () => {
    const none: HeadLabel[] = [];
    expect(decideUnpaired(2, { verdict: none, pairwise: [h('a', { choice: 'B' })], ranking: none })).toEqual({ lines: [{ response: 1, label: true }, { response: 0, label: false }] });
    expect(decideUnpaired(2, { verdict: none, pairwise: [h('a', { choice: 'both_bad' })], ranking: none })).toEqual({ lines: [{ response: 0, label: false }, { response: 1, label: false }] });
    expect(decideUnpaired(2, { verdict: none, pairwise: [h('a', { choice: 'tie' })], ranking: none })).toEqual({ skip: 'tie' });
    expect(decideUnpaired(3, { verdict: none, pairwise: none, ranking: [h('a', { ranking: [[1], [0], [2]] })] })).toEqual({ lines: [{ response: 1, label: true }, { response: 2, label: false }] });
  });
});

describe('decideChain', () => {
  const body = (ratings: (-1 | 0 | 1 | null)[], firstError: number | null, version = 1) => ({ steps: { A: ratings }, first_error: { A: firstError }, segmentation: { A: version } });
  it('adjudication, annotator, one human, the source', () => {
    const source = h('source', { body: body([1, 1, 1], -1) }, 'source');
    const alice = h('alice', { body: body([1, -1, null], 1) });
    expect(decideChain([source], 'A')).toMatchObject({ chain: { ratings: [1, 1, 1], by: { kind: 'source' } } });
    expect(decideChain([source, alice], 'A')).toMatchObject({ chain: { ratings: [1, -1, null], firstError: 1, by: { annotator: 'alice' } } });
    expect(decideChain([source, alice], 'A', 'bob')).toEqual({ skip: 'unlabeled' });
    expect(decideChain([source, alice], 'B')).toEqual({ skip: 'unlabeled' });
    expect(decideChain([alice, { ...source, adjudicated: true }], 'A')).toMatchObject({ chain: { ratings: [1, 1, 1], by: { adjudicated: true } } });
  });

  it('several humans: the version most rated, a majority per step up to the consensus first error', () => {
    const labels = [h('a', { body: body([1, 1, -1, null], 2) }), h('b', { body: body([1, 0, -1, null], 2) }), h('c', { body: body([1, 1, 1, -1], 3) }), h('d', { body: body([-1, null], 0, 2) })];
    expect(decideChain(labels, 'A')).toMatchObject({ chain: { ratings: [1, 1, -1, null], firstError: 2, version: 1, by: { kind: 'consensus' } } });
    expect(decideChain(labels.slice(0, 2).concat(h('e', { body: body([1, 1, 1, -1], 3) })), 'A')).toMatchObject({ chain: { ratings: [1, 1, -1, null] } });
    expect(decideChain([labels[0]!, h('e', { body: body([1, -1, null, null], 1) })], 'A')).toEqual({ skip: 'conflict' });
  });
});
