// Pre-labels from an image reward model on the compare screen (issue 15, item 7): text-to-image pairs
// imported with their images as data URIs, the demo image model (resources/models/demo-image) added and
// run through the Models API, and the compare screen in assist mode shows its vote and P on the
// prelabel line exactly as for a text model: the side it prefers and the P of that side.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openApp, ROOT, startHost, type Host } from './helpers';

const PROJECT = 'e2e image prelabels';
const ANNOTATOR = 'e2e-image-prelabels';

let host: Host;
let browser: Browser;
let page: Page;
const ids = new Map<string, number>();

interface Prelabels {
  models: { name: string; pAB: number | null; vote: 'A' | 'B' | 'tie' | null }[];
}

const solid = (rgb: [number, number, number]) => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer();
const generated = (bytes: Buffer) => ({ text: [{ role: 'assistant', content: [{ type: 'image', image: `data:image/png;base64,${bytes.toString('base64')}` }] }] });

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  const red = await solid([220, 20, 30]);
  const blue = await solid([20, 40, 230]);
  const items = [
    { id: 'apple', prompt: 'a red apple on the table', responses: [generated(red), generated(blue)] },
    { id: 'sky', prompt: 'a blue sky over the sea', responses: [generated(red), generated(blue)] },
  ];
  await host.api('importContent', { project: PROJECT, fileName: 'pairs.jsonl', content: items.map((l) => JSON.stringify(l)).join('\n') + '\n', format: 'arbiter', createProject: true });
  const { rows } = await host.api<{ rows: { id: number; externalId: string }[] }>('listItems', { project: PROJECT, limit: 10 });
  for (const row of rows) ids.set(row.externalId, row.id);
  await host.api('updateProjectSettings', { project: PROJECT, settings: { prelabels: 'assist' } });
  // The browser host reads model folders from "models" beside its database.
  cpSync(join(ROOT, 'resources', 'models', 'demo-image'), join(host.home, 'models', 'demo-image'), { recursive: true });
  await host.api('addModel', { dir: join(host.home, 'models', 'demo-image') });
  await host.api('startScoring', { project: PROJECT, provider: 'cpu' });
  ({ page } = await openApp(browser, host, { annotator: ANNOTATOR }));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('image reward model pre-labels on the compare screen', () => {
  it('shows the image model’s vote and P for each pair, on the side it prefers', async () => {
    // The scoring job runs in the background: both pairs scored.
    for (const id of ids.values()) {
      await expect.poll(async () => (await host.api<Prelabels>('prelabels', { project: PROJECT, itemId: id })).models[0]?.pAB ?? null, { timeout: 60_000 }).not.toBeNull();
    }
    for (const [external, preferred] of [['apple', 'A'], ['sky', 'B']] as const) {
      const itemId = ids.get(external)!;
      await page.evaluate((h) => (location.hash = h), `#/p/${encodeURIComponent(PROJECT)}/item/${itemId}`);
      await expect.poll(() => page.getByTestId('compare').getAttribute('data-item-id'), { timeout: 15_000 }).toBe(String(itemId));
      const pre = await host.api<Prelabels>('prelabels', { project: PROJECT, itemId });
      const model = pre.models[0]!;
      expect(model.vote, external).toBe(preferred);
      const view = await host.api<{ shownOrder: number[] }>('getItem', { project: PROJECT, annotator: ANNOTATOR, itemId });
      const side = view.shownOrder.indexOf(preferred === 'A' ? 0 : 1) === 0 ? 'left' : 'right';
      const pSide = preferred === 'A' ? model.pAB! : 1 - model.pAB!;
      const line = page.getByTestId('prelabel-line');
      await expect.poll(async () => ((await line.count()) ? await line.innerText() : ''), { timeout: 15_000 }).toContain('demo-image');
      expect(await line.getByTestId('model-vote').getAttribute('data-vote')).toBe(side);
      expect(await line.innerText()).toContain(pSide.toFixed(2));
    }
  });
});
