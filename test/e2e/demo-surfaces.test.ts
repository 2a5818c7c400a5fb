// Every screen's header counts a judgement the moment its save lands (issue 20, item 11): on the demo, a
// new annotator's Steps header went from "0 / 8 labeled" to 1 only after a reload, whatever was rated; the
// Verdict and Rank headers count too. Each screen's "Item N of M" numbers the item among the items that
// screen walks (item 22): the demo's last pair is pair 53 of 53, not item 65 of 66. The agreement dashboard
// shows no coefficient on fewer than 10 items and no labels per hour from the clock between saves (item 20).
// The items table shows every task's judgement, counts every task as labeled, offers the filters the
// project's items fit and opens each item on the screen of its shape (item 10).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const ANNOTATOR = 'e2e-counts';
const PROJECT = 'Demo';

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);
const header = () => page.getByTestId('progress').innerText();
const position = () => page.getByTestId('item-position').innerText();

beforeAll(async () => {
  host = await startHost({ demo: true });
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('the header counts', () => {
  it('a step judgement the moment it is saved, without a reload', async () => {
    await go(`#/p/${PROJECT}/steps`);
    await page.getByTestId('step-list').waitFor();
    await expect.poll(header, { timeout: 10_000 }).toMatch(/^0 \/ 8 labeled/);
    for (const key of ['=', '=', 'f']) await page.keyboard.press(key);
    await expect.poll(() => page.getByTestId('status-text').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
    await expect.poll(header, { timeout: 5_000 }).toMatch(/^1 \/ 8 labeled/);
  });

  it('a verdict and a ranking as they are saved', async () => {
    await go(`#/p/${PROJECT}/verdict`);
    await expect.poll(header, { timeout: 10_000 }).toMatch(/^0 \/ 8 labeled/);
    const verdictScreen = page.locator('[data-testid="verdict-screen"]:not([data-item-id=""])');
    await verdictScreen.waitFor();
    const judged = await verdictScreen.getAttribute('data-item-id');
    await page.keyboard.press('1');
    await expect.poll(header, { timeout: 5_000 }).toMatch(/^1 \/ 8 labeled/);
    expect(judged).not.toBe('');
    // Left at once, while the screen goes on to the next single response: its address must not come back.

    await go(`#/p/${PROJECT}/rank`);
    await expect.poll(header, { timeout: 10_000 }).toMatch(/^0 \/ 5 labeled/);
    await page.locator('[data-testid="ranking-screen"]:not([data-item-id=""])').waitFor();
    for (const key of ['1', '2', '3']) await page.keyboard.press(key);
    await page.keyboard.press('Enter');
    await expect.poll(header, { timeout: 5_000 }).toMatch(/^1 \/ 5 labeled/);
    expect(problems).toEqual([]);
  });

  it("numbers an item among the items of its screen, as the header's total does", async () => {
    const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 1000 });
    const id = (external: string) => rows.find((r) => r.externalId === external)!.id;
    // The demo's last pair, its last ranking, its second single answer, its first chain: file items 65, 66, 62, 55.
    const cases = [
      [`#/p/${PROJECT}/item/${id('demo-t2i-2')}`, 'Item 53 of 53', /\/ 53 labeled/],
      [`#/p/${PROJECT}/rank/item/${id('demo-t2i-rank')}`, 'Item 5 of 5', /\/ 5 labeled/],
      [`#/p/${PROJECT}/verdict/item/${id('demo-single-2')}`, 'Item 8 of 8', /\/ 8 labeled/],
      [`#/p/${PROJECT}/steps/item/${id('demo-chain-1')}`, 'Item 1 of 8', /\/ 8 labeled/],
    ] as const;
    for (const [hash, words, total] of cases) {
      await go(hash);
      await expect.poll(position, { timeout: 10_000 }).toBe(words);
      await expect.poll(header, { timeout: 5_000 }).toMatch(total);
    }
  });

  it('the dashboard says "not enough data" under its minimum n, and no rate from the clock between saves', async () => {
    await go(`#/p/${PROJECT}/review/agreement`);
    await page.getByTestId('dashboard').waitFor({ timeout: 20_000 });
    // Ana and ben share one verdict: no κ of 0.00 or −1.00, no 0% bar, but the reason.
    const verdictRow = page.getByTestId('fields-table').locator('tr', { hasText: 'Verdict' });
    expect(await verdictRow.innerText()).not.toMatch(/[−-]1\.00|0\.00/);
    expect(await verdictRow.getByTestId('not-enough').count()).toBe(3);
    expect(await verdictRow.getByTestId('not-enough').first().getAttribute('title')).toBe('not enough data: 1 item (10 needed)');
    const bars = await page.locator('[data-chart="fields"] .recharts-label-list text').allTextContents();
    expect(bars).toContain('not enough data: 1 item (10 needed)');
    // Ten shared pairs are enough: the choice keeps its figures.
    expect(await page.getByTestId('fields-table').locator('tr', { hasText: 'Choice' }).getByTestId('not-enough').count()).toBe(0);
    // The demo's labels record no time spent: no rate (it was 553,846 an hour from saves milliseconds apart).
    const people = await page.getByTestId('people-table').innerText();
    expect(people).not.toMatch(/\d{3},?\d{3}/);
    expect(problems).toEqual([]);
  });

  it('the items table shows each task’s judgement, counts it as labeled, and opens the item on its screen', async () => {
    await go(`#/p/${PROJECT}/datasets`);
    await page.getByTestId('items-table').waitFor();
    expect(await page.getByTestId('items-filter').locator('option').allTextContents()).toContain('You chose A');
    await page.getByTestId('items-filter').selectOption('labeled');
    // This annotator ranked demo-rank-1, and judged demo-chain-1's steps and gave it a verdict (the tests above).
    await expect.poll(() => page.getByTestId('item-row').count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => page.getByTestId('items-count').innerText()).toMatch(/^2 of 66 · labeled by you/);
    const mine = await page.getByTestId('item-mine').allInnerTexts();
    expect(mine[0]).toMatch(/^[A-D] > [A-D] > [A-D] > [A-D]$/);
    expect(mine[1]).toBe('first error at 3 · good');
    // Enter opens the ranking on Rank, and the chain on Steps.
    await page.getByTestId('items-scroller').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/\/rank\/item\/\d+$/);
    await page.locator('[data-testid="ranking-screen"]:not([data-item-id=""])').waitFor();
    await go(`#/p/${PROJECT}/datasets`);
    await expect.poll(() => page.getByTestId('item-row').count(), { timeout: 10_000 }).toBe(2);
    await page.getByTestId('items-scroller').focus();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/\/steps\/item\/\d+$/);
    await page.getByTestId('step-list').waitFor();

    // A ranking's address on Compare (an old link, a typed one) opens it on Rank, in place of Compare's.
    const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 1000 });
    const rankId = rows.find((r) => r.externalId === 'demo-rank-2')!.id;
    await go(`#/p/${PROJECT}/item/${rankId}`);
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 10_000 }).toBe(`#/p/${PROJECT}/rank/item/${rankId}`);
    await page.locator(`[data-testid="ranking-screen"][data-item-id="${rankId}"]`).waitFor();

    // A project of single responses is offered no choice filters and no "model disagrees".
    const lines = [1, 2].map((k) => JSON.stringify({ id: `s${k}`, prompt: `q${k}`, responses: [{ text: `answer ${k}` }] })).join('\n');
    await host.api('importContent', { project: 'singles', fileName: 's.jsonl', content: lines, createProject: true });
    await go('#/p/singles/datasets');
    await expect.poll(() => page.getByTestId('item-row').count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => page.getByTestId('items-filter').locator('option').allTextContents()).toEqual(['All items', 'Not labeled by you', 'Labeled by you']);
    expect(problems).toEqual([]);
  });
});
