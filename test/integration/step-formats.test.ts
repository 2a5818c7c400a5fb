// Process-supervision, unpaired and ranking formats on a real SQLite file, from files written by hand here:
// PRM800K → Arbiter → PRM800K keeps every rating and the finish reason; Math-Shepherd → TRL stepwise gives
// the booleans of its +/- tags; ProcessBench round-trips exactly and its TRL stepwise export stops at the
// first error; trl-unpaired round-trips and takes pairwise labels and verdicts; rankings give pairs
// (all / best-worst / adjacent) with OpenRLHF margins by rank distance. Each line is also checked against
// what TRL's trainers read (docs/formats.md, "What the trainers read").
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LabelBody } from '../../shared/domain';
import type { ExportFormat, ImportFormat, RankingPairs } from '../../shared/formatNames';
import { runCli } from '../../electron/cli/main';
import { ArbiterService } from '../../electron/core/service/index';
import { exportProject, importFile, importLabelsFile } from '../../electron/core/formats';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-steps-'));
  db = openDb(join(dir, 'arbiter.db'));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const read = (path: string) => readFileSync(path, 'utf8');
const rowsOf = (path: string) => read(path).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

async function load(name: string, rows: unknown[], format?: ImportFormat) {
  const path = join(dir, name);
  writeFileSync(path, jsonl(rows));
  const summary = await importFile(db, { path, project: 'p', createProject: true, format });
  return { path, summary };
}

async function exported(format: ExportFormat, options: { annotator?: string; neutral?: boolean; rankingPairs?: RankingPairs } = {}) {
  const out = join(dir, `out-${format}-${Math.random().toString(36).slice(2)}.jsonl`);
  const summary = await exportProject(db, { project: 'p', format, out, ...options });
  return { summary, out, rows: read(out) === '' ? [] : rowsOf(out), text: read(out) };
}

const itemId = (n: number) => db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY seq LIMIT 1 OFFSET ?').pluck().get(requireProject(db, 'p').id, n) as number;

function judge(annotator: string, item: number, task: 'steps' | 'ranking' | 'verdict' | 'pairwise', label: { choice?: string | null; ranking?: number[][]; body?: LabelBody }) {
  const a = ensureAnnotator(db, annotator, 'human');
  labelAppender(db)({
    projectId: requireProject(db, 'p').id,
    itemId: item,
    annotatorId: a.id,
    task,
    choice: (label.choice ?? null) as never,
    ranking: label.ranking ?? null,
    body: label.body ?? {},
    done: true,
  });
}

// --- What TRL's trainers read (trl/experimental/prm/prm_trainer.py tokenize_row, trl/trainer/kto_trainer.py,
// reward_trainer.py / dpo_trainer.py): checked on every exported line.

/** PRMTrainer: prompt a string (tokenized as one), completions strings, labels booleans, one per completion. */
function expectPrmTrainerRow(row: Record<string, unknown>) {
  expect(Object.keys(row).sort()).toEqual(['completions', 'labels', 'prompt']);
  expect(typeof row.prompt).toBe('string');
  const completions = row.completions as unknown[];
  const labels = row.labels as unknown[];
  expect(completions.length).toBeGreaterThan(0);
  expect(completions.every((c) => typeof c === 'string')).toBe(true);
  expect(labels.every((l) => typeof l === 'boolean')).toBe(true);
  expect(labels).toHaveLength(completions.length);
}

/** KTOTrainer: prompt, completion, label (bool); standard (strings) or conversational (message lists), one shape per file. */
function expectKtoRows(rows: Record<string, unknown>[]) {
  const chat = Array.isArray(rows[0]!.prompt);
  for (const row of rows) {
    expect(Object.keys(row).sort()).toEqual(['completion', 'label', 'prompt']);
    expect(typeof row.label).toBe('boolean');
    for (const key of ['prompt', 'completion']) {
      if (chat) expect((row[key] as { role: string; content: string }[]).every((m) => typeof m.role === 'string' && typeof m.content === 'string')).toBe(true);
      else expect(typeof row[key]).toBe('string');
    }
  }
}

/** RewardTrainer / DPOTrainer (standard, explicit prompt): prompt, chosen, rejected strings; a margin, when there, on every line. */
function expectPreferenceRows(rows: Record<string, unknown>[]) {
  const margin = 'margin' in rows[0]!;
  for (const row of rows) {
    for (const key of ['prompt', 'chosen', 'rejected']) expect(typeof row[key]).toBe('string');
    expect('margin' in row).toBe(margin);
    if (margin) expect(typeof row.margin).toBe('number');
  }
}

// --- Files written by hand

const PRM_PHASE2 = {
  labeler: '340d89bc-f5b7-45e9-b272-909ba68ee363',
  timestamp: '2023-01-22T04:34:27.052924',
  generation: 9,
  is_quality_control_question: false,
  is_initial_screening_question: false,
  question: {
    problem: 'How many positive two-digit integers leave a remainder of 2 when divided by 8?',
    ground_truth_answer: '12',
    pre_generated_steps: [
      "A number that leaves a remainder of 2 when divided by 8 has the form 8n+2.",
      'The two-digit ones start at n=1: 10.',
      'They end at n=13: 106.',
      'So there are 13 of them.',
      '# Answer\n\n13',
    ],
    pre_generated_answer: '13',
    pre_generated_verifier_score: 0.0103,
  },
  label: {
    steps: [
      { completions: [{ text: "A number that leaves a remainder of 2 when divided by 8 has the form 8n+2.", rating: 1, flagged: null }], human_completion: null, chosen_completion: 0 },
      { completions: [{ text: 'The two-digit ones start at n=1: 10.', rating: 0, flagged: null }], human_completion: null, chosen_completion: 0 },
      { completions: [{ text: 'They end at n=13: 106.', rating: -1, flagged: null }], human_completion: null, chosen_completion: null },
    ],
    total_time: 183417,
    finish_reason: 'found_error',
  },
};

const PRM_PHASE1 = {
  labeler: 'e90a38f3-3135-4465-87af-3e6322e3d772',
  timestamp: '2022-07-17T16:56:51.323252',
  generation: null,
  is_quality_control_question: false,
  is_initial_screening_question: true,
  question: { problem: 'What is 7 * 8?', ground_truth_answer: '56', ground_truth_solution: '7 * 8 = 56.' },
  label: {
    steps: [
      {
        completions: [
          { text: 'Seven eights are 56.', rating: 1, flagged: false },
          { text: 'Seven eights are 54.', rating: -1, flagged: true },
        ],
        human_completion: null,
        chosen_completion: 0,
      },
      {
        completions: [{ text: 'Check: 56 / 8 = 6.', rating: -1, flagged: false }],
        human_completion: { text: 'Check: 56 / 8 = 7.', rating: null, source: 'human', flagged: false, corrected_rating: null },
        chosen_completion: null,
      },
      { completions: [{ text: '# Answer\n\n56', rating: 1, flagged: false }], human_completion: null, chosen_completion: null },
    ],
    total_time: 52000,
    finish_reason: 'solution',
  },
};

const PRM_BAD_PROBLEM = {
  labeler: '0b5a5c34-5b4b-4a4e-9f36-3cde0ad5a111',
  timestamp: '2023-02-01T10:00:00.000000',
  generation: 3,
  is_quality_control_question: true,
  is_initial_screening_question: false,
  question: { problem: 'Let x be. Find x.', ground_truth_answer: null, pre_generated_steps: ['x is 3.', '# Answer\n\n3'], pre_generated_answer: '3', pre_generated_verifier_score: 0.5 },
  label: { steps: [], total_time: 4000, finish_reason: 'bad_problem' },
};

const PRM = [PRM_PHASE2, PRM_PHASE1, PRM_BAD_PROBLEM];

describe('PRM800K', () => {
  it('PRM800K → Arbiter → PRM800K gives the same sessions: every rating, flag and finish reason', async () => {
    const { path, summary } = await load('prm800k.jsonl', PRM);
    expect(summary).toMatchObject({ format: 'prm800k', items: 3, labels: 3, rejected: 0 });
    expect(summary.formatReason).toMatch(/^prm800k: a "question" with a "problem"/);
    const back = await exported('prm800k');
    expect(back.summary.written).toBe(3);
    expect(back.rows).toEqual(PRM);
    expect(back.text).toBe(read(path));
  });

  it('the same chain labeled in two sessions is two items, each with its ratings; a re-import adds nothing', async () => {
    const again = { ...PRM_PHASE2, labeler: 'a7c2e7a1-0c8e-4f3a-9d0c-5b8f1f0a2b3c', timestamp: '2023-01-23T09:00:00.000000' };
    again.label = { ...PRM_PHASE2.label, steps: PRM_PHASE2.label.steps.map((s) => ({ ...s, completions: s.completions.map((c) => ({ ...c, rating: 1 })), chosen_completion: 0 })), finish_reason: 'solution' };
    const { path, summary } = await load('twice.jsonl', [PRM_PHASE2, again]);
    expect(summary).toMatchObject({ items: 2, duplicates: 0, labels: 2 });
    expect((await exported('prm800k')).rows).toEqual([PRM_PHASE2, again]);
    expect(await importFile(db, { path, project: 'p' })).toMatchObject({ items: 0, duplicates: 2, labels: 0 });
  });

  it('moves to another database as items + labels files and still exports the same sessions', async () => {
    const { path } = await load('prm800k.jsonl', PRM);
    const items = (await exported('arbiter')).out;
    const labels = (await exported('labels')).out;
    db.close();
    db = openDb(join(dir, 'other.db'));
    await importFile(db, { path: items, project: 'p', createProject: true });
    expect(await importLabelsFile(db, { path: labels, project: 'p' })).toMatchObject({ added: 3, duplicates: 0 });
    expect((await exported('prm800k')).text).toBe(read(path));
  });

  it('through the import worker the same', async () => {
    const path = join(dir, 'worker.jsonl');
    writeFileSync(path, jsonl(PRM));
    const summary = await importFile(db, { path, project: 'p', createProject: true, parallel: true });
    expect(summary).toMatchObject({ format: 'prm800k', items: 3, labels: 3 });
    expect((await exported('prm800k')).text).toBe(read(path));
  });

  it("keeps the chain as the item's steps and the ratings as the source's step label", async () => {
    await load('prm800k.jsonl', PRM);
    const responses = db.prepare('SELECT r.content, s.steps FROM response r JOIN segmentation s ON s.item_id = r.item_id AND s.response_idx = r.idx ORDER BY r.item_id').all() as { content: string; steps: string }[];
    expect(JSON.parse(responses[0]!.steps)).toEqual(PRM_PHASE2.question.pre_generated_steps);
    expect(JSON.parse(responses[1]!.steps)).toEqual(['Seven eights are 56.', 'Check: 56 / 8 = 7.', '# Answer\n\n56']);
    const bodies = (db.prepare("SELECT l.body FROM label l JOIN annotator a ON a.id = l.annotator_id WHERE a.kind = 'source' AND l.task = 'steps' ORDER BY l.item_id").pluck().all() as string[]).map((b) => JSON.parse(b));
    expect(bodies[0]).toEqual({ steps: { A: [1, 0, -1, null, null] }, first_error: { A: 2 }, segmentation: { A: 1 }, finish_reason: { A: 'found_error' }, labeler: PRM_PHASE2.labeler });
    expect(bodies[1]).toMatchObject({ steps: { A: [1, 1, 1] }, first_error: { A: -1 }, finish_reason: { A: 'solution' } });
    expect(bodies[2]).toMatchObject({ steps: { A: [null, null] }, first_error: { A: null }, finish_reason: { A: 'bad_problem' } });
    const meta = JSON.parse(db.prepare('SELECT metadata FROM item ORDER BY seq LIMIT 1').pluck().get() as string);
    expect(meta.prm800k.session.labeler).toBe(PRM_PHASE2.labeler);
    expect(JSON.stringify(meta)).not.toContain('They end at n=13'); // the chain's texts are stored once, as steps
  });

  it("a person's judgement is a session of its own, with their uuid; the file's stay as they were", async () => {
    await load('prm800k.jsonl', PRM);
    judge('alice', itemId(0), 'steps', { body: { steps: { A: [1, 1, 1, -1, null] }, first_error: { A: 3 }, segmentation: { A: 1 }, time_ms: 9000 } });
    const uuid = db.prepare("SELECT uuid FROM annotator WHERE name = 'alice'").pluck().get();
    const { rows, summary } = await exported('prm800k');
    expect(rows[1]).toEqual(PRM_PHASE1);
    const mine = rows[0] as { labeler: string; question: unknown; label: { steps: { completions: { rating: number }[]; chosen_completion: number | null }[]; finish_reason: string; total_time: number } };
    expect(mine.labeler).toBe(uuid);
    expect(mine.question).toEqual(PRM_PHASE2.question);
    expect(mine.label.steps.map((s) => s.completions[0]!.rating)).toEqual([1, 1, 1, -1]);
    expect(mine.label.steps.map((s) => s.chosen_completion)).toEqual([0, 0, 0, null]);
    expect(mine.label).toMatchObject({ finish_reason: 'found_error', total_time: 9000 });
    expect(summary.note).toMatch(/1 session\(s\) are a person's judgement/);
  });

  it('→ TRL stepwise: up to the first error, neutral false by default and true with --neutral true; unrated chains counted', async () => {
    await load('prm800k.jsonl', PRM);
    const strict = await exported('trl-stepwise');
    strict.rows.forEach(expectPrmTrainerRow);
    expect(strict.rows).toEqual([
      { prompt: PRM_PHASE2.question.problem, completions: PRM_PHASE2.question.pre_generated_steps.slice(0, 3), labels: [true, false, false] },
      { prompt: 'What is 7 * 8?', completions: ['Seven eights are 56.', 'Check: 56 / 8 = 7.', '# Answer\n\n56'], labels: [true, true, true] },
    ]);
    expect(strict.summary.skipped.unlabeled).toBe(1);
    expect(strict.summary.note).toMatch(/only \+1 steps are true; neutral \(0\) and −1 steps are false \(--neutral false, the default/);
    expect(strict.summary.note).toMatch(/1 chain\(s\) stop at their first error/);
    const lenient = await exported('trl-stepwise', { neutral: true });
    expect(lenient.rows[0]!.labels).toEqual([true, true, false]);
    expect(lenient.summary.note).toMatch(/\+1 and neutral \(0\) steps are true, −1 steps false \(--neutral true\)/);
  });
});

describe('labels saved on the step screen', () => {
  it('export as the screen saved them: its cut, first error, and a split made afterwards', async () => {
    await load('chain.jsonl', [{ id: 'c', prompt: 'Which is larger, 9.8 or 9.11?', responses: [{ text: 'Step 1: Compare 11 and 8.\nStep 2: 11 > 8.\nStep 3: So 9.11 is larger.\nStep 4: Done.' }] }]);
    const service = new ArbiterService(db, { dbPath: join(dir, 'arbiter.db'), transport: 'http', version: 't', defaultAnnotator: 'ann' });
    await service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: itemId(0), response: 0, steps: { version: 1, ratings: [1, 0, 1, 1], firstError: 2 }, finishReason: 'found_error' });
    expect((await exported('trl-stepwise')).rows).toEqual([{ prompt: 'Which is larger, 9.8 or 9.11?', completions: ['Step 1: Compare 11 and 8.', 'Step 2: 11 > 8.', 'Step 3: So 9.11 is larger.'], labels: [true, false, false] }]);
    // Splitting step 1 makes version 2: the label follows it, its halves unrated until rated again.
    await service.dispatch('resegment', { project: 'p', annotator: 'ann', itemId: itemId(0), response: 0, op: 'split', fromVersion: 1, step: 0, at: 8 });
    const { rows } = await exported('trl-stepwise');
    expect(rows).toEqual([{ prompt: 'Which is larger, 9.8 or 9.11?', completions: ['Step 1:', 'Compare 11 and 8.', 'Step 2: 11 > 8.', 'Step 3: So 9.11 is larger.'], labels: [false, false, false, false] }]);
    const { summary } = await exported('trl-stepwise');
    expect(summary.note).toMatch(/2 unrated step\(s\) before a chain's last rated step were written as false/);
  });
});

describe('Math-Shepherd', () => {
  const problem = "Janet's ducks lay 16 eggs per day. She eats three and bakes with four. She sells the rest at $2 each. How much does she make?";
  const steps = ['Step 1: She has 16 - 3 - 4 = <<16-3-4=9>>9 eggs left.', 'Step 2: She makes 9 * 2 = $<<9*2=18>>18 - 2 = 16.', 'Step 3: The answer is: 18'];
  // Each line its own problem: a line with the same problem and steps as another is the same item.
  const line = (n: number, tags: string[], spacing = { before: ' ', between: '\n' }) => ({
    input: `${problem} (${n}) ${steps.map((s) => `${s}${spacing.before}ки`).join(spacing.between)}`,
    label: `${problem} (${n}) ${steps.map((s, i) => `${s}${spacing.before}${tags[i]}`).join(spacing.between)}`,
    task: 'GSM8K',
  });
  const FILE = [line(0, ['+', '-', '+']), line(1, ['+', '+', '+']), line(2, ['-', '-', '-'], { before: '  ', between: '\n\n' })];

  it('→ TRL stepwise gives the booleans of its +/- tags, every step kept (every step is rated)', async () => {
    const { summary } = await load('math-shepherd.jsonl', FILE);
    expect(summary).toMatchObject({ format: 'math-shepherd', items: 3, labels: 3 });
    expect(summary.formatReason).toMatch(/^math-shepherd: "input" with "ки" step tags/);
    const { rows } = await exported('trl-stepwise');
    rows.forEach(expectPrmTrainerRow);
    expect(rows.map((r) => r.labels)).toEqual([
      [true, false, true],
      [true, true, true],
      [false, false, false],
    ]);
    expect(rows[0]).toEqual({ prompt: `${problem} (0)`, completions: steps, labels: [true, false, true] });
  });

  it('round-trips, its spacing included', async () => {
    const { path } = await load('math-shepherd.jsonl', FILE);
    const back = await exported('math-shepherd');
    expect(back.text).toBe(read(path));
  });

  it("a person's chain: up to its first error, each step given its \"Step N:\" marker, and it imports back", async () => {
    await load('chain.jsonl', [{ id: 'c', prompt: 'What is 6 * 7?', responses: [{ text: '6 * 7 = 42.\n\nSo 42.\n\nDone.', steps: ['6 * 7 = 42.', 'So 42.', 'Done.'] }] }]);
    judge('alice', itemId(0), 'steps', { body: { steps: { A: [1, 0, null] }, first_error: { A: null }, segmentation: { A: 1 } } });
    const { rows, summary, out } = await exported('math-shepherd', { neutral: true });
    expect(rows).toEqual([{ input: 'What is 6 * 7? Step 1: 6 * 7 = 42. ки\nStep 2: So 42. ки', label: 'What is 6 * 7? Step 1: 6 * 7 = 42. +\nStep 2: So 42. +', task: null }]);
    expect(summary.note).toMatch(/Step labels: \+1 and neutral \(0\) steps are "\+", −1 steps "-" \(--neutral true\)/);
    expect(summary.note).toMatch(/1 chain\(s\) had steps without a "Step N:" marker/);
    db.close();
    db = openDb(join(dir, 'back.db'));
    await importFile(db, { path: out, project: 'p', createProject: true });
    expect((await exported('trl-stepwise')).rows).toEqual([{ prompt: 'What is 6 * 7?', completions: ['Step 1: 6 * 7 = 42.', 'Step 2: So 42.'], labels: [true, true] }]);
  });

  it('refuses a label that does not match its input', async () => {
    const bad = { ...line(0, ['+', '+', '+']), label: line(0, ['+', '+', '+']).label.replace('16 - 3', '16 - 2') };
    await expect(load('bad.jsonl', [bad], 'math-shepherd')).rejects.toMatchObject({ errors: [{ line: 1, reason: "label: differs from input before step 1's tag (it must be input with each ки replaced by + or -)" }] });
  });
});

describe('ProcessBench', () => {
  const FILE = [
    { id: 'gsm8k-0', generator: 'Qwen2-7B-Instruct', problem: 'Which is larger, 9.8 or 9.11?', steps: ['Compare the tenths: 8 and 1.', 'So 9.11 is larger.', 'The answer is 9.11.'], final_answer_correct: false, label: 1 },
    { id: 'gsm8k-1', generator: 'Llama-3.1-8B-Instruct', problem: 'What is 2 + 2?', steps: ['2 + 2 = 4.', 'The answer is 4.'], final_answer_correct: true, label: -1 },
    { id: 'math-7', generator: 'Qwen2-7B-Instruct', problem: 'Is 1 prime?', steps: ['1 is prime.', 'So yes.'], final_answer_correct: false, label: 0 },
  ];

  it('round-trips exactly', async () => {
    const { path, summary } = await load('processbench.jsonl', FILE);
    expect(summary).toMatchObject({ format: 'processbench', items: 3, labels: 3 });
    const back = await exported('processbench');
    expect(back.text).toBe(read(path));
  });

  it('→ TRL stepwise stops at the first error, that step false; a chain with no error keeps every step', async () => {
    await load('processbench.jsonl', FILE);
    const { rows } = await exported('trl-stepwise');
    rows.forEach(expectPrmTrainerRow);
    expect(rows).toEqual([
      { prompt: 'Which is larger, 9.8 or 9.11?', completions: ['Compare the tenths: 8 and 1.', 'So 9.11 is larger.'], labels: [true, false] },
      { prompt: 'What is 2 + 2?', completions: ['2 + 2 = 4.', 'The answer is 4.'], labels: [true, true] },
      { prompt: 'Is 1 prime?', completions: ['1 is prime.'], labels: [false] },
    ]);
  });

  it("a person's first error decides, the file's outcome stays; a chain without a decided first error is left out", async () => {
    await load('processbench.jsonl', FILE);
    judge('alice', itemId(0), 'steps', { body: { steps: { A: [1, 1, -1] }, first_error: { A: 2 }, segmentation: { A: 1 } } });
    judge('alice', itemId(1), 'steps', { body: { steps: { A: [1, null] }, first_error: { A: null }, segmentation: { A: 1 } } });
    const { rows, summary } = await exported('processbench', { annotator: 'alice' });
    expect(rows).toEqual([{ ...FILE[0], label: 2 }]);
    expect(summary.skipped.unlabeled).toBe(2);
    expect(summary.note).toMatch(/1 chain\(s\) have ratings but no decided first error/);
  });
});

describe('TRL stepwise', () => {
  it('round-trips', async () => {
    const FILE = [
      { prompt: 'Which number is larger, 9.8 or 9.11?', completions: ['The fractional part of 9.8 is 0.8.', 'Since 0.11 > 0.8, 9.11 is larger.'], labels: [true, false] },
      { prompt: 'What is 3 * 3?', completions: ['3 * 3 = 9.'], labels: [true] },
    ];
    const { path, summary } = await load('stepwise.jsonl', FILE);
    expect(summary).toMatchObject({ format: 'trl-stepwise', items: 2, labels: 2 });
    expect((await exported('trl-stepwise')).text).toBe(read(path));
  });

  it('the consensus of several people: a majority per step, up to the step most rate -1; an even split is a conflict', async () => {
    await load('arbiter.jsonl', [
      { id: 'c1', prompt: 'q1', responses: [{ text: 'a\nb\nc\nd', steps: ['a', 'b', 'c', 'd'] }] },
      { id: 'c2', prompt: 'q2', responses: [{ text: 'e\nf', steps: ['e', 'f'] }] },
    ]);
    const body = (ratings: (-1 | 0 | 1 | null)[]) => ({ steps: { A: ratings }, first_error: { A: ratings.indexOf(-1) }, segmentation: { A: 1 } });
    judge('alice', itemId(0), 'steps', { body: body([1, 1, -1, null]) });
    judge('bob', itemId(0), 'steps', { body: body([1, 0, -1, null]) });
    judge('carol', itemId(0), 'steps', { body: body([1, 1, 1, -1]) });
    judge('alice', itemId(1), 'steps', { body: body([1, -1]) });
    judge('bob', itemId(1), 'steps', { body: body([-1, null]) });
    const { rows, summary } = await exported('trl-stepwise');
    expect(rows).toEqual([{ prompt: 'q1', completions: ['a', 'b', 'c'], labels: [true, true, false] }]);
    expect(summary.skipped.conflict).toBe(1);
  });
});

describe('TRL unpaired (KTO)', () => {
  it('round-trips, standard and conversational', async () => {
    const standard = [
      { prompt: 'The sky is', completion: ' blue.', label: true },
      { prompt: 'The sky is', completion: ' green.', label: false },
    ];
    const { path, summary } = await load('kto.jsonl', standard);
    expect(summary).toMatchObject({ format: 'trl-unpaired', items: 2, labels: 2 });
    const back = await exported('trl-unpaired');
    expectKtoRows(back.rows);
    expect(back.text).toBe(read(path));

    db.close();
    db = openDb(join(dir, 'chat.db'));
    const chat = [
      { prompt: [{ role: 'user', content: 'What color is the sky?' }], completion: [{ role: 'assistant', content: 'It is blue.' }], label: true },
      { prompt: [{ role: 'user', content: 'What color is the sky?' }], completion: [{ role: 'assistant', content: 'It is green.' }], label: false },
    ];
    const conversational = await load('kto-chat.jsonl', chat);
    const chatBack = await exported('trl-unpaired');
    expectKtoRows(chatBack.rows);
    expect(chatBack.text).toBe(read(conversational.path));
  });

  it('pairwise labels: chosen true, rejected false; both-bad two false; ties left out; verdicts their value', async () => {
    await load('pairs.jsonl', [
      { prompt: 'p0', chosen: 'c0', rejected: 'r0' },
      { prompt: 'p1', chosen: 'c1', rejected: 'r1' },
      { prompt: 'p2', chosen: 'c2', rejected: 'r2' },
      { prompt: 'p3', chosen: 'c3', rejected: 'r3' },
    ]);
    judge('alice', itemId(1), 'pairwise', { choice: 'B' });
    judge('alice', itemId(2), 'pairwise', { choice: 'both_bad' });
    judge('alice', itemId(3), 'pairwise', { choice: 'tie' });
    await load('single.jsonl', [{ id: 'one', prompt: 'Say hi', responses: [{ text: 'Hi!' }] }], 'arbiter');
    judge('bob', itemId(4), 'verdict', { choice: 'bad' });
    const { rows, summary } = await exported('trl-unpaired');
    expectKtoRows(rows);
    expect(rows).toEqual([
      { prompt: 'p0', completion: 'c0', label: true },
      { prompt: 'p0', completion: 'r0', label: false },
      { prompt: 'p1', completion: 'r1', label: true },
      { prompt: 'p1', completion: 'c1', label: false },
      { prompt: 'p2', completion: 'c2', label: false },
      { prompt: 'p2', completion: 'r2', label: false },
      { prompt: 'Say hi', completion: 'Hi!', label: false },
    ]);
    expect(summary.skipped).toMatchObject({ tie: 1 });
  });
});

describe('rankings give pairs', () => {
  const FOUR = [{ id: 'r4', prompt: 'Rank these.', responses: [{ text: 'zero' }, { text: 'one' }, { text: 'two' }, { text: 'three' }] }];
  const texts = ['zero', 'one', 'two', 'three'];
  const pairsOf = (rows: Record<string, unknown>[]) => rows.map((r) => [texts.indexOf(r.chosen as string), texts.indexOf(r.rejected as string), r.margin]);

  it('all, best-worst and adjacent, tied responses never paired, OpenRLHF margin = rank distance', async () => {
    await load('four.jsonl', FOUR);
    judge('alice', itemId(0), 'ranking', { ranking: [[2], [0, 3], [1]] });
    const all = await exported('openrlhf');
    expectPreferenceRows(all.rows);
    expect(pairsOf(all.rows)).toEqual([
      [2, 0, 1],
      [2, 3, 1],
      [2, 1, 2],
      [0, 1, 1],
      [3, 1, 1],
    ]);
    expect(all.summary.note).toMatch(/1 ranked item\(s\) gave 5 pair\(s\) \(--ranking-pairs all; tied responses never pair; each pair's margin is how many rank groups apart/);
    expect(pairsOf((await exported('openrlhf', { rankingPairs: 'best-worst' })).rows)).toEqual([[2, 1, 2]]);
    expect(pairsOf((await exported('openrlhf', { rankingPairs: 'adjacent' })).rows)).toEqual([
      [2, 0, 1],
      [2, 3, 1],
      [0, 1, 1],
      [3, 1, 1],
    ]);
    const trl = await exported('trl', { rankingPairs: 'best-worst' });
    expectPreferenceRows(trl.rows);
    expect(trl.rows).toEqual([{ prompt: 'Rank these.', chosen: 'two', rejected: 'one' }]);
  });

  it('the most common ranking decides; an even split is a conflict; everything tied is a tie', async () => {
    await load('four.jsonl', [...FOUR, { id: 'r5', prompt: 'Again.', responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] }, { id: 'r6', prompt: 'Tied.', responses: [{ text: 'x' }, { text: 'y' }, { text: 'z' }] }]);
    judge('alice', itemId(0), 'ranking', { ranking: [[3], [0, 2], [1]] });
    judge('bob', itemId(0), 'ranking', { ranking: [[3], [2, 0], [1]] });
    judge('carol', itemId(0), 'ranking', { ranking: [[0], [1], [2], [3]] });
    judge('alice', itemId(1), 'ranking', { ranking: [[0], [1], [2]] });
    judge('bob', itemId(1), 'ranking', { ranking: [[2], [1], [0]] });
    judge('alice', itemId(2), 'ranking', { ranking: [[0, 1, 2]] });
    const { rows, summary } = await exported('trl', { rankingPairs: 'best-worst' });
    expect(rows).toEqual([{ prompt: 'Rank these.', chosen: 'three', rejected: 'one' }]);
    expect(summary.skipped).toEqual({ unlabeled: 0, tie: 1, both_bad: 0, conflict: 1, not_pairwise: 0, not_adjudicated: 0, low_agreement: 0 });
    // A ranking gives KTO its best group as true and its worst as false.
    const kto = await exported('trl-unpaired');
    expect(kto.rows).toEqual([
      { prompt: 'Rank these.', completion: 'three', label: true },
      { prompt: 'Rank these.', completion: 'one', label: false },
    ]);
  });
});

describe('which label decides: an adjudication first', () => {
  it("the adjudicated label decides a pair, a ranking and a chain before the majority and the named annotator", async () => {
    await load('mixed.jsonl', [
      { id: 'pair', prompt: 'p', responses: [{ text: 'a' }, { text: 'b' }] },
      { id: 'chain', prompt: 'q', responses: [{ text: 'x\ny', steps: ['x', 'y'] }] },
    ]);
    judge('alice', itemId(0), 'pairwise', { choice: 'A' });
    judge('carol', itemId(0), 'pairwise', { choice: 'A' });
    judge('bob', itemId(0), 'pairwise', { choice: 'B' });
    judge('alice', itemId(1), 'steps', { body: { steps: { A: [1, 1] }, first_error: { A: -1 }, segmentation: { A: 1 } } });
    judge('bob', itemId(1), 'steps', { body: { steps: { A: [-1, null] }, first_error: { A: 0 }, segmentation: { A: 1 } } });
    const adjudicate = (item: number, task: string, annotator: string) =>
      db
        .prepare(
          `INSERT INTO adjudication (id, item_id, task, label_seq, annotator_id, created_at)
           SELECT ?, ?, ?, h.label_seq, h.annotator_id, '2026-01-01T00:00:00Z' FROM label_head h JOIN annotator a ON a.id = h.annotator_id WHERE h.item_id = ? AND h.task = ? AND a.name = ?`,
        )
        .run(`adj-${item}-${task}`, item, task, item, task, annotator);
    expect((await exported('trl')).rows).toEqual([{ prompt: 'p', chosen: 'a', rejected: 'b' }]);
    adjudicate(itemId(0), 'pairwise', 'bob');
    adjudicate(itemId(1), 'steps', 'bob');
    expect((await exported('trl')).rows).toEqual([{ prompt: 'p', chosen: 'b', rejected: 'a' }]);
    expect((await exported('trl', { annotator: 'alice' })).rows).toEqual([{ prompt: 'p', chosen: 'b', rejected: 'a' }]);
    expect((await exported('trl-stepwise', { annotator: 'alice' })).rows).toEqual([{ prompt: 'q', completions: ['x'], labels: [false] }]);
  });
});

describe('command line', () => {
  it('takes --neutral and --ranking-pairs, and refuses other values (exit 2)', async () => {
    await load('processbench.jsonl', [{ id: 'x', generator: 'g', problem: 'p', steps: ['a', 'b'], final_answer_correct: true, label: -1 }]);
    db.close();
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    const dbPath = join(dir, 'arbiter.db');
    const target = join(dir, 'cli.jsonl');
    expect(await runCli(['export', '--project', 'p', '--format', 'trl-stepwise', '--out', target, '--neutral', 'true', '--ranking-pairs', 'adjacent', '--db', dbPath], io)).toBe(0);
    expect(JSON.parse(out[0]!).note).toMatch(/--neutral true/);
    expect(rowsOf(target)).toEqual([{ prompt: 'p', completions: ['a', 'b'], labels: [true, true] }]);
    expect(await runCli(['export', '--project', 'p', '--format', 'trl', '--out', target, '--neutral', 'maybe', '--db', dbPath], io)).toBe(2);
    expect(await runCli(['export', '--project', 'p', '--format', 'trl', '--out', target, '--ranking-pairs', 'some', '--db', dbPath], io)).toBe(2);
    expect(err.join('\n')).toMatch(/--neutral takes true or false[\s\S]*--ranking-pairs takes one of: all, best-worst, adjacent/);
    db = openDb(dbPath);
  });
});
