// Ratings under the single response of the verdict screen: a required criterion left empty blocks the
// verdict with a message that says what is missing and puts the focus there; rated by keyboard (digits,
// y), the ratings and the verdict are saved as two revisions, the ratings under the rubric version shown.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'verdict ratings';
const ANNOTATOR = 'e2e-judge';
let host: Host;
let browser: Browser;
const ids = new Map<string, number>();

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const items = [
    { id: 'v1', prompt: 'What is 12 × 12?', responses: [{ text: '144.' }] },
    { id: 'v2', prompt: 'What is the boiling point of water at sea level?', responses: [{ text: '100 °C (212 °F).' }] },
  ];
  await host.api('importContent', { project: PROJECT, fileName: 'v.jsonl', content: items.map((i) => JSON.stringify(i)).join('\n') + '\n', format: 'arbiter', createProject: true });
  await host.api('saveRubric', {
    project: PROJECT,
    name: 'facts',
    criteria: [
      { key: 'accuracy', description: 'Is the answer right?', scale: { type: 'likert', min: 1, max: 5 }, required: true },
      { key: 'cites', description: 'Does it say where it comes from?', scale: { type: 'binary' } },
    ],
  });
  const rows = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, annotator: ANNOTATOR, limit: 10 });
  for (const r of rows.rows) ids.set(r.externalId, r.id);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

const history = async (external: string, task: string) =>
  (await host.api<{ task: string; choice: string | null; body: { ratings?: unknown; rubric?: string; rubric_version?: number } }[]>('labelHistory', { project: PROJECT, itemId: ids.get(external) })).filter((r) => r.task === task);

async function onItem(page: Page, external: string) {
  await expect.poll(() => page.getByTestId('verdict-screen').getAttribute('data-item-id')).toBe(String(ids.get(external)));
}

describe('ratings on the verdict screen', () => {
  it('a required criterion blocks the verdict; rated by keyboard, ratings and verdict are saved', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: ANNOTATOR });
    await page.evaluate((p) => (location.hash = `#/p/${encodeURIComponent(p)}/verdict`), PROJECT);
    await onItem(page, 'v1');
    await expect.poll(() => page.getByTestId('rubric-version').innerText()).toMatch(/facts/);
    await page.keyboard.press('1'); // good, but accuracy is required and empty
    const message = page.getByTestId('ratings-required');
    await message.waitFor();
    expect(await message.innerText()).toMatch(/Missing.*accuracy/);
    await onItem(page, 'v1');
    expect(await history('v1', 'verdict')).toEqual([]);

    // The refused verdict put the focus on the missing criterion: digits rate it, then the next one.
    await page.keyboard.press('4');
    await page.keyboard.press('y');
    await page.keyboard.press('Escape');
    await expect.poll(() => message.count()).toBe(0);
    await page.keyboard.press('1');
    await onItem(page, 'v2');
    await expect.poll(async () => (await history('v1', 'verdict')).map((h) => h.choice)).toEqual(['good']);
    await expect.poll(async () => (await history('v1', 'rubric')).at(-1)?.body).toMatchObject({ ratings: { A: { accuracy: 4, cites: 1 } }, rubric: 'facts', rubric_version: 1 });
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
