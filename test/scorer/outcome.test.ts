// Outcome models end to end: a real tokenizer.json, a real ONNX graph, a real onnxruntime session;
// rewards checked against a plain-JS forward pass over independently computed token ids.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addModel, inspectModelFolder, listModels, prelabelsForItem, scoreProjectInline } from '../../electron/core/scorer';
import { getScore } from '../../electron/core/store/models';
import { inputHash } from '../../electron/core/scorer/inputs';
import type { Db } from '../../electron/core/store/db';
import { CLS, SEP, makeDb, outcomeLogitsJs, refIds, sentence, tempDir, writeModelFolder, type Folder } from './helpers';

const open: Db[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

function scoreOf(db: Db, modelId: number, prompt: string, response: string): number {
  const s = getScore(db, modelId, inputHash('outcome', { prompt, response, steps: null, segmentation: 'auto' }));
  if (!s || s.reward === null) throw new Error('no score');
  return s.reward;
}

/** [CLS] prompt [SEP] response [SEP] with type ids 0… then 1…, as the pair template says. */
function pairInput(folder: Folder, prompt: string, response: string) {
  const a = refIds(folder, prompt);
  const b = refIds(folder, response);
  return { ids: [CLS, ...a, SEP, ...b, SEP], types: [0, ...a.map(() => 0), 0, ...b.map(() => 1), 1] };
}

describe('outcome model', () => {
  it('infers text-pair input and token_type_ids without a manifest', async () => {
    const folder = writeModelFolder(join(tempDir(), 'm'), { kind: 'outcome', withTokenTypes: true });
    const d = await inspectModelFolder(folder.dir);
    expect(d.kind).toBe('outcome');
    expect(d.inputMode).toBe('text_pair');
    expect(d.hasManifest).toBe(false);
    expect(d.inputs.map((i) => i.filledWith)).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
    expect(d.reward).toMatchObject({ output: 'logits', index: 0 });
    expect(d.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('scores match a plain-JS forward pass from the same weights', async () => {
    const folder = writeModelFolder(join(tempDir(), 'm'), { kind: 'outcome', withTokenTypes: true });
    const items = [
      { prompt: 'is the sky blue', responses: [{ content: 'yes it is blue because the sky is blue' }, { content: 'no it is green' }] },
      { prompt: 'two plus two', responses: [{ content: 'four' }, { content: 'maybe two' }] },
    ];
    const { dbPath, db, projectId, itemIds } = makeDb(items);
    open.push(db);
    const model = await addModel(db, folder.dir, 'tiny');
    const result = await scoreProjectInline({ dbPath, project: 'p', modelIds: [model.id], provider: 'cpu', batchSize: 4 });
    expect(result.models[0]).toMatchObject({ scored: 4, cached: 0, truncated: 0 });
    expect(result.models[0]!.provider.used).toBe('cpu');
    for (const item of items) {
      for (const r of item.responses) {
        const { ids, types } = pairInput(folder, item.prompt, r.content as string);
        expect(scoreOf(db, model.id, item.prompt, r.content as string)).toBeCloseTo(outcomeLogitsJs(folder, ids, types)[0]!, 5);
      }
    }
    const pre = prelabelsForItem(db, projectId, itemIds[0]!);
    const [ra, rb] = pre.models[0]!.rewards as number[];
    expect(pre.models[0]!.pAB).toBeCloseTo(1 / (1 + Math.exp(-(ra! - rb!))), 12);
    expect(pre.ensemble?.models).toBe(1);
    expect(listModels(db)[0]).toMatchObject({ name: 'tiny', scores: 4, kind: 'outcome' });
  });

  it.each(['right', 'left'] as const)('batched scores equal one-at-a-time scores (%s padding)', async (paddingSide) => {
    const folder = writeModelFolder(join(tempDir(), 'm'), {
      kind: 'outcome',
      withTokenTypes: true,
      manifest: { input: { padding_side: paddingSide } },
    });
    const items = Array.from({ length: 13 }, (_, i) => ({
      prompt: sentence(i, 2 + (i % 5)),
      responses: [{ content: sentence(i + 100, 1 + ((i * 7) % 23)) }, { content: sentence(i + 200, 3 + ((i * 3) % 11)) }],
    }));
    const batched = makeDb(items);
    const single = makeDb(items);
    open.push(batched.db, single.db);
    await scoreProjectInline({ dbPath: batched.dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu', batchSize: 8 });
    await scoreProjectInline({ dbPath: single.dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu', batchSize: 1 });
    const id = listModels(batched.db)[0]!.id;
    const idSingle = listModels(single.db)[0]!.id;
    for (const item of items) {
      for (const r of item.responses) {
        const a = scoreOf(batched.db, id, item.prompt, r.content);
        const b = scoreOf(single.db, idSingle, item.prompt, r.content);
        expect(Math.abs(a - b)).toBeLessThan(1e-5);
      }
    }
  });

  it.each(['left', 'right'] as const)('truncation keeps the %s-side rule of the manifest', async (side) => {
    const maxLength = 9;
    const folder = writeModelFolder(join(tempDir(), 'm'), {
      kind: 'outcome',
      withTokenTypes: true,
      manifest: { input: { max_length: maxLength, truncation_side: side } },
    });
    const prompt = 'is the sky blue';
    const response = 'yes the sky is blue because it is so';
    const { db, dbPath } = makeDb([{ prompt, responses: [{ content: response }, { content: 'no' }] }]);
    open.push(db);
    const result = await scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' });
    expect(result.models[0]!.truncated).toBe(1);
    // Budget: 9 - 3 special tokens = 6 of the 4 + 9 text tokens.
    const a = refIds(folder, prompt);
    const b = refIds(folder, response);
    const keptA = side === 'left' ? [] : a;
    const keptB = side === 'left' ? b.slice(b.length - 6) : b.slice(0, 2);
    const ids = [CLS, ...keptA, SEP, ...keptB, SEP];
    const types = [0, ...keptA.map(() => 0), 0, ...keptB.map(() => 1), 1];
    expect(ids).toHaveLength(maxLength);
    const id = listModels(db)[0]!.id;
    expect(scoreOf(db, id, prompt, response)).toBeCloseTo(outcomeLogitsJs(folder, ids, types)[0]!, 5);
  });
});
