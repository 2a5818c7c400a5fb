// The Models screen after scoring the demo (issue 20, item 23): the responses a model does not take by
// design (images for a text model, text for an image model, prompts with images) are said as calm notes,
// "not scored", not as red "unscorable" warnings; a real problem (an empty response for a process model,
// unscorable.test.ts) is still a warning. With ARBITER_SHOTS=1 it writes
// docs/screenshots/models-notes-{light,dark}.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

let host: Host;
let browser: Browser;

beforeAll(async () => {
  host = await startHost({ demo: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('scoring the demo', () => {
  it('says the exclusions by design as notes, not warnings', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: 'e2e-models' });
    await page.evaluate(() => (location.hash = '#/p/Demo/models'));
    await page.getByTestId('score-start').click();
    await page.locator('[data-testid="job"][data-state="done"]').waitFor({ timeout: 90_000 });
    const run = (name: string) => page.locator(`[data-testid="job-model"][data-model="${name}"]`);
    const job = page.getByTestId('job');
    expect(await job.getByTestId('job-unscorable').count()).toBe(0);
    expect(await job.innerText()).not.toContain('⚠');
    expect(await job.locator('[data-testid="job-model"] .text-bad').count()).toBe(0);

    expect(await run('demo-image').innerText()).toMatch(/124 not scored/);
    expect(await run('demo-image').innerText()).not.toMatch(/unscorable/);
    const notes = (name: string) => run(name).getByTestId('job-not-scored').locator('li').allInnerTexts();
    expect(await notes('demo-image')).toEqual([
      expect.stringMatching(/^Not scored: 122 text responses \(an image reward model scores generated images\)\. item demo-001, response A; /),
      expect.stringMatching(/^Not scored: 2 prompts with images \(image-to-image and vision-language items are not for an image reward model\)\. item demo-vl-1, response A/),
    ]);
    for (const name of ['demo-outcome', 'demo-process']) {
      expect(await run(name).innerText()).toMatch(/10 not scored/);
      expect(await notes(name)).toEqual([
        expect.stringMatching(/^Not scored: 8 image responses \(a text model reads text\)\./),
        expect.stringMatching(/^Not scored: 2 prompts with images \(a vision-language reward model is not supported yet\)\./),
      ]);
    }
    // The video model (it scores the video demo's clips) takes none of this project's responses, by design.
    expect(await run('demo-video').innerText()).toMatch(/132 not scored/);
    expect(await notes('demo-video')).toEqual([
      expect.stringMatching(/^Not scored: 122 text responses \(a video reward model scores generated videos\)\./),
      expect.stringMatching(/^Not scored: 8 image responses \(a video reward model scores generated videos\)\. item demo-t2i-1, response A; /),
      expect.stringMatching(/^Not scored: 2 prompts with images or videos \(not for a video reward model\)\. item demo-vl-1, response A/),
    ]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.runIf(process.env.ARBITER_SHOTS === '1')('screenshots of the run, light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { page } = await openApp(browser, host, { annotator: `e2e-models-${theme}`, height: 1000, theme });
      await page.evaluate(() => (location.hash = '#/p/Demo/models'));
      await page.getByTestId('score-start').click();
      await page.locator('[data-testid="job"][data-state="done"]').waitFor({ timeout: 90_000 });
      await page.getByTestId('job').screenshot({ path: join(ROOT, 'docs', 'screenshots', `models-notes-${theme}.png`) });
      await page.context().close();
    }
  });
});
