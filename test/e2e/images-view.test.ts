// Seeing images (issue 15) in a real Chromium page: a project of image items imported as Arbiter JSONL
// with data URIs (images made here with sharp, a few KB each): a VL question (an image in the prompt, two
// text answers), two generated images for one prompt, an http image (never fetched), a damaged PNG, and
// four generated images to rank. The images paint (naturalWidth > 0) in boxes of their own aspect ratio,
// hover says size and format, the http image says "not available offline" with its URL as plain text,
// the damaged one says why in its own box while the item is still labeled by keyboard; `z` zooms the
// focused image (+, arrows, 0, Esc), and with two images on screen zooms both together, synced. Nothing
// outside the page's own origin is requested.
// With ARBITER_SHOTS=1 it also writes docs/screenshots/images-vl-light.png, images-pair-dark.png,
// images-zoom-light.png, images-zoom-synced-light.png and images-rank-light.png.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

const PROJECT = 'e2e images';
const ANNOTATOR = 'e2e-viewer';
const SHOTS = process.env.ARBITER_SHOTS === '1';
const HTTP_URL = 'https://images.example.com/cat.png';

/** A PNG of a given size: a colour with a diagonal band, so zoom and pan have something to show. */
async function png(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const band = Math.abs(x / width - y / height) < 0.08;
      const noise = (x * 31 + y * 17) % 23;
      const o = (y * width + x) * 3;
      raw[o] = band ? 250 : Math.min(255, rgb[0] + noise);
      raw[o + 1] = band ? 250 : Math.min(255, rgb[1] + noise);
      raw[o + 2] = band ? 250 : Math.min(255, rgb[2] + noise);
    }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

const dataUri = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
const imagePart = (bytes: Buffer) => ({ type: 'image', image: dataUri(bytes) });
const generated = (bytes: Buffer) => ({ text: [{ role: 'assistant', content: [imagePart(bytes)] }] });

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const outside: string[] = [];
/** The image route's requests, by sha256. */
const imageRequests: string[] = [];
const pairShas: string[] = [];
const ids = new Map<string, number>();
let damagedBytes = 0;

async function openItem(external: string, screen: 'item' | 'rank' = 'item'): Promise<void> {
  const hash = screen === 'rank' ? `#/p/${encodeURIComponent(PROJECT)}/rank/item/${ids.get(external)}` : `#/p/${encodeURIComponent(PROJECT)}/item/${ids.get(external)}`;
  await page.evaluate((h) => (location.hash = h), hash);
  const testId = screen === 'rank' ? 'ranking-screen' : 'compare';
  await expect.poll(() => page.getByTestId(testId).getAttribute('data-item-id'), { timeout: 15_000 }).toBe(String(ids.get(external)));
}

/** The images in a part of the page that have painted: their natural widths (0 = not decoded). */
async function painted(scope: string): Promise<number[]> {
  const selector = scope
    .split(',')
    .map((s) => `${s.trim()} [data-testid="image-view"][data-state="shown"] img`)
    .join(', ');
  return page.locator(selector).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth));
}

async function zoomState() {
  const zoom = page.getByTestId('image-zoom');
  return {
    count: Number(await zoom.getAttribute('data-count')),
    scale: Number(await zoom.getAttribute('data-scale')),
    cx: Number(await zoom.getAttribute('data-cx')),
    cy: Number(await zoom.getAttribute('data-cy')),
  };
}

/** Each zoomed image's centre of view, in fractions of the image, and its drawn width. */
async function zoomedViews(): Promise<{ fx: number; fy: number; width: number; natural: number }[]> {
  return page.getByTestId('zoom-pane').evaluateAll((panes) =>
    panes.map((pane) => {
      const img = pane.querySelector('img')!;
      const p = pane.getBoundingClientRect();
      const r = img.getBoundingClientRect();
      return { fx: (p.left + p.width / 2 - r.left) / r.width, fy: (p.top + p.height / 2 - r.top) / r.height, width: r.width, natural: img.naturalWidth };
    }),
  );
}

async function shoot(name: string): Promise<void> {
  await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `${name}.png`) });
}

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const red = await png(160, 120, [200, 40, 40]);
  const blue = await png(128, 128, [40, 70, 200]);
  const green = await png(128, 128, [40, 160, 70]);
  for (const bytes of [blue, green]) pairShas.push(createHash('sha256').update(bytes).digest('hex'));
  const noisy = await png(200, 200, [120, 90, 30]);
  // A PNG cut off in the middle of its pixel data: the header (and size) read fine, the pixels do not.
  const damaged = noisy.subarray(0, Math.floor(noisy.length * 0.55));
  damagedBytes = damaged.length;
  const [tallA, tallB] = await Promise.all([png(400, 900, [200, 120, 40]), png(400, 900, [40, 120, 200])]);
  const four = await Promise.all(([[200, 60, 60], [60, 200, 60], [60, 60, 200], [200, 200, 60]] as const).map((c) => png(96, 64, [...c])));
  const items = [
    {
      id: 'vl',
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'What colour is the picture, apart from the pale band?' }, imagePart(red), { type: 'text', text: 'Answer in one word.' }] }],
      responses: [{ text: 'Red.' }, { text: 'Blue.' }],
    },
    { id: 'pair', prompt: 'A square of calm colour with a pale diagonal band.', responses: [generated(blue), generated(green)] },
    {
      id: 'http',
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Describe the cat.' }, { type: 'image_url', image_url: { url: HTTP_URL } }] }],
      responses: [{ text: 'A grey cat.' }, { text: 'A dog.' }],
    },
    {
      id: 'damaged',
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, imagePart(damaged as Buffer)] }],
      responses: [{ text: 'Cannot tell.' }, { text: 'A tree.' }],
    },
    { id: 'rank4', prompt: 'Four squares, best first.', responses: four.map(generated) },
    { id: 'tall', prompt: 'A tall narrow poster.', responses: [generated(tallA), generated(tallB)] },
  ];
  await host.api('importContent', { project: PROJECT, fileName: 'images.jsonl', content: items.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true });
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 10 });
  for (const row of rows) ids.set(row.externalId, row.id);
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(host.origin) && !url.startsWith('blob:') && !url.startsWith('data:')) outside.push(url);
    const image = /\/images\/[^/]+\/([0-9a-f]{64})/.exec(url);
    if (image) imageRequests.push(image[1]!);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('images in the compare screen', () => {
  it('paints the prompt image between its text, in a box of its own aspect ratio, with size and format on hover', async () => {
    await openItem('vl');
    const figure = page.locator('[data-testid="prompt"] [data-testid="image-view"]');
    await expect.poll(() => painted('[data-testid="prompt"]'), { timeout: 15_000 }).toEqual([160]);
    expect(await figure.getAttribute('title')).toMatch(/^160 × 120 PNG, \d+ KB$/);
    const box = (await figure.boundingBox())!;
    expect(box.width / box.height).toBeCloseTo(160 / 120, 1);
    expect(box.width).toBeLessThanOrEqual(200.5); // a small image is drawn up to 200 px (images-small.test.ts), no wider
    // Reading order: the question, the image, the instruction.
    const order = await page.getByTestId('prompt-body').evaluate((body) => {
      const text = (body as HTMLElement).innerText;
      const fig = body.querySelector('[data-testid="image-view"]')!;
      const before = [...body.querySelectorAll('p')].filter((p) => p.compareDocumentPosition(fig) & Node.DOCUMENT_POSITION_FOLLOWING).map((p) => p.innerText);
      return { text, before };
    });
    expect(order.before.join(' ')).toContain('What colour is the picture');
    expect(order.before.join(' ')).not.toContain('Answer in one word');
    expect(order.text).toContain('Answer in one word.');
    if (SHOTS) await shoot('images-vl-light');
  });

  it("loads the next item's images ahead, while this one is on screen", async () => {
    // The next unlabeled item after this one holds the two generated images.
    await expect.poll(() => pairShas.every((sha) => imageRequests.includes(sha)), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('vl')));
  });

  it('z zooms the focused image: + zooms, arrows pan, 0 fits, Esc closes', async () => {
    await page.locator('[data-testid="prompt"] [data-testid="image-view"]').hover();
    await page.keyboard.press('z');
    await page.getByTestId('image-zoom').waitFor();
    expect(await zoomState()).toEqual({ count: 1, scale: 1, cx: 0.5, cy: 0.5 });
    await expect.poll(async () => (await zoomedViews())[0]?.natural).toBe(160);
    // Besides the zoom of fit, the drawn size against the image's own pixels (a small image is enlarged to fit).
    await expect.poll(() => page.getByTestId('zoom-full-size').innerText().catch(() => '')).toMatch(/^· \d{3,4} % of full size$/);
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    expect((await zoomState()).scale).toBeCloseTo(1.5625, 3);
    expect(await page.getByTestId('zoom-level').innerText()).toBe('156 %');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const panned = await zoomState();
    expect(panned.cx).toBeGreaterThan(0.5);
    expect(panned.cy).toBeGreaterThan(0.5);
    const view = (await zoomedViews())[0]!;
    expect(view.fx).toBeCloseTo(panned.cx, 2);
    if (SHOTS) await shoot('images-zoom-light');
    // The arrows panned: the screen below did not move to another item.
    expect(await page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('vl')));
    await page.keyboard.press('0');
    expect(await zoomState()).toEqual({ count: 1, scale: 1, cx: 0.5, cy: 0.5 });
    // The wheel zooms too.
    const pane = (await page.getByTestId('zoom-pane').boundingBox())!;
    await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await page.mouse.wheel(0, -100);
    await expect.poll(async () => (await zoomState()).scale).toBeGreaterThan(1.2);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('image-zoom').count()).toBe(0);
    // Esc closed the zoom, nothing else: the item is still on screen and unlabeled.
    expect(await page.getByTestId('compare').getAttribute('data-item-id')).toBe(String(ids.get('vl')));
  });

  it('two generated images: both painted side by side; z zooms both together, synced', async () => {
    await openItem('pair');
    await expect.poll(() => painted('[data-testid="response-body-left"], [data-testid="response-body-right"]'), { timeout: 15_000 }).toEqual([128, 128]);
    // Each side's head counts its image and gives its size, not the characters of an "[image]" stand-in.
    expect(await page.getByTestId('length-left').innerText()).toBe('1 image · 128 × 128');
    // A generated image is the whole response: no "assistant" role line above it (the column says whose it is).
    expect(await page.locator('[data-testid="response-body-left"] [data-testid="message-role"]').count()).toBe(0);
    if (SHOTS) {
      const dark = await openApp(browser, host, { annotator: ANNOTATOR, theme: 'dark' });
      await dark.page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${ids.get('pair')}`);
      await expect.poll(() => dark.page.locator('[data-testid="image-view"][data-state="shown"]').count(), { timeout: 15_000 }).toBe(2);
      await dark.page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'images-pair-dark.png') });
      await dark.page.context().close();
    }
    await page.locator('[data-testid="response-body-right"] [data-testid="image-view"]').hover();
    await page.keyboard.press('z');
    await page.getByTestId('image-zoom').waitFor();
    expect((await zoomState()).count).toBe(2);
    await expect.poll(async () => (await zoomedViews()).map((v) => v.natural)).toEqual([128, 128]);
    for (const key of ['+', '+', '+', 'ArrowLeft', 'ArrowUp', 'ArrowUp']) await page.keyboard.press(key);
    const [left, right] = await zoomedViews();
    // The same part of each image, at the same size: zoomed and panned together.
    expect(left!.fx).toBeCloseTo(right!.fx, 2);
    expect(left!.fy).toBeCloseTo(right!.fy, 2);
    expect(left!.width).toBeCloseTo(right!.width, 0);
    if (SHOTS) await shoot('images-zoom-synced-light');
    const state = await zoomState();
    expect(state.cx).toBeLessThan(0.5);
    expect(left!.fx).toBeCloseTo(state.cx, 2);
    await page.keyboard.press('0');
    expect((await zoomState()).scale).toBe(1);
    await page.keyboard.press('Escape');
    // Shift+Z: only the image under the mouse.
    await page.keyboard.press('Shift+Z');
    await page.getByTestId('image-zoom').waitFor();
    expect((await zoomState()).count).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('image-zoom').count()).toBe(0);
  });

  it('Esc closes the topmost layer first: the zoom view over the guidelines drawer, then the drawer', async () => {
    await openItem('pair');
    await page.keyboard.press('g');
    await page.getByTestId('guidelines-drawer').waitFor();
    await page.locator('[data-testid="response-body-left"] [data-testid="image-view"]').hover();
    await page.keyboard.press('z');
    await page.getByTestId('image-zoom').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('image-zoom').count()).toBe(0);
    expect(await page.getByTestId('guidelines-drawer').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('guidelines-drawer').count()).toBe(0);
  });

  it('a small image keeps its region tools off the picture, so a drag can start anywhere on it', async () => {
    await openItem('vl');
    const figure = page.locator('[data-testid="prompt"] [data-testid="image-view"]');
    await expect.poll(() => painted('[data-testid="prompt"]'), { timeout: 15_000 }).toEqual([160]);
    await figure.hover();
    const tools = figure.getByTestId('region-tools');
    await expect.poll(async () => Number(await tools.evaluate((el) => getComputedStyle(el).opacity))).toBe(1);
    const [f, t] = [(await figure.boundingBox())!, (await tools.boundingBox())!];
    const overlaps = t.x < f.x + f.width && t.x + t.width > f.x && t.y < f.y + f.height && t.y + t.height > f.y;
    expect(overlaps).toBe(false);
    // Still reachable with the mouse: the box tool arms the keyboard's marking on this image.
    await tools.getByRole('button', { name: 'Mark a box' }).click();
    await expect.poll(() => figure.getByTestId('region-layer').getAttribute('data-marking')).toBe('box');
    await page.keyboard.press('Escape');
  });

  it('two tall generated images are whole within their columns, no scrolling needed', async () => {
    // A window of 700 px: the columns' visible height, not a share of the window, bounds the images.
    await page.setViewportSize({ width: 1400, height: 700 });
    await openItem('tall');
    await expect.poll(() => painted('[data-testid="response-body-left"], [data-testid="response-body-right"]'), { timeout: 15_000 }).toEqual([400, 400]);
    for (const side of ['left', 'right']) {
      const body = (await page.getByTestId(`response-body-${side}`).boundingBox())!;
      const figure = (await page.locator(`[data-testid="response-body-${side}"] [data-testid="image-view"]`).boundingBox())!;
      expect(figure.y + figure.height).toBeLessThanOrEqual(body.y + body.height + 0.5);
      expect(figure.height / figure.width).toBeCloseTo(900 / 400, 1);
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('the items table names a prompt’s images in words, not as “[image]”', async () => {
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/datasets`);
    const row = page.getByTestId('item-row').filter({ hasText: 'What colour is the picture' });
    await row.waitFor({ timeout: 15_000 });
    const text = await row.innerText();
    expect(text).not.toContain('[image]');
    expect(await row.getByTestId('item-prompt-images').innerText()).toBe('1 image');
    expect(text).toContain('What colour is the picture');
  });

  it('the export panel of a project with images starts on TRL vision, and a text format says what it would do with them', async () => {
    await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/datasets`);
    const format = page.getByTestId('export-format');
    await expect.poll(() => format.inputValue(), { timeout: 15_000 }).toBe('trl-vision');
    expect(await page.getByTestId('export-images-note').count()).toBe(0);
    await format.selectOption('trl');
    const note = page.getByTestId('export-images-note');
    expect(await note.innerText()).toMatch(/^This format writes text only: the project holds \d+ images\. TRL vision/);
    await page.getByTestId('export-button').click();
    const error = page.getByTestId('export-error');
    await error.waitFor();
    expect(await error.innerText()).toContain('“Leave the images out”');
    expect(await error.innerText()).not.toContain('command line');
    await page.getByTestId('export-images-drop').check();
    await page.getByTestId('export-button').click();
    await page.getByTestId('export-summary').waitFor();
    expect(await page.getByTestId('export-note').innerText()).toMatch(/held images, left out of the text/);
  });

  it('an http image is never fetched: its box says "not available offline" with the URL as plain text', async () => {
    await openItem('http');
    const box = page.locator('[data-testid="prompt"] [data-testid="image-unavailable"]');
    await box.waitFor();
    expect(await box.innerText()).toMatch(/not available offline/);
    expect(await box.getByTestId('image-unavailable-url').innerText()).toBe(HTTP_URL);
    expect(await box.locator('a').count()).toBe(0);
    expect(outside).toEqual([]);
  });

  it('a damaged PNG says why in its own box; the rest of the item is usable (labeled by keyboard)', async () => {
    await openItem('damaged');
    const problem = page.locator('[data-testid="prompt"] [data-testid="image-problem"]');
    await problem.waitFor({ timeout: 15_000 });
    expect(await problem.innerText()).toMatch(/Image not shown: .*(damaged|decode)/i);
    expect(await page.getByTestId('prompt-body').innerText()).toContain('What is in this picture?');
    expect(await page.getByTestId('response-body-left').innerText()).toMatch(/Cannot tell\.|A tree\./);
    // z with no image that can be shown does nothing; 1 labels the item as always.
    await page.keyboard.press('z');
    expect(await page.getByTestId('image-zoom').count()).toBe(0);
    await page.keyboard.press('1');
    await expect
      .poll(async () => (await host.api<{ annotator: string; choice: string | null }[]>('labelHistory', { project: PROJECT, itemId: ids.get('damaged') })).filter((r) => r.annotator === ANNOTATOR && r.choice).length, {
        timeout: 10_000,
      })
      .toBe(1);
    expect(damagedBytes).toBeGreaterThan(0);
  });
});

describe('images in the ranking screen', () => {
  it('four generated images as a 2 x 2 grid of cards, each image whole in its card', async () => {
    await openItem('rank4', 'rank');
    const cards = page.getByTestId('rank-cards');
    expect(await cards.getAttribute('data-images')).toBe('grid');
    expect(await cards.getAttribute('data-columns')).toBe('2');
    await expect.poll(() => painted('[data-testid="rank-cards"]'), { timeout: 15_000 }).toEqual([96, 96, 96, 96]);
    const fits = await page.getByTestId('card-body').evaluateAll((bodies) =>
      bodies.map((body) => {
        const b = body.getBoundingClientRect();
        const f = body.querySelector('[data-testid="image-view"]')!.getBoundingClientRect();
        return f.left >= b.left - 0.5 && f.right <= b.right + 0.5 && f.top >= b.top - 0.5 && f.bottom <= b.bottom + 0.5 && Math.abs(f.width / f.height - 1.5) < 0.05;
      }),
    );
    expect(fits).toEqual([true, true, true, true]);
    // The cards fill two rows of the screen: no page to scroll.
    expect(await cards.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    if (SHOTS) await shoot('images-rank-light');
  });
});

describe('the page', () => {
  it('requested nothing outside its own origin and logged no errors', async () => {
    expect(outside).toEqual([]);
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
  });
});
