// Local generative judges in the browser host: a tiny GGUF (test/helpers/tinyGguf.ts, random weights)
// in the models folder beside the database, run from the Models screen as a job (progress, the page
// never waits), then its pre-labels on the compare screen under the blind / assist rules: blind hides
// the judge until the annotator labels; assist shows it up front, and its critique can be taken as the
// start of the annotator's own, whose edit distance is recorded once saved.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../helpers/tinyGguf';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'judged';
const ANNOTATOR = 'e2e-judges';
let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const ids: number[] = [];

beforeAll(async () => {
  process.env.ARBITER_JUDGE_THREADS = '1';
  host = await startHost();
  browser = await launchBrowser();
  const items = [0, 1, 2].map((i) => ({ id: `q${i}`, prompt: `What is ${i} + ${i}?`, responses: [{ text: `It is ${2 * i}.` }, { text: `It is ${2 * i + 1}.` }] }));
  await host.api('importContent', { project: PROJECT, fileName: 'pairs.jsonl', content: items.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true });
  const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT, limit: 10 });
  ids.push(...rows.map((r) => r.id));
  mkdirSync(join(host.home, 'models'), { recursive: true });
  writeTinyGguf(join(host.home, 'models', 'tiny-judge.gguf'));
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function openItem(id: number): Promise<void> {
  await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${id}`);
  await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(id));
}

describe('generative judges in the app', () => {
  it('runs a judge from the Models screen as a job, with its progress, and the page stays usable', async () => {
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/models`);
    const panel = page.getByTestId('judges-panel');
    await panel.waitFor();
    await expect.poll(() => page.getByTestId('judge-model').inputValue()).toBe('tiny-judge.gguf');
    await page.getByTestId('judge-seed').fill('3');
    await page.screenshot({ path: '/tmp/judges-models.png', fullPage: true });
    await page.getByTestId('judge-start').click();
    await expect.poll(() => page.getByTestId('judge-job').getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    expect(await page.getByTestId('judge-job').innerText()).toMatch(/Done: 3 results on 3 items/);
    const pre = await host.api<{ kind: string; seed: number; verdict: string | null }[]>('judgePrelabels', { project: PROJECT, itemId: ids[0]! });
    expect(pre).toMatchObject([{ kind: 'pairwise', seed: 3 }]);
  });

  it('blind: the judge stays hidden until the annotator labels, then shows', async () => {
    await openItem(ids[0]!);
    await page.getByTestId('judge-hidden').waitFor();
    expect(await page.getByTestId('judge-line').count()).toBe(0);
    expect(await page.getByTestId('judge-take').count()).toBe(0);
    await page.keyboard.press('1');
    // The label moves the loop on to the next item, unlabeled and so blind again; back on the labeled one, it shows.
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).not.toBe(String(ids[0]));
    await page.getByTestId('judge-hidden').waitFor();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids[0]));
    await page.getByTestId('judge-line').waitFor();
    expect(await page.getByTestId('judge-hidden').count()).toBe(0);
    expect(await page.getByTestId('judge-line').innerText()).toMatch(/shown because you labeled/);
    expect(await page.getByTestId('judge-take').count(), 'taking the critique is an assist-mode help').toBe(0);
  });

  it('assist: shown up front; its critique taken, edited and saved records the edit distance', async () => {
    await host.api('updateProjectSettings', { project: PROJECT, settings: { prelabels: 'assist' } });
    await page.reload();
    await openItem(ids[1]!);
    const line = page.getByTestId('judge-line');
    await line.waitFor();
    expect(await page.getByTestId('judge-hidden').count()).toBe(0);
    expect(await page.getByTestId('judge-verdict').innerText()).toMatch(/^(Left|Right), (slightly|clearly|much) better$|^a tie$/);
    expect(await line.getAttribute('data-flipped')).toMatch(/^(true|false)$/);
    if ((await line.getAttribute('data-flipped')) === 'true') expect(await page.getByTestId('judge-uncertain').isVisible()).toBe(true);
    await page.getByTestId('judge-critique-toggle').click();
    const critique = await page.getByTestId('judge-critique').innerText();
    await page.screenshot({ path: '/tmp/judges-compare.png' });
    await page.getByTestId('judge-take').click();
    const pre = (await host.api<{ id: number; critique: string; verdict: string }[]>('judgePrelabels', { project: PROJECT, itemId: ids[1]! }))[0]!;
    const values = await Promise.all(['critique-left-text', 'critique-right-text'].map((id) => page.getByTestId(id).inputValue()));
    const which = values.indexOf(pre.critique);
    expect(which, `a critique box holds the judge's critique (${JSON.stringify(critique)})`).toBeGreaterThanOrEqual(0);
    await page.getByTestId(['critique-left-text', 'critique-right-text'][which]!).focus();
    await page.keyboard.press('End');
    await page.keyboard.type(' Fixed.');
    await page.keyboard.press('Escape');
    const db = new Database(host.dbPath, { readonly: true, fileMustExist: true });
    try {
      await expect
        .poll(() => (db.prepare('SELECT distance FROM judge_critique_edit WHERE result_id = ? ORDER BY id DESC LIMIT 1').pluck().get(pre.id) as number | undefined) ?? null, { timeout: 15_000 })
        .toBe(' Fixed.'.length);
    } finally {
      db.close();
    }
    expect(problems).toEqual([]);
  });
});
