// TRL vision preference round trips (issue 15): files written here by hand after TRL's docs and code
// (dataset formats, "vision datasets": prompt / chosen / rejected message lists with {"type": "image"}
// placeholders and an `images` column; trl/data_utils.py prepare_multimodal_messages fills the placeholders
// in order and puts the images before a string prompt's text; trl/trainer/dpo_trainer.py
// DataCollatorForVisionPreference takes `images` or one `image`) and after the `datasets` Image feature
// (features/image.py: struct<bytes: binary, path: string>; the `huggingface` Parquet metadata key holds the
// features). Images are made by the test with sharp. Everything goes through the real CLI on a real
// SQLite file; labels through the service on the same file.
//   JSON Lines (paths, a data: URI, base64) → Arbiter → trl-vision JSON Lines with x_images/ beside it,
//   Parquet with the Image feature → Arbiter → trl-vision-parquet: image bytes equal by sha256, every label.
// Python's `datasets` reading the exported files and comparing pixels: vision-python.test.ts.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteFile } from 'hyparquet-writer';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';

let dir: string;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--db', join(dir, 'arbiter.db')], { out: (l) => out.push(l), err: (l) => err.push(l), ask: async () => 'no' });
  return { code, out, err, said: err.join('\n') };
}

async function ok(args: string[]) {
  const run = await cli(args);
  expect(run.code, `arbiter ${args.join(' ')}\n${run.said}`).toBe(0);
  return JSON.parse(run.out[run.out.length - 1]!) as Record<string, unknown>;
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const readRows = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

/** A small image of its own pixels (a gradient with a seed), so each is different. */
async function image(seed: number, format: 'png' | 'jpeg' | 'webp', width = 24, height = 16): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) raw.set([(i * seed) % 256, (i + seed * 40) % 256, (seed * 97) % 256], i * 3);
  const pipeline = sharp(raw, { raw: { width, height, channels: 3 } });
  return format === 'png' ? pipeline.png().toBuffer() : format === 'jpeg' ? pipeline.jpeg({ quality: 90 }).toBuffer() : pipeline.webp({ lossless: true }).toBuffer();
}

const user = (...content: unknown[]) => [{ role: 'user', content }];
const assistant = (text: string) => [{ role: 'assistant', content: [{ type: 'text', text }] }];
const IMG = { type: 'image' };
const text = (t: string) => ({ type: 'text', text: t });

let png1: Buffer, jpg2: Buffer, png3: Buffer, webp4: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-vision-trl-'));
  [png1, jpg2, png3, webp4] = await Promise.all([image(1, 'png'), image(2, 'jpeg'), image(3, 'png', 40, 30), image(4, 'webp')]);
  mkdirSync(join(dir, 'data/imgs'), { recursive: true });
  writeFileSync(join(dir, 'data/imgs/cat.png'), png1);
  writeFileSync(join(dir, 'data/imgs/dog.jpg'), jpg2);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The TRL vision rows of the JSON Lines file, as TRL's docs write them (images as paths, a data URI, base64). */
function trlVisionRows() {
  return [
    { id: 'one', prompt: user(IMG, text('What animal is this?')), chosen: assistant('A cat.'), rejected: assistant('A dog.'), images: ['imgs/cat.png'] },
    {
      id: 'two',
      prompt: user(text('Compare'), IMG, text('with'), IMG),
      chosen: assistant('The first is a cat, the second a dog.'),
      rejected: assistant('Both are cats.'),
      images: ['imgs/dog.jpg', `data:image/png;base64,${png3.toString('base64')}`],
    },
    // No placeholder: TRL puts the image before the text of the first user message given as a string.
    { id: 'three', prompt: [{ role: 'user', content: 'Describe the picture.' }], chosen: [{ role: 'assistant', content: 'Stripes.' }], rejected: [{ role: 'assistant', content: 'Dots.' }], images: [webp4.toString('base64')] },
    { id: 'four', prompt: user(text('No image here: what is 2 + 2?')), chosen: assistant('4'), rejected: assistant('5'), images: [] },
  ];
}

describe('TRL vision JSON Lines → Arbiter → trl-vision JSON Lines with the images beside it', () => {
  let rows: Record<string, unknown>[];
  let out: string;
  beforeAll(async () => {
    writeFileSync(join(dir, 'data/pairs.jsonl'), jsonl(trlVisionRows()));
    const summary = await ok(['import', join(dir, 'data/pairs.jsonl'), '--project', 'vis']);
    expect(summary.format).toBe('trl-vision');
    // A person prefers the other answer on "two": the export follows the person, not the file.
    const dbPath = join(dir, 'arbiter.db');
    const db = openDb(dbPath);
    try {
      const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
      const two = db.prepare("SELECT id FROM item WHERE external_id = 'two'").pluck().get() as number;
      await service.dispatch('saveLabel', { project: 'vis', annotator: 'ann', itemId: two, choice: 'B', strength: 2, shownOrder: [0, 1] });
    } finally {
      db.close();
    }
    out = join(dir, 'out/vis.jsonl');
    const exported = await ok(['export', '--project', 'vis', '--format', 'trl-vision', '--out', out]);
    expect(exported.written).toBe(4);
    expect(String(exported.note)).toMatch(/RewardTrainer and OpenRLHF have no vision reward models/);
    rows = readRows(out);
  });

  it('writes every image once beside the file, byte for byte, named by its sha256, with paths relative to the file', () => {
    const folder = join(dir, 'out/vis_images');
    const files = readdirSync(folder).sort();
    const expected = [png1, jpg2, png3, webp4].map((b, i) => `${sha(b)}.${['png', 'jpg', 'png', 'webp'][i]}`).sort();
    expect(files).toEqual(expected);
    for (const name of files) expect(sha(readFileSync(join(folder, name)))).toBe(name.split('.')[0]);
    expect(existsSync(`${folder}.partial`)).toBe(false);
  });

  it('keeps the placeholders, the text and the labels in every row', () => {
    const byPrompt = (needle: string) => rows.find((r) => JSON.stringify(r.prompt).includes(needle))!;
    const one = byPrompt('What animal');
    expect(one.prompt).toEqual(user(IMG, text('What animal is this?')));
    expect(one.chosen).toEqual(assistant('A cat.'));
    expect(one.rejected).toEqual(assistant('A dog.'));
    expect(one.images).toEqual([`vis_images/${sha(png1)}.png`]);
    const two = byPrompt('Compare');
    expect(two.prompt).toEqual(user(text('Compare'), IMG, text('with'), IMG));
    // The person chose B: chosen and rejected swap.
    expect(two.chosen).toEqual(assistant('Both are cats.'));
    expect(two.rejected).toEqual(assistant('The first is a cat, the second a dog.'));
    expect(two.images).toEqual([`vis_images/${sha(jpg2)}.jpg`, `vis_images/${sha(png3)}.png`]);
    const three = byPrompt('Describe');
    expect(three.prompt).toEqual(user(IMG, text('Describe the picture.')));
    expect(three.chosen).toEqual(assistant('Stripes.'));
    expect(three.images).toEqual([`vis_images/${sha(webp4)}.webp`]);
    const four = byPrompt('No image');
    expect(four.images).toEqual([]);
    for (const row of rows) expect(Object.keys(row)).toEqual(['prompt', 'chosen', 'rejected', 'images']);
  });

  it('reads its own export back to the same items, and writes the same file again', async () => {
    const again = await ok(['import', out, '--project', 'vis-again']);
    expect(again.format).toBe('trl-vision');
    expect(again.items).toBe(4);
    expect(again.imageFiles).toEqual({ added: 0, kept: 4 });
    const second = join(dir, 'again/vis.jsonl');
    await ok(['export', '--project', 'vis-again', '--format', 'trl-vision', '--out', second]);
    expect(readFileSync(second, 'utf8')).toBe(readFileSync(out, 'utf8'));
    expect(readdirSync(join(dir, 'again/vis_images')).sort()).toEqual(readdirSync(join(dir, 'out/vis_images')).sort());
  });

  it('a text format refuses the image items and names the vision formats', async () => {
    const run = await cli(['export', '--project', 'vis', '--format', 'trl', '--out', join(dir, 'out/text.jsonl')]);
    expect(run.code).not.toBe(0);
    expect(run.said).toMatch(/3 items hold images/);
    expect(run.said).toMatch(/trl-vision/);
    expect(existsSync(join(dir, 'out/text.jsonl'))).toBe(false);
  });
});

describe('placeholders and images that do not match', () => {
  it('a row with more images than placeholders is an invalid line naming both counts', async () => {
    const bad = [trlVisionRows()[0], { prompt: user(IMG, text('Two images, one placeholder')), chosen: assistant('a'), rejected: assistant('b'), images: ['imgs/cat.png', 'imgs/dog.jpg'] }];
    writeFileSync(join(dir, 'data/bad.jsonl'), jsonl(bad));
    const run = await cli(['import', join(dir, 'data/bad.jsonl'), '--project', 'bad', '--format', 'trl-vision']);
    expect(run.code).not.toBe(0);
    expect(run.said).toContain('bad.jsonl:2: images: 2 images for 1 {"type": "image"} placeholder (1 in prompt, 0 in chosen, 0 in rejected)');
    const skipped = await ok(['import', join(dir, 'data/bad.jsonl'), '--project', 'bad', '--format', 'trl-vision', '--skip-invalid']);
    expect(skipped.items).toBe(1);
    expect(skipped.rejected).toBe(1);
  });

  it('a missing image file names the line and the path', async () => {
    writeFileSync(join(dir, 'data/missing.jsonl'), jsonl([{ prompt: user(IMG, text('?')), chosen: assistant('a'), rejected: assistant('b'), images: ['imgs/gone.png'] }]));
    const run = await cli(['import', join(dir, 'data/missing.jsonl'), '--project', 'missing']);
    expect(run.code).not.toBe(0);
    expect(run.said).toMatch(/missing\.jsonl:1: .*imgs\/gone\.png: no such file/);
  });
});

/** A Parquet file as `datasets` writes a TRL vision set (HuggingFaceH4/rlaif-v_formatted's columns): Image feature cells, a `huggingface` features key. */
function writeTrlVisionParquet(path: string, rows: { prompt: unknown; chosen: unknown; rejected: unknown; images: { bytes: Uint8Array; path: string | null }[] }[]) {
  const S = (name: string) => ({ name, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const, repetition_type: 'OPTIONAL' as const });
  const list = (name: string, child: object[]) => [{ name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 }, { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, ...child];
  const struct = (name: string, fields: object[][]) => [{ name, repetition_type: 'OPTIONAL', num_children: fields.length }, ...fields.flat()];
  const messages = (name: string) => list(name, struct('element', [[S('role')], list('content', struct('element', [[S('type')], [S('text')]]))]));
  const image = struct('element', [[{ name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' }], [S('path')]]);
  const schema = [{ name: 'schema', num_children: 4 }, ...messages('prompt'), ...messages('chosen'), ...messages('rejected'), ...list('images', image)];
  const message = { role: { dtype: 'string', _type: 'Value' }, content: { feature: { type: { dtype: 'string', _type: 'Value' }, text: { dtype: 'string', _type: 'Value' } }, _type: 'List' } };
  const features = { prompt: { feature: message, _type: 'List' }, chosen: { feature: message, _type: 'List' }, rejected: { feature: message, _type: 'List' }, images: { feature: { _type: 'Image' }, _type: 'List' } };
  const withText = (m: { role: string; content: { type: string; text?: string }[] }[]) => m.map((x) => ({ role: x.role, content: x.content.map((p) => ({ type: p.type, text: p.text ?? null })) }));
  parquetWriteFile({
    filename: path,
    schema: schema as never,
    columnData: [
      { name: 'prompt', data: rows.map((r) => withText(r.prompt as never)) },
      { name: 'chosen', data: rows.map((r) => withText(r.chosen as never)) },
      { name: 'rejected', data: rows.map((r) => withText(r.rejected as never)) },
      { name: 'images', data: rows.map((r) => r.images) },
    ],
    kvMetadata: [{ key: 'huggingface', value: JSON.stringify({ info: { features } }) }],
  });
}

async function parquetRows(path: string) {
  const bytes = readFileSync(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const metadata = parquetMetadata(file);
  const rows = (await parquetReadObjects({ file, utf8: false })) as Record<string, unknown>[];
  return { rows, metadata };
}

describe('Parquet with the Image feature → Arbiter → trl-vision-parquet', () => {
  let source: string;
  beforeAll(() => {
    source = join(dir, 'data/train-00000-of-00001.parquet');
    writeTrlVisionParquet(source, [
      { prompt: user(IMG, text('What animal is this?')), chosen: assistant('A cat.'), rejected: assistant('A dog.'), images: [{ bytes: png1, path: 'cat.png' }] },
      { prompt: user(IMG, IMG, text('Which is bigger?')), chosen: assistant('The second.'), rejected: assistant('The first.'), images: [{ bytes: jpg2, path: null }, { bytes: png3, path: 'big.png' }] },
    ]);
  });

  it('imports the Image cells, and exports them byte for byte with their paths, the features saying Image', async () => {
    const summary = await ok(['import', source, '--project', 'pq']);
    expect(summary.format).toBe('trl-vision');
    expect(summary.items).toBe(2);
    const out = join(dir, 'out/pq.parquet');
    const exported = await ok(['export', '--project', 'pq', '--format', 'trl-vision-parquet', '--out', out]);
    expect(exported.written).toBe(2);
    expect(String(exported.note)).toMatch(/Parquet Image cells/);
    const { rows, metadata } = await parquetRows(out);
    const features = JSON.parse(metadata.key_value_metadata!.find((k) => k.key === 'huggingface')!.value!) as { info: { features: Record<string, unknown> } };
    expect(features.info.features.images).toEqual([{ _type: 'Image' }]);
    const images = rows.map((r) => (r.images as { bytes: Uint8Array; path: string }[]).map((i) => ({ sha: sha(i.bytes), path: i.path })));
    expect(images).toEqual([
      [{ sha: sha(png1), path: 'cat.png' }],
      [
        { sha: sha(jpg2), path: null },
        { sha: sha(png3), path: 'big.png' },
      ],
    ]);
    expect(rows[1]!.prompt).toEqual([{ role: 'user', content: [{ type: 'image', text: null }, { type: 'image', text: null }, { type: 'text', text: 'Which is bigger?' }] }]);
    expect(rows[1]!.chosen).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'The second.' }] }]);
    // Parquet → Arbiter → Parquet → Arbiter: the same items (their uids cover the images' hashes).
    const again = await ok(['import', out, '--project', 'pq-again']);
    expect(again.items).toBe(2);
    expect(again.imageFiles).toEqual({ added: 0, kept: 3 });
    const db = openDb(join(dir, 'arbiter.db'));
    try {
      const uids = (project: string) => db.prepare('SELECT i.uid FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = ? ORDER BY i.seq').pluck().all(project);
      expect(uids('pq-again')).toEqual(uids('pq'));
    } finally {
      db.close();
    }
  });

  it('trl-vision to a .parquet name writes Parquet too', async () => {
    const out = join(dir, 'out/pq2.parquet');
    await ok(['export', '--project', 'pq', '--format', 'trl-vision', '--out', out]);
    const { rows } = await parquetRows(out);
    expect(rows).toHaveLength(2);
    expect(existsSync(join(dir, 'out/pq2_images'))).toBe(false);
  });
});
