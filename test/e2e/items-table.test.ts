// The items table from the keyboard: f picks a filter (↓, Enter back to the table), j / k and the arrows
// move, Enter opens the item on the compare screen; back on the Datasets screen the filter is as left.
// A / B mean source order there; Left / Right never appear.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, startHost, writeJsonl, type Host } from './helpers';

const ANNOTATOR = 'e2e-table';
const PROJECT = 'e2e table';
const PAIRS = Array.from({ length: 12 }, (_, i) => ({ id: `t-${i + 1}`, prompt: `Question ${i + 1}: what is ${i + 1} squared?`, chosen: `${(i + 1) ** 2}.`, rejected: `${(i + 1) * 2}.` }));

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

const selectedNumber = async () => (await page.locator('[data-testid="item-row"][data-selected="true"] span').first().innerText()).trim();

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('the items table by keyboard', () => {
  it('lists an imported file, then filters to what you have not labeled', async () => {
    await createProjectViaUi(page, PROJECT);
    await importViaUi(page, writeJsonl(host.home, 'squares.jsonl', PAIRS));
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(12);
    // Items 1, 2 and 4 get a label of this annotator.
    const { rows } = await host.api<{ rows: { id: number; seq: number }[] }>('listItems', { project: PROJECT });
    for (const seq of [0, 1, 3]) await host.api('saveLabel', { project: PROJECT, annotator: ANNOTATOR, itemId: rows[seq]!.id, choice: 'A', shownOrder: [0, 1] });
    await page.reload();
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(12);
    await expect.poll(() => page.getByTestId('item-mine').first().innerText()).toBe('A');

    await page.keyboard.press('f');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('items-filter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('items-filter').inputValue()).toBe('unlabeled');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('items-scroller');
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(9);
    expect(await page.getByTestId('items-count').innerText()).toBe('9 of 12 · not labeled by you');
    expect(await selectedNumber()).toBe('3');
  });

  it('moves with j / k and the arrows, and Enter opens the item on the compare screen', async () => {
    await page.keyboard.press('j');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('k');
    expect(await selectedNumber()).toBe('5');
    const table = await page.getByTestId('items-table').innerText();
    expect(table).toMatch(/A \/ B: the file’s first \/ second response/);
    expect(table).not.toMatch(/\bLeft\b|\bRight\b/);

    await page.keyboard.press('Enter');
    await page.getByTestId('compare').waitFor();
    await expect.poll(() => page.getByTestId('compare').innerText()).toContain(PAIRS[4]!.prompt);
    const fifth = (await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT, offset: 4, limit: 1 })).rows[0]!.id;
    expect(await page.evaluate(() => location.hash)).toBe(`#/p/${encodeURIComponent(PROJECT)}/item/${fifth}`);
  });

  it('back on the Datasets screen, the filter is as it was left', async () => {
    await page.keyboard.press('d');
    await page.getByTestId('items-table').waitFor();
    expect(await page.getByTestId('items-filter').inputValue()).toBe('unlabeled');
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(9);
    expect(problems).toEqual([]);
  });
});
