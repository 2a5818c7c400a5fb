// The demo's video project (issue 24, Done when): a first launch has "Demo videos" beside "Demo", its clips
// committed files (resources/demo/videos, no ffmpeg at run time). From the project list it opens on
// Compare with two generated clips decoded side by side, the video-generation rubric's per-criterion
// winners under them, playing on one clock; the robot episode's two cameras sit on the Verdict screen.
// Its pairs carry the demo video model's scores (resources/models/demo-video): the vote shows after a
// choice under blind and up front under assist (/tmp/demo-videos-assist-{light,dark}.png).
// Screenshots of both screens in light and dark go to /tmp/demo-videos-*.png; nothing leaves the host.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const PROJECT = 'Demo videos';

let host: Host;
let browser: Browser;
const outside: string[] = [];

/** Each video's readiness, time and whether it plays. */
const clocks = (page: Page) => page.getByTestId('video').evaluateAll((vs) => vs.map((v) => ({ ready: (v as HTMLVideoElement).readyState >= 2, t: (v as HTMLVideoElement).currentTime, paused: (v as HTMLVideoElement).paused })));

beforeAll(async () => {
  host = await startHost({ demo: true });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('the video demo', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`opens from the project list ready to label, clips playing on one clock (${theme})`, async () => {
      const { page, problems } = await openApp(browser, host, { annotator: `demo-${theme}`, theme });
      page.on('request', (r) => {
        if (!r.url().startsWith(host.origin) && !/^(blob|data):/.test(r.url())) outside.push(r.url());
      });
      await page.getByText(PROJECT, { exact: true }).first().click();
      await page.locator('[data-testid="compare"]:not([data-item-id=""])').waitFor({ timeout: 20_000 });
      await expect.poll(() => clocks(page).then((c) => c.map((v) => v.ready)), { timeout: 20_000 }).toEqual([true, true]);
      // The rubric in force is VideoAlign's axes, a winner per criterion under the pair.
      await expect.poll(() => page.getByTestId('compare').innerText(), { timeout: 10_000 }).toMatch(/visual_quality|Visual quality/i);
      await page.screenshot({ path: `/tmp/demo-videos-compare-${theme}.png` });
      await page.keyboard.press('Space');
      await expect.poll(() => clocks(page).then((c) => c.every((v) => !v.paused && v.t > 0.3)), { timeout: 10_000 }).toBe(true);
      await page.keyboard.press('Space');
      await expect.poll(() => clocks(page).then((c) => c.every((v) => v.paused) && Math.abs(c[0]!.t - c[1]!.t) < 1 / 12)).toBe(true);
      // The robot episode: two cameras on the Verdict screen, one transport bar.
      await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/verdict`);
      await page.locator('[data-testid="verdict-screen"]:not([data-item-id=""])').waitFor({ timeout: 20_000 });
      await expect.poll(() => clocks(page).then((c) => c.map((v) => v.ready)), { timeout: 20_000 }).toEqual([true, true]);
      expect(await page.getByTestId('video-transport').count()).toBe(1);
      await expect.poll(() => page.getByTestId('video-caption').allInnerTexts()).toEqual([expect.stringContaining('observation.images.top'), expect.stringContaining('observation.images.wrist')]);
      await page.screenshot({ path: `/tmp/demo-videos-episode-${theme}.png` });
      expect(problems).toEqual([]);
      expect(outside).toEqual([]);
      await page.context().close();
    }, 90_000);
  }

  it('the demo video model votes: after a choice under blind, and up front under assist (light and dark)', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: 'demo-prelabels' });
    page.on('request', (r) => {
      if (!r.url().startsWith(host.origin) && !/^(blob|data):/.test(r.url())) outside.push(r.url());
    });
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/compare`);
    const compare = page.locator('[data-testid="compare"]:not([data-item-id=""])');
    await compare.waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('prelabels').getAttribute('data-mode'), { timeout: 15_000 }).toBe('blind');
    const first = await compare.getAttribute('data-item-id');
    // Scored at first launch (resources/models/demo-video): the vote is there, and blind hides it until the choice.
    const scored = await host.api<{ models: { name: string; vote: string | null }[] }>('prelabels', { project: PROJECT, itemId: Number(first) });
    expect(scored.models.find((m) => m.name === 'demo-video')?.vote).toMatch(/^(A|B|tie)$/);
    expect(await page.getByTestId('model-vote').count()).toBe(0);
    await page.keyboard.press('1');
    const reveal = page.getByTestId('prelabel-reveal');
    await reveal.waitFor({ timeout: 15_000 });
    expect(await reveal.innerText()).toMatch(/you chose Left better[\s\S]*demo-video/);
    expect(await reveal.getByTestId('model-vote').count()).toBeGreaterThan(0);
    // Assist: the next pair shows the vote and its P on the prelabel line before any choice.
    await host.api('updateProjectSettings', { project: PROJECT, settings: { prelabels: 'assist' } });
    await page.reload();
    await compare.waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('prelabels').getAttribute('data-mode'), { timeout: 15_000 }).toBe('assist');
    const line = page.getByTestId('prelabel-line');
    await expect.poll(async () => ((await line.count()) ? await line.innerText() : ''), { timeout: 15_000 }).toMatch(/demo-video[\s\S]*\d\.\d\d/);
    await expect.poll(() => clocks(page).then((c) => c.map((v) => v.ready)), { timeout: 20_000 }).toEqual([true, true]);
    // The filmstrip's eight key frames drawn before the screenshot.
    await expect.poll(() => page.getByTestId('video-filmstrip').getAttribute('data-drawn'), { timeout: 15_000 }).toBe('8');
    await page.screenshot({ path: '/tmp/demo-videos-assist-light.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await page.screenshot({ path: '/tmp/demo-videos-assist-dark.png' });
    await host.api('updateProjectSettings', { project: PROJECT, settings: { prelabels: 'blind' } });
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
    await page.context().close();
  }, 90_000);
});
