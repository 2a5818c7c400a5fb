// A small image (a 64 × 48 crop or icon) is drawn at a readable size (issue 20, item 23): up to 200 px
// on its longer side, at most 4× its pixels, its pixels kept square (pixelated), never cropped (the box
// keeps its aspect ratio). A large image is still drawn at its own pixels at most. With ARBITER_SHOTS=1
// it writes docs/screenshots/images-small-{light,dark}.png.
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

const PROJECT = 'small images';
const png = (width: number, height: number, r: number) => sharp({ create: { width, height, channels: 3, background: { r, g: 120, b: 200 } } }).png().toBuffer();
const part = (bytes: Buffer) => ({ type: 'image', image: `data:image/png;base64,${bytes.toString('base64')}` });

let host: Host;
let browser: Browser;
let itemId = 0;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const [small, tall, large] = await Promise.all([png(64, 48, 30), png(20, 40, 90), png(480, 360, 200)]);
  const item = {
    id: 'small',
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'Which crop shows the logo?' }, part(large)] }],
    responses: [{ text: [{ role: 'assistant', content: [part(small)] }] }, { text: [{ role: 'assistant', content: [part(tall)] }] }],
  };
  await host.api('importContent', { project: PROJECT, fileName: 'small.jsonl', content: JSON.stringify(item) + '\n', format: 'arbiter', createProject: true });
  const { rows } = await host.api<{ rows: { id: number }[] }>('listItems', { project: PROJECT, limit: 10 });
  itemId = rows[0]!.id;
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/** Each shown image in the scope: its pixels, its drawn box and how it is rendered. */
function drawn(page: Page, scope: string) {
  return page.locator(`${scope} [data-testid="image-view"][data-state="shown"]`).evaluateAll((figures) =>
    figures.map((f) => {
      const img = f.querySelector('img')!;
      const box = f.getBoundingClientRect();
      return { natural: [img.naturalWidth, img.naturalHeight], width: Math.round(box.width), height: Math.round(box.height), rendering: getComputedStyle(img).imageRendering };
    }),
  );
}

describe('small images', () => {
  it('are drawn up to 200 px (at most 4×), pixelated and uncropped; a large one at its own pixels', async () => {
    const { page, problems } = await openApp(browser, host, { annotator: 'e2e-small' });
    await page.evaluate(([p, id]) => (location.hash = `#/p/${encodeURIComponent(p)}/item/${id}`), [PROJECT, String(itemId)] as const);
    await expect.poll(async () => (await drawn(page, '[data-testid="responses"]')).length, { timeout: 15_000 }).toBe(2);
    const shown = await drawn(page, '[data-testid="responses"]');
    const byPixels = (w: number) => shown.find((s) => s.natural[0] === w)!;
    // 64 × 48: its longer side to 200 (3.125×).
    expect(byPixels(64)).toMatchObject({ width: 200, height: 150, rendering: 'pixelated' });
    // 20 × 40: its longer side to 160, which is 4× (the most): 80 × 160.
    expect(byPixels(20)).toMatchObject({ width: 80, height: 160, rendering: 'pixelated' });
    await expect.poll(async () => (await drawn(page, '[data-testid="prompt"]')).length).toBe(1);
    const [large] = await drawn(page, '[data-testid="prompt"]');
    expect(large!.width).toBeLessThanOrEqual(480);
    expect(large!.width / large!.height).toBeCloseTo(4 / 3, 1);
    expect(large!.rendering).toBe('auto');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.runIf(process.env.ARBITER_SHOTS === '1')('screenshots, light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { page } = await openApp(browser, host, { annotator: `e2e-small-${theme}`, height: 700, theme });
      await page.evaluate(([p, id]) => (location.hash = `#/p/${encodeURIComponent(p)}/item/${id}`), [PROJECT, String(itemId)] as const);
      await expect.poll(async () => (await drawn(page, '[data-testid="responses"]')).length, { timeout: 15_000 }).toBe(2);
      await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', `images-small-${theme}.png`) });
      await page.context().close();
    }
  });
});
