// Reading two responses against each other: the diff view (w) marks, word by word, what only one side
// has, renders model text as text (never HTML) and joins up to exactly each response; scrolling
// together (l) keeps the columns at the same point of their length; both are remembered on reload.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'diffs';
const ANNOTATOR = 'e2e-differ';
const FIRST = 'The quick brown fox jumps over the lazy dog.\n\nIt says <b>bold</b> and <img src=x onerror="window.__pwned=1"> as text.';
const SECOND = 'The quick red fox leaps over the lazy dog.\n\nIt says <b>bold</b> as text.';
const paragraphs = (who: string, n: number) => Array.from({ length: n }, (_, i) => `${who} paragraph ${i + 1} goes on for a while, one sentence after another.`).join('\n\n');
const ITEMS = [
  { id: 'diff', prompt: 'Describe the fox.', responses: [{ text: FIRST }, { text: SECOND }] },
  { id: 'long', prompt: 'Go on at length.', responses: [{ text: paragraphs('Long', 80) }, { text: paragraphs('Shorter', 40) }] },
];

let host: Host;
let browser: Browser;
const ids = new Map<string, number>();

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  await host.api('importContent', {
    project: PROJECT,
    fileName: 'diffs.jsonl',
    content: ITEMS.map((l) => JSON.stringify(l)).join('\n') + '\n',
    format: 'arbiter',
    createProject: true,
  });
  const { rows } = await host.api<{ rows: { id: number; externalId: string | null }[] }>('listItems', { project: PROJECT, limit: 10 });
  for (const row of rows) ids.set(row.externalId!, row.id);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function openItem(page: Page, external: string) {
  await page.evaluate(([p, id]) => (location.hash = `#/p/${encodeURIComponent(p)}/item/${id}`), [PROJECT, String(ids.get(external))] as const);
  await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get(external)));
  await page.getByTestId('response-body-left').waitFor();
}

/** The words marked "only here" on one side, in order. */
function marked(page: Page, side: 'left' | 'right'): Promise<string[]> {
  return page.getByTestId(`diff-${side}`).getByTestId('diff-only').allInnerTexts();
}

/** How far through its length a column is scrolled, 0 to 1. */
function fraction(page: Page, side: 'left' | 'right'): Promise<number> {
  return page.getByTestId(`response-body-${side}`).evaluate((el) => el.scrollTop / (el.scrollHeight - el.clientHeight));
}

describe('the diff view', () => {
  it('w marks the words only one side has, as text, and w again shows the formatted responses', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR });
    await openItem(page, 'diff');
    const toggle = page.getByTestId('diff-toggle');
    expect(await toggle.innerText()).toMatch(/Diff\s*w/);
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByTestId('diff-left').count()).toBe(0);

    await page.keyboard.press('w');
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('diff-left').waitFor();
    // Which column shows the file's first response depends on this annotator's shuffle.
    const leftText = await page.getByTestId('diff-left').evaluate((el) => el.textContent);
    const firstSide = leftText === FIRST ? 'left' : 'right';
    const secondSide = firstSide === 'left' ? 'right' : 'left';
    // Each side joins up to exactly its own response, spacing and line breaks included.
    expect(await page.getByTestId(`diff-${firstSide}`).evaluate((el) => el.textContent)).toBe(FIRST);
    expect(await page.getByTestId(`diff-${secondSide}`).evaluate((el) => el.textContent)).toBe(SECOND);

    const onlyFirst = (await marked(page, firstSide)).join(' ');
    const onlySecond = (await marked(page, secondSide)).join(' ');
    for (const word of ['brown', 'jumps', '<img']) expect(onlyFirst).toContain(word);
    for (const word of ['red', 'leaps']) expect(onlySecond).toContain(word);
    for (const shared of ['quick', 'lazy', 'bold']) {
      expect(onlyFirst).not.toContain(shared);
      expect(onlySecond).not.toContain(shared);
    }
    expect(await page.getByTestId(`diff-count-${secondSide}`).innerText()).toMatch(/^2 words only here/);

    // Model text stays text: no element from it, no script run.
    const responses = page.getByTestId('responses');
    expect(await responses.locator('img').count()).toBe(0);
    expect(await page.getByTestId('diff-left').locator('b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    // Typing a w in the rationale box is a letter, not the switch.
    await page.keyboard.press('r');
    await page.keyboard.type('w');
    await page.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');

    // On across a reload, like the theme.
    await page.reload();
    await page.getByTestId('diff-left').waitFor();
    await page.keyboard.press('w');
    await expect.poll(() => page.getByTestId('diff-left').count()).toBe(0);
    expect(await page.getByTestId('response-body-left').innerText()).toMatch(/The quick (brown|red) fox/);
    expect(await page.evaluate(() => localStorage.getItem('arbiter.diff'))).toBe('off');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('is on the shortcuts list with the other reading keys', async () => {
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR });
    await openItem(page, 'diff');
    await page.keyboard.press('?');
    const text = await page.getByTestId('shortcuts').innerText();
    expect(text).toMatch(/w\s*Diff: mark the words only one response has/);
    expect(text).toMatch(/l\s*Scroll the two responses together/);
    expect(text).toMatch(/b\s*Pre-labels: blind \/ assist/);
    await page.context().close();
  });
});

describe('scrolling together', () => {
  it('l keeps the columns at the same point of their length, and is remembered', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR, height: 800 });
    await openItem(page, 'long');
    const toggle = page.getByTestId('sync-toggle');
    expect(await toggle.innerText()).toMatch(/Scroll together\s*l/);
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');

    // Off: one column scrolls alone.
    await page.getByTestId('response-body-left').evaluate((el) => (el.scrollTop = (el.scrollHeight - el.clientHeight) / 2));
    await page.waitForTimeout(200);
    expect(await fraction(page, 'right')).toBe(0);

    await page.keyboard.press('l');
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('response-body-right').evaluate((el) => (el.scrollTop = (el.scrollHeight - el.clientHeight) * 0.75));
    await expect.poll(() => fraction(page, 'left')).toBeCloseTo(0.75, 1);
    // The page keys move the longer column a page; the other follows it.
    await page.getByTestId('response-body-left').evaluate((el) => (el.scrollTop = 0));
    await expect.poll(() => fraction(page, 'right')).toBe(0);
    await page.keyboard.press('PageDown');
    await expect.poll(() => fraction(page, 'left')).toBeGreaterThan(0.05);
    await expect.poll(async () => Math.abs((await fraction(page, 'left')) - (await fraction(page, 'right')))).toBeLessThan(0.02);

    await page.reload();
    await page.getByTestId('response-body-left').waitFor();
    expect(await page.getByTestId('sync-toggle').getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => localStorage.getItem('arbiter.syncScroll'))).toBe('on');
    await page.keyboard.press('l');
    await expect.poll(() => page.getByTestId('sync-toggle').getAttribute('aria-pressed')).toBe('false');
    await page.getByTestId('response-body-left').evaluate((el) => (el.scrollTop = (el.scrollHeight - el.clientHeight) / 2));
    await page.waitForTimeout(200);
    expect(await fraction(page, 'right')).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
