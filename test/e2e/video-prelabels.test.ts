// Pre-labels from a video reward model on the compare screen (issue 24, item 6): text-to-video pairs (VP9
// clips made here by Debian's ffmpeg: one red, one blue) imported with their folder, a tiny ONNX video model
// (a frame stack, scripts/lib/onnx-video-builder.mjs) added from the host's models folder and run through
// the Models API: its frames decoded by the packaged ffmpeg. Blind (the default) shows nothing until the
// annotator has chosen, then the model's vote for that item in Left / Right words; assist shows the vote and
// P on the prelabel line up front, on the side the model prefers. No request leaves the host.
// The Models screen says the model reads video frames. ARBITER_SHOTS=1 writes /tmp/video-prelabels-{light,dark,models}.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing } from '../helpers/videoClips';
import { colourClip, writeVideoModelFolder } from '../scorer/videoHelpers';
import { launchBrowser, openApp, startHost, type Host } from './helpers';

const skip = skipOrFail('video-prelabels', ffmpegMissing());
const PROJECT = 'e2e video prelabels';
const ANNOTATOR = 'e2e-video-prelabels';
const SHOTS = process.env.ARBITER_SHOTS === '1';

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const outside: string[] = [];
/** Items whose pre-labels the page has been answered for. */
const answered: number[] = [];
const ids = new Map<string, number>();

interface Prelabels {
  models: { name: string; pAB: number | null; vote: 'A' | 'B' | 'tie' | null }[];
}

const clip = (path: string) => ({ text: [{ role: 'assistant', content: [{ type: 'video', video: path }] }] });

async function openItem(external: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${ids.get(external)}`);
  await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id'), { timeout: 15_000 }).toBe(String(ids.get(external)));
}

/** The screen side the model prefers for an item, from its vote and the order the annotator sees. */
async function preferredSide(external: string): Promise<{ side: 'left' | 'right'; p: number }> {
  const itemId = ids.get(external)!;
  const model = (await host.api<Prelabels>('prelabels', { project: PROJECT, itemId })).models[0]!;
  const view = await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId });
  const preferred = model.vote === 'A' ? 0 : 1;
  return { side: view.shownOrder.indexOf(preferred) === 0 ? 'left' : 'right', p: preferred === 0 ? model.pAB! : 1 - model.pAB! };
}

beforeAll(async () => {
  if (skip) return;
  host = await startHost();
  const dir = join(host.home, 'clips');
  mkdirSync(dir);
  colourClip(dir, 'red.webm', ['red', 'red'], { width: 320, height: 180, webm: true });
  colourClip(dir, 'blue.webm', ['blue', 'blue'], { width: 320, height: 180, webm: true });
  const items = [
    { id: 'car', prompt: 'a red car driving along a road', responses: [clip('red.webm'), clip('blue.webm')] },
    { id: 'sea', prompt: 'a blue sea', responses: [clip('red.webm'), clip('blue.webm')] },
    { id: 'road', prompt: 'a red car on a road', responses: [clip('blue.webm'), clip('red.webm')] },
  ];
  await host.api('importContent', { project: PROJECT, fileName: 'videos.jsonl', content: items.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true, imagesDir: dir });
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 10 });
  for (const row of rows) ids.set(row.externalId, row.id);
  // The browser host reads model folders from "models" beside its database.
  const model = writeVideoModelFolder(join(host.home, 'models', 'tiny-video'), { frames: 4 });
  await host.api('addModel', { dir: model.dir });
  await host.api('startScoring', { project: PROJECT, provider: 'cpu' });
  // The scoring job runs in the background: every pair scored before the page opens (so what it asks is there).
  const scored = async () => (await Promise.all([...ids.values()].map((itemId) => host.api<Prelabels>('prelabels', { project: PROJECT, itemId })))).every((p) => p.models[0]?.pAB != null);
  const deadline = Date.now() + 90_000;
  while (!(await scored())) {
    if (Date.now() > deadline) throw new Error('the video model did not score the pairs within 90 s');
    await new Promise((done) => setTimeout(done, 200));
  }
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(host.origin) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
  });
  page.on('requestfinished', (request) => {
    if (!request.url().endsWith('/api/prelabels')) return;
    const body = request.postDataJSON() as { itemId?: number } | null;
    if (typeof body?.itemId === 'number') answered.push(body.itemId);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe.skipIf(skip)('video reward model pre-labels on the compare screen', () => {
  it('blind: no vote while the pair is unlabeled; after the choice, the model’s vote for it in Left / Right words', async () => {
    await openItem('car');
    await expect.poll(() => page.getByTestId('prelabels').getAttribute('data-mode'), { timeout: 15_000 }).toBe('blind');
    await page.getByTestId('video').first().waitFor();
    // The page has this item's pre-labels (asked and answered), and still shows no vote.
    await expect.poll(() => answered.includes(ids.get('car')!), { timeout: 15_000 }).toBe(true);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await page.getByTestId('model-vote').count()).toBe(0);
    expect(await page.getByTestId('prelabel-line').count()).toBe(0);

    const { side } = await preferredSide('car');
    await page.keyboard.press('1'); // Left is better; the screen moves to the next item.
    const reveal = page.getByTestId('prelabel-reveal');
    await reveal.waitFor({ timeout: 15_000 });
    expect(await reveal.innerText()).toMatch(/you chose Left better/);
    expect(await reveal.innerText()).toContain('tiny-video');
    expect(await reveal.getByTestId('model-vote').first().getAttribute('data-vote')).toBe(side);
    const [label] = (await host.api<{ annotator: string; body: { prelabel_visible?: boolean } }[]>('labelHistory', { project: PROJECT, itemId: ids.get('car')! })).filter((r) => r.annotator === ANNOTATOR);
    expect(label!.body.prelabel_visible).toBe(false);
  });

  it('assist: the vote and P up front, on the side the model prefers', async () => {
    await host.api('updateProjectSettings', { project: PROJECT, settings: { prelabels: 'assist' } });
    await page.reload();
    for (const external of ['sea', 'road']) {
      await openItem(external);
      await expect.poll(() => page.getByTestId('prelabels').getAttribute('data-mode'), { timeout: 15_000 }).toBe('assist');
      const { side, p } = await preferredSide(external);
      const line = page.getByTestId('prelabel-line');
      await expect.poll(async () => ((await line.count()) ? await line.innerText() : ''), { timeout: 15_000 }).toContain('tiny-video');
      expect(await line.getByTestId('model-vote').getAttribute('data-vote'), external).toBe(side);
      expect(await line.innerText()).toContain(p.toFixed(2));
    }
    if (SHOTS) {
      await page.screenshot({ path: '/tmp/video-prelabels-light.png' });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.evaluate(() => document.documentElement.classList.add('dark'));
      await page.screenshot({ path: '/tmp/video-prelabels-dark.png' });
    }
  });

  it('the Models screen lists the video model as reading video frames, with its scores', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => document.documentElement.classList.remove('dark'));
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/models`);
    const row = page.locator('[data-testid="model-row"][data-model="tiny-video"]');
    await row.waitFor({ timeout: 15_000 });
    expect(await row.innerText()).toContain('video frames (+ the prompt as text)');
    // Three pairs, each prompt its own: six inputs scored.
    expect(await row.getByTestId('model-scores').innerText()).toBe('6');
    // Inspecting the folder says how its frames are taken: the graph's 4, at the default 2 fps.
    await page.getByTestId('model-dir').fill('tiny-video');
    await page.getByTestId('model-dir').press('Enter');
    const input = page.getByTestId('inspection-input');
    await input.waitFor({ timeout: 15_000 });
    expect(await input.innerText()).toMatch(/video frames \(\+ the prompt as text\)[\s\S]*4 frames at 2 fps/);
    expect(await page.getByTestId('inspection-inputs').innerText()).toMatch(/pixel_values[\s\S]*\[batch, 4, 3, 32, 32\]/);
    if (SHOTS) await page.screenshot({ path: '/tmp/video-prelabels-models.png', fullPage: true });
    expect(outside, outside.join('\n')).toEqual([]);
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
