// The items explorer in Chromium: a word from a response found and highlighted, a facet's count equal to
// the rows it leaves, sorting both ways, a selection marked gold and exported, a view saved and reopened
// (and labeled through), Enter opening an item on the screen of its shape.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, startHost, writeJsonl, type Host } from './helpers';

const ME = 'e2e-explorer';
const PROJECT = 'explorer';
const PAIRS = Array.from({ length: 10 }, (_, i) => ({
  id: `q-${String(i + 1).padStart(2, '0')}`,
  prompt: `Question ${i + 1}: why is the sky blue, in ${i + 1} sentences?`,
  chosen: i === 6 ? 'Because of Rayleigh scattering: short wavelengths scatter more.' : `Answer ${i + 1}: sunlight and air.`,
  rejected: `Because the sea reflects it (${i + 1}).`,
}));
const RANKING = { id: 'r-01', prompt: 'Rank these three greetings.', responses: [{ text: 'Hello.' }, { text: 'Hi there!' }, { text: 'Good day to you.' }] };

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
let ids: Map<string, number>;

const rows = () => page.getByTestId('explorer-row');
const rowIds = () => rows().evaluateAll((els) => els.map((e) => e.querySelector('.font-mono')?.textContent ?? ''));
const go = async (hash: string) => {
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByTestId('items-explorer').waitFor();
};

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ME, width: 1280, height: 800 }));
  await createProjectViaUi(page, PROJECT);
  const file = writeJsonl(host.home, 'sky.jsonl', PAIRS.map((p) => ({ prompt: p.prompt, chosen: p.chosen, rejected: p.rejected, id: p.id })));
  await importViaUi(page, file);
  await importViaUi(page, writeJsonl(host.home, 'rank.jsonl', [RANKING]));
  const { rows: listed } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 50 });
  ids = new Map(listed.map((r) => [r.externalId, r.id]));
  // ana and ben split on q-01..q-03 and agree on q-04, q-05.
  for (const [n, ana, ben] of [[1, 'A', 'B'], [2, 'A', 'B'], [3, 'B', 'A'], [4, 'A', 'A'], [5, 'B', 'B']] as const) {
    const itemId = ids.get(`q-0${n}`);
    await host.api('saveLabel', { project: PROJECT, annotator: 'ana', itemId, choice: ana, shownOrder: [0, 1] });
    await host.api('saveLabel', { project: PROJECT, annotator: 'ben', itemId, choice: ben, shownOrder: [0, 1] });
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('the items explorer', () => {
  it('finds a word of a response and shows it highlighted in its context', async () => {
    await go(`#/p/${PROJECT}/items`);
    await expect.poll(() => rows().count()).toBe(11);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('items-query');
    await page.keyboard.type('Rayleigh');
    await expect.poll(() => rowIds()).toEqual(['q-07']);
    // Search text: the rows come by relevance (bm25), best first; without it there is no relevance to sort by.
    expect(await page.getByTestId('sort-relevance').getAttribute('aria-sort')).toBe('descending');
    const mark = rows().first().getByTestId('hit');
    await expect.poll(() => mark.first().innerText()).toMatch(/^Rayleigh$/i);
    expect(await rows().first().getByTestId('explorer-snippet').innerText()).toContain('scattering');
    // A query the language cannot read says why and keeps the rows it had.
    await page.getByTestId('items-query').fill('Rayleigh "scattering');
    await expect.poll(() => page.getByTestId('query-error').innerText()).toMatch(/quote is not closed/);
    expect(await rowIds()).toEqual(['q-07']);
    await page.getByTestId('items-query').fill('');
    await expect.poll(() => rows().count()).toBe(11);
    expect(await page.getByTestId('sort-relevance').count()).toBe(0);
    expect(await page.getByTestId('sort-seq').getAttribute('aria-sort')).toBe('ascending');
  });

  it('counts each facet value under the query, and a click on it leaves exactly that many rows', async () => {
    await page.getByTestId('items-query').fill('');
    const value = page.locator('[data-testid="facet"][data-facet="disagree"] [data-testid="facet-value"][data-value="pairwise"]');
    await expect.poll(() => value.getByTestId('facet-count').innerText()).toBe('3');
    await value.click();
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe('disagree=pairwise');
    await expect.poll(() => rowIds()).toEqual(['q-01', 'q-02', 'q-03']);
    expect(await page.getByTestId('chip').innerText()).toMatch(/disagree\s*:\s*pairwise/);
    expect(await value.getAttribute('aria-pressed')).toBe('true');
    // Again: the filter goes, every row comes back.
    await value.click();
    await expect.poll(() => rows().count()).toBe(11);
    expect(await page.getByTestId('chip').count()).toBe(0);
  });

  it('sorts by a column header both ways', async () => {
    await page.getByTestId('sort-external_id').click();
    await expect.poll(() => page.getByTestId('sort-external_id').getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(async () => (await rowIds())[0]).toBe('q-01');
    await page.getByTestId('sort-external_id').click();
    await expect.poll(() => page.getByTestId('sort-external_id').getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => (await rowIds())[0]).toBe('r-01');
    expect((await rowIds()).slice(0, 3)).toEqual(['r-01', 'q-10', 'q-09']);
    await page.getByTestId('sort-seq').click();
    await expect.poll(async () => (await rowIds())[0]).toBe('q-01');
  });

  it('selects rows from the keys, marks them gold and exports exactly them', async () => {
    // q-04 and q-05: ana and ben agree; q-06: the file's own label decides. (q-01..03 are split: an export skips them.)
    await page.getByTestId('explorer-scroller').focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('Shift+j');
    await page.keyboard.press('Shift+j');
    await expect.poll(() => page.getByTestId('selection-count').innerText()).toBe('3 items selected');
    expect(await page.locator('[data-testid="explorer-row"][data-checked="true"]').count()).toBe(3);
    await page.getByTestId('mark-gold').click();
    await expect.poll(() => page.getByTestId('selection-note').innerText()).toMatch(/^Gold: the file’s own labels of 3 items of 3/);
    await page.getByTestId('export-selection').click();
    const panel = page.getByTestId('selection-export');
    await panel.getByText('Export the 3 selected items').waitFor();
    await panel.getByTestId('export-button').click();
    await expect.poll(() => panel.getByTestId('export-written').innerText(), { timeout: 15_000 }).toBe('Wrote 3 records');
    await page.getByTestId('explorer-scroller').focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid="explorer-row"][data-checked="true"]').count()).toBe(0);
    // Every item the query matches, loaded or not, by the host's list of ids.
    await page.keyboard.press('x');
    await page.getByTestId('select-all').click();
    await expect.poll(() => page.getByTestId('selection-count').innerText()).toBe('11 items selected');
    await page.getByTestId('explorer-scroller').focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('selection-bar').count()).toBe(0);
  });

  it('sends two selected rows to review, where they wait with the reason and the sender’s name', async () => {
    await go(`#/p/${PROJECT}/items`);
    await expect.poll(() => rows().count()).toBe(11);
    await page.getByTestId('explorer-scroller').focus();
    // From the first row (the cursor stays where the last test left it): q-08 and q-09.
    for (let i = 0; i < 12; i++) await page.keyboard.press('k');
    for (let i = 0; i < 7; i++) await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await expect.poll(() => page.getByTestId('selection-count').innerText()).toBe('2 items selected');
    expect(await page.locator('[data-testid="explorer-row"][data-checked="true"]').evaluateAll((els) => els.map((e) => e.querySelector('.font-mono')?.textContent))).toEqual(['q-08', 'q-09']);
    await page.getByTestId('send-to-review').click();
    await expect.poll(() => page.getByTestId('selection-note').innerText()).toBe(`Sent 2 items to review as ${ME}.`);
    await page.screenshot({ path: '/tmp/e2e-items-send.png' });
    await page.getByTestId('explorer-scroller').focus();
    await page.keyboard.press('Escape');

    await page.evaluate((h) => (location.hash = h), `#/p/${PROJECT}/review`);
    await page.getByTestId('queue-reason-sent').click();
    const sent = page.getByTestId('queue-row');
    await expect.poll(() => sent.evaluateAll((els) => els.map((e) => e.getAttribute('data-item-id')).sort()), { timeout: 30_000 }).toEqual([String(ids.get('q-08')), String(ids.get('q-09'))]);
    expect(await sent.first().getByTestId('queue-reason').allInnerTexts()).toEqual([`sent by ${ME}`]);
    await page.screenshot({ path: '/tmp/e2e-review-sent.png' });
    await page.getByTestId('queue-reason-all').click();
    await go(`#/p/${PROJECT}/items`);
    // The dark theme: the sent chips, and a search's relevance header (screenshots to /tmp).
    const dark = await openApp(browser, host, { annotator: ME, width: 1280, height: 800, theme: 'dark' });
    await dark.page.evaluate((h) => (location.hash = h), `#/p/${PROJECT}/review`);
    await dark.page.getByTestId('queue-reason-sent').click();
    await expect.poll(() => dark.page.getByTestId('queue-row').count(), { timeout: 30_000 }).toBe(2);
    await dark.page.screenshot({ path: '/tmp/e2e-review-sent-dark.png' });
    await dark.page.getByTestId('queue-reason-all').click();
    await dark.page.evaluate((h) => (location.hash = h), `#/p/${PROJECT}/items/q/sky`);
    await expect.poll(() => dark.page.getByTestId('sort-relevance').getAttribute('aria-sort')).toBe('descending');
    await dark.page.screenshot({ path: '/tmp/e2e-items-relevance-dark.png' });
    expect(dark.problems).toEqual([]);
    await dark.page.context().close();
  });

  it('saves a view by name, reopens it from the list, and labels through it', async () => {
    await page.getByTestId('items-query').fill('disagree=pairwise');
    await expect.poll(() => rows().count()).toBe(3);
    await page.getByTestId('view-save').click();
    await page.getByTestId('view-name').fill('Split pairs');
    await page.getByTestId('view-save-confirm').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/p/${PROJECT}/items/view/Split%20pairs`);
    await go(`#/p/${PROJECT}/items`);
    await expect.poll(() => rows().count()).toBe(11);
    await page.locator('[data-testid="view"][data-view="Split pairs"] [data-testid="view-open"]').click();
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe('disagree=pairwise');
    await expect.poll(() => rowIds()).toEqual(['q-01', 'q-02', 'q-03']);
    await page.getByTestId('view-label').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/p/${PROJECT}/compare/view/Split%20pairs`);
  });

  it('deletes a saved view', async () => {
    await go(`#/p/${PROJECT}/items/view/${encodeURIComponent('Split pairs')}`);
    const view = page.locator('[data-testid="view"][data-view="Split pairs"]');
    await view.hover();
    await view.getByTestId('view-delete').click();
    await expect.poll(() => page.getByTestId('view').count()).toBe(0);
    expect(await page.evaluate(() => location.hash)).toBe(`#/p/${PROJECT}/items`);
    expect(await host.api<unknown[]>('listViews', { project: PROJECT })).toEqual([]);
  });

  it('opens the items behind a dashboard figure: κ of two people, the pairs to review', async () => {
    await page.evaluate((h) => (location.hash = h), `#/p/${PROJECT}/review/agreement`);
    await page.getByTestId('fields-table').waitFor({ timeout: 30_000 });
    const kappa = page.getByTestId('fields-table').locator('tr', { hasText: 'Choice' }).first().getByTestId('drill').nth(1);
    expect(await kappa.getAttribute('data-query')).toBe('split=ana,ben');
    await kappa.click();
    await page.getByTestId('items-explorer').waitFor();
    expect(await page.evaluate(() => location.hash)).toBe(`#/p/${PROJECT}/items/q/${encodeURIComponent('split=ana,ben')}`);
    await expect.poll(() => rowIds()).toEqual(['q-01', 'q-02', 'q-03']);
    await page.goBack();
    await page.getByTestId('tile-review').getByTestId('drill').click();
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe('disagree=pairwise');
    await expect.poll(() => rowIds()).toEqual(['q-01', 'q-02', 'q-03']);
    // A chart's bar: ana's agreement with the others opens the pairs she labeled where people split.
    await page.goBack();
    await page.locator('[data-chart="people"] .recharts-bar-rectangle').first().click();
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe('annotator=ana disagree=pairwise');
    await expect.poll(() => rowIds()).toEqual(['q-01', 'q-02', 'q-03']);
  });

  it('opens the items carrying an error tag from its count on the dashboard', async () => {
    const chain = { id: 'c-01', prompt: 'What is 6 × 7 + 8?', responses: [{ text: 'Step 1: 6 × 7 = 42.\nStep 2: 42 + 8 = 51.\nStep 3: The answer is 51.' }] };
    await host.api('importContent', { project: PROJECT, fileName: 'chain.jsonl', content: `${JSON.stringify(chain)}\n`, format: 'arbiter' });
    const itemId = (await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 50 })).rows.find((r) => r.externalId === 'c-01')!.id;
    const view = await host.api<{ responses: { version: number; steps: string[] }[] }>('getSteps', { project: PROJECT, annotator: 'ana', itemId });
    const ratings = view.responses[0]!.steps.map((_, i) => (i === 0 ? 1 : i === 1 ? -1 : null));
    await host.api('saveSteps', { project: PROJECT, annotator: 'ana', itemId, response: 0, steps: { version: view.responses[0]!.version, ratings, firstError: 1, tags: { '1': ['arithmetic'] } } });
    await page.evaluate((h) => (location.hash = h), `#/p/${PROJECT}/review/agreement`);
    const count = page.locator('[data-testid="error-tag"][data-tag="arithmetic"]').getByTestId('drill');
    await expect.poll(() => count.innerText(), { timeout: 30_000 }).toBe('1');
    await count.click();
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe('tag=arithmetic');
    await expect.poll(() => rowIds()).toEqual(['c-01']);
  });

  it('opens an item on the screen of its shape with Enter', async () => {
    await go(`#/p/${PROJECT}/items/q/${encodeURIComponent('shape=ranking')}`);
    await expect.poll(() => rowIds()).toEqual(['r-01']);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/p/${PROJECT}/rank/item/${ids.get('r-01')}`);
    // Back from the item: the explorer as it was left (the address follows the query in force).
    await page.goBack();
    await expect.poll(() => page.getByTestId('items-query').inputValue()).toBe('shape=ranking');
    await page.getByTestId('items-query').fill('disagree=pairwise');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/p/${PROJECT}/items/q/${encodeURIComponent('disagree=pairwise')}`);
    await page.reload();
    await page.getByTestId('items-explorer').waitFor();
    await expect.poll(() => rows().count()).toBe(3);
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/p/${PROJECT}/item/${ids.get('q-02')}`);
    expect(problems).toEqual([]);
  });
});
