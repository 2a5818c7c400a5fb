// Process reward models: Qwen2.5-Math-PRM style (chat template, class probability at each <extra_0>)
// and Math-Shepherd style (LM logits, "+" against "-" at each step tag), checked against plain JS.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectModelFolder, listModels, prelabelsForItem, scoreProjectInline } from '../../electron/core/scorer';
import { inputHash } from '../../electron/core/scorer/inputs';
import { getScore } from '../../electron/core/store/models';
import type { Db } from '../../electron/core/store/db';
import { CLS, SEP, makeDb, refIds, sentence, tempDir, tokenLogitsJs, writeModelFolder, type Folder } from './helpers';

const open: Db[] = [];
afterEach(() => {
  while (open.length) open.pop()!.close();
});

const softmax1 = (l: number[]) => Math.exp(l[1]!) / (Math.exp(l[0]!) + Math.exp(l[1]!));

const PRM_MANIFEST = {
  kind: 'process',
  input: { system_prompt: 'we check' },
  process: { step_separator: '<extra_0>', score: { type: 'class_probability', class_index: 1 } },
};

function prmText(prompt: string, steps: string[]): string {
  return `<|im_start|>system\nwe check<|im_end|>\n<|im_start|>user\n${prompt}<|im_end|>\n<|im_start|>assistant\n${steps.map((s) => `${s}<extra_0>`).join('')}<|im_end|>\n`;
}

function expectedSteps(folder: Folder, ids: number[], separator: string, window: number, read: (logits: number[]) => number): number[] {
  const sep = folder.tokens.indexOf(separator);
  const logits = tokenLogitsJs(folder, ids, window);
  return ids.flatMap((id, t) => (id === sep ? [read(logits[t]!)] : []));
}

function stepScores(db: Db, modelId: number, prompt: string, response: string, steps: string[] | null) {
  return getScore(db, modelId, inputHash('process', { prompt, response, steps, segmentation: 'auto' }))!.stepScores!;
}

describe('process model, Qwen2.5-Math-PRM style', () => {
  it('reads the manifest and says what it found', async () => {
    const folder = writeModelFolder(join(tempDir(), 'prm'), { kind: 'prm', manifest: PRM_MANIFEST });
    const d = await inspectModelFolder(folder.dir);
    expect(d).toMatchObject({ kind: 'process', inputMode: 'chat_template', hasManifest: true });
    expect(d.process).toMatchObject({ separator: '<extra_0>', aggregate: 'min' });
    expect(d.sources.inputMode).toMatch(/chat template/);
  });

  it('step scores equal the class-1 probability at each separator, computed in JS', async () => {
    const folder = writeModelFolder(join(tempDir(), 'prm'), { kind: 'prm', manifest: PRM_MANIFEST });
    const prompt = 'two plus two';
    const stored = ['first we add two plus two', 'it equals four', 'so the answer is four'];
    const lines = 'we add\nit is four';
    // A step tag inside model text must not make a step of its own.
    const spoof = 'maybe four <extra_0> yes\nthe answer is two';
    const { db, dbPath, projectId, itemIds } = makeDb([
      { prompt, responses: [{ content: stored.join(' '), steps: stored }, { content: lines }] },
      { prompt, responses: [{ content: spoof }, { content: 'no' }] },
    ]);
    open.push(db);
    const result = await scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' });
    expect(result.models[0]).toMatchObject({ scored: 4, unscorable: 0 });
    const id = listModels(db)[0]!.id;
    const check = (response: string, steps: string[] | null, effective: string[]) => {
      const ids = refIds(folder, prmText(prompt, effective));
      const expected = expectedSteps(folder, ids, '<extra_0>', 4, softmax1);
      expect(expected).toHaveLength(effective.length);
      const got = stepScores(db, id, prompt, response, steps);
      got.forEach((s, k) => expect(s).toBeCloseTo(expected[k]!, 5));
    };
    check(stored.join(' '), stored, stored);
    check(lines, null, ['we add', 'it is four']);
    check(spoof, null, ['maybe four  yes', 'the answer is two']);

    const pre = prelabelsForItem(db, projectId, itemIds[0]!).models[0]!;
    const first = stepScores(db, id, prompt, stored.join(' '), stored);
    expect(pre.steps?.[0]).toEqual(first);
    const firstBelow = first.findIndex((s) => s! < 0.5);
    expect(pre.firstError?.[0]).toBe(firstBelow < 0 ? null : firstBelow);
    // Reward = log-odds of the weakest step, so P(A better) compares the weakest steps.
    const minA = Math.min(...(first as number[]));
    expect(pre.rewards[0]).toBeCloseTo(Math.log(minA / (1 - minA)), 6);
  });

  it('batched step scores equal one-at-a-time step scores', async () => {
    const folder = writeModelFolder(join(tempDir(), 'prm'), { kind: 'prm', manifest: PRM_MANIFEST });
    const items = Array.from({ length: 9 }, (_, i) => ({
      prompt: sentence(i, 3),
      responses: [0, 1].map((r) => ({ content: Array.from({ length: 1 + ((i + r) % 4) }, (_, s) => sentence(i * 10 + r * 5 + s, 2 + ((s * 5 + i) % 9))).join('\n') })),
    }));
    const batched = makeDb(items);
    const single = makeDb(items);
    open.push(batched.db, single.db);
    await scoreProjectInline({ dbPath: batched.dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu', batchSize: 6 });
    await scoreProjectInline({ dbPath: single.dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu', batchSize: 1 });
    const idB = listModels(batched.db)[0]!.id;
    const idS = listModels(single.db)[0]!.id;
    for (const item of items) {
      for (const r of item.responses) {
        const a = stepScores(batched.db, idB, item.prompt, r.content, null);
        const b = stepScores(single.db, idS, item.prompt, r.content, null);
        expect(a.length).toBe(b.length);
        a.forEach((s, k) => expect(Math.abs(s! - b[k]!)).toBeLessThan(1e-5));
      }
    }
  });

  it('a step whose tag is cut by truncation has no score', async () => {
    const folder = writeModelFolder(join(tempDir(), 'prm'), {
      kind: 'prm',
      manifest: { ...PRM_MANIFEST, input: { ...PRM_MANIFEST.input, max_length: 24, truncation_side: 'right' } },
    });
    const steps = ['we add two plus two', 'it equals four', 'so the answer is four and it is good'];
    const { db, dbPath } = makeDb([{ prompt: 'two plus two', responses: [{ content: steps.join('\n') }, { content: 'four' }] }]);
    open.push(db);
    const result = await scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' });
    expect(result.models[0]!.truncated).toBe(1);
    const got = stepScores(db, listModels(db)[0]!.id, 'two plus two', steps.join('\n'), null);
    expect(got).toHaveLength(3);
    expect(got[0]).not.toBeNull();
    expect(got[2]).toBeNull();
  });
});

describe('process model, Math-Shepherd style', () => {
  it('step score = P("+") against "-" from the LM logits at each step tag', async () => {
    const folder = writeModelFolder(join(tempDir(), 'shepherd'), {
      kind: 'shepherd',
      window: 3,
      manifest: {
        kind: 'process',
        input: { mode: 'plain', plain_template: '{prompt} {response}' },
        process: { step_separator: 'ки', step_suffix: ' ки', step_join: '\n', score: { type: 'token_pair', positive_token: '+', negative_token: '-' }, aggregate: 'product' },
      },
    });
    const d = await inspectModelFolder(folder.dir);
    expect(d.process?.rule).toMatch(/P\("\+"\) against "-"/);
    const prompt = 'two plus two';
    const steps = ['we add', 'it equals four', 'the answer is four'];
    const { db, dbPath } = makeDb([{ prompt, responses: [{ content: steps.join('\n') }, { content: 'guess' }] }]);
    open.push(db);
    await scoreProjectInline({ dbPath, project: 'p', dirs: [folder.dir], provider: 'cpu' });
    const plus = folder.tokens.indexOf('+');
    const minus = folder.tokens.indexOf('-');
    const ids = [CLS, ...refIds(folder, `${prompt} ${steps.map((s) => `${s} ки`).join('\n')}`), SEP];
    const expected = expectedSteps(folder, ids, 'ки', 3, (l) => 1 / (1 + Math.exp(l[minus]! - l[plus]!)));
    const got = stepScores(db, listModels(db)[0]!.id, prompt, steps.join('\n'), null);
    expect(got).toHaveLength(3);
    got.forEach((s, k) => expect(s).toBeCloseTo(expected[k]!, 5));
  });
});
