// A labeling screen opened on a saved view ("Label these next", issue 22 §5: #/p/<project>/<screen>/view/<name>)
// walks the view's items in its order (nextItem's viewId), says which view it walks, and Shift+Esc or the
// line's button goes back to the screen's whole queue.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'views-walk';
let host: Host;
let browser: Browser;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const lines = Array.from({ length: 4 }, (_, i) => ({ prompt: `Question ${i}?`, chosen: `Yes ${i}.`, rejected: `No ${i}.` }));
  await host.api('importContent', { project: PROJECT, fileName: 'v.jsonl', content: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'trl', createProject: true });
  // Every item, the last first: a walk of the whole queue would start at the first.
  await host.api('saveView', { project: PROJECT, name: VIEW, query: '', sort: { column: 'seq', desc: true } });
  // The step screen walks single responses (chains): a project of three, with the same view.
  const singles = Array.from({ length: 3 }, (_, i) => ({ id: `s-${i}`, prompt: `Single ${i}?`, responses: [{ text: `Step one of ${i}.\n\nStep two of ${i}.` }] }));
  await host.api('importContent', { project: SINGLES, fileName: 's.jsonl', content: singles.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true });
  await host.api('saveView', { project: SINGLES, name: VIEW, query: '', sort: { column: 'seq', desc: true } });
});

const SINGLES = 'views-walk-steps';

const VIEW = 'long answers / B';
const promptOnScreen = (page: Page) => page.getByTestId('prompt').innerText();

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('walking a saved view', () => {
  it('walks the view in its order: the last item first, then the one before it', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: 'e2e-views-walk' });
    await page.evaluate(([p, v]) => (location.hash = `#/p/${encodeURIComponent(p)}/compare/view/${encodeURIComponent(v)}`), [PROJECT, VIEW] as const);
    await page.getByTestId('response-body-left').waitFor();
    await expect.poll(() => promptOnScreen(page)).toContain('Question 3?');
    await page.keyboard.press('1');
    await expect.poll(() => promptOnScreen(page)).toContain('Question 2?');
    // Shift+Esc: the whole queue, from its start (nothing there is labeled but Question 3).
    await page.keyboard.press('Shift+Escape');
    await page.getByTestId('queue-view').waitFor({ state: 'detached' });
    await expect.poll(() => promptOnScreen(page)).toContain('Question 0?');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the step screen walks it too, and its button goes back to the whole queue', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: 'e2e-views-steps' });
    await page.evaluate(([p, v]) => (location.hash = `#/p/${encodeURIComponent(p)}/steps/view/${encodeURIComponent(v)}`), [SINGLES, VIEW] as const);
    await page.getByTestId('queue-view').waitFor();
    await expect.poll(() => page.getByTestId('steps-screen').innerText()).toContain('Single 2?');
    await page.getByTestId('queue-view-leave').click();
    await page.getByTestId('queue-view').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('steps-screen').innerText()).toContain('Single 0?');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says so when the address names a view the project does not have', async () => {
    const { page } = await openApp(browser, host, { annotator: 'e2e-views-walk' });
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}/compare/view/nope`), PROJECT);
    await expect.poll(() => page.getByTestId('compare').innerText()).toMatch(/no saved view named “nope”/);
    await page.context().close();
  });

  for (const [screen, leave] of [
    ['compare', 'Shift+Escape'],
    ['rank', 'button'],
  ] as const) {
    it(`${screen}: names the view it walks, and ${leave === 'button' ? 'its button' : 'Shift+Esc'} goes back to the whole queue`, async () => {
      const { page, problems } = await openApp(browser, host, { annotator: `e2e-views-${screen}` });
      await page.evaluate(([p, s, v]) => (location.hash = `#/p/${encodeURIComponent(p)}/${s}/view/${encodeURIComponent(v)}`), [PROJECT, screen, VIEW] as const);
      const line = page.getByTestId('queue-view');
      await line.waitFor();
      expect(await line.getAttribute('data-view')).toBe(VIEW);
      expect(await line.innerText()).toMatch(/Walking the saved view “long answers \/ B”/);
      if (leave === 'button') await page.getByTestId('queue-view-leave').click();
      else await page.keyboard.press(leave);
      await line.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => location.hash)).toBe(`#/p/${PROJECT}/${screen}`);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
