// Drill-down from the demo's model figures: a model's accuracy opens the items it got wrong, a calibration
// dot the items in its band of P(A better); the consensus tile the items with a majority to compare,
// agreement over time a week's items, anchoring the items labeled with the pre-label shown or hidden
// (screenshots of those cards, light and dark, to /tmp). (items-explorer.test.ts covers κ, tiles, bars and tags.)
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  host = await startHost({ demo: true });
  browser = await launchBrowser();
  // A teammate labels five of the scored pairs, three with the model's pre-label shown and two blind.
  const scored = await host.api<{ rows: { id: number }[] }>('queryItems', { project: 'Demo', query: 'shape=pair score>=0', facets: false, limit: 5 });
  for (const [i, row] of scored.rows.entries())
    await host.api('saveLabel', { project: 'Demo', annotator: 'zoe', itemId: row.id, choice: 'A', shownOrder: [0, 1], prelabelVisible: i < 3 });
  ({ page, problems } = await openApp(browser, host, { annotator: 'ana', width: 1280, height: 800 }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

const agreement = async () => {
  await page.evaluate(() => (location.hash = '#/p/Demo/review/agreement'));
  await page.getByTestId('models-table').waitFor({ timeout: 30_000 });
};

describe('drill-down from the models’ figures', () => {
  it('opens the items a model got wrong from its accuracy', async () => {
    await agreement();
    const accuracy = page.getByTestId('models-table').locator('tbody tr').first().getByTestId('drill');
    const query = (await accuracy.getAttribute('data-query'))!;
    expect(query).toMatch(/^wrong=/);
    await accuracy.click();
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe(query);
    const { matching } = await host.api<{ matching: number }>('queryItems', { project: 'Demo', query, facets: false, limit: 1 });
    expect(matching).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('explorer-row').count()).toBe(matching);
  });

  it('opens the items in a calibration dot’s band of the model’s score', async () => {
    await agreement();
    await page.locator('[data-chart="calibration"] .recharts-scatter-symbol').first().click();
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toMatch(/^score>=0\.\d+ score<=?[01]\.?\d*$/);
    const query = await page.getByTestId('items-query').inputValue();
    const { matching } = await host.api<{ matching: number }>('queryItems', { project: 'Demo', query, facets: false, limit: 1 });
    expect(matching).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('explorer-row').count()).toBe(matching);
    expect(problems).toEqual([]);
  });
});

/** Clicks a drill link, then: the explorer shows its query and exactly the items the engine matches (some). */
async function opensItsItems(link: ReturnType<Page['getByTestId']>, expected: string | RegExp): Promise<number> {
  const query = (await link.getAttribute('data-query'))!;
  if (typeof expected === 'string') expect(query).toBe(expected);
  else expect(query).toMatch(expected);
  await link.click();
  await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe(query);
  const { matching } = await host.api<{ matching: number }>('queryItems', { project: 'Demo', query, facets: false, limit: 1 });
  expect(matching).toBeGreaterThan(0);
  await expect.poll(() => page.getByTestId('explorer-row').count()).toBe(matching);
  return matching;
}

describe('drill-down from the consensus tile, agreement over time and anchoring', () => {
  it('opens the items whose votes have a majority from the consensus tile: as many as the tile compares', async () => {
    await agreement();
    const tile = page.getByTestId('tile-consensus');
    // "…, n = 24", or, below the minimum, "not enough data: 7 items (10 needed)".
    const said = /n = (\d+)|: (\d+) items/.exec((await tile.textContent()) ?? '');
    const compared = Number(said?.[1] ?? said?.[2]);
    expect(compared).toBeGreaterThan(0);
    expect(await opensItsItems(tile.getByTestId('drill'), 'consensus=A,B,tie,both_bad')).toBe(compared);
  });

  it('opens a week’s items from agreement over time, by its link and by its point', async () => {
    await agreement();
    const week = page.getByTestId('over-time-weeks').getByTestId('drill').last();
    const matching = await opensItsItems(week, /^week=\d{4}-\d{2}-\d{2} labels>=2$/);
    const query = await page.getByTestId('items-query').inputValue();
    await agreement();
    await page.locator('[data-chart="over-time"] .recharts-line-dot').last().click();
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe(query);
    await expect.poll(() => page.getByTestId('explorer-row').count()).toBe(matching);
  });

  it('opens the items labeled with the pre-label shown, hidden, and both from a model’s bars', async () => {
    await agreement();
    const drill = page.getByTestId('anchoring-drill').getByTestId('drill');
    expect(await opensItsItems(drill.first(), 'prelabel=shown')).toBe(3);
    await agreement();
    expect(await opensItsItems(drill.last(), 'prelabel=hidden')).toBe(2);
    await agreement();
    // A model's bar that has a value (one without draws no rectangle to click).
    const bars = page.locator('[data-chart="anchoring"] .recharts-bar-rectangle');
    await bars.first().waitFor({ state: 'attached' });
    let drawn = 0;
    while (((await bars.nth(drawn).boundingBox())?.width ?? 0) < 2) drawn++;
    await bars.nth(drawn).click({ position: { x: 1, y: 5 } }); // its left end: the whisker's line lies across its middle
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe('prelabel=shown,hidden score>=0');
    await expect.poll(() => page.getByTestId('explorer-row').count()).toBe(5);
    expect(problems).toEqual([]);
  });

  it('draws the cards it touched in both themes (screenshots to /tmp)', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const opened = theme === 'light' ? { page, problems } : await openApp(browser, host, { annotator: 'ana', width: 1280, height: 800, theme });
      await opened.page.evaluate(() => (location.hash = '#/p/Demo/review/agreement'));
      await opened.page.getByTestId('anchoring-drill').waitFor({ timeout: 30_000 });
      await opened.page.mouse.move(0, 0); // no tooltip left over from a click
      await opened.page.getByTestId('tile-consensus').locator('..').screenshot({ path: `/tmp/e2e-drill-tiles-${theme}.png` });
      await opened.page.locator('[data-chart="over-time"]').screenshot({ path: `/tmp/e2e-drill-over-time-${theme}.png` });
      await opened.page.locator('[data-chart="anchoring"]').screenshot({ path: `/tmp/e2e-drill-anchoring-${theme}.png` });
      expect(opened.problems).toEqual([]);
    }
  });
});
