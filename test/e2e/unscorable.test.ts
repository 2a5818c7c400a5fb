// "N unscorable" says why, where the count appears: a response with no text to split into steps gets
// no score from a process model, and the Models screen names the reason and the response.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'e2e unscorable';

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: 'e2e-scores' }));
  const lines = [
    { id: 'ok-1', prompt: 'What is 2 + 2?', chosen: 'Step one: add.\n\nSo it is 4.', rejected: 'It is 5.' },
    { id: 'blank-2', prompt: 'Say nothing.', chosen: 'Nothing.', rejected: '   ' },
  ];
  await host.api('importContent', { project: PROJECT, fileName: 'p.jsonl', content: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', createProject: true });
  // The browser host adds models only from `models` beside the database (issue 13, finding 14).
  cpSync(join(ROOT, 'resources', 'models', 'demo-process'), join(host.home, 'models', 'demo-process'), { recursive: true });
  await host.api('addModel', { dir: 'demo-process' });
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('unscorable responses', () => {
  it('the Models screen says how many, why, and which response', async () => {
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/models`);
    await page.getByTestId('score-start').click();
    await page.locator('[data-testid="job"][data-state="done"]').waitFor({ timeout: 60_000 });
    const run = page.getByTestId('job-model');
    expect(await run.innerText()).toMatch(/1 unscorable/);
    expect(await page.getByTestId('job-unscorable').innerText()).toBe(
      '⚠ 1 unscorable: the response has no steps to score: its text is empty or only spaces. item blank-2, response B',
    );
    expect(problems).toEqual([]);
  });
});
