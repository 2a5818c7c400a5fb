// Agreement per turn on agent trajectories (issue 14): turn ratings, the first error turn (exact and ±1),
// the error category of the first error, the tags of a turn both people tagged, and the task outcome
// (ordinal failure < partial < success, nominal beside it); and the trajectories the queue lists (people
// split on the first error or on the outcome). Worked examples computed by hand below, with Krippendorff's
// coincidence-matrix formulas (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", Annenberg
// School for Communication, sections on nominal and ordinal data: α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck,
// ordinal δ²_ck = (Σ_{g=c..k} n_g − (n_c + n_k) / 2)²).
import { describe, expect, it } from 'vitest';
import { reviewSteps } from '../../../electron/core/review/judgements';
import { errorCategory } from '../../../electron/core/review/trajectories';
import type { ReviewLabelRow } from '../../../electron/core/store/review';

const people = ['ana', 'ben', 'cy'];

function row(itemId: number, annotator: string, body: Record<string, unknown>): ReviewLabelRow {
  return { itemId, seq: itemId, externalId: null, annotatorId: people.indexOf(annotator) + 1, annotator, task: 'steps', choice: null, strength: null, ranking: null, shownOrder: null, body: JSON.stringify(body), createdAt: '2026-11-24T10:00:00.000Z' };
}

const none = (n: number) => Array<null>(n).fill(null);
/** One response A: its ratings, first error (0-based; −1 none), tags and outcome. */
const judged = (ratings: (number | null)[], firstError: number | null, tags?: Record<string, string[]>, outcome?: string) => ({
  steps: { A: ratings },
  first_error: { A: firstError },
  ...(tags ? { step_tags: { A: tags } } : {}),
  ...(outcome ? { outcome: { A: outcome } } : {}),
});

// Items 1–3 are single-trajectory items of 12, 5 and 4 turns; item 5 is a chain of two steps.
const TRAJECTORIES = new Map([
  ['1:0', 12],
  ['2:0', 5],
  ['3:0', 4],
]);

const ROWS = [
  // Item 1: ana and ben put the first error at turn 7 (index 6), "wrong arguments"; cy at turn 8, "wrong tool".
  row(1, 'ana', judged([1, 1, 1, 1, 1, 1, -1, ...none(5)], 6, { '6': ['wrong arguments'] }, 'failure')),
  row(1, 'ben', judged([1, 1, 0, 1, 1, 1, -1, ...none(5)], 6, { '6': ['wrong arguments'] }, 'failure')),
  row(1, 'cy', judged([1, 1, 1, 1, 1, 1, 1, -1, ...none(4)], 7, { '7': ['wrong tool'] }, 'partial')),
  // Item 2: ana and ben at turn 2, tagged differently (ben adds a second tag); cy sees no error.
  row(2, 'ana', judged(none(5), 1, { '1': ['hallucinated result'] }, 'failure')),
  row(2, 'ben', judged(none(5), 1, { '1': ['ignored error', 'hallucinated result'] }, 'partial')),
  row(2, 'cy', judged(none(5), -1, undefined, 'success')),
  // Item 3: both at turn 4; only ben tagged it; they split on the outcome.
  row(3, 'ana', judged(none(4), 3, undefined, 'success')),
  row(3, 'ben', judged(none(4), 3, { '3': ['wrong order'] }, 'failure')),
  // Item 5, a chain: its first error stays in the chain's fields.
  row(5, 'ana', judged([1, -1], 1)),
  row(5, 'ben', judged([-1, null], 0)),
];

const field = (fields: ReturnType<typeof reviewSteps>['fields'], name: string) => {
  const f = fields.find((x) => x.field === name);
  if (!f) throw new Error(`no field ${name} among ${fields.map((x) => x.field).join(', ')}`);
  return f;
};

describe('agreement per turn on trajectories', () => {
  const { fields, queue } = reviewSteps(ROWS, new Set(), TRAJECTORIES);

  it('the first error turn: exact and within one turn, over trajectories only', () => {
    const f = field(fields, 'first_error_turn');
    // Item 1: turns 7, 7, 8: one pair of three agrees exactly, all three within one. Item 2: 2, 2, none:
    // one pair of three either way ("no error" is no neighbour of turn 1). Item 3: 4, 4: agree.
    // Exact: (1/3 + 1/3 + 1) / 3 = 5/9; within one: (1 + 1/3 + 1) / 3 = 7/9; n = 3 trajectories.
    expect(f.percent.value).toBeCloseTo(5 / 9, 12);
    expect(f.percent.n).toBe(3);
    expect(f.withinOne?.value).toBeCloseTo(7 / 9, 12);
    expect(f.withinOne?.n).toBe(3);
    expect(f.about).toMatch(/first error/);
    // The chain's first error is its own field: 1 response, steps 2 and 1, no exact agreement.
    const chain = field(fields, 'first_error');
    expect(chain.percent).toMatchObject({ value: 0, n: 1 });
    expect(chain.withinOne).toMatchObject({ value: 1, n: 1 });
  });

  it('turn ratings: the step-rating agreement, on turns rated by two people or more', () => {
    const f = field(fields, 'turn_ratings');
    expect(f.level).toBe('ordinal');
    // Item 1's turns 1–7 are rated by all three (turn 8 by cy alone). Turns 1, 2, 4, 5, 6 agree (1 each);
    // turn 3 (+1, 0, +1) and turn 7 (−1, −1, +1): one pair in three. (5 + 2/3) / 7 = 17/21.
    expect(f.percent.value).toBeCloseTo(17 / 21, 12);
    expect(f.percent.n).toBe(7);
    // The chain's steps stay in step_ratings: step 1 (+1, −1) is its only step rated twice.
    expect(field(fields, 'step_ratings').percent).toMatchObject({ value: 0, n: 1 });
  });

  it('the error category of each person’s first error: nominal, a set of tags is one category', () => {
    const f = field(fields, 'error_category');
    expect(f.level).toBe('nominal');
    // Item 1: wrong arguments, wrong arguments, wrong tool: 1 pair in 3. Item 2: "hallucinated result" and
    // "hallucinated result + ignored error" (cy: no error, no category): 0. Item 3: ben's category alone.
    // Percent: (1/3 + 0) / 2 = 1/6 on n = 2 trajectories.
    expect(f.percent.value).toBeCloseTo(1 / 6, 12);
    expect(f.percent.n).toBe(2);
    // α nominal: values WA WA WT | HR HR+IE (n = 5). Coincidences: o(WA,WA) = 1, o(WA,WT) = o(WT,WA) = 1
    // (item 1, weight 1/(3 − 1)), o(HR,HR+IE) = o(HR+IE,HR) = 1. Disagreeing coincidences: 4; expected
    // Σ_{c≠k} n_c n_k = 5² − (2² + 1 + 1 + 1) = 18. α = 1 − 4 · 4 / 18 = 1/9.
    expect(f.alpha.value).toBeCloseTo(1 / 9, 12);
    expect(errorCategory({ '1': ['ignored error', 'hallucinated result'] }, 1)).toBe('hallucinated result + ignored error');
    expect(errorCategory({ '1': [] }, 1)).toBeNull();
    expect(errorCategory({ '2': ['wrong tool'] }, -1)).toBeNull();
  });

  it('the tags of a turn, where two people or more tagged it', () => {
    const f = field(fields, 'turn_tags');
    // Item 1 turn 7: wrong arguments twice (agree); item 2 turn 2: HR against HR + IE (disagree); the other
    // tagged turns have one tagger each. Percent 1/2 on n = 2 turns. α nominal: values WA WA HR HR+IE,
    // disagreeing coincidences 2, expected 4² − (4 + 1 + 1) = 10: α = 1 − 3 · 2 / 10 = 0.4.
    expect(f.percent).toMatchObject({ value: 0.5, n: 2 });
    expect(f.alpha.value).toBeCloseTo(0.4, 12);
  });

  it('queues the trajectories people split on, by first error or by outcome, named as trajectories', () => {
    const byItem = new Map(queue.map((r) => [r.itemId, r]));
    expect([...byItem.keys()].sort()).toEqual([1, 2, 3, 5]);
    expect(byItem.get(1)).toMatchObject({
      task: 'steps',
      trajectory: { turns: 12, disputed: ['first_error', 'outcome'] },
      votes: { 'A: turn 7': 2, 'A: turn 8': 1, 'A: failure': 2, 'A: partial': 1 },
      consensus: 'A: turn 7 · A: failure',
      consensusMethod: 'majority',
      labels: 3,
    });
    expect(byItem.get(1)!.dispute).toBeCloseTo(1 / 3, 12);
    // Item 2: the outcome is split three ways (dispute 2/3), more than its first error (1/3); the consensus
    // says the split beside the first error's majority (issue 20, item 12: it said the majority alone).
    expect(byItem.get(2)!.dispute).toBeCloseTo(2 / 3, 12);
    expect(byItem.get(2)).toMatchObject({ trajectory: { turns: 5, disputed: ['first_error', 'outcome'] }, consensus: 'A: turn 2 · A: outcome split' });
    // Item 3 agrees on the first error and splits on the outcome only.
    expect(byItem.get(3)).toMatchObject({ trajectory: { turns: 4, disputed: ['outcome'] }, votes: { 'A: success': 1, 'A: failure': 1 }, dispute: 0.5, consensus: null, consensusMethod: null });
    // The chain keeps its step words and no trajectory.
    expect(byItem.get(5)).toMatchObject({ votes: { 'A: step 2': 1, 'A: step 1': 1 } });
    expect(byItem.get(5)!.trajectory).toBeUndefined();
  });
});

describe('agreement on the task outcome', () => {
  // Four trajectories, two people: failure / failure, success / success, partial / success, failure / partial.
  const outcomes: [string, string][] = [
    ['failure', 'failure'],
    ['success', 'success'],
    ['partial', 'success'],
    ['failure', 'partial'],
  ];
  const rows = outcomes.flatMap(([a, b], i) => [row(i + 1, 'ana', judged(none(3), null, undefined, a)), row(i + 1, 'ben', judged(none(3), null, undefined, b))]);
  const trajectories = new Map(outcomes.map((_, i) => [`${i + 1}:0`, 3]));
  const { fields } = reviewSteps(rows, new Set(), trajectories);

  it('is ordinal over failure < partial < success, with nominal beside it, each with its n', () => {
    const f = field(fields, 'outcome');
    expect(f.level).toBe('ordinal');
    expect(f.percent).toMatchObject({ value: 0.5, n: 4 });
    // Coincidences: o(f,f) = 2, o(s,s) = 2, o(p,s) = o(s,p) = 1, o(f,p) = o(p,f) = 1; n_f = 3, n_p = 2, n_s = 3, n = 8.
    // Ordinal δ²: f–p = (3 + 2 − 5/2)² = 6.25, p–s = (2 + 3 − 5/2)² = 6.25, f–s = (8 − 3)² = 25.
    // Observed Σ o δ² = 4 · 6.25 = 25; expected Σ n_c n_k δ² = 2 (3·2·6.25 + 2·3·6.25 + 3·3·25) = 600.
    // α = 1 − 7 · 25 / 600 = 17/24: the two near misses cost less than on a nominal scale, where
    // α = 1 − 7 · 4 / (8² − (9 + 4 + 9)) = 1/3.
    expect(f.alpha.value).toBeCloseTo(17 / 24, 12);
    expect(f.alpha.n).toBe(4);
    expect(f.alsoAlpha).toMatchObject({ level: 'nominal' });
    expect(f.alsoAlpha!.value).toBeCloseTo(1 / 3, 12);
    expect(f.about).toMatch(/failure < partial < success/);
  });

  it('says why when it cannot be computed', () => {
    const one = reviewSteps([row(1, 'ana', judged(none(3), null, undefined, 'failure'))], new Set(), new Map([['1:0', 3]]));
    const f = one.fields.find((x) => x.field === 'outcome');
    expect(f?.alpha.value ?? null).toBeNull();
    expect(f?.alpha.reason).toBeTruthy();
  });
});
