// The Chromium tests issue 14 asks for, end to end through the UI:
// 1. a SWE-agent trajectory of 12 turns (test/fixtures/e2e/swe-agent-12-turns.traj, written by hand in the
//    shape of SWE-agent's function-calling .traj: SWE-agent/SWE-agent sweagent/types.py AgentRunResult
//    {trajectory, history, info, replay_config, environment}, TrajectoryStep {action, observation,
//    response, thought, execution_time, state, query, extra_info}, history items with tool_calls and
//    tool_call_ids), whose turn 7 calls str_replace_editor on a path that does not exist, is imported
//    through the Datasets screen; turns 1–6 are rated +1 from the keyboard, turn 7 marked the first error
//    with the category "wrong arguments" and a corrected call, the outcome set to failure; then TRL
//    stepwise over turns and the corrected-action pairs are exported from the Export panel and read
//    back line by line;
// 2. two trajectories of one task (an OpenAI / TRL tool-calling file, two runs) are compared by keyboard
//    on the compare screen (a choice and a strength), saved, and exported as TRL's tool-calling preference.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnSteps, type TrajectoryMessage } from '../../shared/trajectory';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, ROOT, startHost, writeJsonl, type Host } from './helpers';

const ANNOTATOR = 'e2e-agent-judge';
const TRAJ = join(ROOT, 'test/fixtures/e2e/swe-agent-12-turns.traj');
const REPO = '/marshmallow-code__marshmallow';
const FIX = {
  command: 'str_replace',
  path: `${REPO}/src/marshmallow/fields.py`,
  old_str: '        return int(value.total_seconds() / base_unit.total_seconds())',
  new_str: '        return int(round(value.total_seconds() / base_unit.total_seconds()))',
};

interface StepsView {
  responses: { index: number; version: number; steps: string[] }[];
  label: { body: Record<string, unknown> } | null;
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);

async function allSaved() {
  await expect.poll(() => page.getByTestId('status-text').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('arbiter.pendingJudgements')), { timeout: 10_000 }).toBeNull();
}

/** Exports `format` from the Export panel of the Datasets screen; the downloaded file's lines and the summary's note. */
async function exportViaUi(project: string, format: string) {
  await go(`#/p/${encodeURIComponent(project)}/datasets`);
  await page.getByTestId('export-panel').waitFor();
  await page.getByTestId('export-format').selectOption(format);
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-button').click();
  await page.getByTestId('export-summary').waitFor();
  const download = await downloading;
  const lines = readFileSync((await download.path())!, 'utf8').split('\n');
  expect(lines.at(-1)).toBe('');
  return { lines: lines.slice(0, -1), note: await page.getByTestId('export-note').innerText() };
}

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR, acceptDownloads: true }));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('a SWE-agent trajectory judged turn by turn', () => {
  const PROJECT = 'e2e swe-agent run';
  const file = JSON.parse(readFileSync(TRAJ, 'utf8')) as { trajectory: { action: string; observation: string; thought: string }[]; history: { role: string; content: string; tool_calls?: unknown[]; is_demo?: boolean }[] };
  let itemId = 0;

  it('imports the .traj as one item of 12 turns', async () => {
    expect(file.trajectory).toHaveLength(12);
    await createProjectViaUi(page, PROJECT);
    await importViaUi(page, TRAJ);
    expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 1 new item/);
    const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT });
    itemId = rows[0]!.id;
    const view = await host.api<StepsView>('getSteps', { project: PROJECT, annotator: ANNOTATOR, itemId });
    expect(view.responses[0]!.steps).toHaveLength(12);
    // The "Tool use" tag preset gives the project "wrong arguments".
    await page.locator('[data-testid="tag-preset"][data-preset="Tool use"]').click();
    await page.locator('[data-testid="error-tag"][data-tag="wrong arguments"]').waitFor();
  });

  it('rates turns 1–6 +1, marks turn 7 the first error ("wrong arguments", a corrected call) and the outcome failure, by keyboard', async () => {
    await go(`#/p/${encodeURIComponent(PROJECT)}/steps/item/${itemId}`);
    await page.getByTestId('step-list').waitFor();
    const current = () => page.locator('[data-testid="step"][data-current="true"]').getAttribute('data-index').then(Number);
    await expect.poll(current).toBe(0);
    for (let turn = 0; turn < 6; turn++) {
      await page.keyboard.press('=');
      await expect.poll(current).toBe(turn + 1);
    }
    await page.keyboard.press('f');
    const tags = (await host.api<{ settings: { errorTags: string[] } }>('getProject', { project: PROJECT })).settings.errorTags;
    await page.keyboard.press('t');
    await page.getByTestId('tag-picker').waitFor();
    for (let n = 0; n < tags.indexOf('wrong arguments'); n++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('severity-prompt').waitFor();
    await page.keyboard.press('2');
    await expect.poll(() => page.getByTestId('tag-picker').count()).toBe(0);

    // c: the call as the agent made it, to correct: the path names field.py, a file that does not exist.
    await page.keyboard.press('c');
    await page.getByTestId('call-editor').waitFor();
    expect(await page.getByTestId('call-name').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['str_replace_editor']);
    expect(JSON.parse(await page.getByTestId('call-arguments').inputValue())).toMatchObject({ path: `${REPO}/src/marshmallow/field.py` });
    await page.getByTestId('call-arguments').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(JSON.stringify(FIX));
    await expect.poll(() => page.getByTestId('call-editor').getAttribute('data-valid')).toBe('true');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('call-editor').count()).toBe(0);

    for (const key of ['o', 'o', 'o']) await page.keyboard.press(key);
    await expect.poll(() => page.getByTestId('steps-outcome').getAttribute('data-value')).toBe('failure');
    await allSaved();

    const body = (await host.api<StepsView>('getSteps', { project: PROJECT, annotator: ANNOTATOR, itemId })).label!.body;
    expect(body).toMatchObject({
      steps: { A: [1, 1, 1, 1, 1, 1, -1, null, null, null, null, null] },
      first_error: { A: 6 },
      step_tags: { A: { '6': ['wrong arguments'] } },
      step_severity: { A: { '6': 'major' } },
      corrections: { A: { '6': { tool_calls: [{ id: 'call_07', name: 'str_replace_editor', arguments: FIX }] } } },
      outcome: { A: 'failure' },
    });
    expect(problems).toEqual([]);
  });

  it('exports TRL stepwise over turns: one line, the task as the prompt, turns 1–7 with labels true ×6 then false', async () => {
    // The export panel of a trajectory project starts on TRL stepwise over turns, its formats by family,
    // only the families that fit (issue 20, item 23: it started on a chain's trl-stepwise, 41 formats flat).
    await go(`#/p/${encodeURIComponent(PROJECT)}/datasets`);
    const format = page.getByTestId('export-format');
    await expect.poll(() => format.inputValue(), { timeout: 15_000 }).toBe('trl-stepwise-turns');
    const groups = await format.locator('optgroup').evaluateAll((list) => list.map((g) => g.getAttribute('label')));
    expect(groups).toContain('Agent trajectories');
    expect(groups).not.toContain('Steps (process supervision)');
    expect(groups).not.toContain('Images');
    const { lines, note } = await exportViaUi(PROJECT, 'trl-stepwise-turns');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!) as { prompt: string; completions: string[]; labels: boolean[] };
    expect(Object.keys(record).sort()).toEqual(['completions', 'labels', 'prompt']);
    // The prompt: the system prompt and the issue (the task), as "role: text" blocks; no agent turn in it.
    const [system, issue] = file.history.filter((h) => !h.is_demo && (h.role === 'system' || h.role === 'user'));
    expect(record.prompt).toBe(`system: ${system!.content}\n\nuser: ${issue!.content}`);
    // Completions: turns 1–7 (up to the first error), each what the agent saw since its last action (the
    // previous call's result, as "tool (name): …") and then the turn itself (its canonical text).
    const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT });
    const item = await host.api<{ responses: { content: TrajectoryMessage[] }[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId: rows[0]!.id });
    const turns = turnSteps(item.responses[0]!.content);
    expect(turns).toHaveLength(12);
    const toolOf = (k: number) => file.history.filter((h) => h.role === 'assistant')[k]!.tool_calls as { function: { name: string } }[];
    const expected = turns.slice(0, 7).map((turn, k) => (k === 0 ? turn : `tool (${toolOf(k - 1)[0]!.function.name}): ${file.trajectory[k - 1]!.observation}\n\n${turn}`));
    expect(record.completions).toHaveLength(7);
    record.completions.forEach((completion, k) => expect(completion, `completion ${k + 1}`).toBe(expected[k]));
    // Turn 7's completion ends at its call on field.py: the error it got back is not in it.
    expect(turns[6]).toContain('field.py');
    expect(record.completions[6]).not.toContain('does not exist');
    expect(record.labels).toEqual([true, true, true, true, true, true, false]);
    expect(note.length).toBeGreaterThan(0);
  });

  it('exports the corrected-action pair: chosen the corrected call, rejected the call as made, after the same history', async () => {
    const { lines } = await exportViaUi(PROJECT, 'corrections-dpo');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!) as { prompt: { role: string; content: unknown; tool_calls?: { id?: string; function: { name: string; arguments: unknown } }[]; tool_call_id?: string }[]; chosen: typeof record.prompt; rejected: typeof record.prompt; tools?: unknown };
    expect(Object.keys(record).filter((k) => k !== 'tools').sort()).toEqual(['chosen', 'prompt', 'rejected']);
    // The prompt: system, issue, then turns 1–6 as the agent made them (each call and its result).
    expect(record.prompt.map((m) => m.role)).toEqual(['system', 'user', ...Array.from({ length: 6 }, () => ['assistant', 'tool']).flat()]);
    for (let k = 0; k < 6; k++) {
      const call = record.prompt[2 + 2 * k]!;
      expect(call.content).toBe(file.trajectory[k]!.thought);
      expect(call.tool_calls?.[0]?.id).toBe(`call_0${k + 1}`);
      expect(record.prompt[3 + 2 * k]!.content).toBe(file.trajectory[k]!.observation);
    }
    // Chosen: one assistant message, the corrected call (arguments a JSON object) without the turn's own
    // words, the reasoning that led to the wrong call (issue 20, item 13): the call was corrected, not them.
    expect(record.chosen).toHaveLength(1);
    expect(record.chosen[0]).toMatchObject({ role: 'assistant', content: null });
    expect(record.chosen[0]!.tool_calls).toHaveLength(1);
    expect(record.chosen[0]!.tool_calls![0]).toMatchObject({ id: 'call_07', function: { name: 'str_replace_editor', arguments: FIX } });
    // Rejected: the turn as it was: the call on field.py.
    expect(record.rejected).toHaveLength(1);
    expect(record.rejected[0]).toMatchObject({ role: 'assistant', content: file.trajectory[6]!.thought });
    const made = record.rejected[0]!.tool_calls![0]!.function;
    expect(made.name).toBe('str_replace_editor');
    expect(typeof made.arguments === 'string' ? JSON.parse(made.arguments) : made.arguments).toEqual({ ...FIX, path: `${REPO}/src/marshmallow/field.py` });
    expect(problems).toEqual([]);
  });
});

describe('two trajectories of one task compared by keyboard', () => {
  const PROJECT = 'e2e two runs';
  const TOOLS = [{ type: 'function', function: { name: 'get_weather', description: 'The weather now.', parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['location'] } } }];
  const TASK = [
    { role: 'system', content: 'You answer with the tools you have.' },
    { role: 'user', content: "What's the weather in Paris, in celsius?" },
  ];
  const run = (unit: string, reply: string, said: string) => [
    { role: 'assistant', content: null, tool_calls: [{ id: `call_${unit}`, type: 'function', function: { name: 'get_weather', arguments: { location: 'Paris, France', unit } } }] },
    { role: 'tool', tool_call_id: `call_${unit}`, name: 'get_weather', content: reply },
    { role: 'assistant', content: said },
  ];
  const GOOD = run('celsius', '{"temperature": 14, "conditions": "rain"}', 'It is 14 °C and raining in Paris.');
  const BAD = run('fahrenheit', '{"temperature": 57, "conditions": "rain"}', 'It is 57 degrees and raining in Paris.');

  it('picks the better run (much better) from the keyboard, and exports it as the tool-calling preference', async () => {
    const path = writeJsonl(host.home, 'two-runs.jsonl', [
      { id: 'paris', messages: [...TASK, ...BAD], tools: TOOLS },
      { id: 'paris', messages: [...TASK, ...GOOD], tools: TOOLS },
    ]);
    await go('#/');
    await createProjectViaUi(page, PROJECT);
    await importViaUi(page, path);
    expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 1 new item/);
    const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT });
    expect(rows).toHaveLength(1);
    const itemId = rows[0]!.id;

    await go(`#/p/${encodeURIComponent(PROJECT)}/item/${itemId}`);
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id'), { timeout: 10_000 }).toBe(String(itemId));
    await expect.poll(() => page.getByTestId('trajectory-column').count()).toBe(2);
    // A is the file's first run (the fahrenheit one); find the side the good run, B, is shown on.
    const { shownOrder } = await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId });
    const goodSide = shownOrder[0] === 1 ? '1' : '2';
    await page.keyboard.press(`Shift+${goodSide}`);
    await expect.poll(() => host.api<{ label: { choice: string; strength: number } | null }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId }).then((i) => i.label && [i.label.choice, i.label.strength]), { timeout: 10_000 }).toEqual(['B', 3]);

    const { lines } = await exportViaUi(PROJECT, 'trl-tools');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(record).sort()).toEqual(['chosen', 'prompt', 'rejected', 'tools']);
    expect(record.prompt).toEqual(TASK);
    expect(record.chosen).toEqual(GOOD);
    expect(record.rejected).toEqual(BAD);
    expect(record.tools).toEqual(TOOLS);
    expect(problems).toEqual([]);
  });
});

// Keep the fixture honest: the file is the shape the test says (12 steps; turn 7's call on a missing file).
it('the fixture has 12 steps and a failing call at turn 7', () => {
  const file = JSON.parse(readFileSync(TRAJ, 'utf8')) as { trajectory: { observation: string }[] };
  expect(file.trajectory).toHaveLength(12);
  expect(file.trajectory[6]!.observation).toMatch(/does not exist/);
});
