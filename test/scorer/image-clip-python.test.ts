// A real transformers CLIPModel, exported to ONNX as docs/models.md says (test/python/clip_export.py: a
// small one from a config, seeded, nothing downloaded), scores text-to-image pairs through Arbiter's whole
// path (model folder, preprocessor_config.json, tokenizer.json, image store, worker, batches with padded
// prompts) to the rewards torch gives for the same pairs one at a time through transformers' own
// processor. Needs the Python environment of scripts/python-env.mjs and the `onnx` package (installed
// into .cache/onnx-py from this machine's pip setup when missing); where either cannot be had, the test
// is skipped with the reason.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectModelFolder, prelabelsForItem, startScoreJob } from '../../electron/core/scorer';
import type { Db } from '../../electron/core/store/db';
import { trlEnv } from '../../scripts/python-env.mjs';
import { skipOrFail } from '../helpers/required';
import { buildVocab, wordPieceTokenizerJson } from '../../scripts/lib/onnx-builder.mjs';
import { clipPreprocessorConfig } from '../../scripts/lib/onnx-image-builder.mjs';
import { addItems, makeDb, tempDir } from './helpers';
import { IMAGE_WORDS, imageResponse, storedImagePart } from './imageHelpers';

const ROOT = join(__dirname, '../..');
const ONNX_PATH = join(ROOT, '.cache', 'onnx-py');

/** The venv's Python with `onnx` importable (PYTHONPATH), or why not. */
function exportEnv(): { python: string; env: NodeJS.ProcessEnv } | { reason: string } {
  const base = trlEnv({ log: (line: string) => console.log(line) });
  if (!base.python) return { reason: base.reason ?? 'no Python environment' };
  const env = { ...process.env, PYTHONPATH: ONNX_PATH };
  const python = base.python;
  const has = () => spawnSync(python, ['-c', 'import onnx'], { env, encoding: 'utf8' }).status === 0;
  if (has()) return { python, env };
  const pip = spawnSync(python, ['-m', 'pip', 'install', '--quiet', '--retries', '0', '--timeout', '30', '--target', ONNX_PATH, 'onnx'], { encoding: 'utf8', timeout: 300_000 });
  if (pip.status !== 0 || !has()) return { reason: `the onnx package could not be installed (${(pip.stderr || pip.stdout || '').trim().split('\n').at(-1)})` };
  return { python, env };
}

const setup = exportEnv();
skipOrFail('CLIP export check', 'reason' in setup ? setup.reason : null);

const open: Db[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

function picture(width: number, height: number, seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) raw.set([(i * seed) % 256, (i * 7 + seed * 40) % 256, ((i >> 3) * seed) % 256], i * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

describe.skipIf('reason' in setup)('a transformers CLIPModel exported to ONNX', () => {
  it('gives through Arbiter the rewards torch gives', async () => {
    const ok = setup as { python: string; env: NodeJS.ProcessEnv };
    const dir = join(tempDir(), 'clip');
    mkdirSync(dir);
    const vocab = buildVocab(IMAGE_WORDS);
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(wordPieceTokenizerJson(vocab)));
    writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ pad_token: '[PAD]', model_max_length: 77 }));
    writeFileSync(join(dir, 'preprocessor_config.json'), JSON.stringify(clipPreprocessorConfig(32)));

    const { db, dbPath, projectId } = makeDb([]);
    open.push(db);
    const files = [await picture(48, 40, 3), await picture(30, 61, 5), await picture(97, 33, 11)];
    const paths = files.map((bytes, i) => {
      const path = join(dir, `..`, `image-${i}.png`);
      writeFileSync(path, bytes);
      return path;
    });
    const sizes = [[48, 40], [30, 61], [97, 33]] as const;
    const part = (i: number) => imageResponse(storedImagePart(dbPath, files[i]!, sizes[i]![0], sizes[i]![1]));
    const items = [
      { prompt: 'a red apple on the table', images: [0, 1] },
      { prompt: 'sky', images: [2, 0] },
    ];
    const itemIds = addItems(db, projectId, items.map((item) => ({ prompt: item.prompt, responses: item.images.map(part) })));

    const pairs = items.flatMap((item) => item.images.map((i) => ({ image: paths[i], prompt: item.prompt })));
    const job = join(dir, '..', 'job.json');
    writeFileSync(job, JSON.stringify({ dir, vocab_size: vocab.length, pairs, out: join(dir, '..', 'torch.json') }));
    const result = spawnSync(ok.python, [join(ROOT, 'test/python/clip_export.py'), job], { env: ok.env, encoding: 'utf8', timeout: 300_000 });
    expect(result.status, result.stderr.slice(-2000)).toBe(0);
    const torch = JSON.parse(readFileSync(join(dir, '..', 'torch.json'), 'utf8')) as { rewards: number[] };

    expect(await inspectModelFolder(dir)).toMatchObject({ kind: 'outcome', inputMode: 'image', image: { shape: ['batch', 3, 32, 32], readsPrompt: true } });
    const [run] = (await startScoreJob({ dbPath, project: 'p', dirs: [dir], provider: 'cpu' }).promise).models;
    expect(run).toMatchObject({ scored: 4, unscorable: 0 });
    const ours = itemIds.flatMap((id) => prelabelsForItem(db, projectId, id).models[0]!.rewards as number[]);
    console.log(`torch ${torch.rewards.map((r) => r.toFixed(5)).join(' ')}; arbiter ${ours.map((r) => r.toFixed(5)).join(' ')}`);
    ours.forEach((r, k) => expect(r, `pair ${k}`).toBeCloseTo(torch.rewards[k]!, 4));
  }, 600_000);
});
