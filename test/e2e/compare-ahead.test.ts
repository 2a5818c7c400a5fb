// The compare screen asks two items ahead (issue 20, key → next item at 1M items): the next pair is asked
// once the one on screen is painted, and the pair after it once that answer is in, so a key never waits on
// a host still busy with the last save. With the host's nextItem held back, two keys still move at once;
// then the whole queue is walked, each item shown once, every one labeled.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'ahead';
const ITEMS = Array.from({ length: 7 }, (_, i) => ({ id: `pair-${i}`, prompt: `Question ${i}?`, responses: [{ text: `Yes ${i}.` }, { text: `No ${i}.` }] }));

let host: Host;
let browser: Browser;
const order: string[] = [];

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  await host.api('importContent', { project: PROJECT, fileName: 'ahead.jsonl', content: ITEMS.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true });
  const { rows } = await host.api<{ rows: { id: number; seq: number }[] }>('listItems', { project: PROJECT, limit: 100, order: 'first' });
  order.push(...rows.map((r) => String(r.id)));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('the compare screen asks two items ahead', () => {
  it('shows the next two pairs at their keys while the host holds every nextItem back, then walks the queue once', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: 'e2e-ahead' });
    let asked = 0;
    page.on('response', (r) => {
      if (r.url().endsWith('/api/nextItem') && (r.request().postData() ?? '').includes('afterSeq')) asked++;
    });
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}`), PROJECT);
    const screen = page.getByTestId('compare');
    await expect.poll(() => screen.getAttribute('data-item-id')).toBe(order[0]);
    // The first look, then the pair after this one and the one after that, have answered.
    await expect.poll(() => asked, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => (release = done));
    let heldAsks = 0;
    await page.route('**/api/nextItem', async (route) => {
      heldAsks++;
      await held;
      await route.continue();
    });
    const seen = [order[0]];
    for (const want of [order[1], order[2]]) {
      await page.keyboard.press('1');
      await expect.poll(() => screen.getAttribute('data-item-id'), { timeout: 1500 }).toBe(want);
      seen.push(want);
    }
    // The page did ask on (for the pair after the second); those answers wait for the release.
    expect(heldAsks).toBeGreaterThan(0);
    release(); // later asks pass straight through
    for (;;) {
      const now = await screen.getAttribute('data-item-id');
      if (!now) break;
      await page.keyboard.press('2');
      await expect.poll(async () => (await screen.getAttribute('data-item-id')) !== now, { timeout: 5000 }).toBe(true);
      const next = await screen.getAttribute('data-item-id');
      if (next) seen.push(next);
      expect(seen.length).toBeLessThanOrEqual(order.length);
    }
    await page.getByTestId('all-done').waitFor();
    expect(seen).toEqual(order);
    await expect.poll(async () => (await host.api<{ labeledByMe: number }>('progress', { project: PROJECT, annotator: 'e2e-ahead' })).labeledByMe).toBe(order.length);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
