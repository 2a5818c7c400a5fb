// A tool-calling pair on Compare (issue 20, items 14 and 23): the diff view (w) marks the tool calls'
// names and arguments too (the arguments pretty-printed, one a line), so two runs that differ only in an
// argument swap show the swap; and the tools the runs were given are shown under the prompt, folded to
// their names, their schemas unfolded (and beside the task on the step screen). With ARBITER_SHOTS=1
// it writes docs/screenshots/compare-tools-diff-{light,dark}.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

const PROJECT = 'tool pairs';
const ANNOTATOR = 'e2e-tools';
const TOOLS = [
  { type: 'function', function: { name: 'transfer', description: 'Move money between accounts.', parameters: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' }, amount: { type: 'number' } }, required: ['from', 'to', 'amount'] } } },
  { type: 'function', function: { name: 'balance', description: 'An account’s balance.', parameters: { type: 'object', properties: { account: { type: 'string' } } } } },
];
const run = (from: string, to: string) => [
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'transfer', arguments: JSON.stringify({ from, to, amount: 5 }) } }] },
  { role: 'tool', tool_call_id: 'call_1', name: 'transfer', content: 'ok' },
  { role: 'assistant', content: 'Sent the money.' },
];
const PAIR = { id: 'swap', prompt: [{ role: 'user', content: 'Send $5 from alice to bob.' }], chosen: run('alice', 'bob'), rejected: run('bob', 'alice'), tools: TOOLS };

let host: Host;
let browser: Browser;
let itemId = 0;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  await host.api('importContent', { project: PROJECT, fileName: 'pairs.jsonl', content: JSON.stringify(PAIR) + '\n', format: 'openai-tools', createProject: true });
  const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT, limit: 10 });
  itemId = rows[0]!.id;
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function openPair(page: Page) {
  await page.evaluate(([p, id]) => (location.hash = `#/p/${encodeURIComponent(p)}/item/${id}`), [PROJECT, String(itemId)] as const);
  await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(itemId));
  await page.getByTestId('response-body-left').waitFor();
}

describe('a tool-calling pair on Compare', () => {
  it('w marks the argument swap in the tool calls, with the tool names in the text', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR });
    await openPair(page);
    await page.keyboard.press('w');
    await page.getByTestId('diff-left').waitFor();
    for (const side of ['left', 'right'] as const) {
      const text = await page.getByTestId(`diff-${side}`).evaluate((el) => el.textContent ?? '');
      expect(text).toContain('transfer({');
      expect(text).toMatch(/"amount": 5/);
      expect(text).toContain('Sent the money.');
      const marked = (await page.getByTestId(`diff-${side}`).getByTestId('diff-only').allInnerTexts()).join(' ');
      expect(marked).toMatch(/alice/);
      expect(marked).toMatch(/bob/);
      expect(marked).not.toMatch(/amount|transfer|Sent/);
    }
    expect(await page.getByTestId('diff-count-left').innerText()).toMatch(/^2 words only here/);
    await page.keyboard.press('w');
    await expect.poll(() => page.getByTestId('diff-left').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the tools the runs were given under the prompt, folded to their names', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR });
    await openPair(page);
    const tools = page.getByTestId('prompt').getByTestId('tools-schema');
    await tools.waitFor();
    expect(await tools.innerText()).toMatch(/Tools · 2\s+transfer, balance/);
    expect(await page.getByTestId('tools-json').count()).toBe(0);
    await tools.getByTestId('tools-toggle').click();
    const json = await page.getByTestId('tools-json').innerText();
    expect(json).toContain('"description": "Move money between accounts."');
    expect(json).toContain('"required": ["from", "to", "amount"]');
    await tools.getByTestId('tools-toggle').click();
    await expect.poll(() => page.getByTestId('tools-json').count()).toBe(0);
    // The prompt's money is money.
    expect(await page.getByTestId('prompt-body').innerText()).toContain('Send $5 from alice to bob.');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows the same tools beside the task on the step screen', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR });
    await page.evaluate(([p, id]) => (location.hash = `#/p/${encodeURIComponent(p)}/steps/item/${id}/r/1`), [PROJECT, String(itemId)] as const);
    const tools = page.getByTestId('steps-context').getByTestId('tools-schema');
    await tools.waitFor();
    expect(await tools.innerText()).toMatch(/Tools · 2\s+transfer, balance/);
    await tools.getByTestId('tools-toggle').click();
    expect(await page.getByTestId('tools-json').innerText()).toContain('"name": "balance"');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.runIf(process.env.ARBITER_SHOTS === '1')('screenshots: the diff of a tool-calling pair with its tools unfolded, light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { page } = await openApp(browser, host, { annotator: `${ANNOTATOR}-${theme}`, height: 760, theme });
      await openPair(page);
      await page.getByTestId('prompt').getByTestId('tools-toggle').click();
      await page.keyboard.press('w');
      await page.getByTestId('diff-left').waitFor();
      await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `compare-tools-diff-${theme}.png`) });
      await page.keyboard.press('w');
      await page.context().close();
    }
  });
});
