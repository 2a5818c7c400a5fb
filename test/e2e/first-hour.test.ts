// A new user's first hour (issue 13, findings 18–20): a project opens on the screen its items need, an
// unknown address says so, every empty state says what the project holds and where it is labeled, every
// screen has a tab with its key, and progress is counted per task in the project list and the header.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_FORMATS } from '../../shared/formatNames';
import { importViaUi, launchBrowser, openApp, ROOT, startHost, writeJsonl, type Host } from './helpers';

const chain = (n: number) => ({ id: `c${n}`, prompt: `Double ${n}, then add 1.`, responses: [{ text: `${n} × 2 = ${2 * n}.\n${2 * n} + 1 = ${2 * n + 1}.`, steps: [`${n} × 2 = ${2 * n}.`, `${2 * n} + 1 = ${2 * n + 1}.`] }] });
const pair = (n: number) => ({ id: `p${n}`, prompt: `Pair ${n}`, responses: [{ text: 'left answer' }, { text: 'right answer' }] });
const ranked = { id: 'r1', prompt: 'Rank these', responses: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] };

let host: Host;
let browser: Browser;
let page: Page;

function importFile(project: string, items: object[]) {
  const file = writeJsonl(host.home, `${project}.jsonl`, items);
  const result = spawnSync(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), 'import', file, '--project', project, '--db', host.dbPath], {
    encoding: 'utf8',
    env: { ...process.env, ARBITER_NO_DEMO: '1' },
  });
  expect(result.status, result.stderr).toBe(0);
}

const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);

beforeAll(async () => {
  host = await startHost();
  importFile('chains', [chain(1), chain(2), chain(3)]);
  importFile('mixed', [pair(1), pair(2), ranked]);
  browser = await launchBrowser();
  ({ page } = await openApp(browser, host, { annotator: 'newcomer' }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('a new user’s first hour', () => {
  it('opens a chain project on the step screen with its own count, and a pair project on Compare', async () => {
    await go('#/p/chains');
    await page.getByTestId('steps-screen').waitFor();
    // The step screen then names the item it shows in the address (#/p/chains/steps/item/1/r/0): either is
    // the step screen of this project, and which one a poll sees depends on timing.
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#\/p\/chains\/steps(\/item\/\d+\/r\/\d+)?$/);
    await expect.poll(() => page.getByTestId('progress').innerText()).toMatch(/0\s*\/\s*3 labeled/);
    await go('#/p/mixed');
    await page.getByTestId('compare').waitFor();
    await expect.poll(() => page.getByTestId('progress').innerText()).toMatch(/0\s*\/\s*2 labeled/);
  });

  it('tells the truth on every empty screen, with the way to the items', async () => {
    await go('#/p/chains/compare');
    const compare = page.getByTestId('empty-state');
    await expect.poll(() => compare.innerText()).toMatch(/No pairs here/);
    // The shapes of the project's items arrive after the first paint: wait for them, never read once.
    await expect.poll(() => compare.innerText()).toMatch(/3 items are single responses/);
    expect(await compare.innerText()).toMatch(/Steps\s*p/);
    expect(await compare.innerText()).toMatch(/Verdict\s*u/);
    await go('#/p/chains/rank');
    await expect.poll(() => page.getByTestId('empty-state').innerText()).toMatch(/No items with three or more responses here/);
    await go('#/p/mixed/verdict');
    await expect.poll(() => page.getByTestId('empty-state').innerText()).toMatch(/No single responses here/);
    await expect.poll(() => page.getByTestId('empty-state').innerText()).toMatch(/2 pairs.*Compare\s*c/s);
    await go('#/p/mixed/steps');
    await expect.poll(() => page.getByTestId('empty-state').innerText()).toMatch(/No single responses here/);
    await page.getByTestId('empty-state').getByRole('button', { name: /Rank/ }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#\/p\/mixed\/rank/);
    await page.getByTestId('ranking-screen').waitFor();
  });

  it('says so at an unknown address, with a way back', async () => {
    await go('#/p/chains/nope');
    const missing = page.getByTestId('no-such-page');
    await expect.poll(() => missing.innerText()).toMatch(/No such page: #\/p\/chains\/nope/);
    await missing.getByRole('button', { name: /chains/ }).click();
    await page.getByTestId('steps-screen').waitFor();
  });

  it('gives every screen a tab with its key, and the keys open them', async () => {
    await go('#/p/mixed/compare');
    await page.getByTestId('compare').waitFor();
    const tabs = page.getByRole('navigation', { name: 'Screens' });
    const text = (await tabs.innerText()).replace(/\s+/g, ' ');
    for (const [name, key] of [['Compare', 'c'], ['Rank', 'n'], ['Steps', 'p'], ['Verdict', 'u'], ['Datasets', 'd'], ['Rubric', 'i'], ['Models', 'm'], ['Review', 'q']])
      expect(text).toContain(`${name} ${key}`);
    await page.keyboard.press('i');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/p/mixed/rubrics');
    await page.keyboard.press('p');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/p/mixed/steps');
  });

  it('counts each task in the project list', async () => {
    const page1 = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: 'mixed', annotator: 'newcomer', limit: 10 });
    const r1 = page1.rows.find((i) => i.externalId === 'r1')!;
    await host.api('saveRanking', { project: 'mixed', annotator: 'newcomer', itemId: r1.id, ranking: [[0], [1], [2]], shownOrder: [0, 1, 2] });
    await go('#/');
    const row = page.locator('[data-testid="project-row"][data-project="mixed"]');
    await expect.poll(() => row.innerText()).toMatch(/pairs 0\/2 · ranks 1\/1/);
    await expect.poll(() => page.locator('[data-testid="project-row"][data-project="chains"]').innerText()).toMatch(/steps 0\/3/);
  });

  it('names what a file carried at import, every format in the hint, and the export in the app’s words with the project’s format', async () => {
    await go('#/');
    await page.getByTestId('new-project-name').fill('stepwise');
    await page.getByTestId('create-project').click();
    await page.getByTestId('import-panel').waitFor();
    expect(await page.getByTestId('import-panel').innerText()).toMatch(new RegExp(`Any of ${IMPORT_FORMATS.length} formats`));
    const lines = [1, 2].map((n) => ({ prompt: `Add ${n} and ${n}.`, completions: [`${n} + ${n}`, `= ${2 * n}`], labels: [true, n === 1] }));
    await importViaUi(page, writeJsonl(host.home, 'stepwise.jsonl', lines));
    const result = await page.getByTestId('import-result').innerText();
    expect(result).toMatch(/step labels on 2 chains/);
    expect(result).not.toMatch(/preference/);
    // A chain-only project exports as TRL stepwise by default, and the summary speaks of the option, not a flag.
    await expect.poll(() => page.getByTestId('export-format').inputValue()).toBe('trl-stepwise');
    await page.getByTestId('export-button').click();
    const note = page.getByTestId('export-note');
    await note.waitFor();
    expect(await note.innerText()).not.toMatch(/--/);
    expect(await note.innerText()).toMatch(/“Neutral \(0\) steps count as good” off/);
  });

  it('lists the items first on Datasets, with a search by id or prompt and an adjudicated column', async () => {
    const r1 = (await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: 'mixed', limit: 10 })).rows.find((r) => r.externalId === 'r1')!;
    await host.api('adjudicate', { project: 'mixed', annotator: 'lead', itemId: r1.id, task: 'ranking', ranking: [[1], [0], [2]], note: '' });
    await go('#/p/mixed/datasets');
    const table = page.getByTestId('items-table');
    await table.waitFor();
    // The table starts near the top, above the import and export panels.
    const tableTop = (await table.boundingBox())!.y;
    expect(tableTop).toBeLessThan(150);
    expect((await page.getByTestId('import-panel').boundingBox())!.y).toBeGreaterThan(tableTop);
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('items-search');
    await page.keyboard.type('p2');
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(1);
    expect(await page.getByTestId('item-row').innerText()).toContain('p2');
    await page.getByTestId('items-search').fill('rank these');
    await expect.poll(() => page.getByTestId('item-row').first().innerText()).toContain('r1');
    expect(await page.getByTestId('item-row').first().getByTestId('item-adjudicated').innerText()).toMatch(/gold/);
  });
});
