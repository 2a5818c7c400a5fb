// Trajectory exports to trainers (issue 14): a project imported from the openai-tools fixture with the real
// CLI, labeled through the service on the same SQLite file (a pairwise choice, turn ratings with a first
// error, tags, severity, a tool call verdict, a corrected call, a corrected text, attribution, outcomes),
// then exported with the real CLI in each trainer shape and checked line by line, field by field.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb, type Db } from '../../electron/core/store/db';
import { trajectoryTurns, type TrajectoryMessage } from '../../shared/trajectory';

const FIXTURE = join(__dirname, '../fixtures/formats/trajectories/openai-tools.jsonl');

let dir: string;
let db: Db;
let service: ArbiterService;
const idOf = (external: string) => db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(external) as number;
const itemIds = () => db.prepare('SELECT id, uid, external_id FROM item ORDER BY seq').all() as { id: number; uid: string; external_id: string | null }[];
const contentOf = (itemId: number, idx: number) => JSON.parse(db.prepare('SELECT content FROM response WHERE item_id = ? AND idx = ?').pluck().get(itemId, idx) as string) as TrajectoryMessage[];

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--db', join(dir, 'arbiter.db')], { out: (l) => out.push(l), err: (l) => err.push(l), ask: async () => 'no' });
  return { code, out, err };
}

async function exported(format: string, extra: string[] = []) {
  const out = join(dir, `${format}${extra.join('')}.jsonl`);
  // --force: a format is exported again by a later test to the same file.
  const run = await cli(['export', '--project', 'p', '--format', format, '--out', out, '--force', ...extra]);
  expect(run.code, run.err.join('\n')).toBe(0);
  const rows = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
  return { rows, summary: JSON.parse(run.out[run.out.length - 1]!) as { written: number; skipped: Record<string, number>; note: string | null } };
}

const SYSTEM = { role: 'system', content: 'You control a smart home.' };
const USER = { role: 'user', content: 'Turn on the living room lights.' };
const LIGHT_TOOLS = [
  {
    type: 'function',
    function: {
      name: 'control_light',
      description: 'Controls the lights in a room.',
      parameters: { type: 'object', properties: { room: { type: 'string', description: 'The name of the room.' }, state: { type: 'string', description: 'The desired state of the light ("on" or "off").' } }, required: ['room', 'state'] },
      return: { type: 'string', description: 'str: A message indicating the new state of the lights.' },
    },
  },
];
const WEATHER_TOOLS = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['location'] } } }];
const call = (room: string) => ({ type: 'function', function: { name: 'control_light', arguments: { room, state: 'on' } } });
const LIGHTS_A = [{ role: 'assistant', tool_calls: [call('living room')] }, { role: 'tool', name: 'control_light', content: 'The lights in the living room are now on.' }, { role: 'assistant', content: 'Done!' }];
const LIGHTS_B = [{ role: 'assistant', tool_calls: [call('kitchen')] }, { role: 'tool', name: 'control_light', content: 'The lights in the kitchen are now on.' }, { role: 'assistant', content: 'The living room lights are on.' }];
const WEATHER_CALL = { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'get_weather', arguments: { location: 'Paris, France', unit: 'celsius' } } }] };
const WEATHER_RESULT = { role: 'tool', tool_call_id: 'call_abc123', content: '{"temperature": 14, "conditions": "rain"}' };
const FIXED_CALL = { tool_calls: [{ name: 'control_light', arguments: { room: 'living room', state: 'on' } }] };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-turn-exports-'));
  copyFileSync(FIXTURE, join(dir, 'openai-tools.jsonl'));
  const run = await cli(['import', join(dir, 'openai-tools.jsonl'), '--project', 'p']);
  expect(run.code, run.err.join('\n')).toBe(0);
  const dbPath = join(dir, 'arbiter.db');
  db = openDb(dbPath);
  service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
  const save = (input: object) => service.dispatch('saveSteps', { project: 'p', annotator: 'ann', ...input } as never);
  const lights = idOf('lights-1');
  await service.dispatch('saveLabel', { project: 'p', annotator: 'ann', itemId: lights, choice: 'A', strength: 2, shownOrder: [0, 1] });
  await save({ itemId: lights, response: 0, steps: { version: 1, ratings: [1, 1], firstError: -1 }, outcome: 'success' });
  await save({
    itemId: lights,
    response: 1,
    steps: { version: 1, ratings: [-1, null], firstError: 0, tags: { '0': ['wrong arguments'] }, severity: { '0': 'major' }, toolVerdicts: { '0': { '0': 'wrong' } }, corrections: { '0': FIXED_CALL } },
    outcome: 'failure',
    attribution: { step: 0 },
  });
  const weather = itemIds()[1]!.id;
  await save({ itemId: weather, response: 0, steps: { version: 1, ratings: [1, 0], firstError: -1, corrections: { '1': 'It is 14 °C and raining in Paris right now.' } }, outcome: 'partial' });
});
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('trajectory exports to trainers', () => {
  it('trl-stepwise-turns: the task as text, each turn after the results it follows, labels to the first error', async () => {
    const { rows, summary } = await exported('trl-stepwise-turns');
    expect(rows).toEqual([
      { prompt: 'system: You control a smart home.\n\nuser: Turn on the living room lights.', completions: ['control_light({"room":"living room","state":"on"})', 'tool (control_light): The lights in the living room are now on.\n\nDone!'], labels: [true, true] },
      { prompt: 'system: You control a smart home.\n\nuser: Turn on the living room lights.', completions: ['control_light({"room":"kitchen","state":"on"})'], labels: [false] },
      { prompt: "What's the weather in Paris, in celsius?", completions: ['get_weather({"location":"Paris, France","unit":"celsius"})', 'tool: {"temperature": 14, "conditions": "rain"}\n\nIt is 14 °C and raining in Paris.'], labels: [true, false] },
    ]);
    expect(summary.written).toBe(3);
    // The tool-calling pair nobody rated turn by turn (its file gave a choice, not turn labels).
    expect(summary.skipped.unlabeled).toBe(2);
    expect(summary.note).toContain("only +1 turns are true; neutral (0) and −1 turns are false (--neutral false, the default: TRL's PRM trainer takes true / false only, and TRL's own PRM800K converter collapses neutral into false); 1 neutral turn was written false");
    expect(summary.note).toContain('1 trajectory stops at its first wrong turn, that turn included as false');
    expect((await exported('trl-stepwise-turns', ['--neutral', 'true'])).rows[2]!.labels).toEqual([true, true]);
  });

  it('trl-stepwise-turns-chat: the same, the task as messages', async () => {
    const { rows } = await exported('trl-stepwise-turns-chat');
    expect(rows.map((r) => r.prompt)).toEqual([[SYSTEM, USER], [SYSTEM, USER], [{ role: 'user', content: "What's the weather in Paris, in celsius?" }]]);
    expect(rows.map((r) => r.completions)).toEqual((await exported('trl-stepwise-turns')).rows.map((r) => r.completions));
  });

  it('trl-tools: decided pairs of trajectories with tool_calls (arguments as objects) and the tools column', async () => {
    const { rows, summary } = await exported('trl-tools');
    const book = JSON.parse(readFileSync(FIXTURE, 'utf8').trim().split('\n')[3]!) as Record<string, unknown>;
    expect(rows).toEqual([
      { prompt: [SYSTEM, USER], chosen: LIGHTS_A, rejected: LIGHTS_B, tools: LIGHT_TOOLS },
      // The file's own tool-calling pair: its choice (chosen first) decides.
      { prompt: book.prompt, chosen: book.chosen, rejected: book.rejected, tools: book.tools },
    ]);
    expect(summary.skipped.not_pairwise).toBe(1);
    expect(summary.note).toContain('DPOTrainer scores every token of them, the tool results too');
  });

  it('corrections-sft and corrections-dpo: the history before the turn, the corrected turn, the original as rejected', async () => {
    const weatherPrompt = [{ role: 'user', content: "What's the weather in Paris, in celsius?" }, WEATHER_CALL, WEATHER_RESULT];
    const fixedLights = { role: 'assistant', content: null, tool_calls: [call('living room')] };
    const fixedWeather = { role: 'assistant', content: 'It is 14 °C and raining in Paris right now.' };
    const sft = await exported('corrections-sft');
    expect(sft.rows).toEqual([
      { prompt: [SYSTEM, USER], completion: [fixedLights], tools: LIGHT_TOOLS },
      { prompt: weatherPrompt, completion: [fixedWeather], tools: WEATHER_TOOLS },
    ]);
    expect(sft.summary.note).toContain('1 tool call had JSON-string arguments, written as JSON objects');
    const dpo = await exported('corrections-dpo');
    expect(dpo.rows).toEqual([
      { prompt: [SYSTEM, USER], chosen: [fixedLights], rejected: [LIGHTS_B[0]], tools: LIGHT_TOOLS },
      { prompt: weatherPrompt, chosen: [fixedWeather], rejected: [{ role: 'assistant', content: 'It is 14 °C and raining in Paris.' }], tools: WEATHER_TOOLS },
    ]);
    expect(dpo.summary.skipped.unlabeled).toBe(1);
  });

  it('turn-labels: one line per turn per judgement, with the taxonomy', async () => {
    const { rows } = await exported('turn-labels');
    const [lights, weather] = itemIds();
    const ids = (itemId: number, idx: number) => trajectoryTurns(contentOf(itemId, idx)).map((t) => t.id);
    const common = { item_uid: lights!.uid, model: null, annotator: 'ann', annotator_kind: 'human', adjudicated: false, created_at: expect.any(String) };
    expect(rows).toHaveLength(6);
    expect(rows.slice(0, 4)).toEqual([
      { ...common, item: 'lights-1', response: 'A', turn: 0, turn_id: ids(lights!.id, 0)[0], agent: null, kinds: ['tool_call', 'tool_result'], calls: [{ id: null, name: 'control_light' }], rating: 1, is_first_error: false, tags: [], severity: null, tool_verdicts: null, correction: null, first_error: -1, outcome: 'success', attribution: null, is_decisive: false },
      { ...common, item: 'lights-1', response: 'A', turn: 1, turn_id: ids(lights!.id, 0)[1], agent: null, kinds: ['message'], calls: [], rating: 1, is_first_error: false, tags: [], severity: null, tool_verdicts: null, correction: null, first_error: -1, outcome: 'success', attribution: null, is_decisive: false },
      { ...common, item: 'lights-1', response: 'B', turn: 0, turn_id: ids(lights!.id, 1)[0], agent: null, kinds: ['tool_call', 'tool_result'], calls: [{ id: null, name: 'control_light' }], rating: -1, is_first_error: true, tags: ['wrong arguments'], severity: 'major', tool_verdicts: { '0': 'wrong' }, correction: FIXED_CALL, first_error: 0, outcome: 'failure', attribution: { step: 0 }, is_decisive: true },
      { ...common, item: 'lights-1', response: 'B', turn: 1, turn_id: ids(lights!.id, 1)[1], agent: null, kinds: ['message'], calls: [], rating: null, is_first_error: false, tags: [], severity: null, tool_verdicts: null, correction: null, first_error: 0, outcome: 'failure', attribution: { step: 0 }, is_decisive: false },
    ]);
    expect(rows[5]).toMatchObject({ item: weather!.uid, item_uid: weather!.uid, response: 'A', turn: 1, rating: 0, correction: 'It is 14 °C and raining in Paris right now.', outcome: 'partial' });
  });
  // Issue 20, item 13: a corrected call exported beside the turn's original thought ("…so the test must be
  // wrong. I will edit the test.") is an incoherent target: the reasoning says one thing, the call another.
  // The corrected call goes out without the original thought unless the annotator corrected the thought
  // too, and the summary says how many rows dropped it.
  // Its own project, after the other tests: their item lists hold the fixture's items only.
  it('corrections-sft: a corrected call without the wrong thought that led to it, or with the corrected thought', async () => {
    const thought = 'The function looks right, so the test must be wrong. I will edit the test.';
    const editTest = { type: 'function', function: { name: 'edit', arguments: { path: 'test_math.py', text: 'assert add(2, 2) == 5' } } };
    const line = (id: string) => ({
      id,
      messages: [
        { role: 'user', content: `Fix the failing test (${id}): test_math.py says add(2, 2) != 4.` },
        { role: 'assistant', content: thought, tool_calls: [editTest] },
        { role: 'tool', name: 'edit', content: 'Edited test_math.py.' },
        { role: 'assistant', content: 'Done.' },
      ],
      tools: [{ type: 'function', function: { name: 'edit', parameters: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } } } } }],
    });
    const file = join(dir, 'thoughts.jsonl');
    writeFileSync(file, [line('call-only'), line('with-thought')].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const imported = await cli(['import', file, '--project', 'thoughts']);
    expect(imported.code, imported.err.join('\n')).toBe(0);
    const fixCall = { name: 'edit', arguments: { path: 'math.py', text: 'return a + b' } };
    const newThought = 'The test is right: add() returns a - b. I will fix add().';
    const save = (external: string, correction: object) =>
      service.dispatch('saveSteps', { project: 'thoughts', annotator: 'ann', itemId: idOf(external), response: 0, steps: { version: 1, ratings: [-1, null], firstError: 0, corrections: { '0': correction } } } as never);
    await save('call-only', { tool_calls: [fixCall] });
    await save('with-thought', { tool_calls: [fixCall], content: newThought });
    const out = join(dir, 'thoughts-sft.jsonl');
    const run = await cli(['export', '--project', 'thoughts', '--format', 'corrections-sft', '--out', out]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { prompt: unknown[]; completion: { role: string; content: string | null; tool_calls: unknown[] }[] });
    const fixed = { type: 'function', function: { name: 'edit', arguments: fixCall.arguments } };
    // As an ML engineer reads them: the target never says "the test must be wrong" and then edits math.py.
    expect(rows.map((r) => r.completion)).toEqual([[{ role: 'assistant', content: null, tool_calls: [fixed] }], [{ role: 'assistant', content: newThought, tool_calls: [fixed] }]]);
    for (const r of rows) expect(JSON.stringify(r.completion)).not.toContain('must be wrong');
    const summary = JSON.parse(run.out[run.out.length - 1]!) as { written: number; note: string };
    expect(summary.written).toBe(2);
    expect(summary.note).toContain("1 corrected call was written without the turn's original text (the reasoning that led to the wrong call; the annotator corrected the call, not the text); 1 with the text the annotator corrected");
  });
});
