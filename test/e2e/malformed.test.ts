// A malformed file: every bad line is listed by number, nothing is imported; with "Skip invalid lines"
// the valid lines go in and the rejects are offered as a download.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, launchBrowser, openApp, startHost, writeJsonl, type Host } from './helpers';

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

const good = (i: number) => ({ prompt: `Question ${i}?`, chosen: `Good answer ${i}.`, rejected: `Bad answer ${i}.` });
const LINES: (string | object)[] = [
  good(1),
  '{"prompt": "broken json", "chosen": ',
  good(3),
  { prompt: 'No rejected here', chosen: 'Only one side.' },
  good(5),
  '[1, 2, 3]',
  good(7),
];
const BAD = [2, 4, 6];

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: 'e2e-bad' }));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('importing a malformed file', () => {
  it('lists every bad line by number and imports nothing', async () => {
    await createProjectViaUi(page, 'malformed');
    const file = writeJsonl(host.home, 'mixed.jsonl', LINES);
    await page.getByTestId('import-file').setInputFiles(file);
    await expect.poll(() => page.getByTestId('import-detected').innerText()).toMatch(/trl/);
    await page.getByTestId('import-format').selectOption('trl');
    await page.getByTestId('import-button').click();
    const failure = page.getByTestId('import-failure');
    await failure.waitFor();
    expect(await failure.innerText()).toMatch(/Nothing was imported/);
    const lines = await failure.getByTestId('line-error').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-line'))));
    expect([...new Set(lines)].sort((a, b) => a - b)).toEqual(BAD);
    for (const n of BAD) expect(await failure.innerText()).toContain(`mixed.jsonl:${n}`);
    await expect.poll(() => page.getByTestId('items-table').innerText()).toMatch(/0 in this project/);
    expect(await host.api<{ items: number }>('stats', { project: 'malformed' })).toMatchObject({ items: 0 });
  });

  it('with "Skip invalid lines" imports the rest and offers the rejects as a download', async () => {
    await page.getByTestId('import-skip-invalid').check();
    await page.getByTestId('import-button').click();
    const result = page.getByTestId('import-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(/Imported 4 new items/);
    expect(await result.innerText()).toMatch(/3 rejected/);
    const download = page.getByTestId('rejects-download');
    expect(await download.getAttribute('href')).toMatch(/^blob:/);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const saved = await file.path();
    const rejected = readFileSync(saved, 'utf8').split('\n').filter((l) => l.trim());
    expect(rejected).toHaveLength(3);
    expect(rejected.join('\n')).toContain('broken json');
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(4);
  });

  it('produced no page errors', () => {
    expect(problems).toEqual([]);
  });
});
