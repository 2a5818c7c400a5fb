// Steps over a figure (VisualProcessBench's kind of item): a question about a chart, asked with the
// image, answered in a chain of steps. The step screen shows the figure in the prompt (loaded from the
// image route, never the network), zooms it with z, and the chain is rated from the keyboard as any
// chain is: +1, 0, first error; the revision is the same step label text chains get.
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'e2e figure steps';
const ANNOTATOR = 'e2e-figure';
const CHAIN = ['Step 1: The tallest bar is Apples, at 42 crates.', 'Step 2: The second tallest is Pears, at 35 crates.', 'Step 3: So Apples sold 42 − 35 = 9 more.'];

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
let itemId = 0;
const outside: string[] = [];

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  // A 240 × 160 chart-like PNG: three bars on white.
  const bars = [
    { left: 30, height: 120 },
    { left: 100, height: 100 },
    { left: 170, height: 60 },
  ];
  const chart = await sharp({ create: { width: 240, height: 160, channels: 3, background: '#ffffff' } })
    .composite(bars.map((b) => ({ input: { create: { width: 40, height: b.height, channels: 3 as const, background: '#3b6fb6' } }, left: b.left, top: 160 - b.height })))
    .png()
    .toBuffer();
  const item = {
    id: 'chart-steps',
    prompt: [{ role: 'user', content: [{ type: 'image', image: `data:image/png;base64,${chart.toString('base64')}` }, { type: 'text', text: 'How many more crates of the best seller than of the second?' }] }],
    responses: [{ text: CHAIN.join('\n'), model: 'vlm-chain' }],
  };
  await host.api('importContent', { project: PROJECT, fileName: 'figure.jsonl', content: `${JSON.stringify(item)}\n`, format: 'arbiter', createProject: true });
  const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT, limit: 10 });
  itemId = rows[0]!.id;
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(host.origin) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('steps over a figure', () => {
  it('shows the chart in the prompt, zooms it, and rates the chain by keyboard: +1, 0, first error at step 3', async () => {
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/steps/item/${itemId}`);
    await page.getByTestId('step-list').waitFor();
    expect(await page.getByTestId('step').count()).toBe(3);
    const figure = page.locator('[data-testid="steps-prompt"] [data-testid="image-view"]');
    await figure.waitFor();
    const img = figure.locator('img');
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBe(240);
    expect(await figure.getAttribute('title')).toMatch(/^240 × 160 PNG/);
    expect(await page.getByTestId('steps-prompt').innerText()).toContain('How many more crates');

    // z zooms the figure and Escape gives the keys back to the chain.
    await page.keyboard.press('z');
    await page.getByTestId('image-zoom').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('image-zoom').count()).toBe(0);

    for (const key of ['=', '0', 'f']) await page.keyboard.press(key);
    await expect.poll(() => page.getByTestId('rating-chip').evaluateAll((chips) => chips.map((c) => c.getAttribute('data-rating')))).toEqual(['1', '0', '-1']);
    await expect.poll(() => page.getByTestId('status-text').getAttribute('data-state'), { timeout: 10_000 }).toBe('saved');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('arbiter.pendingJudgements')), { timeout: 10_000 }).toBeNull();

    const view = await host.api<{ judgements: Record<number, { ratings: (number | null)[]; firstError: number | null }>; label: { body: Record<string, unknown> } | null }>('getSteps', {
      project: PROJECT,
      annotator: ANNOTATOR,
      itemId,
    });
    expect(view.judgements[0]).toMatchObject({ ratings: [1, 0, -1], firstError: 2 });
    expect(view.label?.body).toMatchObject({ steps: { A: [1, 0, -1] }, first_error: { A: 2 } });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
