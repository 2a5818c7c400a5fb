// The `datasets` library reads Arbiter's TRL vision exports (issue 15): a TRL vision JSON Lines file (written
// here after TRL's docs: placeholders and an `images` column of paths, a data: URI, base64; images made by
// sharp) is imported and exported with the real CLI as trl-vision (JSON Lines, images beside it) and
// trl-vision-parquet (the Image feature); test/python/vision_checks.py then loads both with `datasets`,
// checks that the Parquet features say Image, decodes every image and compares its pixels with the
// original file's (numpy, PIL), and fills the prompts' placeholders with TRL's prepare_multimodal_messages.
// It needs the Python environment of scripts/python-env.mjs (Pillow included); where it cannot be made, the
// test is skipped with the reason.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useCliDir } from '../helpers/cliDir';
import { runPythonChecks } from '../helpers/python';
import { trlEnv } from '../../scripts/python-env.mjs';
import { skipOrFail } from '../helpers/required';

const ROOT = join(__dirname, '../..');
const CHECKS = join(ROOT, 'test/python/vision_checks.py');

const env = trlEnv({ log: (line) => console.log(line) });
skipOrFail('Vision checks', env.python ? null : env.reason);

const work = useCliDir('arbiter-vision-python-');
const cli = work.cli;

/** An image of its own pixels (with an alpha channel in the PNGs, so a lossy decode would show). */
async function image(seed: number, format: 'png' | 'jpeg', width: number, height: number): Promise<Buffer> {
  const channels = format === 'png' ? 4 : 3;
  const raw = Buffer.alloc(width * height * channels);
  for (let i = 0; i < width * height; i++) raw.set([(i * seed) % 256, (i + seed * 40) % 256, (seed * 97 + i) % 256, 255 - (i % 200)].slice(0, channels), i * channels);
  const pipeline = sharp(raw, { raw: { width, height, channels } });
  return format === 'png' ? pipeline.png().toBuffer() : pipeline.jpeg({ quality: 85 }).toBuffer();
}

const user = (...content: unknown[]) => [{ role: 'user', content }];
const assistant = (text: string) => [{ role: 'assistant', content: [{ type: 'text', text }] }];

describe.skipIf(!env.python)('datasets decodes the TRL vision exports to the original pixels', () => {
  it('Parquet (Image feature) and JSON Lines (images beside it, cast to Image)', async () => {
    mkdirSync(join(work.dir, 'data/imgs'), { recursive: true });
    const cat = await image(3, 'png', 33, 21);
    const dog = await image(5, 'jpeg', 48, 32);
    const chart = await image(7, 'png', 20, 40);
    writeFileSync(join(work.dir, 'data/imgs/cat.png'), cat);
    writeFileSync(join(work.dir, 'data/imgs/dog.jpg'), dog);
    writeFileSync(join(work.dir, 'data/chart.png'), chart);
    const rows = [
      { prompt: user({ type: 'image' }, { type: 'text', text: 'What animal is this?' }), chosen: assistant('A cat.'), rejected: assistant('A dog.'), images: ['imgs/cat.png'] },
      {
        prompt: user({ type: 'text', text: 'Which chart goes with the dog?' }, { type: 'image' }, { type: 'image' }),
        chosen: assistant('The first.'),
        rejected: assistant('Neither.'),
        images: ['imgs/dog.jpg', `data:image/png;base64,${chart.toString('base64')}`],
      },
      { prompt: user({ type: 'text', text: 'Text only: 2 + 2?' }), chosen: assistant('4'), rejected: assistant('5'), images: [] },
    ];
    writeFileSync(join(work.dir, 'data/pairs.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await cli(['import', join(work.dir, 'data/pairs.jsonl'), '--project', 'vis', '--format', 'trl-vision']);
    await cli(['export', '--project', 'vis', '--format', 'trl-vision-parquet', '--out', join(work.dir, 'out/vis.parquet')]);
    await cli(['export', '--project', 'vis', '--format', 'trl-vision', '--out', join(work.dir, 'out/vis.jsonl')]);
    const manifest = {
      parquet: join(work.dir, 'out/vis.parquet'),
      jsonl: join(work.dir, 'out/vis.jsonl'),
      rows: [
        { prompt: 'What animal', images: ['data/imgs/cat.png'] },
        { prompt: 'Which chart', images: ['data/imgs/dog.jpg', 'data/chart.png'] },
        { prompt: 'Text only', images: [] },
      ],
    };
    writeFileSync(join(work.dir, 'manifest.json'), JSON.stringify(manifest));
    const report = join(work.dir, 'report.json');
    runPythonChecks(env.python!, CHECKS, ['--report', report, join(work.dir, 'manifest.json')], work.dir, 'vision checks: 2 of 2 passed');
    const checks = (JSON.parse(readFileSync(report, 'utf8')) as { checks: { kind: string; images: number; trl_filled?: number; features?: string }[] }).checks;
    const parquet = checks.find((c) => c.kind === 'parquet')!;
    expect(parquet.images).toBe(3);
    expect(parquet.trl_filled).toBe(3);
    expect(parquet.features).toMatch(/Image\(/);
    expect(checks.find((c) => c.kind === 'jsonl')!.images).toBe(3);
  }, 300_000);
});
