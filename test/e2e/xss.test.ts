// Model text is untrusted: raw HTML shows as text (or is dropped), never runs; links never navigate;
// remote images are never loaded.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, startHost, writeJsonl, type Host } from './helpers';

const PAYLOAD = [
  'Here is my answer.',
  '',
  '<script>window.__pwned=1</script>',
  '',
  '<img src=x onerror="window.__pwned=1">',
  '',
  '[click](javascript:window.__pwned=1)',
  '',
  '![remote](http://example.invalid/tracker.png)',
].join('\n');

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const requests: string[] = [];

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: 'e2e-xss' }));
  page.on('request', (request) => requests.push(request.url()));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('untrusted model text', () => {
  it('renders script, onerror and javascript: links inertly', async () => {
    await createProjectViaUi(page, 'xss');
    const file = writeJsonl(host.home, 'xss.jsonl', [
      { prompt: 'Say something <script>window.__pwned=1</script> [x](javascript:window.__pwned=1)', chosen: PAYLOAD, rejected: 'A plain, harmless answer.' },
    ]);
    await importViaUi(page, file);
    expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 1 new item/);

    await page.keyboard.press('c');
    await page.getByTestId('response-body-left').waitFor();
    const urlBefore = page.url();

    // Whichever column holds the payload, it is there as text.
    const columns = page.locator('[data-testid^="response-body-"]');
    const texts = await columns.allInnerTexts();
    const payloadColumn = texts.findIndex((t) => t.includes('Here is my answer'));
    expect(payloadColumn).toBeGreaterThanOrEqual(0);
    const column = columns.nth(payloadColumn);
    expect(texts[payloadColumn]).toContain('<script>window.__pwned=1</script>');
    expect(texts[payloadColumn]).toContain('onerror');

    // Give any injected handler the chance to run, then look.
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();

    // The link is a span: clicking it goes nowhere and runs nothing.
    const link = column.getByText('click', { exact: true });
    await link.click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(page.url()).toBe(urlBefore);
    expect(await link.evaluate((el) => el.tagName)).toBe('SPAN');
    expect(await link.getAttribute('title')).toMatch(/not opened/);

    // No live elements inside the responses or the prompt.
    const dangerous = await page.evaluate(() => {
      const roots = [...document.querySelectorAll('[data-testid^="response-body-"], [data-testid="prompt-body"]')];
      return roots.flatMap((root) =>
        [...root.querySelectorAll('script, img, iframe, object, embed, a[href], [onerror], [onclick], [onload]')].map((el) => el.outerHTML),
      );
    });
    expect(dangerous).toEqual([]);
    // The remote image shows as its alt text and was never requested.
    expect(texts[payloadColumn]).toContain('[image: remote]');
    expect(requests.filter((u) => !u.startsWith(host.origin))).toEqual([]);
  });

  it('produced no page errors', () => {
    expect(problems).toEqual([]);
  });
});
