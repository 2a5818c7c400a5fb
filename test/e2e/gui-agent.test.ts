// GUI and web agents (issue 15, item 4) in a real Chromium page: a Multimodal-Mind2Web-shaped Parquet file
// (one row per action step, the screenshot as the Image feature, the target's bounding_box_rect in
// pos_candidates; screenshots made here with sharp, each a page with its target button drawn) uploaded
// through the Datasets screen opens on the step screen as one trajectory; the first turn's screenshot
// carries the click marker centred on the target's box, at the right place on the drawn image; the
// filmstrip shows a frame per turn, a click on a frame goes to that turn and j moves both; a turn is
// tagged "wrong element" (offered on a GUI trajectory) by keyboard and saved.
// With ARBITER_SHOTS=1 it also writes docs/screenshots/gui-agent-light.png and gui-agent-dark.png.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HF_IMAGE, HF_STRING, HfParquetWriter, hfList } from '../../electron/core/formats/vision/hfImage';
import { createProjectViaUi, importViaUi, launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

const PROJECT = 'e2e gui agent';
const SHOTS = process.env.ARBITER_SHOTS === '1';
const WIDTH = 1280;
const HEIGHT = 800;
const TASK = 'Find a one-way flight from New York to Paris on May 12 for 2 adults.';
/** Each step: its operation, the target's box (x, y, width, height in the page's pixels), its repr. */
const STEPS = [
  { op: 'CLICK', value: '', box: [900, 100, 160, 40], repr: '[button]  One-way -> CLICK' },
  { op: 'TYPE', value: 'New York', box: [120, 220, 360, 44], repr: '[combobox]  From -> TYPE: New York' },
  { op: 'TYPE', value: 'Paris', box: [520, 220, 360, 44], repr: '[combobox]  To -> TYPE: Paris' },
  { op: 'SELECT', value: '2 adults', box: [120, 300, 200, 40], repr: '[select]  Travellers -> SELECT: 2 adults' },
  { op: 'CLICK', value: '', box: [1000, 300, 140, 44], repr: '[button]  Search -> CLICK' },
];

/** A page: a light background, a header band, and the step's target drawn as a button. */
async function screenshot(step: number): Promise<Buffer> {
  const [x, y, w, h] = STEPS[step]!.box;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
    <rect width="100%" height="100%" fill="#f4f6fa"/><rect width="100%" height="64" fill="#1d3f72"/>
    <rect x="${x}" y="${y}" width="${w}" height="${h}" rx="6" fill="#2b6cb0"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];

const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);
const current = () => page.locator('[data-testid="step"][data-current="true"]').getAttribute('data-index').then(Number);
const currentFrame = () => page.locator('[data-testid="filmstrip-frame"][data-current="true"]').getAttribute('data-index').then(Number);

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: 'e2e-gui', height: 1000 }));
  await createProjectViaUi(page, PROJECT);
  const path = join(host.home, 'test_task-00000-of-00001.parquet');
  const writer = await HfParquetWriter.open(path, {
    action_uid: HF_STRING,
    operation: HF_STRING,
    pos_candidates: hfList(HF_STRING),
    annotation_id: HF_STRING,
    confirmed_task: HF_STRING,
    website: HF_STRING,
    screenshot: HF_IMAGE,
    action_reprs: hfList(HF_STRING),
    target_action_index: HF_STRING,
    target_action_reprs: HF_STRING,
  });
  for (const [i, step] of STEPS.entries()) {
    const attributes = JSON.stringify({ backend_node_id: String(100 + i), bounding_box_rect: step.box.join(',') });
    await writer.write({
      action_uid: `step-${i}`,
      operation: JSON.stringify({ original_op: step.op, value: step.value, op: step.op }),
      pos_candidates: [JSON.stringify({ tag: 'button', attributes })],
      annotation_id: 'flight-1',
      confirmed_task: TASK,
      website: 'united',
      screenshot: { bytes: new Uint8Array(await screenshot(i)), path: `step-${i}.png` },
      action_reprs: STEPS.map((s) => s.repr),
      target_action_index: String(i),
      target_action_reprs: step.repr,
    });
  }
  await writer.commit();
  await importViaUi(page, path);
  expect(await page.getByTestId('import-result').innerText()).toMatch(/Imported 1 new item/);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('a GUI agent’s trajectory', () => {
  it('draws the click marker on the first turn’s screenshot, centred on the target’s box', async () => {
    await go(`#/p/${encodeURIComponent(PROJECT)}/steps`);
    await page.getByTestId('turn-card').first().waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('step').count()).toBe(STEPS.length);
    const first = page.locator('[data-testid="step"][data-index="0"]');
    const screen = first.locator('[data-testid="turn-screen"][data-marked="true"]');
    const image = screen.locator('[data-testid="image-view"][data-state="shown"]');
    await image.waitFor({ timeout: 15_000 });
    expect(await screen.locator('[data-testid="image-view"] img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(WIDTH);
    // The turn's context is a screenshot: its badge reads as a screen, not as a user's turn.
    const kinds = await first.getByTestId('turn-kind').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
    expect(kinds).toContain('▣ screen');
    expect(kinds).not.toContain('@ user');
    const mark = screen.locator('[data-testid="gui-action"]');
    expect(await mark.getAttribute('data-kind')).toBe('click');
    // The target's centre (980, 120) of the 1280 × 800 page, where the image is drawn.
    const drawn = (await image.boundingBox())!;
    const point = (await screen.locator('[data-testid="gui-action-point"]').boundingBox())!;
    const [cx, cy] = [drawn.x + (980 / WIDTH) * drawn.width, drawn.y + (120 / HEIGHT) * drawn.height];
    expect(Math.abs(point.x + point.width / 2 - cx)).toBeLessThan(1.5);
    expect(Math.abs(point.y + point.height / 2 - cy)).toBeLessThan(1.5);
    // The box of the target, dashed, where the button is drawn.
    const box = (await screen.locator('[data-testid="gui-action-box"]').boundingBox())!;
    expect(Math.abs(box.x - (drawn.x + (900 / WIDTH) * drawn.width))).toBeLessThan(3);
    expect(Math.abs(box.width - (160 / WIDTH) * drawn.width)).toBeLessThan(6);
    expect(await screen.getByTestId('gui-action-words').innerText()).toBe('click on [button] One-way in the box (900, 100)–(1060, 140) · pixels of the 1280 × 800 image');
    // The second turn types: its label says what.
    const typed = page.locator('[data-testid="step"][data-index="1"] [data-testid="gui-action-label"]');
    await typed.waitFor();
    expect(await typed.innerText()).toBe('type “New York”');
  });

  it('the filmstrip: a frame per turn, the current one marked; a click goes to a turn, j moves both', async () => {
    await page.getByTestId('filmstrip').waitFor();
    expect(await page.getByTestId('filmstrip-frame').count()).toBe(STEPS.length);
    await expect.poll(currentFrame).toBe(0);
    expect(await page.locator('[data-testid="filmstrip-frame"][data-index="0"]').getAttribute('aria-current')).toBe('step');
    await expect.poll(() => page.locator('[data-testid="filmstrip-frame"] img').count()).toBeGreaterThanOrEqual(STEPS.length);
    await page.locator('[data-testid="filmstrip-frame"][data-index="3"]').click();
    await expect.poll(current).toBe(3);
    await expect.poll(currentFrame).toBe(3);
    await page.keyboard.press('j');
    await expect.poll(current).toBe(4);
    await expect.poll(currentFrame).toBe(4);
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    await expect.poll(currentFrame).toBe(2);
  });

  it('tags a turn “wrong element” by keyboard (the GUI tags are offered on a GUI trajectory) and saves it', async () => {
    await page.keyboard.press('t');
    await page.getByTestId('tag-picker').waitFor();
    const offered = await page.getByTestId('tag-picker').locator('[role="option"]').allInnerTexts();
    const at = offered.findIndex((t) => /wrong element/.test(t));
    expect(at).toBeGreaterThanOrEqual(0);
    for (let n = 0; n < at; n++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('severity-prompt').waitFor();
    await page.keyboard.press('2');
    await expect.poll(() => page.getByTestId('tag-picker').count()).toBe(0);
    const tagged = page.locator('[data-testid="step"][data-index="2"] [data-testid="step-tag"]');
    await expect.poll(() => tagged.allInnerTexts()).toEqual([expect.stringMatching(/wrong element/)]);
    const itemId = Number(await page.getByTestId('steps-screen').getAttribute('data-item-id'));
    await expect
      .poll(async () => (await host.api<{ judgements: Record<string, { tags?: Record<string, string[]> }> }>('getSteps', { project: PROJECT, annotator: 'e2e-gui', itemId })).judgements['0']?.tags)
      .toEqual({ '2': ['wrong element'] });
    expect(problems).toEqual([]);
  });

  it.skipIf(!SHOTS)('screenshots, light and dark', async () => {
    await page.keyboard.press('Home');
    await expect.poll(current).toBe(0);
    await page.screenshot({ path: join(ROOT, 'docs/screenshots/gui-agent-light.png') });
    const dark = await openApp(browser, host, { annotator: 'e2e-gui', height: 1000, theme: 'dark' });
    await dark.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/steps`);
    await dark.page.locator('[data-testid="turn-screen"][data-marked="true"] [data-testid="image-view"][data-state="shown"]').first().waitFor({ timeout: 15_000 });
    await dark.page.screenshot({ path: join(ROOT, 'docs/screenshots/gui-agent-dark.png') });
  });
});
