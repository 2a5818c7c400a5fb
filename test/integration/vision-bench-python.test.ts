// The vision benchmarks' exports as their own code reads them (issue 15, F): a Pick-a-Pic Parquet file
// (after yuvalkirstain/pickapic_v2's features), a VL-RewardBench JSON Lines file and a Multimodal
// RewardBench array (after their repositories' data files) are imported and exported with the real CLI
// (VL-RewardBench also as the Hub's Parquet, its image an `Image` feature);
// test/python/bench_checks.py then loads each export with `datasets`, opens every image the way the
// benchmark's own scripts do (PickScore's process_image from the bytes; VL_RewardBench's inference.py and
// multimodal_rewardbench's judge script from the relative path) and compares its pixels with the original,
// and reads the labels as those scripts do. It needs the Python environment of scripts/python-env.mjs;
// where it cannot be made, the test is skipped with the reason.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { useCliDir } from '../helpers/cliDir';
import { runPythonChecks } from '../helpers/python';
import { trlEnv } from '../../scripts/python-env.mjs';
import { skipOrFail } from '../helpers/required';

const ROOT = join(__dirname, '../..');
const CHECKS = join(ROOT, 'test/python/bench_checks.py');

const env = trlEnv({ log: (line) => console.log(line) });
skipOrFail('Vision benchmark checks', env.python ? null : env.reason);

const work = useCliDir('arbiter-vision-bench-python-');
const cli = work.cli;

/** An image of its own pixels, written to `name` under the test folder. */
async function image(name: string, seed: number, format: 'png' | 'jpeg', width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) raw.set([(i * seed) % 256, (i + seed * 40) % 256, (seed * 97 + i) % 256], i * 3);
  const pipeline = sharp(raw, { raw: { width, height, channels: 3 } });
  const bytes = await (format === 'png' ? pipeline.png() : pipeline.jpeg({ quality: 90 })).toBuffer();
  mkdirSync(join(work.dir, name, '..'), { recursive: true });
  writeFileSync(join(work.dir, name), bytes);
  return bytes;
}

describe.skipIf(!env.python)('the benchmarks’ own reading code takes the exports', () => {
  it('Pick-a-Pic Parquet, VL-RewardBench and Multimodal RewardBench JSON Lines with images beside', async () => {
    const fox = await image('src/fox.png', 3, 'png', 24, 16);
    const fox2 = await image('src/fox2.jpg', 5, 'jpeg', 32, 24);
    const cats = await image('src/cats.png', 7, 'png', 12, 30);
    const cats2 = await image('src/cats2.png', 11, 'png', 12, 30);
    writeFileSync(
      join(work.dir, 'pick.parquet'),
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'caption', data: ['a red fox in snow', 'two cats'], type: 'STRING' },
            { name: 'jpg_0', data: [fox, cats], type: 'BYTE_ARRAY' },
            { name: 'jpg_1', data: [fox2, cats2], type: 'BYTE_ARRAY' },
            { name: 'label_0', data: [0, 0.5], type: 'DOUBLE' },
            { name: 'label_1', data: [1, 0.5], type: 'DOUBLE' },
            { name: 'has_label', data: [true, true], type: 'BOOLEAN' },
          ],
        }),
      ),
    );
    await cli(['import', join(work.dir, 'pick.parquet'), '--project', 'pick']);
    await cli(['export', '--project', 'pick', '--format', 'pickapic', '--out', join(work.dir, 'out/pick.parquet')]);

    writeFileSync(
      join(work.dir, 'src/data.jsonl'),
      [
        { id: 'v1', image_path: 'fox.png', query: 'What animal?', response: ['A dog.', 'A fox.'], human_ranking: [1, 0], models: ['a', 'b'] },
        { id: 'v2', image_path: 'cats.png', query: 'How many cats?', response: ['Two.', 'Three.'], human_ranking: [0, 1], models: ['a', 'b'] },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    await cli(['import', join(work.dir, 'src/data.jsonl'), '--project', 'vlrb']);
    await cli(['export', '--project', 'vlrb', '--format', 'vl-rewardbench', '--out', join(work.dir, 'out/vlrb.jsonl')]);
    await cli(['export', '--project', 'vlrb', '--format', 'vl-rewardbench', '--out', join(work.dir, 'out/vlrb.parquet')]);

    writeFileSync(join(work.dir, 'src/all_data.json'), JSON.stringify([{ ID: 'm1', Text: 'Describe it.', Image: 'fox2.jpg', Output1: 'A fox.', Output2: 'A cat.', Better: 'Output1' }], null, 2));
    await cli(['import', join(work.dir, 'src/all_data.json'), '--project', 'mmrb']);
    await cli(['export', '--project', 'mmrb', '--format', 'multimodal-rewardbench', '--out', join(work.dir, 'out/mmrb.jsonl')]);

    const src = (name: string) => join(work.dir, 'src', name);
    const manifest = {
      pickapic: join(work.dir, 'out/pick.parquet'),
      pickapic_rows: [
        { caption: 'a red fox in snow', jpg_0: src('fox.png'), jpg_1: src('fox2.jpg'), label: '1' },
        { caption: 'two cats', jpg_0: src('cats.png'), jpg_1: src('cats2.png'), label: 'tie' },
      ],
      vlrb: join(work.dir, 'out/vlrb.jsonl'),
      vlrb_rows: [
        { id: 'v1', image: src('fox.png'), preferred: 2 },
        { id: 'v2', image: src('cats.png'), preferred: 1 },
      ],
      vlrb_hub: join(work.dir, 'out/vlrb.parquet'),
      vlrb_hub_rows: [
        { id: 'v1', image: src('fox.png'), preferred: 2 },
        { id: 'v2', image: src('cats.png'), preferred: 1 },
      ],
      mmrb: join(work.dir, 'out/mmrb.jsonl'),
      mmrb_rows: [{ ID: 'm1', image: src('fox2.jpg'), label: 'A' }],
    };
    writeFileSync(join(work.dir, 'manifest.json'), JSON.stringify(manifest));
    runPythonChecks(env.python!, CHECKS, [join(work.dir, 'manifest.json')], work.dir, 'bench checks: 4 of 4 passed');
  }, 300_000);
});
