// The import panel's images folder (issue 15): an uploaded file has no folder of its own, so the images
// it names by relative path are read from the folder typed in "Images folder (for image paths in the
// file)". Without it the import stops naming the line and the path and saying what to do; with it the
// images are stored and the result says how many.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, launchBrowser, openApp, startHost, type Host } from './helpers';

let host: Host;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page } = await openApp(browser, host, { annotator: 'e2e-images-import' }));
  await createProjectViaUi(page, 'pictures');
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('Images folder (for image paths in the file)', () => {
  it('is where an upload’s relative image paths are read', async () => {
    const folder = join(host.home, 'set', 'images');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'cat.png'), await sharp({ create: { width: 8, height: 6, channels: 3, background: '#c33' } }).png().toBuffer());
    const record = (id: string) =>
      JSON.stringify({ id, prompt: [{ role: 'user', content: [{ type: 'text', text: `What is in ${id}?` }, { type: 'image', image: 'cat.png' }] }], responses: [{ text: 'A cat.' }, { text: 'A dog.' }] });
    const file = join(host.home, 'set', 'vl.jsonl');
    writeFileSync(file, `${record('q1')}\n${record('q2')}\n`);

    await page.getByTestId('import-file').setInputFiles(file);
    await page.getByTestId('import-preview').waitFor();
    // The preview names the prompt's image in words, not as an "[image]" stand-in.
    const previewText = await page.getByTestId('import-preview').innerText();
    expect(previewText).not.toContain('[image]');
    expect(await page.getByTestId('import-preview').getByTestId('text-images').first().innerText()).toBe('1 image');
    await page.getByTestId('import-button').click();
    const failure = page.getByTestId('import-failure');
    await expect.poll(() => failure.innerText().catch(() => ''), { timeout: 30_000 }).toMatch(/Nothing was imported/);
    const first = await page.getByTestId('line-error').first().innerText();
    expect(first).toContain('vl.jsonl:1');
    expect(first).toContain('cat.png: a relative image path, and an uploaded file has no folder of its own: give the images folder');

    // The folder is filled in before importing: its field sits above the Import button, not under it.
    const [dirBox, buttonBox] = [(await page.getByTestId('import-images-dir').boundingBox())!, (await page.getByTestId('import-button').boundingBox())!];
    expect(dirBox.y + dirBox.height).toBeLessThanOrEqual(buttonBox.y);
    await page.getByTestId('import-images-dir').fill(folder);
    await page.getByTestId('import-button').click();
    const result = page.getByTestId('import-result');
    await expect.poll(() => result.innerText().catch(() => ''), { timeout: 30_000 }).toMatch(/Imported 2 new items/);
    expect(await page.getByTestId('import-note').allInnerTexts()).toContain('2 new items hold images (q1, q2): 1 image stored (new).');
  });
});
