// Marks in time when the prompt holds a video and the responses do too (issue 24, item 4): the prompt's
// clip leads the screen's clock and keeps the one transport bar under it, but the marks are the responses':
// the 'Marks in time' list sits under the first response's video (the left one on Compare), none under the
// prompt, and Shift+T marks an instant on the response pointed at, saved on the annotator's judgement and
// drawn on the prompt's scrub bar. Clips by ffmpeg; nothing leaves the host.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Moment } from '../../shared/moments';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing, makeClip } from '../helpers/videoClips';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const skip = skipOrFail('video-prompt-marks', ffmpegMissing());
const PROJECT = 'e2e prompt clip marks';
const ANNOTATOR = 'e2e-prompt-marks';

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
let itemId = 0;
let shownOrder: number[] = [];
const outside: string[] = [];

const clip = (path: string) => ({ type: 'video', video: path });
const answer = (path: string) => ({ text: [{ role: 'assistant', content: [clip(path)] }] });

const lastMoments = async () =>
  (await host.api<{ annotator: string; task: string; body: { moments?: Moment[] } }[]>('labelHistory', { project: PROJECT, itemId })).filter((r) => r.annotator === ANNOTATOR && r.task === 'pairwise').at(-1)?.body.moments ?? [];

beforeAll(async () => {
  if (skip) return;
  host = await startHost();
  const dir = join(host.home, 'clips');
  mkdirSync(dir);
  makeClip(dir, 'source.webm', { codec: 'vp9', width: 160, height: 90, fps: 24, seconds: 3 });
  makeClip(dir, 'a.webm', { codec: 'vp9', width: 160, height: 90, fps: 24, seconds: 3, source: 'testsrc' });
  makeClip(dir, 'b.webm', { codec: 'vp9', width: 160, height: 90, fps: 24, seconds: 3 });
  const item = { id: 'v2v', prompt: [{ role: 'user', content: [clip('source.webm'), { type: 'text', text: 'Continue this clip for three seconds.' }] }], responses: [answer('a.webm'), answer('b.webm')] };
  await host.api('importContent', { project: PROJECT, fileName: 'v2v.jsonl', content: JSON.stringify(item) + '\n', format: 'arbiter', createProject: true, imagesDir: dir });
  const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT, limit: 10 });
  itemId = rows[0]!.id;
  shownOrder = (await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId })).shownOrder;
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  page.on('request', (r) => {
    if (!r.url().startsWith(host.origin) && !/^(blob|data):/.test(r.url())) outside.push(r.url());
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe.skipIf(skip)('a prompt clip and response clips', () => {
  it('the prompt’s clip keeps the transport; the marks list and keys are on the responses’ videos', async () => {
    // Judged first (marks are saved on the judgement), then shown again.
    await host.api('saveLabel', { project: PROJECT, annotator: ANNOTATOR, itemId, choice: 'A', strength: null, shownOrder });
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${itemId}`);
    await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id'), { timeout: 15_000 }).toBe(String(itemId));
    await expect.poll(() => page.getByTestId('video').evaluateAll((vs) => vs.map((v) => (v as HTMLVideoElement).readyState >= 1)), { timeout: 15_000 }).toEqual([true, true, true]);
    const prompt = page.getByTestId('prompt');
    const left = page.getByTestId('response-body-left');
    await prompt.getByTestId('video-transport').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('video-transport').count()).toBe(1);
    await left.getByTestId('video-moments').waitFor({ timeout: 10_000 });
    expect(await prompt.getByTestId('video-moments').count()).toBe(0);
    expect(await page.getByTestId('video-moments').count()).toBe(1);
    expect(await left.getByTestId('video-moments').innerText()).toMatch(/on Left/);

    // Shift+T on the right response's video (pointed at), the playhead moved on the prompt's bar.
    await page.locator('[data-testid="response-body-right"] [data-testid="video"]').hover();
    await prompt.getByTestId('video-scrub').fill('1');
    await page.keyboard.press('Shift+T');
    await page.keyboard.press('Escape');
    await expect.poll(() => lastMoments()).toEqual([{ at: shownOrder[1], from: 1, tag: expect.any(String) }]);
    await expect.poll(() => left.getByTestId('video-moment').count()).toBe(1);
    expect(await left.getByTestId('video-moment').innerText()).toContain('Right');
    expect(await prompt.getByTestId('video-moment-span').count()).toBe(1);
    await page.screenshot({ path: '/tmp/video-prompt-marks.png' });
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
