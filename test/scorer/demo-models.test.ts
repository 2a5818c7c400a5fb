// The demo models under resources/models: what the generator writes (deterministically), and that
// they load and score the way the docs say.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectModelFolder } from '../../electron/core/scorer';
import { padBatch } from '../../electron/core/scorer/batching';
import { encodeExample } from '../../electron/core/scorer/inputs';
import { loadModel } from '../../electron/core/scorer/loadModel';
import { runBatch } from '../../electron/core/scorer/session';
import { tempDir } from './helpers';

const root = resolve(import.meta.dirname, '..', '..');
const models = join(root, 'resources', 'models');

function generate(): string {
  const out = tempDir('arbiter-demo-models-');
  execFileSync(process.execPath, [join(root, 'scripts', 'gen-demo-models.mjs'), '--out', out], { stdio: 'pipe' });
  return out;
}

describe('demo models', () => {
  it('the generator writes the same bytes every run, and resources/models holds them', () => {
    const [a, b] = [generate(), generate()];
    for (const model of ['demo-outcome', 'demo-process', 'demo-image', 'demo-video']) {
      const files = readdirSync(join(a, model)).sort();
      expect(readdirSync(join(models, model)).sort()).toEqual(files);
      for (const file of files) {
        const bytes = readFileSync(join(a, model, file));
        expect(readFileSync(join(b, model, file)).equals(bytes), `${model}/${file} differs between runs`).toBe(true);
        expect(readFileSync(join(models, model, file)).equals(bytes), `resources/models/${model}/${file} is stale: run node scripts/gen-demo-models.mjs`).toBe(true);
      }
    }
    expect(statSync(join(models, 'demo-outcome', 'model.onnx')).size).toBeLessThan(3e6);
  });

  it('demo-outcome is a text-pair encoder that prefers careful answers to hedging ones', async () => {
    const dir = join(models, 'demo-outcome');
    const described = await inspectModelFolder(dir);
    expect(described).toMatchObject({ kind: 'outcome', inputMode: 'text_pair', hasManifest: false });
    expect(described.inputs.map((i) => i.filledWith)).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
    const { spec, session, folder } = await loadModel(dir, 'cpu');
    try {
      const reward = async (response: string) => {
        const example = encodeExample(spec, folder.tokenizer, { prompt: 'what is two plus two', response, steps: null, segmentation: 'auto' });
        const out = await runBatch(session, padBatch([example], spec.inputs, spec.padTokenId, spec.paddingSide), spec.output.name);
        return out.data[0]!;
      };
      const careful = await reward('we add two and two, then check: it equals four, so the answer is four');
      const hedging = await reward('maybe four, probably, i guess; sorry, i am unsure');
      expect(careful).toBeGreaterThan(hedging + 1);
    } finally {
      await session.release();
    }
  });
});
