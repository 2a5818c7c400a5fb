// Reading an agent trajectory (issue 14): a SWE-agent-style .traj imported through the UI opens on the
// step screen as turn cards: each turn's kinds by icon and word, tool calls by name with their arguments,
// a 240-line result folded with its size and unfolded / folded again by `x`, a str_replace edit as a red /
// green diff, terminal output with its ANSI colours rendered (no escape codes, no HTML), a non-zero exit
// marked as an error; the task pinned beside the turns; the minimap reflecting ratings and the first error
// as they are made from the keyboard. Then two tool-calling runs of one task side by side on the compare
// screen, drawn with the same cards, with the pairwise keys.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, startHost, writeJsonl, type Host } from './helpers';

const PROJECT = 'e2e trajectories';
const LONG = Array.from({ length: 240 }, (_, i) => `${String(i + 1).padStart(4)}:    value_${i} = compute(${i})  # line ${i + 1}`).join('\n');
const ESC = '\u001b';
const STEPS = [
  { thought: 'Find the file that defines TimeDelta.', action: 'find_file "fields.py" src', observation: 'Found 1 matches for "fields.py" in /repo/src:\n/repo/src/marshmallow/fields.py' },
  { thought: 'Read the whole file.', action: 'cat src/marshmallow/fields.py', observation: LONG },
  { thought: 'List the tests.', action: 'ls --color=always tests', observation: `${ESC}[1;34mtests${ESC}[0m\n${ESC}[32mtest_fields.py${ESC}[0m\n<img src=x onerror="window.__pwned=1">` },
  {
    thought: 'Round instead of truncating.',
    action: "str_replace_editor str_replace /repo/src/marshmallow/fields.py --old_str '        return int(value.total_seconds() / base_unit.total_seconds())' --new_str '        return int(round(value.total_seconds() / base_unit.total_seconds()))'",
    observation: 'The file /repo/src/marshmallow/fields.py has been edited.',
  },
  { thought: 'Run the reproduction script.', action: 'python reproduce.py', observation: 'Traceback (most recent call last):\n  File "reproduce.py", line 3, in <module>\nNameError: name \'td\' is not defined\n[Command finished with exit code 1]' },
  { thought: 'Submit the fix.', action: 'submit', observation: 'diff --git a/src/marshmallow/fields.py b/src/marshmallow/fields.py' },
];
const TRAJ = {
  environment: 'swe_main',
  trajectory: STEPS.map((s) => ({ ...s, response: `${s.thought}\n\n\`\`\`\n${s.action}\n\`\`\``, state: {}, execution_time: 0.1 })),
  history: [
    { role: 'system', content: 'SETTING: You are an autonomous programmer working in a repository.', agent: 'main', message_type: 'system_prompt' },
    { role: 'user', content: 'TimeDelta serialization precision: 345 ms serializes as 344. Fix it.', agent: 'main', message_type: 'observation' },
  ],
  info: { exit_status: 'submitted', submission: 'diff --git a/src/marshmallow/fields.py b/src/marshmallow/fields.py' },
};
const call = (name: string, args: object) => ({ role: 'assistant', content: null, tool_calls: [{ id: `call_${name}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] });
const PAIR = {
  prompt: [{ role: 'user', content: 'What is the weather in Paris, in celsius?' }],
  chosen: [call('get_weather', { location: 'Paris, France', unit: 'celsius' }), { role: 'tool', tool_call_id: 'call_get_weather', content: '{"temperature": 14, "conditions": "rain"}' }, { role: 'assistant', content: 'It is 14 °C and raining in Paris.' }],
  rejected: [call('get_weather', { location: 'Paris, Texas', unit: 'fahrenheit' }), { role: 'tool', tool_call_id: 'call_get_weather', content: '{"temperature": 71, "conditions": "sunny"}' }, { role: 'assistant', content: 'It is 71 °F and sunny.' }],
};

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

const turn = (i: number) => page.locator(`[data-testid="step"][data-index="${i}"]`);
const kinds = (i: number) => turn(i).getByTestId('turn-kind').allInnerTexts().then((t) => t.map((s) => s.replace(/\s+/g, ' ')));
const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: 'e2e-reader', height: 1000 }));
  await createProjectViaUi(page, PROJECT);
  const traj = join(host.home, 'run.traj');
  writeFileSync(traj, JSON.stringify(TRAJ));
  await importViaUi(page, traj);
  expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 1 new item/);
  await importViaUi(page, writeJsonl(host.home, 'pair.jsonl', [PAIR]));
  expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 1 new item/);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('reading a trajectory', () => {
  it('shows each turn as a card: kinds, tool calls, a folded long result (x), a diff, a terminal block, errors, the task pinned, the minimap', async () => {
    await go(`#/p/${encodeURIComponent(PROJECT)}/steps`);
    await page.getByTestId('turn-card').first().waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('step').count()).toBe(6);
    // Kinds at a glance: an icon and a word for each.
    expect(await turn(0).getByTestId('turn-card').getAttribute('data-kinds')).toBe('thought tool_call tool_result');
    expect(await kinds(0)).toEqual(['◇ thought', '⚙ tool call', '↳ tool result']);
    expect(await turn(0).getByTestId('tool-name').innerText()).toBe('find_file');
    expect(await turn(0).getByTestId('call-command').innerText()).toContain('$ find_file "fields.py" src');
    // The task stays beside the turns.
    expect(await page.getByTestId('steps-prompt').innerText()).toContain('345 ms serializes as 344');

    // x on a turn with nothing long says so.
    await page.keyboard.press('x');
    await expect.poll(() => page.getByTestId('status-text').innerText()).toContain('Turn 1 shows everything already');
    // A trajectory's steps are its turns: s (split) and m (merge) say so and change nothing.
    await page.keyboard.press('s');
    await expect.poll(() => page.getByTestId('status-text').innerText()).toContain('a turn cannot be split');
    await page.keyboard.press('m');
    await expect.poll(() => page.getByTestId('status-text').innerText()).toContain('two turns cannot be merged');
    // A long result: folded to a few lines with its size; x unfolds and folds again.
    const long = turn(1).getByTestId('result-body');
    expect(await long.getAttribute('data-folded')).toBe('true');
    expect(await long.getByTestId('fold-size').innerText()).toMatch(/^\d+\.\d kB, 240 lines$/);
    expect((await long.locator('pre').innerText()).split('\n').length).toBeLessThanOrEqual(6);
    await page.keyboard.press('j');
    await expect.poll(() => page.locator('[data-testid="step"][data-current="true"]').getAttribute('data-index')).toBe('1');
    await page.keyboard.press('x');
    await expect.poll(() => long.getAttribute('data-folded')).toBe('false');
    expect(await long.locator('pre').innerText()).toContain('line 240');
    await page.keyboard.press('x');
    await expect.poll(() => long.getAttribute('data-folded')).toBe('true');

    // Terminal output: a dark monospace block, ANSI colours as classes, no escape codes and no HTML.
    const listing = turn(2).getByTestId('turn-result');
    expect(await listing.getAttribute('data-terminal')).toBe('true');
    const text = await listing.locator('pre').innerText();
    expect(text).toContain('test_fields.py');
    expect(text).not.toContain(ESC);
    expect(text).toContain('<img src=x');
    expect(await listing.locator('pre span.text-green-400').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="step-list"] img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

    // A code edit: a red / green diff.
    const diff = turn(3).getByTestId('edit-diff');
    expect(await diff.getByTestId('diff-line-removed').allInnerTexts()).toEqual([expect.stringContaining('return int(value.total_seconds()')]);
    expect(await diff.getByTestId('diff-line-added').allInnerTexts()).toEqual([expect.stringContaining('return int(round(value.total_seconds()')]);

    // A failing command: the result marked as an error with its exit code, the turn too.
    expect(await turn(4).getByTestId('turn-result').getAttribute('data-error')).toBe('true');
    expect(await turn(4).getByTestId('exit-code').innerText()).toBe('exit 1');
    expect(await kinds(4)).toContain('⚠ error');

    // The minimap: one bar per turn, the rating of each as it is made, the first error, the current turn.
    const bars = page.getByTestId('minimap-turn');
    expect(await bars.count()).toBe(6);
    expect(await bars.evaluateAll((els) => els.map((e) => e.getAttribute('data-rating')))).toEqual(Array(6).fill('unrated'));
    expect(await bars.nth(4).getAttribute('data-tool-error')).toBe('true');
    await page.keyboard.press('k');
    for (let i = 0; i < 4; i++) await page.keyboard.press('=');
    await expect.poll(() => bars.evaluateAll((els) => els.map((e) => e.getAttribute('data-rating')))).toEqual(['1', '1', '1', '1', 'unrated', 'unrated']);
    expect(await bars.nth(4).getAttribute('data-current')).toBe('true');
    await page.keyboard.press('f');
    await expect.poll(() => bars.nth(4).getAttribute('data-first-error')).toBe('true');
    expect(await bars.evaluateAll((els) => els.map((e) => e.getAttribute('data-rating')))).toEqual(['1', '1', '1', '1', '-1', 'none']);
    expect(await bars.nth(4).getAttribute('title')).toBe('Turn 5: first error, a tool error');
    expect(await page.getByTestId('steps-progress').innerText()).toBe('5 of 5 turns rated · first error: turn 5');
    expect(await turn(4).getByTestId('first-error-rule').innerText()).toContain('First error: turn 5');
    // A click on the map goes to the turn.
    await bars.nth(1).click();
    await expect.poll(() => page.locator('[data-testid="step"][data-current="true"]').getAttribute('data-index')).toBe('1');
    expect(problems).toEqual([]);
  });

  it('puts two runs of one task side by side on the compare screen, with the same cards and the pairwise keys', async () => {
    await go(`#/p/${encodeURIComponent(PROJECT)}/compare`);
    for (const side of ['left', 'right'] as const) await page.getByTestId(`response-${side}`).getByTestId('turn-card').first().waitFor({ timeout: 15_000 });
    const names = await Promise.all(['left', 'right'].map((side) => page.getByTestId(`response-${side}`).getByTestId('call-args').innerText()));
    expect(names.sort()).toEqual([expect.stringContaining('"Paris, France"'), expect.stringContaining('"Paris, Texas"')]);
    for (const side of ['left', 'right'] as const) expect(await page.getByTestId(`response-${side}`).getByTestId('turn-card').count()).toBe(2);
    await page.keyboard.press('1');
    await expect.poll(() => page.getByTestId('status-text').innerText()).toMatch(/Left better — saved/);
    expect(problems).toEqual([]);
  });
});
