// The key that labels a pair shows the next one in ONE commit of the page (bench:loop, issue 20: next item
// at one frame). Before, the item's pre-labels and its ratings and critiques were set in effects after the
// item's commit, each a second (and third) render of the whole screen in the key's frame. React tells a
// DevTools hook of every commit, in a production build too: the page gets a minimal one before it loads.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'one-commit';
let host: Host;
let browser: Browser;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const lines = Array.from({ length: 8 }, (_, i) => ({ prompt: `Question ${i}?`, chosen: `Yes ${i}.`, rejected: `No ${i}.` }));
  await host.api('importContent', { project: PROJECT, fileName: 'c.jsonl', content: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'trl', createProject: true });
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/** Counts React's commits in window.__commits (a DevTools hook, as the extension installs one). */
function countCommits() {
  const w = window as unknown as { __commits: number; __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown };
  w.__commits = 0;
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    renderers: new Map(),
    supportsFiber: true,
    inject: () => 1,
    onScheduleFiberRoot: () => undefined,
    onCommitFiberRoot: () => void w.__commits++,
    onCommitFiberUnmount: () => undefined,
    onPostCommitFiberRoot: () => undefined,
    checkDCE: () => undefined,
  };
}

async function commitsAfterKey(page: Page, key: string): Promise<number> {
  const before = await page.getByTestId('compare').getAttribute('data-item-id');
  await page.evaluate(() => {
    const w = window as unknown as { __commits: number; __fromKey: number | null };
    addEventListener('keydown', () => (w.__fromKey = w.__commits), { capture: true, once: true });
  });
  await page.keyboard.press(key);
  await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).not.toBe(before);
  // Whatever the key set going settles within a few frames (the save's answer is held back meanwhile).
  await page.evaluate(() => new Promise((done) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(done)), 300)));
  return page.evaluate(() => {
    const w = window as unknown as { __commits: number; __fromKey: number };
    return w.__commits - w.__fromKey;
  });
}

describe('key → next pair', () => {
  it('is one commit of the page: the pre-labels, ratings and critiques of the next pair come with it', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: 'e2e-commits' });
    await page.context().addInitScript(countCommits);
    // Saves answer late, so their "saved" line is not counted with the key.
    await page.route('**/api/saveLabel', (route) => void setTimeout(() => void route.continue().catch(() => undefined), 1500));
    const answered = new Map<string, number>();
    page.on('requestfinished', (r) => {
      const name = /\/api\/(\w+)$/.exec(r.url())?.[1];
      if (name) answered.set(name, (answered.get(name) ?? 0) + 1);
    });
    await page.reload();
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}`), PROJECT);
    await page.getByTestId('response-body-left').waitFor();
    // The pair on screen and the next one have their pre-labels, rating sheet and critiques loaded.
    await expect.poll(() => ['prelabels', 'getRatingSheet', 'getCritiques'].map((n) => answered.get(n) ?? 0)).toEqual([2, 2, 2]);
    expect(await page.evaluate(() => (window as unknown as { __commits: number }).__commits)).toBeGreaterThan(0);
    expect(await commitsAfterKey(page, '1')).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
