// The rating and rubric parsers record by record (no database): what each line becomes, and how a bad
// one is named. The round trips through SQLite are in test/integration/rubric-formats.test.ts.
import { describe, expect, it } from 'vitest';
import { previewHead } from '../../../electron/core/formats';
import { parseHelpsteer2, parseHelpsteer2Preference } from '../../../electron/core/formats/ratings/helpsteer2';
import { parseHelpsteer3 } from '../../../electron/core/formats/ratings/helpsteer3';
import { GROUPS, Grouper } from '../../../electron/core/formats/import/group';
import { parseRar } from '../../../electron/core/formats/ratings/rar';
import { signedScore } from '../../../electron/core/formats/ratings/ratingJudgements';
import { RecordError } from '../../../electron/core/formats/types';
import { parseUltrafeedback } from '../../../electron/core/formats/ratings/ultrafeedback';
import { parseUltrafeedbackBinarized } from '../../../electron/core/formats/pairs/ultrafeedbackBinarized';

const fails = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof RecordError) return error.message;
    throw error;
  }
  throw new Error('did not fail');
};

describe('ultrafeedback', () => {
  const record = {
    source: 'x',
    instruction: 'Q?',
    models: ['m1', 'm2'],
    completions: [
      { response: 'a', annotations: { honesty: { Rating: 'N/A', Rationale: 'r' }, helpfulness: { Rating: '4' }, custom: { Rating: '9' } }, critique: 'ok' },
      { model: 'own', response: 'b', annotations: { helpfulness: { Rating: 2 } }, critique: '' },
    ],
  };

  it('rates each aspect under the rubric "ultrafeedback": "N/A" is null, models come from the list when a completion names none', () => {
    const parsed = parseUltrafeedback(record);
    expect(parsed.draft.responses.map((r) => r.model)).toEqual(['m1', 'own']);
    const [ratings, critique] = parsed.judgements!;
    expect(ratings).toMatchObject({ task: 'rubric', rubric: { name: 'ultrafeedback' }, body: { ratings: { A: { honesty: null, helpfulness: 4 }, B: { helpfulness: 2 } } } });
    expect(ratings!.rubric!.criteria.map((c) => c.key)).toEqual(['instruction_following', 'honesty', 'truthfulness', 'helpfulness']);
    // An empty critique is no critique; an aspect UltraFeedback does not have stays in the kept record as it was.
    expect(critique).toEqual({ task: 'critique', body: { critique: { A: 'ok' } } });
    const kept = parsed.draft.metadata.ultrafeedback as { completions: { annotations: Record<string, unknown>; critique: unknown }[] };
    expect(kept.completions[0]!.annotations).toEqual({ honesty: { Rating: null, Rationale: 'r' }, helpfulness: { Rating: null }, custom: { Rating: '9' } });
    expect(kept.completions[1]!.critique).toBe('');
  });

  it('names the field of a rating off the scale, and of a missing response', () => {
    const bad = { ...record, completions: [{ response: 'a', annotations: { honesty: { Rating: '6' } } }] };
    expect(fails(() => parseUltrafeedback(bad))).toBe('completions[0].annotations.honesty.Rating: expected "1" to "5" or "N/A", got "6"');
    expect(fails(() => parseUltrafeedback({ instruction: 'Q', completions: [{ annotations: {} }] }))).toBe('completions[0].response: missing');
  });
});

describe('ultrafeedback-binarized', () => {
  it('splits the shared conversation off as the prompt, keeps the scores by response and prompt_id as the id', () => {
    const conv = (a: string) => [
      { role: 'user', content: 'Q?' },
      { role: 'assistant', content: a },
    ];
    const parsed = parseUltrafeedbackBinarized({ prompt: 'Q?', prompt_id: 'abc', chosen: conv('yes'), rejected: conv('no'), messages: conv('yes'), score_chosen: 8, score_rejected: 3.5 });
    expect(parsed.draft).toMatchObject({ externalId: 'abc', prompt: 'Q?', responses: [{ content: 'yes' }, { content: 'no' }], metadata: { scores: [8, 3.5] } });
    expect(parsed.preference).toBe('A');
  });
});

describe('helpsteer2', () => {
  const row = (prompt: string, response: string, h: unknown = 2) => ({ prompt, response, helpfulness: h, correctness: 1, coherence: 4, complexity: 0, verbosity: 3 });

  it('rates a row 0–4 per attribute, and names an attribute off the scale', () => {
    expect(parseHelpsteer2(row('P', 'a')).judgements![0]!.body.ratings).toEqual({ A: { helpfulness: 2, correctness: 1, coherence: 4, complexity: 0, verbosity: 3 } });
    expect(fails(() => parseHelpsteer2(row('P', 'a', 4.5)))).toBe('helpfulness: expected a whole number from 0 to 4, got 4.5');
  });

  it('groups consecutive rows of a prompt: each run of rows one item, a bad line reported on its own', () => {
    const grouper = new Grouper(parseHelpsteer2, GROUPS.helpsteer2!);
    const out = [
      ...grouper.add({ line: 1, text: '' }, row('P', 'a')),
      ...grouper.add({ line: 2, text: 'x' }, new RecordError('invalid JSON')),
      ...grouper.add({ line: 3, text: '' }, row('P', 'b', 0)),
      ...grouper.add({ line: 4, text: '' }, row('Q', 'c')),
      ...grouper.add({ line: 5, text: '' }, row('P', 'd')),
      ...grouper.flush(),
    ];
    expect(out.map((e) => ('error' in e ? `error ${e.error.line}` : e.lines.map((l) => l.line).join(',')))).toEqual(['error 2', '1,3', '4', '5']);
    const first = out[1]!;
    if ('error' in first) throw new Error('expected an item');
    expect(first.parsed.draft.responses.map((r) => r.content)).toEqual(['a', 'b']);
    expect(first.parsed.judgements![0]!.body.ratings).toMatchObject({ A: { helpfulness: 2 }, B: { helpfulness: 0 } });
  });

  it('shows grouped items in the import preview', () => {
    const head = [row('P', 'a'), row('P', 'b'), row('Q', 'c')].map((r) => JSON.stringify(r)).join('\n') + '\n';
    const preview = previewHead(head, 'auto');
    expect(preview.format).toBe('helpsteer2');
    expect(preview.records.map((r) => [r.line, r.responses])).toEqual([
      [1, ['a', 'b']],
      [3, ['c']],
    ]);
  });

  it('preference rows: negative is response 1, positive response 2, 0 a tie; statement and elaboration kept', () => {
    const pref = (s: number) => parseHelpsteer2Preference({ prompt: 'P', response_1: 'a', response_2: 'b', preference_strength: s, preference_statement: 'st', preference_elaboration: 'el' });
    expect(pref(-3).judgements).toEqual([{ task: 'pairwise', choice: 'A', strength: 3, body: { rationale: 'st', elaboration: 'el' } }]);
    expect(pref(1).judgements![0]).toMatchObject({ choice: 'B', strength: 1 });
    expect(pref(0).judgements![0]).toMatchObject({ choice: 'tie', strength: null });
    expect(fails(() => pref(4))).toBe('preference_strength: expected a whole number from -3 to 3, got 4');
  });
});

describe('helpsteer3', () => {
  it('makes the overall preference the source label and each individual preference its own annotator’s, with critiques', () => {
    const parsed = parseHelpsteer3({
      domain: 'code',
      context: [{ role: 'user', content: 'Q' }],
      response1: 'a',
      response2: 'b',
      overall_preference: -1,
      individual_preference: [
        { score: -2, reasoning: 'one', feedback1: 'f1', feedback2: 'f2' },
        { score: 0, reasoning: 'two' },
      ],
    });
    expect(parsed.judgements).toEqual([
      { task: 'pairwise', choice: 'A', strength: 1, body: {} },
      { task: 'pairwise', choice: 'A', strength: 2, body: { rationale: 'one' }, annotator: 'helpsteer3-annotator-1' },
      { task: 'critique', body: { critique: { A: 'f1', B: 'f2' } }, annotator: 'helpsteer3-annotator-1' },
      { task: 'pairwise', choice: 'tie', strength: null, body: { rationale: 'two' }, annotator: 'helpsteer3-annotator-2' },
    ]);
    expect(parsed.draft.prompt).toEqual([{ role: 'user', content: 'Q' }]);
  });

  it('names a score off the scale', () => {
    expect(fails(() => parseHelpsteer3({ context: [{ role: 'user', content: 'Q' }], response1: 'a', response2: 'b', overall_preference: 0, individual_preference: [{ score: 'x' }] }))).toBe(
      'individual_preference[0].score: expected a whole number from -3 to 3, got "x"',
    );
  });

  it('writes a choice saved without a strength as ±1, and says so', () => {
    let unknown = 0;
    expect([signedScore('A', null, () => unknown++), signedScore('B', 2.5, () => unknown++), signedScore('tie', null, () => unknown++)]).toEqual([-1, 3, 0]);
    expect(unknown).toBe(1);
  });
});

describe('rar', () => {
  it('turns the rubric into the item’s own binary criteria: titles as keys, weights and pitfalls kept', () => {
    const parsed = parseRar({
      question: 'Q?',
      reference_answer: 'R.',
      question_source: 's',
      rubric: [
        { title: 'Names the Cause!', description: 'Essential Criteria: names it.', weight: 5 },
        { title: 'Names the cause', description: 'Important Criteria: again.', weight: 3 },
        { description: 'Pitfall Criteria: guesses.', weight: -1 },
      ],
      rubric_list: ['…'],
      rubric_count: 3,
    });
    expect(parsed.criteria!.map((c) => [c.key, c.weight, c.scale.type])).toEqual([
      ['names_the_cause', 5, 'binary'],
      ['names_the_cause_2', 3, 'binary'],
      ['criterion_3', -1, 'binary'],
    ]);
    expect(parsed.draft).toMatchObject({ prompt: 'Q?', reference: 'R.', responses: [{ content: 'R.', model: 'reference_answer' }], metadata: { question_source: 's' } });
    expect(parseRar({ question: 'Q', rubric: [{ title: 't', description: 'd', weight: 1 }], responses: ['x', { text: 'y', model: 'm' }] }).draft.responses.map((r) => [r.content, r.model])).toEqual([
      ['x', null],
      ['y', 'm'],
    ]);
  });

  it('names what is wrong with a rubric', () => {
    expect(fails(() => parseRar({ question: 'Q', reference_answer: 'R', rubric: [] }))).toBe('rubric: empty list');
    expect(fails(() => parseRar({ question: 'Q', reference_answer: 'R', rubric: [{ title: 't', description: 'd', weight: 'high' }] }))).toBe('rubric[0].weight: expected a number, got "high"');
    expect(fails(() => parseRar({ question: 'Q', rubric: [{ title: 't', description: 'd', weight: 1 }] }))).toMatch(/^reference_answer: missing, and the line has no responses/);
  });
});
