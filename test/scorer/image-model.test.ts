// Image reward models (issue 15, item 7): pixel values made from preprocessor_config.json as Hugging
// Face's image processors make them, the model folder checked against them, and score jobs over
// text-to-image pairs and rankings of four images, each response's image read from the image store.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { addModel, inspectModelFolder, prelabelsForItem, startScoreJob } from '../../electron/core/scorer';
import { parsePreprocessorConfig, preprocessImage, resizedSize } from '../../electron/core/scorer/imageInputs';
import { resizeRgb } from '../../electron/core/scorer/resample';
import { imageStoreDir, imageSha256 } from '../../electron/core/images/store';
import type { Db } from '../../electron/core/store/db';
import { sigmoid } from '../../electron/core/scorer/prelabel';
import { addItems, makeDb, tempDir, writeModelFolder } from './helpers';
import { imageResponse, rawPng, solidPng, storedImagePart, writeImageModelFolder, type ImageFolder, type Rgb } from './imageHelpers';
import { imageRewardJs } from './imageReference';

const root = resolve(import.meta.dirname, '..', '..');
const open: Db[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

const f = Math.fround;
const CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073];
const CLIP_STD = [0.26862954, 0.26130258, 0.27577711];

/** (v / 255 − mean) / std in float32, as numpy computes it (transformers rescale, then normalize). */
function clipValue(v: number, c: number): number {
  return f(f(f(v * 0.00392156862745098) - f(CLIP_MEAN[c]!)) / f(CLIP_STD[c]!));
}

/** The pixel values of a one-colour image: each channel a constant. */
function solidTensor([r, g, b]: Rgb, size: number): Float32Array {
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  [r, g, b].forEach((v, c) => out.fill(clipValue(v, c), c * plane, (c + 1) * plane));
  return out;
}

const config = (extra: Record<string, unknown>) => ({ do_resize: false, do_center_crop: false, ...extra });

describe('pixel values from preprocessor_config.json', () => {
  it('crops the centre, rescales and normalises to the values worked out by hand', async () => {
    // 5 × 2 pixels; the 2 × 2 centre crop keeps columns 1 and 2 ((5 − 2) // 2 = 1, where torchvision's round would take 2 and 3), both rows.
    const png = await rawPng(5, 2, [
      ...[0, 0, 0], ...[255, 0, 51], ...[0, 255, 102], ...[9, 9, 9], ...[5, 5, 5],
      ...[1, 1, 1], ...[51, 102, 255], ...[255, 255, 0], ...[7, 7, 7], ...[3, 3, 3],
    ]);
    const parsed = parsePreprocessorConfig(config({ do_center_crop: true, crop_size: { height: 2, width: 2 }, image_mean: [0.5, 0.5, 0.5], image_std: [0.5, 0.5, 0.5] }));
    expect([parsed.height, parsed.width]).toEqual([2, 2]);
    const t = await preprocessImage(png, parsed.preprocess, parsed);
    // (v / 255 − 0.5) / 0.5: 255 → 1, 0 → −1, 51 → −0.6, 102 → −0.2. Channels first: R plane, G plane, B plane.
    const expected = [1, -1, -0.6, 1, /* G */ -1, 1, -0.2, 1, /* B */ -0.6, -0.2, 1, -1];
    expect(t).toHaveLength(12);
    [...t].forEach((v, i) => expect(v, `value ${i}`).toBeCloseTo(expected[i]!, 6));
  });

  it('pads with black where the crop is larger than the image, as transformers center_crop does', async () => {
    const png = await rawPng(2, 2, [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120]);
    const parsed = parsePreprocessorConfig(config({ do_center_crop: true, crop_size: 5, do_normalize: false }));
    const t = await preprocessImage(png, parsed.preprocess, parsed);
    // transformers pads to 5 × 5 with the image at ceil((5 − 2) / 2) = 2, then crops at (2 − 5) // 2 + 2 = 0:
    // the image sits in rows 2–3 and columns 2–3 of the crop.
    const r = [...t.subarray(0, 25)].map((v) => Math.round(v * 255));
    expect(r).toEqual([0, 0, 0, 0, 0, /**/ 0, 0, 0, 0, 0, /**/ 0, 0, 10, 40, 0, /**/ 0, 0, 70, 100, 0, /**/ 0, 0, 0, 0, 0]);
  });

  it('resamples as Pillow does (centre-aligned, filter widened when shrinking, 22-bit fixed point)', () => {
    const grey = (values: number[]) => Uint8Array.from(values.flatMap((v) => [v, v, v]));
    const red = (rgb: Uint8Array) => [...rgb].filter((_, i) => i % 3 === 0);
    // Bilinear 4 → 2: output 0 is centred at source 1.0 with the filter widened ×2, taps 0..2 weighted
    // 0.75, 0.75, 0.25 (÷ 1.75): 255 · 0.75 / 1.75 = 109.3 → 109; output 1: taps 1..3, 255 · 1 / 1.75 = 145.7 → 146.
    expect(red(resizeRgb(grey([0, 255, 0, 255]), 4, 1, 2, 1, 'bilinear'))).toEqual([109, 146]);
    // Bicubic 3 → 5 (a = −0.5): output 0 at source 0.3 weighs 0.912 and −0.064 (÷ 0.848), 100 · −0.0755 → clipped to 0.
    // The values Pillow 9.4 gives for the same call: 0, 31, 100, 169, 208.
    expect(red(resizeRgb(grey([0, 100, 200]), 3, 1, 5, 1, 'bicubic'))).toEqual([0, 31, 100, 169, 208]);
    // Nearest 3 → 2: positions 0.75 and 2.25 → source 0 and 2.
    expect(red(resizeRgb(grey([10, 20, 30]), 3, 1, 2, 1, 'nearest'))).toEqual([10, 30]);
  });

  it('resizes the shortest edge as transformers works out the size, then crops to the config', async () => {
    // int(224 · 640 / 480) = 298; int(224 · 641 / 480) = 299.
    expect(resizedSize(640, 480, { shortestEdge: 224 })).toEqual({ width: 298, height: 224 });
    expect(resizedSize(480, 641, { shortestEdge: 224 })).toEqual({ width: 224, height: 299 });
    expect(resizedSize(100, 50, { height: 30, width: 40 })).toEqual({ width: 40, height: 30 });
    const parsed = parsePreprocessorConfig({ image_processor_type: 'CLIPImageProcessor', size: { shortest_edge: 24 }, crop_size: { height: 24, width: 24 }, resample: 3 });
    const t = await preprocessImage(await solidPng(80, 60, [200, 30, 60]), parsed.preprocess, parsed);
    expect(t).toEqual(solidTensor([200, 30, 60], 24));
  });

  it('turns the image upright by its EXIF orientation, and grey or RGBA images into RGB', async () => {
    // 4 wide × 2 high, left half red, right half blue, stored sideways: orientation 6 shows it 2 wide × 4 high, red on top.
    const rgb = [0, 1].flatMap(() => [0, 1, 2, 3].flatMap((x) => (x < 2 ? [255, 0, 0] : [0, 0, 255])));
    const jpeg = await sharp(Buffer.from(rgb), { raw: { width: 4, height: 2, channels: 3 } }).jpeg({ quality: 100 }).withMetadata({ orientation: 6 }).toBuffer();
    const parsed = parsePreprocessorConfig(config({ do_resize: true, size: { height: 4, width: 2 }, do_normalize: false }));
    const t = await preprocessImage(jpeg, parsed.preprocess, parsed);
    const red = [...t.subarray(0, 8)].map((v) => Math.round(v * 255));
    expect(red.slice(0, 4).every((v) => v > 200), `top rows red: ${red}`).toBe(true);
    expect(red.slice(4).every((v) => v < 60), `bottom rows not red: ${red}`).toBe(true);

    const grey = await rawPng(2, 1, [40, 200], 1);
    const g = await preprocessImage(grey, parsePreprocessorConfig(config({ do_normalize: false, do_rescale: false, do_center_crop: true, crop_size: { height: 1, width: 2 } })).preprocess, { height: 1, width: 2 });
    expect([...g]).toEqual([40, 200, 40, 200, 40, 200]);
    // RGBA: the alpha channel is dropped and the colour kept (PIL's convert('RGB')), even where transparent.
    const rgba = await rawPng(1, 1, [10, 20, 30, 0], 4);
    const a = await preprocessImage(rgba, parsePreprocessorConfig(config({ do_normalize: false, do_rescale: false, do_center_crop: true, crop_size: 1 })).preprocess, { height: 1, width: 1 });
    expect([...a]).toEqual([10, 20, 30]);
  });

  it('refuses what it cannot reproduce, naming the field', () => {
    expect(() => parsePreprocessorConfig({ resample: 'bicubic' })).toThrow('preprocessor_config.json "resample" is "bicubic"; expected a PIL filter number (0 nearest, 1 lanczos, 2 bilinear, 3 bicubic, 4 box, 5 hamming)');
    expect(() => parsePreprocessorConfig({ do_pad: true })).toThrow('preprocessor_config.json "do_pad" asks for padding to a fixed size');
    expect(() => parsePreprocessorConfig({ do_center_crop: false, size: { shortest_edge: 224 } })).toThrow(/gives no fixed image size \(a shortest-edge resize with no centre crop\)/);
    expect(() => parsePreprocessorConfig({ image_std: [0.2, 0, 0.2] })).toThrow('preprocessor_config.json "image_std" holds 0');
    expect(() => parsePreprocessorConfig({ size: { longest_edge: 224 } })).toThrow('preprocessor_config.json "size" is {"longest_edge":224}');
  });
});

describe('image reward model folders', () => {
  it('the demo image model is generated deterministically, and loads as an image model reading the prompt too', async () => {
    const out = tempDir('arbiter-demo-models-');
    execFileSync(process.execPath, [join(root, 'scripts', 'gen-demo-models.mjs'), '--out', out], { stdio: 'pipe' });
    const shipped = join(root, 'resources', 'models', 'demo-image');
    const files = readdirSync(join(out, 'demo-image')).sort();
    expect(files).toEqual(['config.json', 'model.onnx', 'preprocessor_config.json', 'tokenizer.json', 'tokenizer_config.json']);
    expect(readdirSync(shipped).sort()).toEqual(files);
    for (const file of files) expect(readFileSync(join(shipped, file)).equals(readFileSync(join(out, 'demo-image', file))), `resources/models/demo-image/${file} is stale`).toBe(true);

    const described = await inspectModelFolder(shipped);
    expect(described).toMatchObject({ kind: 'outcome', inputMode: 'image', maxLength: 77, reward: { output: 'logits', index: 0 } });
    expect(described.inputs.map((i) => [i.name, i.filledWith])).toEqual([['pixel_values', 'pixel_values'], ['input_ids', 'input_ids'], ['attention_mask', 'attention_mask']]);
    expect(described.image).toMatchObject({ input: 'pixel_values', shape: ['batch', 3, 224, 224], readsPrompt: true });
    expect(described.image!.preprocess).toBe('RGB, EXIF orientation, shortest edge → 224 (bicubic), centre crop 224 × 224, × 1/255, normalised (mean 0.481 0.458 0.408, std 0.269 0.261 0.276)');
    expect(described.warnings).toEqual([]);
  });

  it('refuses a graph whose pixel input does not match the config, with a sentence naming the input', async () => {
    const { db } = makeDb([]);
    open.push(db);
    const refused = async (options: Parameters<typeof writeImageModelFolder>[1]) => {
      const folder = writeImageModelFolder(join(tempDir(), 'm'), options);
      return addModel(db, folder.dir).then(
        () => 'added',
        (e: Error) => e.message,
      );
    };
    expect(await refused({ size: 32, pixelShape: [48, 48] })).toBe(
      'model.onnx input "pixel_values" takes 48 × 48 images (height × width), but preprocessor_config.json makes 32 × 32 (crop_size): the config does not belong to this model',
    );
    expect(await refused({ size: 32, preprocessor: null })).toMatch(/^model\.onnx asks for input "pixel_values" \(float32 \[batch, 3, 32, 32\]\): an image\. Put the preprocessor_config\.json/);
    expect(await refused({ size: 32, preprocessor: { do_pad: true } })).toMatch(/^preprocessor_config\.json "do_pad" asks for padding to a fixed size, which Arbiter's image preprocessing does not do/);
    // A text model's folder with a preprocessor_config.json beside it: no pixel input to fill.
    const text = writeModelFolder(join(tempDir(), 't'), { kind: 'outcome' });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(text.dir, 'preprocessor_config.json'), '{}');
    await expect(addModel(db, text.dir)).rejects.toThrow(
      'preprocessor_config.json is in the folder, so this is an image model, but model.onnx has no "pixel_values" input (it has "input_ids", "attention_mask")',
    );
    expect(db.prepare('SELECT COUNT(*) FROM model').pluck().get()).toBe(0);
  });
});

/** Token ids the reference way: [CLS] words [SEP] (every prompt word is a whole token of the test vocabulary). */
function promptIds(folder: ImageFolder, prompt: string): number[] {
  return [2, ...prompt.split(' ').map((w) => folder.vocab.indexOf(w)), 3];
}

const RED: Rgb = [220, 20, 30];
const BLUE: Rgb = [20, 40, 230];
const GREEN: Rgb = [30, 200, 40];
const GREY: Rgb = [128, 128, 128];

describe('score jobs with an image model', () => {
  it('scores text-to-image pairs and a ranking of four in a worker: the rewards the model gives, P(left better) = sigmoid(rA − rB)', async () => {
    const folder = writeImageModelFolder(join(tempDir(), 'img'), { size: 32 });
    const { db, dbPath, projectId } = makeDb([]);
    open.push(db);
    const image = async (rgb: Rgb) => imageResponse(storedImagePart(dbPath, await solidPng(48, 40, rgb), 48, 40));
    const prompts = ['a red apple', 'a blue sky', 'a photo of a tree', 'two plus two'];
    const ids = addItems(db, projectId, [
      { prompt: prompts[0]!, responses: [await image(RED), await image(BLUE)] },
      { prompt: prompts[1]!, responses: [await image(RED), await image(BLUE)] },
      { prompt: prompts[2]!, responses: [await image(GREEN), await image(RED), await image(BLUE), await image(GREY)] },
      { prompt: prompts[3]!, responses: [{ content: 'four' }, { content: 'five' }] },
    ]);
    const job = startScoreJob({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu', batchSize: 3 });
    const [run] = (await job.promise).models;
    expect(run).toMatchObject({ scored: 8, cached: 0, unscorable: 2, truncated: 0 });
    expect(run!.unscorableReasons).toEqual([
      {
        reason: 'the response is text, not an image: an image reward model scores generated images',
        count: 2,
        examples: ['item extra-3, response A', 'item extra-3, response B'],
        byDesign: 'text responses (an image reward model scores generated images)',
      },
    ]);

    // Each reward is the model's forward pass (plain JS) on the pixel values of that colour.
    const expected = (prompt: string, rgb: Rgb) => imageRewardJs(folder.weights, solidTensor(rgb, 32), 32, 32, promptIds(folder, prompt));
    const colours: Rgb[][] = [[RED, BLUE], [RED, BLUE], [GREEN, RED, BLUE, GREY]];
    for (const [k, itemId] of ids.slice(0, 3).entries()) {
      const [model] = prelabelsForItem(db, projectId, itemId).models;
      expect(model!.kind).toBe('outcome');
      model!.rewards.forEach((r, i) => expect(r, `item ${k}, response ${i}`).toBeCloseTo(expected(prompts[k]!, colours[k]![i]!), 4));
      expect(model!.pAB).toBeCloseTo(sigmoid(model!.rewards[0]! - model!.rewards[1]!), 12);
    }
    const [red, blue, ranking] = ids.slice(0, 3).map((id) => prelabelsForItem(db, projectId, id));
    // "a red apple": the red image; "a blue sky": the blue one; decisively, by the colour term.
    expect(red!.models[0]).toMatchObject({ vote: 'A' });
    expect(red!.models[0]!.pAB).toBeGreaterThan(0.9);
    expect(blue!.models[0]).toMatchObject({ vote: 'B' });
    expect(blue!.models[0]!.pAB).toBeLessThan(0.1);
    expect(red!.ensemble).toMatchObject({ vote: 'A', models: 1 });
    // No colour word: the reddest image ranks first.
    const rewards = ranking!.models[0]!.rewards as number[];
    expect(rewards.indexOf(Math.max(...rewards))).toBe(1);
  });

  it('an image that cannot be read makes its response unscorable with the reason; the job goes on', async () => {
    const folder = writeImageModelFolder(join(tempDir(), 'img'), { size: 32 });
    const { db, dbPath, projectId } = makeDb([]);
    open.push(db);
    const good = storedImagePart(dbPath, await solidPng(40, 40, RED), 40, 40);
    const whole = await solidPng(40, 40, BLUE);
    const truncated = storedImagePart(dbPath, whole.subarray(0, whole.length - 30), 40, 40);
    const notImage = storedImagePart(dbPath, Buffer.from('<html>not an image</html>'), 40, 40);
    const missingBytes = await solidPng(40, 40, GREEN);
    const missing = { type: 'image', image: { sha256: imageSha256(missingBytes), mime: 'image/png', width: 40, height: 40, bytes: missingBytes.length }, origin: { kind: 'inline' } } as const;
    const offline = { type: 'image', origin: { kind: 'url', url: 'https://example.com/a.png' }, unavailable: 'not available offline: http URL' } as const;
    const itemIds = addItems(db, projectId, [
      { prompt: 'a red apple', responses: [imageResponse(good), imageResponse(truncated)] },
      { prompt: 'a red apple', responses: [imageResponse(notImage), imageResponse(missing)] },
      { prompt: 'a red apple', responses: [imageResponse(offline), imageResponse(good)] },
    ]);
    const [run] = (await startScoreJob({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' }).promise).models;
    // The good image is one input (same prompt, same image): scored once, for both places it is.
    expect(run).toMatchObject({ scored: 1, unscorable: 4 });
    const reasons = Object.fromEntries(run!.unscorableReasons.map((r) => [r.examples.join(' / '), r.reason]));
    expect(reasons['item extra-0, response B']).toMatch(/^its image could not be read \(damaged, or not an image sharp can decode\): .+/);
    expect(reasons['item extra-1, response A']).toMatch(/^its image could not be read/);
    expect(reasons['item extra-1, response B']).toBe(`its image is not in the image store (${join(imageStoreDir(dbPath), missing.image.sha256.slice(0, 2), missing.image.sha256)}): import the file again to store it`);
    expect(reasons['item extra-2, response A']).toBe('its image is not available offline: http URL, so there are no pixels to score');
    expect(prelabelsForItem(db, projectId, itemIds[0]!).models[0]!.rewards).toEqual([expect.any(Number), null]);
    expect(prelabelsForItem(db, projectId, itemIds[2]!).models[0]!.rewards).toEqual([null, expect.any(Number)]);
  });
});
