// Review of agent trajectories on a real SQLite file (issue 14): two people judge the same trajectories
// turn by turn; the steps queue lists the ones they split on (the first error turn, the outcome), each
// named as a trajectory with its turns; the report and `arbiter stats --json` give the per-turn fields
// with their n and a sentence; the adjudication view shows each person's turn labels (ratings, tags with
// severity, corrections, outcome) side by side; a lead resolves the first error turn and the outcome.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { importLines } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { turnSteps } from '../../shared/trajectory';
import { tempDir } from '../helpers/tmp';

/** A trajectory of `n` turns, each one tool call and its result; turn `bad` (1-based) gets an error back. */
function trajectory(n: number, bad: number) {
  const messages: object[] = [];
  for (let t = 1; t <= n; t++) {
    const id = `call_${t}`;
    messages.push({ role: 'assistant', content: `Step ${t}.`, tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: { command: `echo ${t}` } } }] });
    messages.push({ role: 'tool', tool_call_id: id, name: 'bash', content: t === bad ? 'error: no such file' : `${t}` });
  }
  return messages;
}

const ITEMS = [
  { id: 'swe-1', prompt: 'Fix the failing test.', responses: [{ text: trajectory(12, 7), steps: turnSteps(trajectory(12, 7) as never) }] },
  { id: 'swe-2', prompt: 'Rename the module.', responses: [{ text: trajectory(5, 2), steps: turnSteps(trajectory(5, 2) as never) }] },
  { id: 'swe-3', prompt: 'Add a flag.', responses: [{ text: trajectory(4, 0), steps: turnSteps(trajectory(4, 0) as never) }] },
  { id: 'chain', prompt: 'Add 3 and 4.', responses: [{ text: '3 + 4 = 7.\nSo 7.', steps: ['3 + 4 = 7.', 'So 7.'] }] },
];

async function setup() {
  const dir = tempDir();
  const dbPath = join(dir, 'arbiter.db');
  const db = openDb(dbPath);
  await importLines(db, { project: 'p', fileName: 'p.jsonl', lines: ITEMS.map((i) => JSON.stringify(i)), sha256: 'p', format: 'arbiter', skipInvalid: false, createProject: true });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'lead' });
  const id = (external: string) => db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(external) as number;
  return { db, dbPath, service, id };
}
type Setup = Awaited<ReturnType<typeof setup>>;

const cli = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
};

const plus = (n: number, total: number) => Array.from({ length: total }, (_, i) => (i < n ? 1 : null));

async function judge(s: Setup, annotator: string, external: string, turns: number, firstError: number, extra: { tags?: Record<string, string[]>; severity?: Record<string, string>; corrections?: object; outcome?: string } = {}) {
  const ratings: (number | null)[] = plus(Math.max(0, firstError), turns);
  if (firstError >= 0) ratings[firstError] = -1;
  await s.service.dispatch('saveSteps', {
    project: 'p',
    annotator,
    itemId: s.id(external),
    response: 0,
    steps: { version: 1, ratings, firstError, ...(extra.tags ? { tags: extra.tags } : {}), ...(extra.severity ? { severity: extra.severity } : {}), ...(extra.corrections ? { corrections: extra.corrections } : {}) },
    ...(extra.outcome ? { outcome: extra.outcome } : {}),
  } as never);
}

const corrected = { '6': { tool_calls: [{ id: 'call_7', name: 'bash', arguments: { command: 'echo 7 > out.txt' } }] } };

async function labeled() {
  const s = await setup();
  // swe-1: both put the first error at turn 7 with "wrong arguments"; they split on the outcome.
  await judge(s, 'ana', 'swe-1', 12, 6, { tags: { '6': ['wrong arguments'] }, severity: { '6': 'major' }, corrections: corrected, outcome: 'failure' });
  await judge(s, 'ben', 'swe-1', 12, 6, { tags: { '6': ['wrong arguments'] }, severity: { '6': 'critical' }, outcome: 'partial' });
  // swe-2: turn 2 against turn 3 (within one), same outcome.
  await judge(s, 'ana', 'swe-2', 5, 1, { tags: { '1': ['ignored error'] }, outcome: 'failure' });
  await judge(s, 'ben', 'swe-2', 5, 2, { tags: { '2': ['ignored error'] }, outcome: 'failure' });
  // swe-3: both say no error and success: not disputed.
  await judge(s, 'ana', 'swe-3', 4, -1, { outcome: 'success' });
  await judge(s, 'ben', 'swe-3', 4, -1, { outcome: 'success' });
  return s;
}

describe('reviewing trajectories', () => {
  it('queues the trajectories people split on, named as trajectories with their turns', async () => {
    const s = await labeled();
    const queue = await s.service.dispatch('reviewQueue', { project: 'p', task: 'steps' });
    expect(queue.rows.map((r) => r.externalId).sort()).toEqual(['swe-1', 'swe-2']);
    const one = queue.rows.find((r) => r.externalId === 'swe-1')!;
    expect(one).toMatchObject({ task: 'steps', reasons: ['annotators'], dispute: 0.5, votes: { 'A: failure': 1, 'A: partial': 1 }, trajectory: { turns: 12, disputed: ['outcome'] }, consensus: null });
    const two = queue.rows.find((r) => r.externalId === 'swe-2')!;
    expect(two).toMatchObject({ votes: { 'A: turn 2': 1, 'A: turn 3': 1 }, trajectory: { turns: 5, disputed: ['first_error'] } });
    // The command line says it too.
    const review = await cli(['review', '--project', 'p', '--task', 'steps', '--json', '--db', s.dbPath]);
    expect(JSON.parse(review.stdout).rows.find((r: { externalId: string }) => r.externalId === 'swe-1').trajectory).toEqual({ turns: 12, disputed: ['outcome'] });
    const text = await cli(['review', '--project', 'p', '--task', 'steps', '--db', s.dbPath]);
    expect(text.stdout).toMatch(/swe-1 .*A: failure×1 A: partial×1 {2}trajectory, 12 turns, split on the outcome/);
    expect(text.stdout).toMatch(/swe-2 .*trajectory, 5 turns, split on the first error turn/);
  });

  it('a lead resolves a trajectory’s outcome from the command line', async () => {
    const s = await labeled();
    const bad = await cli(['adjudicate', '--project', 'p', '--item', 'swe-1', '--outcome', 'A=correct', '--db', s.dbPath]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/Response A is a trajectory: its outcome is success, partial or failure, not "correct"/);
    const done = await cli(['adjudicate', '--project', 'p', '--item', 'swe-1', '--first-error', 'A=6', '--outcome', 'A=failure', '--note', 'tests fail', '--db', s.dbPath]);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ task: 'steps' });
    const view = await s.service.dispatch('adjudicationView', { project: 'p', itemId: s.id('swe-1'), task: 'steps' });
    expect(view.adjudication?.body).toMatchObject({ first_error: { A: 6 }, outcome: { A: 'failure' } });
  });

  it('figures each per-turn field with its n and a sentence, in the report and in stats --json', async () => {
    const s = await labeled();
    const report = await s.service.dispatch('reviewReport', { project: 'p' });
    const field = (name: string) => report.fields.find((f) => f.field === name);
    // Three trajectories are fewer than a figure needs (10: electron/core/review/minimums.ts): each field
    // keeps its n and says so; the values on these counts are worked by hand in unit/review/trajectories.test.ts.
    const few = (n: number) => ({ value: null, n, reason: `not enough data: ${n} item${n === 1 ? '' : 's'} (10 needed)` });
    // First error turn: swe-1 7 / 7, swe-2 2 / 3, swe-3 none / none: three trajectories.
    expect(field('first_error_turn')).toMatchObject({ percent: few(3), withinOne: few(3) });
    // Turn ratings: swe-1 turns 1–7, swe-2 turns 1–2 (turn 3 ben's alone).
    expect(field('turn_ratings')?.percent).toMatchObject(few(7 + 2));
    // Error category: the two trajectories both people tagged.
    expect(field('error_category')?.percent).toMatchObject(few(2));
    // Turn tags: only swe-1 turn 7 is tagged by both.
    expect(field('turn_tags')?.percent).toMatchObject(few(1));
    expect(field('outcome')).toMatchObject({ level: 'ordinal', percent: few(3), alsoAlpha: { level: 'nominal', ...few(3) } });
    for (const name of ['first_error_turn', 'turn_ratings', 'error_category', 'turn_tags', 'outcome']) expect(field(name)?.about).toMatch(/\. n: /);
    // The chain has no second label: no chain field shows.
    expect(field('first_error')).toBeUndefined();

    const stats = await cli(['stats', '--project', 'p', '--json', '--db', s.dbPath]);
    expect(stats.code).toBe(0);
    const fields = JSON.parse(stats.stdout).review.fields as { field: string; percent: { n: number }; about?: string }[];
    expect(fields.map((f) => f.field)).toEqual(expect.arrayContaining(['first_error_turn', 'turn_ratings', 'error_category', 'turn_tags', 'outcome']));
    expect(fields.find((f) => f.field === 'outcome')).toMatchObject({ percent: { n: 3 }, about: expect.stringContaining('failure < partial < success') });
  });

  it('shows each person’s turn labels side by side, and records the lead’s first error turn and outcome', async () => {
    const s = await labeled();
    const itemId = s.id('swe-1');
    const view = await s.service.dispatch('adjudicationView', { project: 'p', itemId, task: 'steps' });
    const by = Object.fromEntries(view.labels.map((l) => [l.annotator, l]));
    expect(by.ana).toMatchObject({ firstError: { A: 6 }, stepTags: { A: { '6': ['wrong arguments'] } }, stepSeverity: { A: { '6': 'major' } }, corrections: { A: corrected }, outcome: { A: 'failure' } });
    expect(by.ben).toMatchObject({ stepSeverity: { A: { '6': 'critical' } }, outcome: { A: 'partial' }, corrections: null });
    expect(by.ana!.steps!.A).toHaveLength(12);

    // An outcome that is a chain's does not fit a trajectory.
    await expect(s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId, task: 'steps', outcome: { A: 'correct' } })).rejects.toThrow(/Response A is a trajectory: its outcome is success, partial or failure, not "correct"/);
    await expect(s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId, task: 'steps', firstError: { A: 12 } })).rejects.toThrow(/turn 13.*12 turns/);
    await s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId, task: 'steps', firstError: { A: 6 }, outcome: { A: 'failure' }, note: 'the tests still fail' });
    const after = await s.service.dispatch('adjudicationView', { project: 'p', itemId, task: 'steps' });
    expect(after.adjudication).toMatchObject({ by: 'lead', note: 'the tests still fail', body: { first_error: { A: 6 }, outcome: { A: 'failure' } } });
    expect(after.labels).toHaveLength(2);
    const queue = await s.service.dispatch('reviewQueue', { project: 'p', task: 'steps' });
    expect(queue.rows.find((r) => r.itemId === itemId)?.adjudicated).toBe(true);
    // An outcome alone resolves it as well.
    await s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: s.id('swe-2'), task: 'steps', outcome: { A: 'failure' } });
  });
});
