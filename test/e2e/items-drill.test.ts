// Drill-down from the demo's model figures: a model's accuracy opens the items it got wrong, a calibration
// dot the items in its band of P(A better). (items-explorer.test.ts covers κ, tiles, bars and tags.)
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
