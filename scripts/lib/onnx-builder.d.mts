// Types for onnx-builder.mjs, so the TypeScript tests can build models with it under `strict`.

export interface FfnWeights {
  layers: number;
  size: number;
  win: Float32Array;
  bin: Float32Array;
  wout: Float32Array;
  bout: Float32Array;
}

export interface Weights {
  dim: number;
  hidden: number;
  outputs: number;
  vocabSize: number;
  embedding: Float32Array;
  typeEmbedding: Float32Array | null;
  ffn: FfnWeights | null;
  w1: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: Float32Array;
}

export function seededRandom(seed: number): () => number;
export function randomMatrix(random: () => number, rows: number, cols: number, scale: number): Float32Array;

export class GraphBuilder {
  constructor(name: string);
  input(name: string, dims: (string | number)[], elemType?: number): string;
  output(name: string, dims: (string | number)[], elemType?: number): string;
  floatTensor(name: string, dims: number[], values: Float32Array | number[]): string;
  int64Tensor(name: string, dims: number[], values: number[]): string;
  node(opType: string, inputs: string[], attributes?: Record<string, number | number[] | { float: number }>, output?: string): string;
  toBytes(): Uint8Array;
}

export function makeWeights(options: {
  seed: number;
  vocabSize: number;
  dim: number;
  hidden: number;
  outputs: number;
  typeVocab?: number;
  lexicon?: Record<number, number>;
  ffnLayers?: number;
  ffnDim?: number;
}): Weights;

export function buildOutcomeModel(weights: Weights, options?: { withTokenTypes?: boolean }): Uint8Array;
export function buildTokenModel(weights: Weights, options: { window: number; withTokenTypes?: boolean }): Uint8Array;
export function outcomeForwardJs(weights: Weights, ids: number[], typeIds?: number[]): number[];
export function tokenForwardJs(weights: Weights, ids: number[], window: number, typeIds?: number[]): number[][];

export const SPECIAL_TOKENS: string[];
export function buildVocab(words: string[]): string[];
export function wordPieceTokenizerJson(vocab: string[], options?: { addedTokens?: string[] }): Record<string, unknown>;
