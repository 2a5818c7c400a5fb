// Pre-labels on the rank screen: each reward model's order of the responses (by reward, named by screen
// position). Blind mode keeps it hidden until the annotator's ranking is complete and then says whether
// the model's best is theirs; assist mode shows it from the start, and the saved ranking says so.
// With ARBITER_SHOTS=1 it also writes docs/screenshots/ranking-prelabels-light.png.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

const PROJECT = 'rank prelabels';
const ANNOTATOR = 'e2e-ranker';
let host: Host;
let browser: Browser;
const ids: number[] = [];

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const items = [0, 1].map((i) => ({
    id: `r${i}`,
    prompt: `Name a prime number greater than ${10 * (i + 1)}.`,
    responses: [{ text: `${10 * (i + 1) + 1} is prime.` }, { text: 'I am not sure.' }, { text: `${10 * (i + 1) + 3}, because it has no divisors but 1 and itself.` }],
  }));
  await host.api('importContent', { project: PROJECT, fileName: 'r.jsonl', content: items.map((i) => JSON.stringify(i)).join('\n') + '\n', format: 'arbiter', createProject: true });
  // The browser host adds models only from `models` beside the database (issue 13, finding 14).
  cpSync(join(ROOT, 'resources', 'models', 'demo-outcome'), join(host.home, 'models', 'demo-outcome'), { recursive: true });
  await host.api('addModel', { dir: 'demo-outcome' });
  const job = await host.api<{ id: string }>('startScoring', { project: PROJECT });
  for (let i = 0; i < 600; i++) {
    const state = (await host.api<{ id: string; state: string }[]>('listJobs', {})).find((j) => j.id === job.id)?.state;
    if (state === 'done') break;
    if (state === 'failed') throw new Error('scoring failed');
    await new Promise((r) => setTimeout(r, 100));
  }
  const list = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, annotator: ANNOTATOR, limit: 10 });
  for (const ext of ['r0', 'r1']) ids.push(list.rows.find((r) => r.externalId === ext)!.id);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/** The model's order as the screen names it: screen positions by falling reward. */
async function expectedOrder(itemId: number): Promise<string> {
  const pre = await host.api<{ models: { rewards: number[] }[] }>('prelabels', { project: PROJECT, itemId });
  const { shownOrder } = await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId });
  const rewards = pre.models[0]!.rewards;
  return shownOrder
    .map((source, screen) => ({ screen: screen + 1, reward: rewards[source]! }))
    .sort((a, b) => b.reward - a.reward || a.screen - b.screen)
    .map((r) => r.screen)
    .join(' > ');
}

async function rankedItem(page: Page): Promise<number> {
  await page.getByTestId('ranking-screen').and(page.locator('[data-item-id]:not([data-item-id=""])')).waitFor();
  return Number(await page.getByTestId('ranking-screen').getAttribute('data-item-id'));
}

async function lastRevision(itemId: number) {
  const history = await host.api<{ task: string; body: { prelabel_visible?: boolean } }[]>('labelHistory', { project: PROJECT, itemId });
  return history.filter((r) => r.task === 'ranking').at(-1);
}

describe('pre-labels on the rank screen', () => {
  it('blind: hidden until the ranking is complete, then each model’s order and whether its best is yours', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR });
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}/rank`), PROJECT);
    const itemId = await rankedItem(page);
    const models = page.getByTestId('model-ranking');
    await expect.poll(() => models.getAttribute('data-state')).toBe('hidden');
    expect(await models.innerText()).not.toMatch(/>/);
    await page.keyboard.press('1');
    await page.keyboard.press('2'); // the third is placed by itself: complete
    await expect.poll(() => models.getAttribute('data-state')).toBe('shown');
    const expected = await expectedOrder(itemId);
    expect(await models.innerText()).toContain(`demo-outcome: ${expected}`);
    expect(await models.innerText()).toMatch(expected.startsWith('1') ? /same best/ : /another best/);
    if (process.env.ARBITER_SHOTS === '1') await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'ranking-prelabels-light.png') });
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await lastRevision(itemId))?.body.prelabel_visible).toBe(false);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('assist: shown from the start, and the saved ranking records that it was', async () => {
    await host.api('updateProjectSettings', { project: PROJECT, settings: { prelabels: 'assist' } });
    const { page } = await openApp(browser, host, { annotator: ANNOTATOR });
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}/rank`), PROJECT);
    const itemId = await rankedItem(page);
    const models = page.getByTestId('model-ranking');
    await expect.poll(() => models.getAttribute('data-state')).toBe('shown');
    expect(await models.innerText()).toContain(`demo-outcome: ${await expectedOrder(itemId)}`);
    await page.keyboard.press('1');
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await lastRevision(itemId))?.body.prelabel_visible).toBe(true);
    await page.context().close();
  });
});
