// Images end to end, as a new user works (issue 15, "Must hold": the Chromium test). Through the page
// only: a text-to-image pair file (Pick-a-Pic's Parquet: caption, jpg_0 / jpg_1 bytes, label_0 / label_1)
// and a VL question file (Multimodal RewardBench's all_data.json, its `Image` paths relative to the data
// folder, given in the import panel's images folder field) are imported into two new projects; on Compare
// two items of each are labeled by keyboard, against the file's own label for one of them (so the export
// shows the keyboard's choice, not the file's), and a box with a tag and a note is drawn on a question's
// image. From the export panel: TRL vision JSON Lines (the browser's download is a zip of the file and its
// images folder), the TRL vision Parquet and the labels file are downloaded and read back here:
// - JSON Lines: each row's chosen / rejected is what the keyboard chose, its {"type": "image"} placeholders
//   are as many as its `images`, and each image path names a file in the zip whose bytes hash to the
//   image imported (for generated images, in chosen-then-rejected order);
// - Parquet (read with hyparquet): `images` is a list of the Image feature (struct bytes / path, the
//   `huggingface` metadata saying Image), with the same bytes;
// - labels: the revision holds the region mark (image, place, box, tag, note).
// The page requests nothing outside its own origin the whole time.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Browser, Download, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegionMark } from '../../shared/regions';
import { createProjectViaUi, launchBrowser, openApp, startHost, type Host } from './helpers';

const ANNOTATOR = 'e2e-vision';
const T2I = 'text to image';
const VL = 'vl questions';
const NOTE = 'the third boat is a rock';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** An image with a gradient and a band, so each is distinct and a drawn box has something under it. */
async function picture(width: number, height: number, rgb: [number, number, number], kind: 'png' | 'jpeg'): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      const band = Math.abs(x / width - y / height) < 0.06;
      for (let c = 0; c < 3; c++) raw[o + c] = band ? 245 : Math.min(255, rgb[c]! + Math.round((40 * x) / width));
    }
  const image = sharp(raw, { raw: { width, height, channels: 3 } });
  return kind === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

let host: Host;
let browser: Browser;
let page: Page;
let problems: string[];
const outside: string[] = [];

/** The text-to-image rows: caption, the two generated images, the file's label (image 0 better in both). */
const t2i: { caption: string; jpg: [Buffer, Buffer]; want: 0 | 1 }[] = [];
/** The VL questions: text, image, the two answers, the file's Better, and the answer the keyboard picks. */
const vl: { id: string; text: string; path: string; image: Buffer; outputs: [string, string]; better: 'Output1' | 'Output2'; want: 0 | 1 }[] = [];
/** The question the box was drawn on, and the box as drawn (fractions of the image). */
let marked: { id: string; box: [number, number, number, number] } | null = null;

beforeAll(async () => {
  host = await startHost();
  browser = await launchBrowser();
  ({ page, problems } = await openApp(browser, host, { annotator: ANNOTATOR }));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${host.origin}/`) && !url.startsWith('blob:')) outside.push(url);
  });

  // Pick-a-Pic (yuvalkirstain/pickapic_v2's features): the images are plain binary columns. The keyboard
  // picks image 1 for the first caption (the file says image 0) and image 0 for the second.
  t2i.push(
    { caption: 'a red fox in the snow', jpg: [await picture(160, 120, [200, 60, 40], 'png'), await picture(160, 120, [190, 90, 30], 'jpeg')], want: 1 },
    { caption: 'a lighthouse at dusk', jpg: [await picture(120, 160, [40, 60, 160], 'jpeg'), await picture(120, 160, [60, 40, 120], 'png')], want: 0 },
  );
  const column = <T>(values: T[]) => values;
  const parquet = parquetWriteBuffer({
    columnData: [
      { name: 'caption', data: column(t2i.map((r) => r.caption)), type: 'STRING' },
      { name: 'jpg_0', data: column(t2i.map((r) => new Uint8Array(r.jpg[0]))), type: 'BYTE_ARRAY' },
      { name: 'jpg_1', data: column(t2i.map((r) => new Uint8Array(r.jpg[1]))), type: 'BYTE_ARRAY' },
      { name: 'label_0', data: column([1, 1]), type: 'DOUBLE' },
      { name: 'label_1', data: column([0, 0]), type: 'DOUBLE' },
      { name: 'model_0', data: column(['sdxl', 'sd-2.1']), type: 'STRING' },
      { name: 'model_1', data: column(['sd-1.5', 'sdxl']), type: 'STRING' },
      { name: 'has_label', data: column([true, true]), type: 'BOOLEAN' },
    ],
  });
  writeFileSync(join(host.home, 'pickapic-train.parquet'), Buffer.from(parquet));

  // Multimodal RewardBench's data/all_data.json (a JSON array; Image relative to the data folder).
  mkdirSync(join(host.home, 'mmrb', 'images', 'nocaps'), { recursive: true });
  vl.push(
    { id: 'nocaps-1', text: 'How many boats are in the picture?', path: 'images/nocaps/1.png', image: await picture(200, 150, [30, 110, 170], 'png'), outputs: ['Two boats.', 'Three boats.'], better: 'Output1', want: 1 },
    { id: 'nocaps-2', text: 'What colour is the sign?', path: 'images/nocaps/2.jpg', image: await picture(150, 200, [170, 40, 40], 'jpeg'), outputs: ['Red.', 'Blue.'], better: 'Output2', want: 0 },
  );
  for (const q of vl) writeFileSync(join(host.home, 'mmrb', q.path), q.image);
  writeFileSync(
    join(host.home, 'mmrb', 'all_data.json'),
    JSON.stringify(vl.map((q) => ({ ID: q.id, Text: q.text, Image: q.path, Output1: q.outputs[0], Output2: q.outputs[1], Better: q.better, Category: 'nocaps' }))),
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function importThroughPanel(file: string, format: string, imagesDir?: string): Promise<string> {
  await page.getByTestId('import-file').setInputFiles(file);
  await expect.poll(() => page.getByTestId('import-detected').innerText(), { timeout: 20_000 }).toMatch(/Detected/);
  expect(await page.getByTestId('import-detected').innerText()).toContain(format);
  if (imagesDir) await page.getByTestId('import-images-dir').fill(imagesDir);
  await page.getByTestId('import-button').click();
  const result = page.getByTestId('import-result');
  await expect.poll(() => result.innerText().catch(() => ''), { timeout: 60_000 }).toMatch(/Imported 2 new items/);
  return result.innerText();
}

const compare = () => page.getByTestId('compare');
const shown = (scope: string) => page.locator(`${scope} [data-testid="image-view"][data-state="shown"]`);

/** Waits for an item other than `previous` with its images painted, and returns its id. */
async function nextItem(previous: string | null, images: { scope: string; count: number }): Promise<string> {
  await expect.poll(async () => {
    const id = await compare().getAttribute('data-item-id');
    return id && id !== previous ? id : null;
  }, { timeout: 20_000 }).not.toBeNull();
  await expect.poll(() => shown(images.scope).count(), { timeout: 20_000 }).toBe(images.count);
  return (await compare().getAttribute('data-item-id'))!;
}

const labeled = (n: number) => expect.poll(() => page.getByTestId('progress').innerText(), { timeout: 15_000 }).toMatch(new RegExp(`${n}\\s*/\\s*2 labeled`));

/** Exports from the Datasets screen's panel and returns the browser's download. */
async function exportDownload(format: string): Promise<{ download: Download; bytes: Buffer; summary: string }> {
  await page.getByTestId('export-format').selectOption(format);
  await page.getByTestId('export-annotator').selectOption(ANNOTATOR);
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId('export-button').click()]);
  const bytes = readFileSync((await download.path())!);
  return { download, bytes, summary: await page.getByTestId('export-summary').innerText() };
}

/** The entries of a zip (stored or not, names and bytes), read from its central directory. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThanOrEqual(0);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    expect(zip.readUInt16LE(at + 10)).toBe(0); // stored: images are compressed already
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    out.set(name, zip.subarray(start, start + size));
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

interface VisionRow {
  prompt: { role: string; content: { type: string; text?: string | null }[] }[];
  chosen: { role: string; content: { type: string; text?: string | null }[] }[];
  rejected: { role: string; content: { type: string; text?: string | null }[] }[];
  images: unknown[];
}

const placeholders = (row: VisionRow) => [...row.prompt, ...row.chosen, ...row.rejected].flatMap((m) => m.content).filter((p) => p.type === 'image').length;
const textOf = (messages: VisionRow['chosen']) => messages.flatMap((m) => m.content).filter((p) => p.type === 'text').map((p) => p.text).join('');

/** The JSON Lines rows of a trl-vision zip, each image path replaced by the sha256 of the file it names in the zip. */
function jsonlRows(zip: Buffer, stem: string): (VisionRow & { hashes: string[] })[] {
  const entries = unzip(zip);
  expect([...entries.keys()].filter((n) => !n.startsWith(`${stem}_images/`))).toEqual([`${stem}.jsonl`]);
  const rows = entries.get(`${stem}.jsonl`)!.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as VisionRow);
  return rows.map((row) => ({
    ...row,
    hashes: row.images.map((path) => {
      expect(typeof path).toBe('string');
      expect(path as string).toMatch(new RegExp(`^${stem}_images/[0-9a-f]{64}\\.(png|jpg)$`));
      const bytes = entries.get(path as string);
      expect(bytes, `${path as string} is in the zip`).toBeDefined();
      return sha(bytes!);
    }),
  }));
}

describe('images from import to the trainer’s files, through the page', () => {
  it('imports a Pick-a-Pic Parquet file into a new project', async () => {
    await createProjectViaUi(page, T2I);
    const result = await importThroughPanel(join(host.home, 'pickapic-train.parquet'), 'pickapic');
    expect(result).toMatch(/2 new items hold images .*: 4 images stored \(all new\)/);
  });

  it('imports a Multimodal RewardBench file into another, its images read from the folder typed in', async () => {
    await page.getByRole('button', { name: 'Arbiter', exact: true }).click();
    await createProjectViaUi(page, VL);
    const result = await importThroughPanel(join(host.home, 'mmrb', 'all_data.json'), 'multimodal-rewardbench', join(host.home, 'mmrb'));
    expect(result).toMatch(/2 new items hold images .*: 2 images stored \(all new\)/);
  });

  it('labels both questions by keyboard on Compare, a box with a tag and a note drawn on the first one’s image', async () => {
    await page.getByTestId('tab-compare').click();
    let previous: string | null = null;
    for (let n = 0; n < 2; n++) {
      previous = await nextItem(previous, { scope: '[data-testid="prompt"]', count: 1 });
      const prompt = await page.getByTestId('prompt').innerText();
      const q = vl.find((x) => prompt.includes(x.text))!;
      expect(q, `the question on screen: ${prompt}`).toBeDefined();
      if (n === 0) {
        // A box from 20% / 30% to 60% / 70% of the image, with the mouse; the popover takes 3 (hallucinated
        // object), then the note, and Enter keeps it.
        const layer = page.locator('[data-testid="prompt"] [data-testid="region-layer"]');
        const box = (await layer.boundingBox())!;
        await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.3);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.5, { steps: 4 });
        await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.7, { steps: 4 });
        await page.mouse.up();
        await page.getByTestId('region-popover').waitFor();
        await page.keyboard.press('3');
        await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('region-note');
        await page.keyboard.type(NOTE);
        await page.keyboard.press('Enter');
        await expect.poll(() => page.getByTestId('region-popover').count()).toBe(0);
        expect(await layer.getByTestId('region-mark').getAttribute('data-tag')).toBe('hallucinated object');
        marked = { id: q.id, box: [0.2, 0.3, 0.6, 0.7] };
      }
      // The side showing the answer wanted: 1 takes the left one, 2 the right one.
      const left = await page.getByTestId('response-body-left').innerText();
      await page.keyboard.press(left.includes(q.outputs[q.want]) ? '1' : '2');
      await labeled(n + 1);
    }
  });

  it('labels both generated-image pairs by keyboard on Compare', async () => {
    await page.getByRole('button', { name: 'Arbiter', exact: true }).click();
    await page.locator(`[data-testid="project-row"][data-project="${T2I}"]`).click();
    await page.keyboard.press('Enter');
    await compare().waitFor();
    let previous: string | null = null;
    for (let n = 0; n < 2; n++) {
      previous = await nextItem(previous, { scope: '[data-testid="responses"]', count: 2 });
      const prompt = await page.getByTestId('prompt').innerText();
      const row = t2i.find((r) => prompt.includes(r.caption))!;
      expect(row, `the caption on screen: ${prompt}`).toBeDefined();
      const leftSha = await page.locator('[data-testid="response-body-left"] [data-testid="image-view"]').getAttribute('data-sha');
      expect([sha(row.jpg[0]), sha(row.jpg[1])]).toContain(leftSha);
      await page.keyboard.press(leftSha === sha(row.jpg[row.want]) ? '1' : '2');
      await labeled(n + 1);
    }
  });

  it('exports the pairs as TRL vision JSON Lines: a zip whose rows hold the images chosen and rejected by the keyboard, byte for byte', async () => {
    await page.getByTestId('tab-datasets').click();
    const { download, bytes, summary } = await exportDownload('trl-vision');
    expect(summary).toMatch(/Wrote 2 records/);
    const stem = download.suggestedFilename().replace(/\.zip$/, '');
    expect(download.suggestedFilename()).toBe(`${stem}.zip`);
    const rows = jsonlRows(bytes, stem);
    expect(rows).toHaveLength(2);
    for (const r of t2i) {
      const row = rows.find((x) => textOf(x.prompt) === r.caption)!;
      expect(row, r.caption).toBeDefined();
      // One placeholder in chosen, one in rejected; the images in that order: the chosen one first.
      expect(row.chosen).toEqual([{ role: 'assistant', content: [{ type: 'image' }] }]);
      expect(row.rejected).toEqual([{ role: 'assistant', content: [{ type: 'image' }] }]);
      expect(placeholders(row)).toBe(row.images.length);
      expect(row.hashes).toEqual([sha(r.jpg[r.want]), sha(r.jpg[(1 - r.want) as 0 | 1])]);
    }
  });

  it('exports the questions as TRL vision JSON Lines with the images beside: the keyboard’s choices, a placeholder per image, the bytes imported', async () => {
    await page.getByRole('button', { name: 'Arbiter', exact: true }).click();
    await page.locator(`[data-testid="project-row"][data-project="${VL}"]`).click();
    await page.keyboard.press('Enter');
    await page.getByTestId('tab-datasets').click();
    await page.getByTestId('export-panel').waitFor();
    const { download, bytes, summary } = await exportDownload('trl-vision');
    expect(summary).toMatch(/Wrote 2 records/);
    expect(summary).toMatch(/\.zip/);
    const stem = download.suggestedFilename().replace(/\.zip$/, '');
    const rows = jsonlRows(bytes, stem);
    expect(rows).toHaveLength(2);
    for (const q of vl) {
      const row = rows.find((x) => textOf(x.prompt) === q.text)!;
      expect(row, q.text).toBeDefined();
      expect(row.prompt).toEqual([{ role: 'user', content: [{ type: 'image' }, { type: 'text', text: q.text }] }]);
      expect(textOf(row.chosen)).toBe(q.outputs[q.want]);
      expect(textOf(row.rejected)).toBe(q.outputs[1 - q.want]);
      expect(placeholders(row)).toBe(row.images.length);
      expect(row.hashes).toEqual([sha(q.image)]);
    }
  });

  it('exports the TRL vision Parquet: the Image feature (struct bytes / path, the huggingface metadata) with the same bytes and choices', async () => {
    const { download, bytes } = await exportDownload('trl-vision-parquet');
    expect(download.suggestedFilename()).toMatch(/\.parquet$/);
    const file = new Uint8Array(bytes).buffer;
    const metadata = parquetMetadata(file);
    const hf = metadata.key_value_metadata?.find((k) => k.key === 'huggingface');
    expect(hf, 'the huggingface key-value metadata').toBeDefined();
    const features = (JSON.parse(hf!.value!) as { info: { features: Record<string, unknown> } }).info.features;
    expect(features.images).toEqual([{ _type: 'Image' }]);
    // The images column in the schema: a list of struct<bytes: binary, path: string>.
    const names = metadata.schema.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['images', 'bytes', 'path']));
    const rows = (await parquetReadObjects({ file, utf8: false })) as unknown as (VisionRow & { images: { bytes: Uint8Array; path: string | null }[] })[];
    expect(rows).toHaveLength(2);
    for (const q of vl) {
      const row = rows.find((x) => textOf(x.prompt) === q.text)!;
      expect(row, q.text).toBeDefined();
      expect(textOf(row.chosen)).toBe(q.outputs[q.want]);
      expect(textOf(row.rejected)).toBe(q.outputs[1 - q.want]);
      expect(row.images).toHaveLength(1);
      expect(row.images[0]!.bytes).toBeInstanceOf(Uint8Array);
      expect(sha(row.images[0]!.bytes)).toBe(sha(q.image));
      expect(placeholders(row)).toBe(1);
    }
  });

  it('exports the labels with the region mark in the revision of the keyboard’s choice', async () => {
    const { bytes } = await exportDownload('labels');
    const lines = bytes.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { item: string; annotator: string; choice?: string; regions?: RegionMark[] });
    const mine = lines.filter((l) => l.annotator === ANNOTATOR);
    expect(mine.map((l) => l.item).sort()).toEqual(vl.map((q) => q.id).sort());
    const q = vl.find((x) => x.id === marked!.id)!;
    const line = mine.find((l) => l.item === q.id)!;
    expect(line.choice).toBe(q.want === 0 ? 'A' : 'B');
    expect(line.regions).toHaveLength(1);
    const [mark] = line.regions!;
    expect(mark).toMatchObject({ image: sha(q.image), at: 'prompt', kind: 'box', tag: 'hallucinated object', note: NOTE });
    mark!.box!.forEach((v, i) => expect(v).toBeCloseTo(marked!.box[i]!, 1));
    expect(mine.find((l) => l.item !== q.id)!.regions ?? []).toEqual([]);
  });

  it('asked for nothing outside its own origin and logged no errors', () => {
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
