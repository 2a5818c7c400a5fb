// Shift+→ on the step screen (the next item without this annotator's step labels) asks the host only once
// the chain's step saves have landed. A pending qualification serves its chains whatever the position, so
// a save still on its way had the host answer the chain on screen again, and the screen said "No later item
// is without your step labels" (the labeling screens' twin: qualification-asks.test.ts).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'e2e next unlabeled';
const CHAINS = Array.from({ length: 3 }, (_, i) => ({ id: `chain-${i}`, prompt: `Add ${i} and 2.`, responses: [{ text: `Step 1: Take ${i}.\nStep 2: Add 2.\nStep 3: The answer is ${i + 2}.` }] }));

let host: Host;
let browser: Browser;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  await host.api('importContent', { project: PROJECT, fileName: 'chains.jsonl', content: CHAINS.map((c) => JSON.stringify(c)).join('\n') + '\n', format: 'arbiter', createProject: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('Shift+→ on the step screen', () => {
  it('asks for the next chain without step labels only once this chain’s save has landed', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: 'e2e-next-unlabeled' });
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => (release = done));
    let holding = false;
    let seen = 0;
    await page.route('**/api/saveSteps', async (route) => {
      holding = true;
      seen++;
      await held;
      holding = false;
      await route.continue();
    });
    let pressed = false;
    const asked: boolean[] = [];
    page.on('request', (r) => {
      if (pressed && r.url().endsWith('/api/nextItem') && (r.postDataJSON() as { unlabeledOnly?: boolean }).unlabeledOnly) asked.push(holding);
    });
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/steps`);
    await page.getByTestId('step-list').waitFor();
    const first = await page.getByTestId('steps-screen').getAttribute('data-item-id');
    await page.keyboard.press('=');
    await expect.poll(() => seen).toBe(1);
    pressed = true;
    await page.keyboard.press('Shift+ArrowRight');
    // The key's own task and two frames: a screen that asks at once has asked by now.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0)))));
    release();
    await expect.poll(() => page.getByTestId('steps-screen').getAttribute('data-item-id'), { timeout: 10_000 }).not.toBe(first);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked).not.toContain(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
