// Hostile images in a real Chromium page (issue 15, "Must hold"). One project, made through the page as a
// user makes it: an Arbiter JSON Lines file whose items name their images by path (the import panel's
// images folder field), imported with "Skip invalid lines". The images:
// - normal.png, a plain PNG: shown;
// - truncated.png, a PNG cut at 60%: imported (its header is whole), shown as a box saying it is damaged;
// - disguised.png, a PNG header followed by an HTML page with a script: the same;
// - script.svg, an SVG with a <script> and an onload that would set a global on the page and open a
//   dialog: drawn to PNG by the host, so shown as pixels, and the script never runs;
// - bomb.jpg, a small JPEG whose frame header claims 60000 × 60000 pixels, and fake.png, a sentence in a
//   file named .png: refused by the import, each listed in the page with its line and why.
// Checked: every item that imported is shown with its text and responses, each image that cannot be shown
// has its own box with a sentence, no script of an image runs (the globals stay unset, no dialog opens),
// the page stays responsive (→ moves to the next item, and a choice key saves and moves on: waited for on
// the condition, with a bound against a hang; each key's time is printed, and the loop's speed with images
// is bench/image-loop.mjs's figure), no image is answered as SVG, and no request leaves the page's own origin.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectViaUi, launchBrowser, openApp, startHost, type Host } from './helpers';

const ANNOTATOR = 'e2e-hostile';
const PROJECT = 'hostile images';
/** How long a key's next item is waited for: a bound against a page that hangs, not a speed target. */
const HANG_MS = 20_000;

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const outside: string[] = [];
const dialogs: string[] = [];
/** The content type the host answered each image request with. */
const imageTypes: string[] = [];
/** How long each key took to bring the next item (ms). */
const moves: number[] = [];

/** A JPEG whose frame header (SOF0) claims `width` × `height` pixels (a decompression bomb's header). */
function jpegClaiming(jpeg: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(jpeg);
  for (let at = 2; at < out.length; ) {
    const length = out.readUInt16BE(at + 2);
    if (out[at + 1] === 0xc0) {
      out.writeUInt16BE(height, at + 5);
      out.writeUInt16BE(width, at + 7);
      return out;
    }
    at += 2 + length;
  }
  throw new Error('no SOF0 marker');
}

const NAMES = ['normal.png', 'truncated.png', 'disguised.png', 'script.svg', 'bomb.jpg', 'fake.png'] as const;
const question = (name: string) => `What is in ${name}?`;

beforeAll(async () => {
  host = await startHost();
  const folder = join(host.home, 'set', 'images');
  mkdirSync(folder, { recursive: true });
  const png = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#c03' } }).png().toBuffer();
  const files: Record<(typeof NAMES)[number], Buffer> = {
    'normal.png': png,
    'truncated.png': png.subarray(0, Math.floor(png.length * 0.6)),
    'disguised.png': Buffer.concat([png.subarray(0, 33), Buffer.from('<html><body><script>parent.__imageScriptRan = "png"; alert("png")</script></body></html>')]),
    'script.svg': Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" onload="parent.__imageScriptRan = \'svg onload\'">' +
        '<script>parent.__imageScriptRan = "svg"; window.__imageScriptRan = "svg"; alert("svg")</script><rect width="120" height="80" fill="#36c"/></svg>',
    ),
    'bomb.jpg': jpegClaiming(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).jpeg().toBuffer(), 60_000, 60_000),
    'fake.png': Buffer.from('a file named fake.png that holds this sentence, not an image\n'),
  };
  for (const name of NAMES) writeFileSync(join(folder, name), files[name]);
  const items = NAMES.map((name) => ({
    id: name,
    prompt: [{ role: 'user', content: [{ type: 'text', text: question(name) }, { type: 'image', image: `images/${name}` }] }],
    responses: [{ text: `Left answer about ${name}.` }, { text: `Right answer about ${name}.` }],
  }));
  writeFileSync(join(host.home, 'set', 'hostile.jsonl'), items.map((i) => JSON.stringify(i)).join('\n') + '\n');

  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${host.origin}/`) && !url.startsWith('blob:')) outside.push(url);
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/images/')) imageTypes.push(response.headers()['content-type'] ?? '(none)');
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

const compare = () => page.getByTestId('compare');

/** What the prompt's image came to: painted (its natural width and height), or the sentence of its box. */
async function promptImage(): Promise<{ shown: [number, number] } | { box: string } | null> {
  const prompt = page.getByTestId('prompt');
  const shown = prompt.locator('[data-testid="image-view"][data-state="shown"] img');
  if (await shown.count()) return { shown: await shown.first().evaluate((img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight] as [number, number]) };
  const box = prompt.getByTestId('image-problem');
  if (await box.count()) return { box: await box.first().innerText() };
  return null;
}

/** Presses `key` and waits for another item's id on Compare; returns the milliseconds it took. */
async function keyToNext(key: string): Promise<number> {
  const before = await compare().getAttribute('data-item-id');
  const started = performance.now();
  await page.keyboard.press(key);
  await expect.poll(() => compare().getAttribute('data-item-id'), { timeout: HANG_MS, interval: 20 }).not.toBe(before);
  const took = performance.now() - started;
  moves.push(took);
  return took;
}

describe('hostile images', () => {
  it('imports through the page with Skip invalid lines: the bomb and the fake PNG are listed as rejects, each with its line and why', async () => {
    await createProjectViaUi(page, PROJECT);
    await page.getByTestId('import-file').setInputFiles(join(host.home, 'set', 'hostile.jsonl'));
    await page.getByTestId('import-preview').waitFor();
    await page.getByTestId('import-images-dir').fill(join(host.home, 'set'));
    await page.getByTestId('import-skip-invalid').check();
    await page.getByTestId('import-button').click();
    const result = page.getByTestId('import-result');
    await expect.poll(() => result.innerText().catch(() => ''), { timeout: 60_000 }).toMatch(/Imported 4 new items/);
    expect(await result.innerText()).toMatch(/2 rejected/);
    const rejects = result.getByTestId('line-error');
    expect(await rejects.evaluateAll((els) => els.map((e) => e.getAttribute('data-line')))).toEqual(['5', '6']);
    const [bomb, fake] = await rejects.allInnerTexts();
    expect(bomb).toContain('hostile.jsonl:5');
    expect(bomb).toMatch(/images\/bomb\.jpg: the image is 60000 × 60000 pixels .* more than the 100,000,000 one image may have/);
    expect(fake).toContain('hostile.jsonl:6');
    expect(fake).toMatch(/images\/fake\.png: not an image/);
    expect(await result.getByTestId('rejects-download').innerText()).toMatch(/Download the 2 rejected lines/);
  });

  it('shows every item; each image that cannot be shown says why in its own box; the SVG is pixels; keys still move on', async () => {
    await page.getByTestId('tab-compare').click();
    await compare().waitFor();
    const seen = new Map<string, { shown: [number, number] } | { box: string }>();
    for (let n = 0; n < 4; n++) {
      await expect.poll(() => compare().getAttribute('data-item-id'), { timeout: 20_000 }).toMatch(/^\d+$/);
      const text = await page.getByTestId('prompt').innerText();
      const name = NAMES.find((x) => text.includes(question(x)));
      expect(name, `the prompt on screen: ${text}`).toBeDefined();
      // The item itself is there: its question and both answers.
      expect(await page.getByTestId('response-body-left').innerText()).toMatch(new RegExp(`answer about ${name!.replace('.', '\\.')}`));
      expect(await page.getByTestId('response-body-right').innerText()).toMatch(new RegExp(`answer about ${name!.replace('.', '\\.')}`));
      await expect.poll(promptImage, { timeout: 20_000 }).not.toBeNull();
      seen.set(name!, (await promptImage())!);
      if (n === 3) break;
      // The damaged one is labeled by keyboard (the choice saves and the next item comes); → otherwise.
      await keyToNext(name === 'truncated.png' ? '1' : 'ArrowRight');
    }
    expect([...seen.keys()].sort()).toEqual(['disguised.png', 'normal.png', 'script.svg', 'truncated.png']);
    expect(seen.get('normal.png')).toEqual({ shown: [120, 80] });
    // The SVG comes as the host's raster of it (drawn at a density of its own): pixels of its 3:2 shape.
    const svg = seen.get('script.svg') as { shown: [number, number] };
    expect(svg.shown[0]).toBeGreaterThanOrEqual(120);
    expect(svg.shown[0] / svg.shown[1]).toBeCloseTo(1.5, 2);
    expect(seen.get('truncated.png')).toMatchObject({ box: expect.stringMatching(/Image not shown: The image is damaged or truncated \(its decoder stopped with “.+”\)\. Check the file it came from/) });
    expect(seen.get('disguised.png')).toMatchObject({ box: expect.stringMatching(/Image not shown: The image is damaged or truncated \(its decoder stopped with “.+”\)\. Check the file it came from/) });
    console.log(`key → next item: ${moves.map((m) => `${m.toFixed(0)} ms`).join(', ')}`);
    // The label the key gave on the damaged item was saved.
    await expect.poll(() => page.getByTestId('progress').innerText(), { timeout: 15_000 }).toMatch(/1\s*\/\s*4 labeled/);
  });

  it('ran no script from an image, opened no dialog, answered no image as SVG, and asked for nothing outside its origin', async () => {
    expect(await page.evaluate(() => (window as unknown as { __imageScriptRan?: string }).__imageScriptRan)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(imageTypes.length).toBeGreaterThanOrEqual(4);
    expect(imageTypes.filter((t) => /svg|html/i.test(t))).toEqual([]);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
