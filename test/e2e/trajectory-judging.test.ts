// Judging an agent trajectory from the keyboard (issue 14): the Step labels panel adds the "General
// agent" and "Tool use" tag presets; on the step screen a tag takes a severity, each tool call a verdict,
// a tool-call turn a corrected call whose arguments are checked as JSON as they are typed, a multi-agent
// trajectory the agent and turn that decided the failure, and `o` the task outcome success / partial /
// failure. Everything is checked through the API.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, startHost, writeJsonl, type Host } from './helpers';

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
const ITEMS = [{ id: 'traj', prompt: 'Change the server port to 8080 in config.yml.', responses: [{ text: MESSAGES }] }];

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
  await expect.poll(() => page.evaluate(() => localStorage.getItem('arbiter.pendingSteps')), { timeout: 10_000 }).toBeNull();
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
  it('adds the "Tool use" and "General agent" tag presets from the Step labels panel', async () => {
    await go(`#/p/${encodeURIComponent(PROJECT)}/datasets`);
    const tool = page.locator('[data-testid="tag-preset"][data-preset="Tool use"]');
    await tool.waitFor();
    await tool.click();
    await page.locator('[data-testid="error-tag"][data-tag="wrong arguments"]').waitFor();
    await expect.poll(async () => (await project()).settings.errorTags).toEqual(expect.arrayContaining(['wrong tool', 'wrong arguments', 'wrong order', 'hallucinated result', 'ignored error', 'unsafe action']));
    expect(await page.getByTestId('tag-preset-notice').innerText()).toMatch(/Added 10 tags from “Tool use”/);
    await page.locator('[data-testid="tag-preset"][data-preset="General agent"]').click();
    await expect.poll(async () => (await project()).settings.errorTags).toEqual(expect.arrayContaining(['goal deviation', 'premature stop', 'repeated action']));
    // "unsafe action" is in both: added once.
    expect((await project()).settings.errorTags.filter((t) => t === 'unsafe action')).toHaveLength(1);
    await tool.click();
    await expect.poll(() => page.getByTestId('tag-preset-notice').innerText()).toMatch(/Every tag of “Tool use” is in the list already/);
    expect(problems).toEqual([]);
  });
});
