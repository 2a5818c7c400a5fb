// The Datasets screen's "Step labels" panel: switching how responses are cut into steps changes how the
// step screen cuts a chain no one has rated, and a tag added from the keyboard is offered by the step
// screen's tag picker. Both are saved as project settings (checked through the API).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, startHost, writeJsonl, type Host } from './helpers';

const ANNOTATOR = 'e2e-settings';
const PROJECT = 'e2e step settings';
// Three "Step N:" markers in two paragraphs: markers give three steps, paragraphs two.
const CHAIN = 'Step 1: 3 + 4 = 7.\nStep 2: 7 × 2 = 14.\n\nStep 3: The answer is 14.';
const ITEMS = [{ id: 'chain', prompt: 'Add 3 and 4, then double it.', responses: [{ text: CHAIN }] }];
const TAG = 'unit error';

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

const project = () => host.api<{ settings: { segmentation: string; errorTags: string[] } }>('getProject', { project: PROJECT });
const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  await createProjectViaUi(page, PROJECT);
  await importViaUi(page, writeJsonl(host.home, 'chain.jsonl', ITEMS));
  expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 1 new item/);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('the step label settings', () => {
  it('cuts an unrated chain by paragraphs once the method is switched in the panel', async () => {
    await go(`#/p/${encodeURIComponent(PROJECT)}/steps`);
    await page.getByTestId('step-list').waitFor();
    await expect.poll(() => page.getByTestId('step').count()).toBe(3);

    await go(`#/p/${encodeURIComponent(PROJECT)}/datasets`);
    const select = page.getByTestId('segmentation-method');
    await select.waitFor();
    expect(await select.inputValue()).toBe('auto');
    await select.selectOption('paragraphs');
    await expect.poll(() => page.getByTestId('segmentation-note').innerText()).toContain('blank line');
    await expect.poll(async () => (await project()).settings.segmentation).toBe('paragraphs');

    await go(`#/p/${encodeURIComponent(PROJECT)}/steps`);
    await page.getByTestId('step-list').waitFor();
    await expect.poll(() => page.getByTestId('step').count()).toBe(2);
    expect(await page.getByTestId('step').nth(0).innerText()).toContain('7 × 2 = 14');
  });

  it('adds a tag with the text box and Enter, removes one with its button, and the step screen offers the list', async () => {
    await go(`#/p/${encodeURIComponent(PROJECT)}/datasets`);
    const box = page.getByTestId('add-tag');
    await box.waitFor();
    await box.focus();
    await page.keyboard.type(TAG);
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="error-tag"][data-tag="${TAG}"]`).waitFor();
    await expect.poll(() => box.inputValue()).toBe('');
    await page.locator('[data-testid="error-tag"][data-tag="formatting"]').getByTestId('remove-tag').click();
    await expect.poll(() => page.locator('[data-testid="error-tag"][data-tag="formatting"]').count()).toBe(0);
    await expect.poll(async () => (await project()).settings.errorTags).toContain(TAG);
    expect((await project()).settings.errorTags).not.toContain('formatting');

    // A duplicate is refused with a sentence, and nothing changes.
    await box.focus();
    await page.keyboard.type(TAG);
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('step-settings-error').innerText()).toContain('already a tag');

    await go(`#/p/${encodeURIComponent(PROJECT)}/steps`);
    await page.getByTestId('step-list').waitFor();
    await page.keyboard.press('t');
    await page.getByTestId('tag-picker').waitFor();
    await page.locator(`[data-testid="tag-option"][data-tag="${TAG}"]`).waitFor();
    expect(await page.locator('[data-testid="tag-option"][data-tag="formatting"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(problems).toEqual([]);
  });
});
