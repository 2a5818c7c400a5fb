// Marks in time on a pair of generated clips (issue 24, item 4), by keyboard in a real Chromium page:
// Shift+T marks an instant at the playhead on the video last pointed at (paused, its tag box opens: a tag,
// Enter, a note, Enter), Shift+I / Shift+O set a loop and Shift+L turns it into a range mark; the marks
// are saved on the annotator's judgement (a new revision each), drawn on the scrub bar and the filmstrip,
// listed with their tags and notes; Shift+N / Shift+P go from mark to mark, Shift+X removes one, Ctrl+Z
// takes the last change back; after leaving the item and coming back they are read from the label. An
// item not judged yet says so and keeps nothing. On an item with an image and videos, `.` steps the videos
// until the mouse points at the image, then marks the image (the key bar says so). Clips by ffmpeg.
// In review, the lead sees each person's marks on one timeline per response with their agreement, and the
// item in the queue with the reason "moments". ARBITER_SHOTS=1 writes /tmp/video-moments-*.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Moment } from '../../shared/moments';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing, makeClip } from '../helpers/videoClips';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const skip = skipOrFail('video-moments', ffmpegMissing());
const PROJECT = 'e2e moments';
const ANNOTATOR = 'e2e-timer';
const SHOTS = process.env.ARBITER_SHOTS === '1';

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const outside: string[] = [];
const ids = new Map<string, number>();
let leftPlace = 0;

const clip = (path: string) => ({ type: 'video', video: path });
const answer = (...parts: unknown[]) => ({ text: [{ role: 'assistant', content: parts }] });

async function openItem(p: Page, external: string): Promise<void> {
  await p.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${ids.get(external)}`);
  await expect.poll(() => p.getByTestId('compare').getAttribute('data-item-id'), { timeout: 15_000 }).toBe(String(ids.get(external)));
  await expect.poll(() => p.getByTestId('video').evaluateAll((vs) => vs.map((v) => (v as HTMLVideoElement).readyState >= 1)), { timeout: 15_000 }).toEqual([true, true]);
}

const saved = async (external: string) =>
  (await host.api<{ annotator: string; task: string; choice: string | null; body: { moments?: Moment[] } }[]>('labelHistory', { project: PROJECT, itemId: ids.get(external) })).filter((r) => r.annotator === ANNOTATOR && r.task === 'pairwise');
const lastMoments = async (external: string) => (await saved(external)).at(-1)?.body.moments ?? [];
const frame = async () => Number((await page.getByTestId('video-frame').innerText()).replace('frame ', ''));

beforeAll(async () => {
  if (skip) return;
  host = await startHost();
  const dir = join(host.home, 'clips');
  mkdirSync(dir);
  makeClip(dir, 'left.webm', { codec: 'vp9', width: 320, height: 180, fps: 24, seconds: 4 });
  makeClip(dir, 'right.webm', { codec: 'vp9', width: 320, height: 180, fps: 24, seconds: 4, source: 'testsrc' });
  const raw = Buffer.alloc(160 * 90 * 3, 120);
  const image = `data:image/png;base64,${(await sharp(raw, { raw: { width: 160, height: 90, channels: 3 } }).png().toBuffer()).toString('base64')}`;
  const items = [
    { id: 'pair', prompt: 'A robot arm stacks two cubes.', responses: [answer(clip('left.webm')), answer(clip('right.webm'))] },
    { id: 'unjudged', prompt: 'The same arm, another try.', responses: [answer(clip('right.webm')), answer(clip('left.webm'))] },
    { id: 'mixed', prompt: 'A still and a clip.', responses: [answer({ type: 'image', image }, clip('left.webm')), answer(clip('right.webm'))] },
  ];
  await host.api('importContent', { project: PROJECT, fileName: 'moments.jsonl', content: items.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true, imagesDir: dir });
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 10 });
  for (const row of rows) ids.set(row.externalId, row.id);
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(host.origin) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
  const item = await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId: ids.get('pair') });
  leftPlace = item.shownOrder[0]!;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe.skipIf(skip)('marks in time on the compare screen', () => {
  it('an item not judged yet keeps no mark and says why', async () => {
    await openItem(page, 'unjudged');
    await page.getByTestId('video-scrub').fill('1');
    await page.keyboard.press('Shift+T');
    await expect.poll(() => page.getByTestId('video-moments-status').innerText()).toContain('judge the item first');
    expect(await page.getByTestId('video-moment').count()).toBe(0);
    expect(await saved('unjudged')).toEqual([]);
  });

  it('Shift+T marks an instant on the video pointed at; its tag and note are typed from the keyboard and saved', async () => {
    await openItem(page, 'pair');
    await page.keyboard.press('1');
    await expect.poll(async () => (await saved('pair')).map((r) => r.choice)).toEqual([leftPlace === 0 ? 'A' : 'B']);
    // Back on the pair (the loop moved on after the choice; by way of another item, the address may not have changed).
    await openItem(page, 'mixed');
    await openItem(page, 'pair');
    await page.locator('[data-testid="response-body-left"] [data-testid="video"]').hover();
    await page.getByTestId('video-scrub').fill('1');
    await page.keyboard.press('Shift+T');
    const tag = page.getByTestId('video-moment-tag').first();
    await expect.poll(() => tag.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('collision');
    await page.keyboard.press('Enter');
    await page.keyboard.type('the arm hits the wall');
    await page.keyboard.press('Enter');
    await expect.poll(() => lastMoments('pair')).toEqual([{ at: leftPlace, from: 1, tag: 'collision', note: 'the arm hits the wall' }]);
    expect(await page.getByTestId('video-moment-time').allInnerTexts()).toEqual(['00:01.000']);
  });

  it('Shift+I, Shift+O then Shift+L make the loop a range mark, drawn on the scrub bar and the filmstrip', async () => {
    await page.getByTestId('video-scrub').fill('2');
    await page.keyboard.press('Shift+I');
    await page.getByTestId('video-scrub').fill('3');
    await page.keyboard.press('Shift+O');
    await page.keyboard.press('Shift+L');
    await expect.poll(() => page.getByTestId('video-moment').count()).toBe(2);
    await page.keyboard.press('Escape');
    await expect.poll(() => lastMoments('pair')).toEqual([
      { at: leftPlace, from: 1, tag: 'collision', note: 'the arm hits the wall' },
      { at: leftPlace, from: 2, to: 3, tag: 'collision' },
    ]);
    expect(await page.getByTestId('video-loop').count()).toBe(0);
    expect(await page.getByTestId('video-moment-span').evaluateAll((spans) => spans.map((s) => s.getAttribute('data-kind')))).toEqual(['instant', 'range']);
    // 4 s in 8 frames: the instant at 1 s under frame 3, the range 2–3 s under frames 5 and 6 (and 7 at its end).
    expect(await page.getByTestId('video-filmstrip-mark').count()).toBeGreaterThanOrEqual(3);
    if (SHOTS) await page.screenshot({ path: '/tmp/video-moments-light.png' });
  });

  it('Shift+N / Shift+P go from mark to mark; Ctrl+Z takes the range back, Shift+X removes the selected mark', async () => {
    await page.getByTestId('video-scrub').fill('0');
    await page.keyboard.press('Shift+N');
    await expect.poll(() => page.getByTestId('video-timecode').innerText()).toMatch(/^00:01\.000/);
    await page.keyboard.press('Shift+N');
    await expect.poll(() => page.getByTestId('video-timecode').innerText()).toMatch(/^00:02\.000/);
    await page.keyboard.press('Shift+P');
    await expect.poll(() => page.getByTestId('video-timecode').innerText()).toMatch(/^00:01\.000/);
    await page.keyboard.press('Control+z');
    await expect.poll(() => lastMoments('pair')).toEqual([{ at: leftPlace, from: 1, tag: 'collision', note: 'the arm hits the wall' }]);
    expect(await page.getByTestId('video-moment').count()).toBe(1);
    // The choice is untouched by the marks' undo.
    expect((await saved('pair')).at(-1)!.choice).toBe(leftPlace === 0 ? 'A' : 'B');
    await page.keyboard.press('Shift+T');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await lastMoments('pair')).length).toBe(2);
    await page.keyboard.press('Shift+X');
    await expect.poll(async () => (await lastMoments('pair')).length).toBe(1);
  });

  it('the marks are read back from the label when the item is shown again', async () => {
    await openItem(page, 'unjudged');
    expect(await page.getByTestId('video-moment').count()).toBe(0);
    await openItem(page, 'pair');
    await expect.poll(() => page.getByTestId('video-moment-tag').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(['collision']);
    expect(await page.getByTestId('video-moment-note').first().inputValue()).toBe('the arm hits the wall');
  });

  it('with an image and videos on the item, `.` steps the videos until the mouse points at the image, then marks it', async () => {
    await openItem(page, 'mixed');
    await expect.poll(() => page.locator('[data-testid="image-view"][data-state="shown"]').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId('video-dot-owner').innerText()).toContain('after pointing at an image, the image’s (mark, zoom)');
    await page.getByTestId('video-scrub').fill('1');
    const before = await frame();
    await page.keyboard.press('.');
    await expect.poll(frame).toBe(before + 1);
    expect(await page.getByTestId('region-status').count()).toBe(0);
    await page.getByTestId('image-view').hover();
    await page.keyboard.press('.');
    await expect.poll(() => page.getByTestId('region-status').innerText()).toContain('Marking image');
    expect(await frame()).toBe(before + 1);
    // While the image is marked, Space is the marking's (it places the crosshair), never play.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('region-status').count()).toBe(0);
    // z too: the image zooms while it was pointed at last, the videos after pointing at one.
    await page.keyboard.press('z');
    await page.getByTestId('image-zoom').waitFor();
    expect(await page.getByTestId('video-zoom').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('image-zoom').count()).toBe(0);
    await page.getByTestId('video').first().hover();
    await page.keyboard.press('.');
    await expect.poll(frame).toBe(before + 2);
    await page.keyboard.press('z');
    await page.getByTestId('video-zoom').waitFor();
    expect(await page.getByTestId('image-zoom').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('video-zoom').count()).toBe(0);
  });

  it('review: each person’s marks on one timeline per response, their agreement, and the item in the queue', async () => {
    const mineNow = await lastMoments('pair');
    const pairId = ids.get('pair')!;
    // A second person sees it otherwise: the same choice, a slip 2 s later and a first failure.
    await host.api('saveLabel', { project: PROJECT, annotator: 'e2e-second', itemId: pairId, choice: leftPlace === 0 ? 'A' : 'B', shownOrder: [0, 1] });
    await host.api('saveMoments', { project: PROJECT, annotator: 'e2e-second', itemId: pairId, task: 'pairwise', moments: [{ at: leftPlace, from: 3, tag: 'slip', note: 'the cube slides off' }], firstFailure: { [leftPlace === 0 ? 'A' : 'B']: 3 } });
    await host.api('reviewReport', { project: PROJECT, refresh: true });
    const lead = await openApp(browser, host, { annotator: 'e2e-lead' });
    await lead.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/review/item/${pairId}`);
    const rows = lead.page.getByTestId('review-moment-row');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-annotator')))).toEqual(expect.arrayContaining([ANNOTATOR, 'e2e-second']));
    expect(await lead.page.locator(`[data-testid="review-moment-row"][data-annotator="${ANNOTATOR}"] [data-testid="review-moment-mark"]`).count()).toBe(mineNow.length);
    expect(await lead.page.locator('[data-testid="review-moment-row"][data-annotator="e2e-second"] [data-testid="review-moment-failure"]').count()).toBe(1);
    expect(await lead.page.getByTestId('review-moment-pair').innerText()).toMatch(/marks 0\.00 · first failure: one only/);
    expect(await lead.page.getByTestId('review-moments').innerText()).toContain('the cube slides off');
    if (SHOTS) await lead.page.screenshot({ path: '/tmp/video-moments-review.png', fullPage: true });
    const queue = await host.api<{ rows: { itemId: number; reasons: string[] }[] }>('reviewQueue', { project: PROJECT, task: 'pairwise', reason: 'moments' });
    expect(queue.rows.map((r) => r.itemId)).toEqual([pairId]);
    await lead.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/review/agreement`);
    const marks = lead.page.getByTestId('moment-marks');
    await marks.waitFor({ timeout: 20_000 });
    expect(await marks.innerText()).toBe('0.00 over 1 item');
    expect(await lead.page.getByTestId('moment-failures').innerText()).toBe('0% over 1 item');
    if (SHOTS) {
      await lead.page.locator('[data-chart="moment-agreement"]').scrollIntoViewIfNeeded();
      await lead.page.screenshot({ path: '/tmp/video-moments-agreement.png' });
    }
    expect(lead.problems).toEqual([]);
    await lead.page.context().close();
  });

  it.runIf(SHOTS)('reads well in the dark theme, on Compare and in review (screenshots to /tmp)', async () => {
    const dark = await openApp(browser, host, { annotator: ANNOTATOR, theme: 'dark' });
    await openItem(dark.page, 'pair');
    await expect.poll(() => dark.page.getByTestId('video-moment').count()).toBe(1);
    await dark.page.getByTestId('video-scrub').fill('1');
    await dark.page.screenshot({ path: '/tmp/video-moments-dark.png' });
    await dark.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/review/item/${ids.get('pair')}`);
    await expect.poll(() => dark.page.getByTestId('review-moment-row').count(), { timeout: 20_000 }).toBe(2);
    await dark.page.screenshot({ path: '/tmp/video-moments-review-dark.png' });
    expect(dark.problems).toEqual([]);
    await dark.page.context().close();
  }, 90_000);

  it('requested nothing outside its own origin, and logged no errors', () => {
    if (problems.length) console.info(problems);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
