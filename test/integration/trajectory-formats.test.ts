// Agent trajectories through the real CLI on a real SQLite file: each trajectory format's fixture (written by
// hand from the format's own code or docs: test/fixtures/formats/trajectories/SOURCES.md) is detected with
// its reason, imported (one item per task, runs of a task as its responses, the turns as the steps), and
// exported back to the same format with every turn, argument (compared as JSON) and result as it was.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { previewHead } from '../../electron/core/formats';
import { headLines } from '../../electron/core/formats/sources';
import { openDb } from '../../electron/core/store/db';
import { agentErrorTags } from '../../shared/stepJudgement';
import { iterateItems } from '../../electron/core/store/items';
import { createProject, requireProject, updateSettings } from '../../electron/core/store/projects';
import { trajectoryTools } from '../../electron/core/formats/trajectories/common';
import { trajectoryTurns, type TrajectoryMessage } from '../../shared/trajectory';

const FIXTURES = join(__dirname, '../fixtures/formats/trajectories');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-traj-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--db', join(dir, 'arbiter.db')], { out: (l) => out.push(l), err: (l) => err.push(l), ask: async () => 'no' });
  return { code, out, err };
}

/** Imports a fixture (copied, so its name is kept) with `--format auto`; returns the summary. */
async function importFixture(name: string) {
  const path = join(dir, name);
  copyFileSync(join(FIXTURES, name), path);
  const run = await cli(['import', path, '--project', 'p']);
  expect(run.code, run.err.join('\n')).toBe(0);
  return JSON.parse(run.out[run.out.length - 1]!) as { format: string; items: number; labels: number };
}

async function exportAs(format: string) {
  const out = join(dir, `out-${format}.jsonl`);
  const run = await cli(['export', '--project', 'p', '--format', format, '--out', out]);
  expect(run.code, run.err.join('\n')).toBe(0);
  return readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
}

const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const fixtureLines = (name: string) => fixture(name).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

/** What the store holds: each item's responses with their stored steps (segmentation version 1). */
function stored() {
  return storedIn(join(dir, 'arbiter.db'));
}

function storedIn(path: string) {
  const db = openDb(path);
  try {
    const items = db.prepare('SELECT id, external_id, prompt, metadata FROM item ORDER BY seq').all() as { id: number; external_id: string | null; prompt: string; metadata: string }[];
    return items.map((item) => ({
      externalId: item.external_id,
      prompt: JSON.parse(item.prompt) as unknown,
      responses: (db.prepare('SELECT idx, content FROM response WHERE item_id = ? ORDER BY idx').all(item.id) as { idx: number; content: string }[]).map((r) => ({
        content: JSON.parse(r.content) as TrajectoryMessage[],
        steps: JSON.parse((db.prepare('SELECT steps FROM segmentation WHERE item_id = ? AND response_idx = ? AND version = 1').pluck().get(item.id, r.idx) as string | undefined) ?? 'null') as string[] | null,
      })),
      outcome: (() => {
        const body = db.prepare("SELECT l.body FROM label l JOIN annotator a ON a.id = l.annotator_id WHERE l.item_id = ? AND a.kind = 'source' AND l.task = 'steps'").pluck().get(item.id) as string | undefined;
        return body ? (JSON.parse(body) as { outcome?: Record<string, string> }).outcome ?? null : null;
      })(),
    }));
  } finally {
    db.close();
  }
}

/** The stored items' references, in file order. */
function references_(): (string | null)[] {
  const db = openDb(join(dir, 'arbiter.db'));
  try {
    return db.prepare('SELECT reference FROM item ORDER BY seq').pluck().all() as (string | null)[];
  } finally {
    db.close();
  }
}

/** Every response's steps are its turns' texts. */
function expectStepsAreTurns(items: ReturnType<typeof stored>) {
  for (const item of items) for (const r of item.responses) expect(r.steps).toEqual(trajectoryTurns(r.content).map((t) => t.text));
}

describe('trajectory formats: detect, import, export back exactly', () => {
  it('openai-tools: TRL (arguments as objects) and OpenAI (JSON strings) chats, two runs of one task, a tool-calling pair', async () => {
    const summary = await importFixture('openai-tools.jsonl');
    expect(summary.format).toBe('openai-tools');
    expect(summary.items).toBe(3);
    const items = stored();
    expect(items.map((i) => i.responses.length)).toEqual([2, 1, 2]);
    expect(items[0]!.prompt).toEqual([
      { role: 'system', content: 'You control a smart home.' },
      { role: 'user', content: 'Turn on the living room lights.' },
    ]);
    expect(trajectoryTurns(items[0]!.responses[0]!.content).map((t) => t.text)).toEqual(['control_light({"room":"living room","state":"on"})', 'Done!']);
    expectStepsAreTurns(items);
    // The pair's preference is the source's choice: chosen is response A.
    expect(summary.labels).toBe(1);
    const db = openDb(join(dir, 'arbiter.db'));
    const choice = db.prepare("SELECT l.item_id, l.choice FROM label l JOIN annotator a ON a.id = l.annotator_id WHERE a.kind = 'source' AND l.task = 'pairwise'").all();
    const pairItem = db.prepare('SELECT id FROM item ORDER BY seq LIMIT 1 OFFSET 2').pluck().get();
    db.close();
    expect(choice).toEqual([{ item_id: pairItem, choice: 'A' }]);
    const back = await exportAs('openai-tools');
    expect(back).toEqual(fixtureLines('openai-tools.jsonl'));
  });

  it('swe-agent: a .traj file (one pretty-printed object) keeps every step, action and observation', async () => {
    const summary = await importFixture('swe-agent.traj');
    expect(summary.format).toBe('swe-agent');
    const items = stored();
    expect(items).toHaveLength(1);
    const turns = trajectoryTurns(items[0]!.responses[0]!.content);
    expect(turns).toHaveLength(5);
    expect(turns[2]!.calls[0]!.name).toBe('edit');
    expect(turns[3]!.calls).toEqual([]);
    expectStepsAreTurns(items);
    expect((items[0]!.prompt as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user']);
    const back = await exportAs('swe-agent');
    expect(back).toEqual([JSON.parse(fixture('swe-agent.traj'))]);
  });

  it('swe-agent with function calling: each step’s calls are its history message’s tool_calls, exactly, and the file comes back', async () => {
    const call = (id: string, name: string, args: Record<string, unknown>) => ({ function: { arguments: JSON.stringify(args), name }, id, type: 'function' });
    const steps = [
      { thought: 'Look at the file.', action: 'str_replace_editor view /repo/a.py', call: call('toolu_1', 'str_replace_editor', { command: 'view', path: '/repo/a.py' }), observation: '1 x = 1' },
      { thought: 'Run it.', action: 'python /repo/a.py', call: call('toolu_2', 'bash', { command: 'python /repo/a.py' }), observation: '' },
      { thought: 'Done.', action: 'submit', call: call('toolu_3', 'submit', {}), observation: 'diff --git a/a.py b/a.py' },
    ];
    const record = {
      trajectory: steps.map((s) => ({ action: s.action, observation: s.observation, response: s.thought, state: {}, thought: s.thought, execution_time: 0.5, query: [], extra_info: {} })),
      history: [
        { role: 'system', content: 'You are a helpful assistant.', agent: 'main', message_type: 'system_prompt' },
        { role: 'user', content: [{ type: 'text', text: 'Fix a.py' }], agent: 'main', message_type: 'observation' },
        ...steps.flatMap((s) => [
          { role: 'assistant', content: s.thought, thought: s.thought, action: s.action, agent: 'main', tool_calls: [s.call], message_type: 'action', thinking_blocks: [] },
          { role: 'tool', content: [{ type: 'text', text: s.observation }], agent: 'main', message_type: 'observation', tool_call_ids: [s.call.id] },
        ]),
      ],
      info: { exit_status: 'exit_cost', submission: null },
    };
    writeFileSync(join(dir, 'fc.traj'), JSON.stringify(record, null, 2));
    expect((await cli(['import', join(dir, 'fc.traj'), '--project', 'p'])).code).toBe(0);
    const items = stored();
    const turns = trajectoryTurns(items[0]!.responses[0]!.content);
    expect(turns.map((t) => [t.calls[0]!.id, t.calls[0]!.name, t.calls[0]!.parsed])).toEqual(steps.map((s) => [s.call.id, s.call.function.name, JSON.parse(s.call.function.arguments)]));
    expect(turns.map((t) => t.results.length)).toEqual([1, 1, 1]);
    // exit_cost: the agent stopped without submitting.
    expect(items[0]!.outcome).toEqual({ A: 'failure' });
    expect(await exportAs('swe-agent')).toEqual([record]);
  });

  it('openhands: evaluation output lines (two runs of one instance) with their outcome, and an event list file', async () => {
    const summary = await importFixture('openhands.jsonl');
    expect(summary.format).toBe('openhands');
    const items = stored();
    expect(items).toHaveLength(1);
    expect(items[0]!.externalId).toBe('dates__dates-17');
    expect(items[0]!.outcome).toEqual({ A: 'failure', B: 'success' });
    const turns = trajectoryTurns(items[0]!.responses[0]!.content);
    expect(turns.map((t) => t.calls[0]?.name)).toEqual(['execute_bash', 'execute_bash', 'finish']);
    expect(turns[1]!.error).toBe(true);
    expectStepsAreTurns(items);
    expect(await exportAs('openhands')).toEqual(fixtureLines('openhands.jsonl'));
  });

  it('openhands: an event list (a .json array, one trajectory) comes back event for event', async () => {
    const summary = await importFixture('openhands-events.json');
    expect(summary.format).toBe('openhands');
    expect(summary.items).toBe(1);
    expect(await exportAs('openhands')).toEqual(JSON.parse(fixture('openhands-events.json')));
  });

  it('tau-bench: trials of one task anywhere in the file are one item; the reward is the source outcome', async () => {
    const summary = await importFixture('tau-bench.json');
    expect(summary.format).toBe('tau-bench');
    const items = stored();
    expect(items.map((i) => [i.externalId, i.responses.length])).toEqual([
      ['0', 2],
      ['1', 1],
    ]);
    expect(items[0]!.outcome).toEqual({ A: 'success', B: 'failure' });
    // The trials' first user messages differ: only the wiki is the task; each trial's user turn is context.
    expect((items[0]!.prompt as { role: string }[]).map((m) => m.role)).toEqual(['system']);
    expect(trajectoryTurns(items[0]!.responses[0]!.content)[0]!.context).toEqual([0]);
    expectStepsAreTurns(items);
    // The expected outcome is what the task expects done (issue 20, item 21: it repeated the user's
    // instruction, which the trajectory's first user message already says).
    const references = references_();
    expect(references).toEqual(['Expected actions:\n\n- `cancel_pending_order({"order_id":"#W2378156","reason":"ordered by mistake"})`', 'Expected actions:\n\n- `cancel_pending_order({"order_id":"#W2378156","reason":"ordered by mistake"})`']);
    for (const reference of references) expect(reference).not.toContain('You are Yusuf Rossi');
    const back = await exportAs('tau-bench');
    const key = (r: Record<string, unknown>) => `${String(r.task_id)}/${String(r.trial)}`;
    const original = JSON.parse(fixture('tau-bench.json')) as Record<string, unknown>[];
    expect([...back].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...original].sort((a, b) => key(a).localeCompare(key(b))));
  });

  // Issue 20, item 23: an agent's project started with the math error tags (calculation, logic…) and its
  // export dialog listed every format. A project an agent trajectory import makes (or fills while empty,
  // its tags untouched) starts with the agent taxonomy, and its overview names its formats.
  it('a project of agent trajectories starts with the agent error tags, and says what it was imported from', async () => {
    await importFixture('tau-bench.json');
    const listed = await cli(['projects', '--json']);
    const [project] = JSON.parse(listed.out.join('')) as { settings: { errorTags: string[] }; formats: string[] }[];
    expect(project!.formats).toEqual(['tau-bench']);
    expect(project!.settings.errorTags).toEqual(agentErrorTags(false));
    expect(project!.settings.errorTags).toContain('wrong tool');
    expect(project!.settings.errorTags).not.toContain('calculation');
    // A project made empty first (as the app's "New project" does) takes them too; one with tags of its own keeps them.
    const db = openDb(join(dir, 'arbiter.db'));
    try {
      createProject(db, 'empty');
      updateSettings(db, 'empty', {});
      createProject(db, 'mine');
      updateSettings(db, 'mine', { errorTags: ['my tag'] });
    } finally {
      db.close();
    }
    for (const name of ['empty', 'mine']) expect((await cli(['import', join(FIXTURES, 'swe-agent.traj'), '--project', name])).code).toBe(0);
    const after = JSON.parse((await cli(['projects', '--json'])).out.join('')) as { name: string; settings: { errorTags: string[] } }[];
    expect(after.find((p) => p.name === 'empty')!.settings.errorTags).toEqual(agentErrorTags(false));
    expect(after.find((p) => p.name === 'mine')!.settings.errorTags).toEqual(['my tag']);
  });

  it('arbiter-trajectory: turn ids, agents and kinds are kept; the outcome is the source label and comes back', async () => {
    const summary = await importFixture('arbiter-trajectory.jsonl');
    expect(summary.format).toBe('arbiter-trajectory');
    const items = stored();
    expect(items[0]!.outcome).toEqual({ A: 'failure', B: 'success' });
    const turns = trajectoryTurns(items[0]!.responses[0]!.content);
    expect(turns.map((t) => t.id)).toEqual(['plan-1', 'search-1', 'search-2', 'answer']);
    expect(turns.map((t) => t.agent)).toEqual(['planner', 'searcher', 'searcher', 'planner']);
    expect(turns[2]!.error).toBe(true);
    expect(turns[3]!.context).toEqual([5]);
    expect(await exportAs('arbiter-trajectory')).toEqual(fixtureLines('arbiter-trajectory.jsonl'));
  });

  it('an Arbiter items export of trajectories imports again as the same trajectories, which export to their own format', async () => {
    await importFixture('tau-bench.json');
    const items = await exportAs('arbiter');
    const path = join(dir, 'items.jsonl');
    writeFileSync(path, items.map((i) => JSON.stringify(i)).join('\n') + '\n');
    const again = await cli(['import', path, '--project', 'q']);
    expect(again.code, again.err.join('\n')).toBe(0);
    const out = join(dir, 'q-tau.jsonl');
    expect((await cli(['export', '--project', 'q', '--format', 'tau-bench', '--out', out])).code).toBe(0);
    const key = (r: Record<string, unknown>) => `${String(r.task_id)}/${String(r.trial)}`;
    const back = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const original = JSON.parse(fixture('tau-bench.json')) as Record<string, unknown>[];
    expect(back.sort((a, b) => key(a).localeCompare(key(b)))).toEqual(original.sort((a, b) => key(a).localeCompare(key(b))));
  });

  it('another format’s trajectory exports to openai-tools as its messages (no Arbiter fields)', async () => {
    await importFixture('tau-bench.json');
    const lines = await exportAs('openai-tools');
    const original = JSON.parse(fixture('tau-bench.json')) as { traj: unknown[] }[];
    expect(lines.map((l) => l.messages)).toEqual([original[0]!.traj, original[2]!.traj, original[1]!.traj]);
  });

  it('a SWE-agent run with no history (no task messages) keeps a made-up prompt out of its export; an implicit tool-calling pair comes back implicit', async () => {
    const traj = JSON.parse(fixture('swe-agent.traj')) as Record<string, unknown>;
    delete traj.history;
    const pair = {
      chosen: [{ role: 'user', content: 'ls' }, { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'sh', arguments: { cmd: 'ls' } } }] }, { role: 'tool', name: 'sh', content: 'a b' }],
      rejected: [{ role: 'user', content: 'ls' }, { role: 'assistant', content: 'I cannot.' }],
    };
    writeFileSync(join(dir, 'runs.jsonl'), JSON.stringify(traj) + '\n');
    writeFileSync(join(dir, 'pair.jsonl'), JSON.stringify(pair) + '\n');
    expect((await cli(['import', join(dir, 'runs.jsonl'), '--project', 'p'])).code).toBe(0);
    expect(stored()[0]!.prompt).toBe('SWE-agent run');
    expect(await exportAs('swe-agent')).toEqual([traj]);
    expect((await cli(['import', join(dir, 'pair.jsonl'), '--project', 'pairs'])).code).toBe(0);
    const out = join(dir, 'pair-out.jsonl');
    expect((await cli(['export', '--project', 'pairs', '--format', 'openai-tools', '--out', out])).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(pair);
  });

  it('a pretty-printed object under another name (an upload keeps no .traj) is read whole; the preview names the format and why', async () => {
    const path = join(dir, 'upload-7f3a');
    copyFileSync(join(FIXTURES, 'swe-agent.traj'), path);
    const lines = await headLines(path, 50);
    expect(lines).toHaveLength(1);
    const preview = previewHead(`${lines.join('\n')}\n`, 'auto');
    expect(preview.format).toBe('swe-agent');
    expect(preview.reason).toMatch(/^swe-agent: a "trajectory" of steps .* \(a SWE-agent \.traj\)/);
    const run = await cli(['import', path, '--project', 'p']);
    expect(run.code, run.err.join('\n')).toBe(0);
    expect(stored()).toHaveLength(1);
  });

  it('trajectoryTools finds the tool schemas a run was given (openai-tools lines and pairs, the OpenHands system action)', async () => {
    await importFixture('openai-tools.jsonl');
    await importFixture('openhands.jsonl');
    const db = openDb(join(dir, 'arbiter.db'));
    try {
      const items = [...iterateItems(db, requireProject(db, 'p').id)];
      expect(items.map((item) => (trajectoryTools(item, 0) ?? []).map((t) => (t as { function: { name: string } }).function.name))).toEqual([['control_light'], ['get_weather'], ['book_table'], ['execute_bash']]);
    } finally {
      db.close();
    }
  });

  it('every trajectory format exports to every other, and that file imports again with the same turns', async () => {
    const fixtures = ['openai-tools.jsonl', 'swe-agent.traj', 'openhands.jsonl', 'tau-bench.json', 'arbiter-trajectory.jsonl'];
    const formats = ['openai-tools', 'swe-agent', 'openhands', 'tau-bench', 'arbiter-trajectory'];
    const turnCalls = (items: ReturnType<typeof stored>) =>
      items.flatMap((i) => i.responses.map((r) => trajectoryTurns(r.content).map((t) => t.calls.map((c) => [c.name, JSON.stringify(c.parsed)]))));
    for (const name of fixtures) await importFixture(name);
    const turns = turnCalls(stored());
    for (const format of formats) {
      const out = join(dir, `all-${format}.jsonl`);
      const exported = await cli(['export', '--project', 'p', '--format', format, '--out', out]);
      expect(exported.code, exported.err.join('\n')).toBe(0);
      const db = join(dir, `${format}.db`);
      const said: string[] = [];
      const again = await runCli(['import', out, '--project', 'p', '--format', format, '--db', db], { out: () => {}, err: (l) => said.push(l), ask: async () => 'no' });
      expect(again, `${format}: ${said.join('\n')}`).toBe(0);
      const back = new Set(turnCalls(storedIn(db)).map((t) => JSON.stringify(t)));
      // Every run comes back with the same tool calls turn by turn (runs may regroup: a made-up task has no messages to share).
      for (const t of turns) expect(back.has(JSON.stringify(t)), `${format}: ${JSON.stringify(t)}`).toBe(true);
    }
  });

  it('re-importing the same file adds nothing, and turn ids stay the same', async () => {
    await importFixture('tau-bench.json');
    const before = stored().map((i) => i.responses.map((r) => trajectoryTurns(r.content).map((t) => t.id)));
    const again = await importFixture('tau-bench.json');
    expect(again.items).toBe(0);
    expect(stored().map((i) => i.responses.map((r) => trajectoryTurns(r.content).map((t) => t.id)))).toEqual(before);
  });

  it('a trajectory with no agent turn is refused with its line and a reason', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, JSON.stringify({ messages: [{ role: 'user', content: 'hi' }, { role: 'tool', name: 'x', content: 'y' }] }) + '\n');
    const run = await cli(['import', path, '--project', 'p', '--format', 'openai-tools']);
    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toMatch(/bad\.jsonl:1: .*no agent turn/);
  });

  it('a SWE-agent task message whose content is neither text nor typed parts is refused, naming the field (fuzz seed 1831633044)', async () => {
    const traj = JSON.parse(fixture('swe-agent.traj')) as Record<string, unknown>;
    traj.history = [{ role: 'system', content: [null, 1, 'two'], agent: 'main', message_type: 'system_prompt' }, ...(traj.history as unknown[])];
    const path = join(dir, 'bad-task.jsonl');
    writeFileSync(path, JSON.stringify(traj) + '\n');
    const run = await cli(['import', path, '--project', 'p', '--format', 'swe-agent']);
    expect(run.code).toBe(1);
    expect(run.err.join('\n')).toMatch(/bad-task\.jsonl:1: history\[0\]\.content: expected text, a list of typed parts or null, got /);
  });
});
