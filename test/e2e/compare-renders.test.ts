// What renders after a key on the compare screen (issue 20, key → next item in one frame), counted in
// Chromium on the production build (renderCounts.ts): the key's own render draws the next pair; the save's
// answer and the header's count read again after it draw nothing that did not change.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';
import { countRenders, renders, resetRenders } from './renderCounts';

const PROJECT = 'renders';
const ITEMS = Array.from({ length: 6 }, (_, i) => ({
  id: `pair-${i}`,
  prompt: `Question ${i}: which **answer** is kinder?`,
  responses: [{ text: `Yes ${i}, with $x^${i}$.` }, { text: `No ${i}.` }],
}));

let host: Host;
let browser: Browser;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  await host.api('importContent', { project: PROJECT, fileName: 'renders.jsonl', content: ITEMS.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true });
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/** The compare screen with the counting hook in place, the first pair on screen and the next one asked. */
async function openCounted(annotator: string): Promise<Page> {
  const { page } = await openApp(browser, host, { annotator });
  // The hook goes in before the app's script: the page is loaded again with it.
  await countRenders(page.context());
  await page.reload();
  await page.getByTestId('header').waitFor();
  const asked = page.waitForResponse((r) => r.url().endsWith('/api/nextItem') && (r.request().postData() ?? '').includes('afterSeq'));
  await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}`), PROJECT);
  await page.getByTestId('response-body-left').waitFor();
  await expect.poll(() => page.getByTestId('progress').innerText()).toMatch(/^0\s*\/\s*6 labeled/);
  await (await asked).finished();
  return page;
}

/** Presses a key that labels the pair, then waits for its save's answer and the header's counters read again after it. */
async function labelAndSettle(page: Page, key: string) {
  const from = await page.getByTestId('compare').getAttribute('data-item-id');
  const reread = page.waitForResponse((r) => r.url().endsWith('/api/progress'));
  await page.keyboard.press(key);
  await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).not.toBe(from);
  await expect.poll(() => page.getByTestId('status-text').getAttribute('data-state')).toBe('saved');
  await (await reread).finished();
  // The answer's render, if any, is committed by the next frame.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

describe('renders after a key on the compare screen', () => {
  it('renders the header once for the count and its screen tabs not at all; the columns\' shell readers once', async () => {
    const page = await openCounted('e2e-renders-header');
    await resetRenders(page);
    await labelAndSettle(page, '1');
    await expect.poll(() => page.getByTestId('progress').innerText()).toMatch(/^1\s*\/\s*6 labeled/);
    const counted = await renders(page);
    // The count moves at the key (one render); the counters read back say the same, which renders nothing.
    // The tabs (nine buttons with their keys) have the same route, project and shell: no render. Readers of
    // the shell inside the memoised columns (the steps links): the new item's render only, not the count's.
    const { header, 'tab-compare': tabs = 0, 'open-steps-left': left, 'open-steps-right': right } = counted;
    expect({ header, tabs, left, right }).toEqual({ header: 1, tabs: 0, left: 1, right: 1 });
    await page.context().close();
  });

  it('draws the item bar and the prompt once, for the new pair: not again for the save\'s answer', async () => {
    const page = await openCounted('e2e-renders-panels');
    for (const key of ['1', '2']) {
      await resetRenders(page);
      await labelAndSettle(page, key);
      const counted = await renders(page);
      // The key draws the new pair; the save's answer changes the decision bar's line (a second render of it) and nothing above.
      expect({ bar: counted['item-bar'], prompt: counted['prompt'], decisionAgain: (counted['decision-bar'] ?? 0) >= 2 }).toEqual({ bar: 1, prompt: 1, decisionAgain: true });
    }
    await page.context().close();
  });
});
