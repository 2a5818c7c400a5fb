// Judging a trajectory per agent turn (issue 14): a step label revision holds, per response letter, a
// severity per tagged step, a verdict per tool call, corrections that are tool calls (arguments a JSON
// object), who and when (attribution) and the task outcome success / partial / failure, kept apart from
// the chain outcomes. Each is checked the same way on a save and in a labels file, and goes through
// `export --format labels` and `labels import` unchanged.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { importLines } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { turnSteps } from '../../shared/trajectory';
import { tempDir } from '../helpers/tmp';

// A two-agent trajectory: a planner hands over, a coder calls tools; turn 3 (index 2) calls a tool with wrong arguments.
const MESSAGES = [
  { role: 'assistant', content: 'Plan: read the config, then fix the port.', arbiter: { agent: 'planner' } },
  { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: { path: 'config.yml' } } }], arbiter: { agent: 'coder' } },
  { role: 'tool', tool_call_id: 'call_1', name: 'read_file', content: 'port: 80' },
  {
    role: 'assistant',
    content: 'Set the port.',
    tool_calls: [
      { id: 'call_2', type: 'function', function: { name: 'edit_file', arguments: '{"path":"config.ym","text":"port: 8080"}' } },
      { id: 'call_3', type: 'function', function: { name: 'read_file', arguments: { path: 'config.yml' } } },
    ],
    arbiter: { agent: 'coder' },
  },
  { role: 'tool', tool_call_id: 'call_2', name: 'edit_file', content: 'error: no such file config.ym' },
  { role: 'tool', tool_call_id: 'call_3', name: 'read_file', content: 'port: 80' },
  { role: 'assistant', content: 'Done: the port is 8080.', arbiter: { agent: 'coder' } },
];
const STEPS = turnSteps(MESSAGES as never);
const ITEMS = [
  { id: 'traj', prompt: 'Change the server port to 8080 in config.yml.', responses: [{ text: MESSAGES, steps: STEPS }] },
  { id: 'chain', prompt: 'Add 3 and 4.', responses: [{ text: '3 + 4 = 7.\nSo 7.', steps: ['3 + 4 = 7.', 'So 7.'] }] },
];

async function setup(dir = tempDir(), name = 'a') {
  const dbPath = join(dir, `${name}.db`);
  const db = openDb(dbPath);
  await importLines(db, { project: 'p', fileName: 'p.jsonl', lines: ITEMS.map((i) => JSON.stringify(i)), sha256: 'p', format: 'arbiter', skipInvalid: false, createProject: true });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
  const id = (external: string) => db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(external) as number;
  return { db, dbPath, dir, service, id };
}

const cli = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
};

const JUDGED = {
  version: 1,
  ratings: [1, 1, -1, null],
  firstError: 2,
  tags: { '2': ['wrong arguments'] },
  severity: { '2': 'major' },
  toolVerdicts: { '1': { call_1: 'correct' }, '2': { call_2: 'wrong', call_3: 'unnecessary' } },
  corrections: { '2': { tool_calls: [{ id: 'call_2', name: 'edit_file', arguments: { path: 'config.yml', text: 'port: 8080' } }] }, '3': 'The port is not changed yet.' },
};

describe('a trajectory judged per turn', () => {
  it('saves severity, tool call verdicts, a corrected call, attribution and the task outcome, and shows them again', async () => {
    const { service, id } = await setup();
    expect(STEPS).toHaveLength(4);
    const saved = await service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: id('traj'), response: 0, steps: JUDGED, outcome: 'failure', attribution: { agent: 'coder', step: 2 } });
    expect(saved.body).toMatchObject({
      step_severity: { A: { '2': 'major' } },
      tool_verdicts: { A: JUDGED.toolVerdicts },
      corrections: { A: JUDGED.corrections },
      attribution: { A: { agent: 'coder', step: 2 } },
      outcome: { A: 'failure' },
    });
    const view = await service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: id('traj') });
    expect(view.judgements[0]).toMatchObject({ severity: JUDGED.severity, toolVerdicts: JUDGED.toolVerdicts, corrections: JUDGED.corrections, attribution: { agent: 'coder', step: 2 }, outcome: 'failure' });
    // A chain keeps its final-answer outcomes.
    await service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: id('chain'), response: 0, steps: { version: 1, ratings: [1, 1], firstError: -1 }, outcome: 'correct' });
  });

  it('refuses, on a save, what does not fit the trajectory, naming the field and the step', async () => {
    const { service, id } = await setup();
    const save = (steps: object, extra: object = {}, item = 'traj') =>
      service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: id(item), response: 0, steps: { version: 1, ratings: item === 'traj' ? [1, 1, -1, null] : [1, 1], firstError: null, ...steps }, ...extra } as never).then(
        () => 'saved',
        (e: Error) => e.message,
      );
    expect(await save({ severity: { '1': 'major' } })).toMatch(/steps\.severity\.1: step 2 has a severity but no error tag/);
    expect(await save({ tags: { '2': ['x'] }, severity: { '2': 'huge' } })).toMatch(/severity.*expected a severity: minor, major or critical, got "huge"/);
    expect(await save({ toolVerdicts: { '2': { call_9: 'wrong' } } })).toMatch(/steps\.toolVerdicts\.2\.call_9: step 3 has no tool call "call_9" \(its calls: "call_2", "call_3"\)/);
    expect(await save({ toolVerdicts: { '2': { call_2: 'bad' } } })).toMatch(/expected a tool call verdict: correct, wrong or unnecessary, got "bad"/);
    expect(await save({ toolVerdicts: { '7': { call_2: 'wrong' } } })).toMatch(/steps\.toolVerdicts\.7: step 8, but there are 4 steps/);
    expect(await save({ corrections: { '2': { tool_calls: [{ name: 'edit_file', arguments: '{"path": "config.yml"' }] } } })).toMatch(/expected the arguments as a JSON object, got "\{\\"path\\": \\"config.yml\\""/);
    expect(await save({ corrections: { '2': { tool_calls: [{ name: '', arguments: {} }] } } })).toMatch(/tool_calls\[0\]\.name: expected the tool’s name, got an empty name|tool_calls.0.name: expected the tool’s name, got an empty name/);
    expect(await save({}, { attribution: { agent: 'reviewer', step: 2 } })).toMatch(/attribution\.agent: "reviewer" does not act in this trajectory \(its agents: "planner", "coder"\)/);
    expect(await save({}, { attribution: { agent: 'planner', step: 2 } })).toMatch(/attribution: step 3 is "coder"'s turn, not "planner"'s/);
    expect(await save({}, { attribution: { step: 9 } })).toMatch(/attribution\.step: step 10, but there are 4 steps/);
    expect(await save({}, { outcome: 'correct' })).toMatch(/outcome: "correct" is a chain’s outcome; a trajectory’s is success, partial or failure/);
    expect(await save({}, { outcome: 'success' }, 'chain')).toMatch(/outcome: "success" is a trajectory’s outcome; a chain’s is correct, incorrect or unsure/);
    expect(await save({ toolVerdicts: { '0': { call_1: 'wrong' } } }, {}, 'chain')).toMatch(/steps\.toolVerdicts\.0: the response is not a trajectory/);
    expect(await save({ tags: { '2': ['wrong arguments'] }, severity: { '2': 'critical' } }, { outcome: 'partial', attribution: { step: 2 } })).toBe('saved');
  });

  it('goes through export --format labels and labels import unchanged', async () => {
    const dir = tempDir();
    const a = await setup(dir, 'a');
    await a.service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: a.id('traj'), response: 0, steps: JUDGED, outcome: 'failure', attribution: { agent: 'coder', step: 2 } });
    const out = join(dir, 'labels.jsonl');
    const exported = await cli(['export', '--project', 'p', '--format', 'labels', '--out', out, '--db', a.dbPath]);
    expect(exported.code, exported.stderr).toBe(0);
    const line = JSON.parse(readFileSync(out, 'utf8').trim().split('\n').find((l) => l.includes('tool_verdicts'))!) as Record<string, unknown>;
    expect(line).toMatchObject({ step_severity: { A: JUDGED.severity }, tool_verdicts: { A: JUDGED.toolVerdicts }, corrections: { A: JUDGED.corrections }, attribution: { A: { agent: 'coder', step: 2 } }, outcome: { A: 'failure' } });

    const b = await setup(dir, 'b');
    const imported = await cli(['labels', 'import', out, '--project', 'p', '--db', b.dbPath]);
    expect(imported.code, imported.stderr).toBe(0);
    const view = await b.service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: b.id('traj') });
    expect(view.label?.body).toEqual((await a.service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: a.id('traj') })).label?.body);
    // Importing it again adds nothing.
    expect((await cli(['labels', 'import', out, '--project', 'p', '--db', b.dbPath])).stdout).toMatch(/0 added|already|duplicate/i);
  });

  it('refuses in a labels file what a save refuses, with FILE:LINE and the field', async () => {
    const { dir, dbPath } = await setup();
    const base = { annotator: 'bob', annotator_uuid: '0190a0b0-0000-7000-8000-000000000001', created_at: '2026-11-02T10:00:00.000Z', task: 'steps', item: 'traj', steps: { A: [1, 1, -1, null] }, segmentation: { A: 1 } };
    let n = 0;
    const rid = () => `0190a0b0-0000-7000-8000-${String(++n).padStart(12, '0')}`;
    const lines = [
      { ...base, id: rid(), step_tags: { A: { '2': ['wrong arguments'] } }, step_severity: { A: { '2': 'major' } }, tool_verdicts: { A: { '2': { call_2: 'wrong' } } }, outcome: { A: 'failure' } }, // good
      { ...base, id: rid(), step_severity: { A: { '1': 'major' } } },
      { ...base, id: rid(), step_tags: { A: { '2': ['x'] } }, step_severity: { A: { '2': 'huge' } } },
      { ...base, id: rid(), tool_verdicts: { A: { '2': { call_9: 'wrong' } } } },
      { ...base, id: rid(), corrections: { A: { '2': { tool_calls: [{ name: 'edit_file', arguments: '{bad' }] } } } },
      { ...base, id: rid(), attribution: { A: { agent: 'reviewer', step: 2 } } },
      { ...base, id: rid(), outcome: { A: 'correct' } },
      { ...base, id: rid(), item: 'chain', steps: { A: [1, 1] }, outcome: { A: 'success' } },
      { ...base, id: rid(), outcome: { A: 'great' } },
    ];
    const file = join(dir, 'bob.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const refused = await cli(['labels', 'import', file, '--project', 'p', '--db', dbPath]);
    expect(refused.code).toBe(1);
    const said = refused.stderr.split('\n');
    const at = (line: number) => said.find((s) => s.startsWith(`${file}:${line}: `)) ?? `(nothing said about line ${line})`;
    expect(at(1)).toBe('(nothing said about line 1)');
    expect(at(2)).toMatch(/step_severity\.A\.1: step 2 has a severity but no error tag/);
    expect(at(3)).toMatch(/step_severity\.A\.2.*expected a severity: minor, major or critical, got "huge"/);
    expect(at(4)).toMatch(/tool_verdicts\.A\.2\.call_9: step 3 has no tool call "call_9"/);
    expect(at(5)).toMatch(/corrections\.A\.2.*expected the arguments as a JSON object/);
    expect(at(6)).toMatch(/attribution\.A\.agent: "reviewer" does not act in this trajectory/);
    expect(at(7)).toMatch(/outcome\.A: "correct" is a chain’s outcome/);
    expect(at(8)).toMatch(/outcome\.A: "success" is a trajectory’s outcome/);
    expect(at(9)).toMatch(/outcome\.A.*expected an outcome/);
  });

  it('a τ-bench file’s rewards are the source’s task outcomes, and its labels go through export and import', async () => {
    const dir = tempDir();
    const fixture = join(import.meta.dirname, '..', 'fixtures', 'formats', 'trajectories', 'tau-bench.json');
    const dbs = [join(dir, 'a.db'), join(dir, 'b.db')];
    for (const db of dbs) expect((await cli(['import', fixture, '--project', 't', '--db', db])).code).toBe(0);
    const out = join(dir, 'labels.jsonl');
    expect((await cli(['export', '--project', 't', '--format', 'labels', '--out', out, '--db', dbs[0]!])).code).toBe(0);
    const outcomes = readFileSync(out, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { outcome?: Record<string, string> }).outcome);
    expect(outcomes.flatMap((o) => Object.values(o ?? {})).sort()).toEqual(['failure', 'failure', 'success']);
    // Before, the rewards were stored as "correct" / "incorrect", which a trajectory's outcome is not: the labels file was refused.
    const imported = await cli(['labels', 'import', out, '--project', 't', '--db', dbs[1]!]);
    expect(imported.code, imported.stderr).toBe(0);
  });

  it("shows the file's own outcome (the source annotator's) beside the annotator's", async () => {
    const { dir, dbPath, service, id } = await setup();
    const file = join(dir, 'source.jsonl');
    const line = { id: '0190a0b0-0000-7000-8000-0000000000aa', item: 'traj', annotator: 'source', annotator_kind: 'source', task: 'steps', outcome: { A: 'failure' }, created_at: '2026-11-02T10:00:00.000Z' };
    writeFileSync(file, JSON.stringify(line) + '\n');
    const imported = await cli(['labels', 'import', file, '--project', 'p', '--db', dbPath]);
    expect(imported.code, imported.stderr).toBe(0);
    const view = await service.dispatch('getSteps', { project: 'p', annotator: 'ann', itemId: id('traj') });
    expect(view.fileOutcomes).toEqual({ 0: 'failure' });
    expect(view.label).toBeNull();
  });
});
