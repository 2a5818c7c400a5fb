// Folders that do not fit get a clear error naming what is missing or mismatched, never a crash,
// and nothing is added.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArbiterError } from '../../electron/core/base/errors';
import { addModel, inspectModelFolder, listModels } from '../../electron/core/scorer';
import { GraphBuilder } from '../../scripts/lib/onnx-builder.mjs';
import { makeDb, tempDir, writeModelFolder, type FolderOptions } from './helpers';

function folder(options: FolderOptions, edit?: (dir: string) => void): string {
  const dir = join(tempDir(), 'model');
  writeModelFolder(dir, options);
  edit?.(dir);
  return dir;
}

async function rejection(dir: string): Promise<ArbiterError> {
  const error = await inspectModelFolder(dir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ArbiterError);
  expect((error as ArbiterError).code).toBe('invalid_input');
  return error as ArbiterError;
}

/** A graph that also wants a past-key-values tensor, as a decoder export with cache does. */
function graphWithPast(): Uint8Array {
  const g = new GraphBuilder('with-past');
  const ids = g.input('input_ids', ['batch', 'sequence']);
  g.input('attention_mask', ['batch', 'sequence']);
  const past = g.input('past_key_values.0.key', ['batch', 2], 1);
  const axes = g.int64Tensor('axes', [1], [1]);
  const idSum = g.node('ReduceSum', [g.node('Cast', [ids], { to: 1 }), axes], { keepdims: 1 });
  const pastSum = g.node('ReduceSum', [past, axes], { keepdims: 1 });
  g.node('Add', [idSum, pastSum], {}, 'logits');
  g.output('logits', ['batch', 1]);
  return g.toBytes();
}

describe('model folders that do not fit', () => {
  it('names the missing files', async () => {
    const dir = folder({ kind: 'outcome' }, (d) => rmSync(join(d, 'tokenizer.json')));
    expect((await rejection(dir)).message).toMatch(/tokenizer\.json is missing/);
  });

  it('a broken model.onnx is an error, not a crash', async () => {
    const dir = folder({ kind: 'outcome' }, (d) => writeFileSync(join(d, 'model.onnx'), Buffer.from('this is not protobuf at all, just text')));
    expect((await rejection(dir)).message).toMatch(/model\.onnx could not be loaded by onnxruntime/);
  });

  it('a tokenizer.json that is not JSON', async () => {
    const dir = folder({ kind: 'outcome' }, (d) => writeFileSync(join(d, 'tokenizer.json'), '{"model": '));
    expect((await rejection(dir)).message).toMatch(/tokenizer\.json .* is not valid JSON/);
  });

  it('a tokenizer with more tokens than the embedding has rows', async () => {
    const dir = folder({ kind: 'outcome', embeddingRows: 40 });
    expect((await rejection(dir)).message).toMatch(/rejects token id \d+, which tokenizer\.json can produce: the tokenizer does not belong to this model/);
  });

  it('a tokenizer larger than config.json vocab_size', async () => {
    const dir = folder({ kind: 'outcome', config: { vocab_size: 30 } });
    expect((await rejection(dir)).message).toMatch(/vocab_size 30/);
  });

  it('graph inputs a tokenizer cannot fill', async () => {
    const dir = folder({ kind: 'outcome' }, (d) => writeFileSync(join(d, 'model.onnx'), graphWithPast()));
    expect((await rejection(dir)).message).toMatch(/asks for input "past_key_values\.0\.key" .* cannot fill/);
  });

  it('a per-token output without a manifest asks for the process settings', async () => {
    const dir = folder({ kind: 'prm' });
    expect((await rejection(dir)).message).toMatch(/process reward model.*step_separator/);
  });

  it('several values per response without output.index', async () => {
    const dir = folder({ kind: 'outcome', outputs: 3 });
    expect((await rejection(dir)).message).toMatch(/3 values per response: say which one is the reward/);
  });

  it('a manifest with an unknown key or a wrong value', async () => {
    const typo = folder({ kind: 'outcome', manifest: { input: { max_lenght: 10 } } });
    expect((await rejection(typo)).message).toMatch(/arbiter-model\.json is invalid: input: .*max_lenght/i);
    const wrong = folder({ kind: 'outcome', manifest: { kind: 'process' } });
    expect((await rejection(wrong)).message).toMatch(/says "process", but output "logits" \[batch, 1\] is per sequence/);
  });

  it('a step separator the tokenizer does not know', async () => {
    const dir = folder({ kind: 'prm', manifest: { kind: 'process', process: { step_separator: '<step>', score: { type: 'class_probability', class_index: 1 } } } });
    // "<step>" encodes to "<", "step", ">" — its last id, ">" — so it is accepted the way Math-Shepherd's code would.
    await expect(inspectModelFolder(dir)).resolves.toBeTruthy();
    const missing = folder({ kind: 'prm', manifest: { kind: 'process', process: { step_separator: '<extra_0>', score: { type: 'class_probability', class_index: 5 } } } });
    expect((await rejection(missing)).message).toMatch(/class index is 5, but the output has only 2 classes/);
  });

  it('nothing is half-added when a folder fails', async () => {
    const { db } = makeDb([]);
    const dir = folder({ kind: 'outcome', embeddingRows: 40 });
    await expect(addModel(db, dir)).rejects.toThrow(/does not belong/);
    expect(listModels(db)).toEqual([]);
    db.close();
  });
});
