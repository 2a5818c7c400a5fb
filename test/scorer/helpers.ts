// Test fixtures: tiny model folders written with the same builder as the demo models, databases
// with items, and a deliberately simple reference tokenizer (whole words from the vocabulary only).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Content } from '../../shared/domain';
import { openDb, type Db } from '../../electron/core/store/db';
import { itemInserter } from '../../electron/core/store/itemInsert';
import { createProject } from '../../electron/core/store/projects';
import {
  buildTokenModel,
  buildTransformerOutcomeModel,
  buildVocab,
  makeTransformerWeights,
  makeWeights,
  tokenForwardJs,
  wordPieceTokenizerJson,
  type TransformerWeights,
  type Weights,
} from '../../scripts/lib/onnx-builder.mjs';
import { encoderForwardJs } from './reference';

export const WORDS = 'the sky is blue green red because it so answer four two plus equals step one add then wrong guess maybe check yes no good bad we first next'.split(' ');
export const CHAT_ADDED = ['<|im_start|>', '<|im_end|>', '<extra_0>'];
export const CHAT_TEMPLATE =
  "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n{% endfor %}";

export function tempDir(prefix = 'arbiter-scorer-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Folder {
  dir: string;
  vocab: string[];
  /** vocab + added tokens, indexed by id. */
  tokens: string[];
  /** Outcome folders hold a transformer encoder; process folders a per-token model. */
  weights: TransformerWeights | Weights;
}

export interface FolderOptions {
  kind: 'outcome' | 'prm' | 'shepherd';
  withTokenTypes?: boolean;
  manifest?: Record<string, unknown> | null;
  tokenizerConfig?: Record<string, unknown>;
  config?: Record<string, unknown>;
  addedTokens?: string[];
  /** Make the embedding smaller than the tokenizer (a mismatched pair). */
  embeddingRows?: number;
  window?: number;
  seed?: number;
  /** Outcome models: values per response (default 1). */
  outputs?: number;
}

export function writeModelFolder(dir: string, options: FolderOptions): Folder {
  mkdirSync(dir, { recursive: true });
  const added = options.addedTokens ?? (options.kind === 'prm' ? CHAT_ADDED : options.kind === 'shepherd' ? ['ки'] : []);
  const vocab = buildVocab([...WORDS, 'system', 'user', 'assistant']);
  const tokens = [...vocab, ...added];
  const vocabSize = options.embeddingRows ?? tokens.length;
  const outputs = options.kind === 'outcome' ? (options.outputs ?? 1) : options.kind === 'prm' ? 2 : vocabSize;
  const seed = options.seed ?? 11;
  const typeVocab = options.withTokenTypes ? 2 : 0;
  const withTokenTypes = options.withTokenTypes ?? false;
  let weights: TransformerWeights | Weights;
  let model: Uint8Array;
  if (options.kind === 'outcome') {
    // A small encoder (2 layers, 2 heads), positions for the tokenizer's 128 tokens, float16 weights as the demo's.
    const encoder = makeTransformerWeights({ seed, vocabSize, dim: 16, heads: 2, ffnDim: 32, layers: 2, maxPositions: 128, outputs, typeVocab, storage: 'float16' });
    weights = encoder;
    model = buildTransformerOutcomeModel(encoder, { withTokenTypes });
  } else {
    const token = makeWeights({ seed, vocabSize, dim: 8, hidden: 6, outputs, typeVocab });
    weights = token;
    model = buildTokenModel(token, { window: options.window ?? 4, withTokenTypes });
  }
  writeFileSync(join(dir, 'model.onnx'), model);
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(wordPieceTokenizerJson(vocab, { addedTokens: added })));
  const tokenizerConfig = { pad_token: '[PAD]', model_max_length: 128, ...(options.kind === 'prm' ? { chat_template: CHAT_TEMPLATE } : {}), ...options.tokenizerConfig };
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ pad_token_id: 0, ...options.config }));
  if (options.manifest) writeFileSync(join(dir, 'arbiter-model.json'), JSON.stringify(options.manifest));
  return { dir, vocab, tokens, weights };
}

/** An outcome folder's logits for one unpadded sequence, from the plain-JS encoder. */
export function outcomeLogitsJs(folder: Folder, ids: number[], typeIds?: number[]): number[] {
  if (!('type' in folder.weights)) throw new Error('not an outcome (encoder) folder');
  return encoderForwardJs(folder.weights, ids, typeIds);
}

/** A process folder's logits per position, from the plain-JS per-token model. */
export function tokenLogitsJs(folder: Folder, ids: number[], window: number, typeIds?: number[]): number[][] {
  if ('type' in folder.weights) throw new Error('not a per-token folder');
  return tokenForwardJs(folder.weights, ids, window, typeIds);
}

/** Reference tokenization: added tokens split out, then lower-case whitespace words, each in the vocabulary. */
export function refIds(folder: Folder, text: string): number[] {
  const added = folder.tokens.slice(folder.vocab.length);
  const parts: string[] = [];
  let rest = text;
  while (rest.length) {
    const hits = added.map((t) => ({ t, at: rest.indexOf(t) })).filter((h) => h.at >= 0).sort((a, b) => a.at - b.at);
    const hit = hits[0];
    if (!hit) {
      parts.push(...rest.toLowerCase().split(/\s+/).filter(Boolean));
      break;
    }
    parts.push(...rest.slice(0, hit.at).toLowerCase().split(/\s+/).filter(Boolean), hit.t);
    rest = rest.slice(hit.at + hit.t.length);
  }
  return parts.map((p) => {
    const id = folder.tokens.indexOf(p);
    if (id < 0) throw new Error(`reference tokenizer: "${p}" is not a whole token`);
    return id;
  });
}

export const CLS = 2;
export const SEP = 3;

export interface ItemInput {
  prompt: Content;
  responses: { content: Content; steps?: string[] }[];
}

export function makeDb(items: ItemInput[], project = 'p'): { dbPath: string; db: Db; projectId: number; itemIds: number[] } {
  const dbPath = join(tempDir('arbiter-db-'), 'arbiter.db');
  const db = openDb(dbPath);
  const projectId = createProject(db, project).id;
  const insert = itemInserter(db, projectId);
  const itemIds = items.map(
    (item, i) =>
      insert.insert({
        externalId: `q-${i}`,
        prompt: item.prompt,
        responses: item.responses.map((r) => ({ content: r.content, model: null, steps: r.steps ?? null })),
        reference: null,
        metadata: {},
      }).id,
  );
  return { dbPath, db, projectId, itemIds };
}

export function addItems(db: Db, projectId: number, items: ItemInput[]): number[] {
  const insert = itemInserter(db, projectId);
  return items.map(
    (item, i) =>
      insert.insert({
        externalId: `extra-${i}`,
        prompt: item.prompt,
        responses: item.responses.map((r) => ({ content: r.content, model: null, steps: r.steps ?? null })),
        reference: null,
        metadata: {},
      }).id,
  );
}

/** Sentences of the test vocabulary, of varied lengths, deterministic. */
export function sentence(seed: number, words: number): string {
  const out: string[] = [];
  let x = seed * 7919 + 13;
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}
