// Region marks (issue 15) in a real Chromium page: on a pair of generated images, the annotator draws a
// box with the mouse on the left image and writes a note, places a box on the right image from the keyboard
// alone (. then arrows and Enter at two corners), says an artifact is not present there (n), and saves the
// pairwise choice with its key (1): the revision holds the three marks. After a reload the marks show
// again; a mark added after the decision is a new revision of the same choice. A second person marks the
// same image; the lead's adjudication view draws both people's marks with their names and lists the note,
// and the agreement dashboard gives the boxes' IoU with the number of images it rests on.
// With ARBITER_SHOTS=1 it also writes docs/screenshots/images-regions-{light,dark,popover,review}.png.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegionMark } from '../../shared/regions';
import { launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

const PROJECT = 'e2e regions';
const ANNOTATOR = 'e2e-marker';
const SECOND = 'e2e-second';
const SHOTS = process.env.ARBITER_SHOTS === '1';
const NOTE = 'a sixth finger on the left hand';

async function png(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) raw.set(rgb, i * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}
const generated = (bytes: Buffer) => ({ text: [{ role: 'assistant', content: [{ type: 'image', image: `data:image/png;base64,${bytes.toString('base64')}` }] }] });

interface Revision {
  annotator: string;
  task: string;
  choice: string | null;
  body: { regions?: RegionMark[]; rationale?: string };
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
let itemId = 0;
let left = '';
let right = '';
let leftLetter = '';

const openItem = async (p: Page) => {
  await p.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${itemId}`);
  await expect.poll(() => p.getByTestId('compare').getAttribute('data-item-id'), { timeout: 15_000 }).toBe(String(itemId));
  await expect.poll(() => p.locator('[data-testid="image-view"][data-state="shown"]').count(), { timeout: 15_000 }).toBe(2);
};
const mine = async () => (await host.api<Revision[]>('labelHistory', { project: PROJECT, itemId })).filter((r) => r.annotator === ANNOTATOR && r.task === 'pairwise');
const layer = (side: 'left' | 'right') => page.locator(`[data-testid="response-body-${side}"] [data-testid="region-layer"]`);

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const items = [{ id: 'pair', prompt: 'A hand holding a red cup.', responses: [generated(await png(200, 150, [200, 90, 60])), generated(await png(200, 150, [60, 110, 200]))] }];
  await host.api('importContent', { project: PROJECT, fileName: 'pair.jsonl', content: items.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true });
  const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT, limit: 10 });
  itemId = rows[0]!.id;
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  const order = (await host.api<{ shownOrder: number[]; responses: { content: { content: { image: { sha256: string } }[] }[] }[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId }))!;
  const sha = (i: number) => order.responses[i]!.content[0]!.content[0]!.image.sha256;
  left = sha(order.shownOrder[0]!);
  leftLetter = order.shownOrder[0] === 0 ? 'A' : 'B';
  right = sha(order.shownOrder[1]!);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('region marks on the compare screen', () => {
  it('draws a box with the mouse and writes its tag and note in the popover', async () => {
    await openItem(page);
    const box = (await layer('left').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.5, { steps: 4 });
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.7, { steps: 4 });
    await page.mouse.up();
    await page.getByTestId('region-popover').waitFor();
    if (SHOTS) await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'images-regions-popover.png') });
    // The popover has the keys: 1 is "artifact", then the note takes the typing (digits are text there).
    await page.keyboard.press('1');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('region-note');
    await page.keyboard.type(NOTE);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('region-popover').count()).toBe(0);
    const mark = layer('left').getByTestId('region-mark');
    expect(await mark.getAttribute('data-tag')).toBe('artifact');
    expect(await mark.getAttribute('data-number')).toBe('1');
    // Drawn where the mouse went: 20%–60% across, 20%–70% down.
    const drawn = (await mark.boundingBox())!;
    expect((drawn.x - box.x) / box.width).toBeCloseTo(0.2, 1);
    expect((drawn.x + drawn.width - box.x) / box.width).toBeCloseTo(0.6, 1);
    expect((drawn.y + drawn.height - box.y) / box.height).toBeCloseTo(0.7, 1);
    // Nothing is saved before the choice: the marks wait with the item.
    expect(await mine()).toEqual([]);
  });

  it('places a box and "not present" from the keyboard alone', async () => {
    await layer('right').hover();
    await page.keyboard.press('.');
    await page.getByTestId('region-status').waitFor();
    expect(await layer('right').getAttribute('data-marking')).toBe('box');
    const crosshair = layer('right').getByTestId('region-crosshair');
    expect([await crosshair.getAttribute('data-x'), await crosshair.getAttribute('data-y')]).toEqual(['0.5', '0.5']);
    // Digits and arrows are the marking's now: the choice keys and item keys do nothing.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    for (let i = 0; i < 2; i++) await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('region-popover').waitFor();
    await page.keyboard.press('3');
    await page.keyboard.press('Enter');
    await expect.poll(() => layer('right').getByTestId('region-mark').count()).toBe(1);
    expect(await layer('right').getByTestId('region-mark').getAttribute('data-tag')).toBe('hallucinated object');
    await page.keyboard.press('n');
    await page.getByTestId('region-popover').waitFor();
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    await expect.poll(() => layer('right').getByTestId('region-absent').count()).toBe(1);
    expect(await layer('right').getByTestId('region-absent').innerText()).toBe('∅ no artifact');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('region-status').count()).toBe(0);
    expect(await page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(itemId));
    if (SHOTS) await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'images-regions-light.png') });
  });

  it('saves the marks in the revision of the pairwise choice, made with its key', async () => {
    await page.keyboard.press('1');
    await expect.poll(async () => (await mine()).length, { timeout: 15_000 }).toBe(1);
    const [saved] = await mine();
    expect(saved!.choice).toBe(leftLetter);
    const regions = saved!.body.regions!;
    expect(regions.map((r) => [r.image, r.kind, r.tag])).toEqual([
      [left, 'box', 'artifact'],
      [right, 'box', 'hallucinated object'],
      [right, 'absent', 'artifact'],
    ]);
    expect(regions[0]!.note).toBe(NOTE);
    const [x0, y0, x1, y1] = regions[0]!.box!;
    expect([x0, y0, x1, y1].map((v) => Math.round(v * 10) / 10)).toEqual([0.2, 0.2, 0.6, 0.7]);
    // Keyboard: from the middle, 2% left and up is the first corner; 2 × 10% right and 10% down the second.
    expect(regions[1]!.box).toEqual([0.48, 0.48, 0.68, 0.58]);
  });

  it('shows the marks again after a reload, and a mark added after the decision is a new revision of the same choice', async () => {
    await page.reload();
    await openItem(page);
    await expect.poll(() => page.locator('[data-testid="region-mark"]').count()).toBe(2);
    expect(await layer('right').getByTestId('region-absent').count()).toBe(1);
    const before = (await mine())[0]!;
    const box = (await layer('left').boundingBox())!;
    // From the bottom-left corner up to the top right (the tools sit in the image's top-right corner).
    await page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.8);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height * 0.05, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId('region-popover').waitFor();
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await mine()).length, { timeout: 15_000 }).toBe(2);
    const after = (await mine())[1]!;
    expect(after.choice).toBe(before.choice);
    expect(after.body.regions!.map((r) => r.tag)).toEqual(['artifact', 'hallucinated object', 'artifact', 'misaligned']);
    if (SHOTS) {
      const dark = await openApp(browser, host, { annotator: ANNOTATOR, theme: 'dark' });
      await openItem(dark.page);
      await expect.poll(() => dark.page.locator('[data-testid="region-mark"]').count()).toBe(3);
      await dark.page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'images-regions-dark.png') });
      await dark.page.context().close();
    }
  });
});

describe('region marks in review', () => {
  it('the adjudication view draws each person’s marks with their name and lists the notes; the dashboard gives the IoU', async () => {
    const first = (await mine()).at(-1)!;
    const other = first.choice === 'A' ? 'B' : 'A';
    const leftImage = first.body.regions![0]!;
    await host.api('saveLabel', {
      project: PROJECT,
      annotator: SECOND,
      itemId,
      choice: other,
      shownOrder: [0, 1],
      regions: [{ ...leftImage, box: [0.25, 0.25, 0.6, 0.7], note: 'fingers' }],
    });
    const lead = await openApp(browser, host, { annotator: 'e2e-lead' });
    await lead.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/review/item/${itemId}`);
    await expect.poll(() => lead.page.locator('[data-testid="image-view"][data-state="shown"]').count(), { timeout: 15_000 }).toBe(2);
    // Each response's head counts its image and gives its size, as on Compare (not the "[image]" stand-in's characters).
    expect(await lead.page.getByTestId('adjudication-length-A').innerText()).toBe('1 image · 200 × 150');
    const marks = lead.page.getByTestId('review-region-mark');
    await expect.poll(() => marks.count()).toBe(5);
    const who = await marks.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-annotator')}:${e.getAttribute('data-kind')}:${e.getAttribute('data-tag')}`).sort());
    expect(who).toEqual([
      `${ANNOTATOR}:absent:artifact`,
      `${ANNOTATOR}:box:artifact`,
      `${ANNOTATOR}:box:hallucinated object`,
      `${ANNOTATOR}:box:misaligned`,
      `${SECOND}:box:artifact`,
    ]);
    expect(await lead.page.locator(`[data-testid="review-region-label"][data-annotator="${SECOND}"]`).innerText()).toBe(`${SECOND} 1: artifact`);
    const list = await lead.page.getByTestId('review-region-list').innerText();
    expect(list).toContain(NOTE);
    expect(list).toContain('fingers');
    if (SHOTS) await lead.page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'images-regions-review.png') });
    await lead.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/review/agreement`);
    const iou = lead.page.getByTestId('region-iou');
    await iou.waitFor({ timeout: 20_000 });
    expect(await iou.getAttribute('data-n')).toBe('1');
    // ann's two boxes on the left image against the second person's one: greedy match, the unmatched one 0.
    expect(await iou.innerText()).toMatch(/^0\.\d\d over 1 image$/);
    expect(lead.problems).toEqual([]);
    await lead.page.context().close();
  });

  it('lists the marking keys under ?', async () => {
    await page.keyboard.press('?');
    expect(await page.getByTestId('shortcuts').innerText()).toContain('Mark the image under the mouse');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('shortcuts').count()).toBe(0);
  });

  it('raised no page error', () => {
    expect(problems).toEqual([]);
  });
});
