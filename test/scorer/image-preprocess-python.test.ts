// Arbiter's pixel values against transformers' own CLIP image processor (its PIL backend, which
// imageInputs.ts and resample.ts follow), on images made here, for every Pillow filter: they must be
// equal to the bit. Needs the Python environment of scripts/python-env.mjs (transformers, Pillow); where
// it cannot be made, the test is skipped with the reason.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePreprocessorConfig, preprocessImage } from '../../electron/core/scorer/imageInputs';
import { trlEnv } from '../../scripts/python-env.mjs';
import { skipOrFail } from '../helpers/required';
import { clipPreprocessorConfig } from '../../scripts/lib/onnx-image-builder.mjs';

const ROOT = join(__dirname, '../..');
const CHECK = join(ROOT, 'test/python/image_preprocess_check.py');
const env = trlEnv({ log: (line) => console.log(line) });
skipOrFail('Image preprocessing check against transformers', env.python ? null : env.reason);

const dir = mkdtempSync(join(tmpdir(), 'arbiter-image-preprocess-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Pixels of their own: smooth gradients with a few hard edges (where resamplers differ most). */
function pattern(width: number, height: number, channels: number, seed: number): Buffer {
  const raw = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const edge = ((x >> 4) + (y >> 4) + seed) % 5 === 0 ? 90 : 0;
      const px = [(x * 255) / width + edge, (y * 255) / height, ((x + y + seed * 13) * 3) % 256, 255 - ((x * y) % 200)];
      for (let c = 0; c < channels; c++) raw[(y * width + x) * channels + c] = Math.min(255, Math.round(px[c]!));
    }
  }
  return raw;
}

describe.skipIf(!env.python)('pixel values equal to transformers CLIPImageProcessor (PIL backend)', () => {
  it('to the bit, for each resample filter, enlarging and shrinking, with EXIF orientation, grey and RGBA', async () => {
    const png = (w: number, h: number, channels: 1 | 3 | 4, seed: number) => sharp(pattern(w, h, channels, seed), { raw: { width: w, height: h, channels } }).png().toBuffer();
    const images: { name: string; bytes: Buffer }[] = [
      { name: '224 × 224 PNG', bytes: await png(224, 224, 3, 1) },
      { name: '300 × 200 PNG', bytes: await png(300, 200, 3, 2) },
      { name: '120 × 90 PNG', bytes: await png(120, 90, 3, 3) },
      { name: '64 × 80 RGBA PNG', bytes: await png(64, 80, 4, 4) },
      { name: '1000 × 700 PNG', bytes: await png(1000, 700, 3, 6) },
      { name: '50 × 300 grey PNG', bytes: await png(50, 300, 1, 7) },
      { name: '311 × 257 JPEG, EXIF orientation 6', bytes: await sharp(pattern(311, 257, 3, 5), { raw: { width: 311, height: 257, channels: 3 } }).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer() },
    ];
    const paths = images.map((image, i) => {
      const path = join(dir, `${i}.img`);
      writeFileSync(path, image.bytes);
      return path;
    });
    // CLIP's own config; a BLIP-like exact resize with bilinear; and the other Pillow filters.
    const configs: Record<string, Record<string, unknown>> = {
      'CLIP (bicubic, shortest edge 224, crop 224)': clipPreprocessorConfig(224),
      'bilinear, 96 × 128, no crop': clipPreprocessorConfig(96, { resample: 2, size: { height: 96, width: 128 }, do_center_crop: false, image_mean: [0.5, 0.5, 0.5], image_std: [0.5, 0.5, 0.5] }),
      'lanczos, shortest edge 70, crop 64': clipPreprocessorConfig(64, { resample: 1, size: { shortest_edge: 70 } }),
      'box, shortest edge 50, crop 48': clipPreprocessorConfig(48, { resample: 4, size: { shortest_edge: 50 } }),
      'hamming, shortest edge 33, crop 32': clipPreprocessorConfig(32, { resample: 5, size: { shortest_edge: 33 } }),
      'nearest, shortest edge 40, crop 40': clipPreprocessorConfig(40, { resample: 0, size: { shortest_edge: 40 } }),
    };
    const jobs = Object.entries(configs).map(([name, config]) => {
      const out = join(dir, name.replace(/\W+/g, '-'));
      mkdirSync(out);
      return { name, config, images: paths, out };
    });
    writeFileSync(join(dir, 'jobs.json'), JSON.stringify(jobs));
    const result = spawnSync(env.python!, [CHECK, join(dir, 'jobs.json')], { encoding: 'utf8', timeout: 300_000 });
    expect(result.status, result.stderr).toBe(0);
    console.log(`reference: ${result.stdout.trim()}`);
    for (const { name, config, out } of jobs) {
      const parsed = parsePreprocessorConfig(config);
      for (const [i, image] of images.entries()) {
        const ours = await preprocessImage(image.bytes, parsed.preprocess, parsed);
        const raw = readFileSync(join(out, `${i}.f32`));
        const theirs = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
        const differing = ours.filter((v, k) => v !== theirs[k]).length;
        expect(`${name}, ${image.name}: ${differing} of ${theirs.length} values differ`).toBe(`${name}, ${image.name}: 0 of ${ours.length} values differ`);
      }
    }
  }, 300_000);
});
