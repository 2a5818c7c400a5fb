// Judging an agent trajectory from the keyboard (issue 14): the project starts with the "General agent"
// and "Tool use" tag presets, and the Step labels panel adds another's; on the step screen a tag takes a
// severity, each tool call a verdict, a tool-call turn a corrected call whose arguments are checked as
// JSON as they are typed, a multi-agent trajectory the agent and turn that decided the failure, and `o`
// the task outcome success / partial / failure. Everything is checked through the API.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentErrorTags } from '../../shared/stepJudgement';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, ROOT, startHost, writeJsonl, type Host } from './helpers';

const ANNOTATOR = 'e2e-judge';
const PROJECT = 'e2e trajectories judged';
// A two-agent trajectory: turn 3 (index 2) edits the wrong file, a result that is an error.
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
// An OpenAI / TRL tool-calling chat: the user's task is the prompt, the rest the trajectory.
const ITEMS = [{ messages: [{ role: 'user', content: 'Change the server port to 8080 in config.yml.' }, ...MESSAGES] }];

interface StepsView {
  responses: { index: number; version: number; steps: string[] }[];
  label: { body: Record<string, unknown> } | null;
  judgements: Record<number, Record<string, unknown>>;
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
let itemId = 0;

const project = () => host.api<{ settings: { errorTags: string[] } }>('getProject', { project: PROJECT });
const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);
const getSteps = () => host.api<StepsView>('getSteps', { project: PROJECT, annotator: ANNOTATOR, itemId });
const body = async () => (await getSteps()).label?.body ?? {};

async function allSaved() {
  await expect.poll(() => page.getByTestId('status-text').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('arbiter.pendingJudgements')), { timeout: 10_000 }).toBeNull();
}

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  await createProjectViaUi(page, PROJECT);
  await importViaUi(page, writeJsonl(host.home, 'traj.jsonl', ITEMS));
  expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 1 new item/);
  const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT });
  itemId = rows[0]!.id;
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('judging a trajectory', () => {
  // Issue 20, item 23: an agent's project started with the math tags (calculation, logic…); it starts with
  // the "General agent" and "Tool use" presets now, and a preset adds only what the list lacks.
  it('starts with the agent tags; a tag preset from the Step labels panel adds what the list lacks', async () => {
    expect((await project()).settings.errorTags).toEqual(agentErrorTags(false));
    expect((await project()).settings.errorTags).not.toContain('calculation');
    await go(`#/p/${encodeURIComponent(PROJECT)}/datasets`);
    const tool = page.locator('[data-testid="tag-preset"][data-preset="Tool use"]');
    await tool.waitFor();
    await page.locator('[data-testid="error-tag"][data-tag="wrong arguments"]').waitFor();
    await tool.click();
    await expect.poll(() => page.getByTestId('tag-preset-notice').innerText()).toMatch(/Every tag of “Tool use” is in the list already/);
    await page.locator('[data-testid="tag-preset"][data-preset="GUI / web agent"]').click();
    await expect.poll(async () => (await project()).settings.errorTags).toEqual(expect.arrayContaining(['wrong element', 'hallucinated page', 'wrong text']));
    // The notice follows the save's answer: wait for it as for the settings (read once, it could still say the last preset's words).
    await expect.poll(() => page.getByTestId('tag-preset-notice').innerText()).toMatch(/Added 5 tags from “GUI \/ web agent”/);
    // "premature stop" is in both: there once.
    expect((await project()).settings.errorTags.filter((t) => t === 'premature stop')).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('judges each turn from the keyboard: call verdicts, a tag with its severity, a corrected call checked as JSON, who decided, the task outcome', async () => {
    await go(`#/p/${encodeURIComponent(PROJECT)}/steps/item/${itemId}`);
    await page.getByTestId('step-list').waitFor();
    const turn = (i: number) => page.locator(`[data-testid="step"][data-index="${i}"]`);
    const verdict = (i: number, call: string) => turn(i).locator(`[data-testid="call-verdict"][data-call="${call}"]`).getAttribute('data-verdict');
    const status = () => page.getByTestId('status-text').innerText();
    const current = () => page.locator('[data-testid="step"][data-current="true"]').getAttribute('data-index').then(Number);

    // Turn 1 (the planner's words) makes no call: a digit says so; = rates it and moves on.
    await page.keyboard.press('1');
    await expect.poll(status).toMatch(/Turn 1 makes no tool call/);
    await page.keyboard.press('=');
    await expect.poll(current).toBe(1);
    // Turn 2: 1 cycles its only call's verdict.
    await page.keyboard.press('1');
    await expect.poll(() => verdict(1, 'call_1')).toBe('correct');
    await page.keyboard.press('=');
    await expect.poll(current).toBe(2);
    // Turn 3 makes two calls: 1 1 → the edit is wrong; 2 2 2 → the second read is unnecessary; 5 names no call.
    for (const key of ['1', '1', '2', '2', '2']) await page.keyboard.press(key);
    await expect.poll(() => verdict(2, 'call_2')).toBe('wrong');
    await expect.poll(() => verdict(2, 'call_3')).toBe('unnecessary');
    await page.keyboard.press('5');
    await expect.poll(status).toMatch(/Turn 3 makes 2 tool calls: there is no call 5/);
    await page.keyboard.press('f');

    // t, the tag "wrong arguments", then its severity: 2 (major).
    const tags = (await project()).settings.errorTags;
    await page.keyboard.press('t');
    await page.getByTestId('tag-picker').waitFor();
    for (let n = 0; n < tags.indexOf('wrong arguments'); n++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('severity-prompt').waitFor();
    await page.keyboard.press('2');
    await expect.poll(() => page.getByTestId('tag-picker').count()).toBe(0);
    await expect.poll(() => turn(2).getByTestId('step-severity').getAttribute('data-severity')).toBe('major');

    // c: the corrected calls, the turn's own to start from; arguments that are not JSON are said as they are typed, and refused.
    await page.keyboard.press('c');
    const editor = page.getByTestId('call-editor');
    await editor.waitFor();
    expect(await page.getByTestId('call-name').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['edit_file', 'read_file']);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{"path": "config.yml", "text": "port: 8080"');
    await expect.poll(() => page.getByTestId('call-editor-error').innerText()).toMatch(/Call 1’s arguments are not JSON at line 1, column \d+/);
    expect(await editor.getAttribute('data-valid')).toBe('false');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('call-editor-error').innerText()).toMatch(/^Not saved\./);
    await page.keyboard.type('}');
    await expect.poll(() => editor.getAttribute('data-valid')).toBe('true');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('call-editor').count()).toBe(0);
    // On turn 2, c then Esc with the call as it was: a correction that corrects nothing is none.
    await page.keyboard.press('k');
    await expect.poll(current).toBe(1);
    await page.keyboard.press('c');
    await editor.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('call-editor').count()).toBe(0);
    await page.keyboard.press('j');
    await expect.poll(current).toBe(2);

    // w: the coder's turn 3 decided the failure; o o o: the task failed.
    await page.keyboard.press('w');
    await turn(2).getByTestId('turn-attribution').waitFor();
    for (const key of ['o', 'o', 'o']) await page.keyboard.press(key);
    await expect.poll(() => page.getByTestId('steps-outcome').getAttribute('data-value')).toBe('failure');
    await allSaved();

    await expect
      .poll(body, { timeout: 10_000 })
      .toMatchObject({
        steps: { A: [1, 1, -1, null] },
        first_error: { A: 2 },
        tool_verdicts: { A: { '1': { call_1: 'correct' }, '2': { call_2: 'wrong', call_3: 'unnecessary' } } },
        step_tags: { A: { '2': ['wrong arguments'] } },
        step_severity: { A: { '2': 'major' } },
        corrections: {
          A: {
            '2': {
              tool_calls: [
                { id: 'call_2', name: 'edit_file', arguments: { path: 'config.yml', text: 'port: 8080' } },
                { id: 'call_3', name: 'read_file', arguments: { path: 'config.yml' } },
              ],
            },
          },
        },
        attribution: { A: { agent: 'coder', step: 2 } },
        outcome: { A: 'failure' },
      });
    expect(Object.keys(((await body()).corrections as Record<string, object>).A!)).toEqual(['2']);
    expect(problems).toEqual([]);
  });

  it('shows a τ-bench reward as the file’s task outcome beside the annotator’s own', async () => {
    await go(`#/p/${encodeURIComponent(PROJECT)}/datasets`);
    await importViaUi(page, join(ROOT, 'test', 'fixtures', 'formats', 'trajectories', 'tau-bench.json'));
    const { rows } = await host.api<{ rows: { id: number; externalId: string | null }[] }>('listItems', { project: PROJECT, limit: 100 });
    const tau = rows.find((r) => r.id !== itemId)!;
    await go(`#/p/${encodeURIComponent(PROJECT)}/steps/item/${tau.id}/r/0`);
    await expect.poll(() => page.getByTestId('steps-screen').getAttribute('data-item-id')).toBe(String(tau.id));
    const file = page.getByTestId('steps-file-outcome');
    await file.waitFor();
    expect(['success', 'partial', 'failure']).toContain(await file.getAttribute('data-value'));
    expect(await page.getByTestId('steps-verdict').innerText()).toMatch(/Task outcome[\s\S]*The file says/);
    // The annotator's own outcome starts empty: the file's is shown, never taken.
    expect(await page.getByTestId('steps-outcome').getAttribute('data-value')).toBe('');
    expect(problems).toEqual([]);
  });
});
