// Types for onnx-builder.mjs, so the TypeScript tests can build models with it under `strict`.

export interface Weights {
  dim: number;
  hidden: number;
  outputs: number;
  vocabSize: number;
  embedding: Float32Array;
  typeEmbedding: Float32Array | null;
  w1: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: Float32Array;
}

export interface LayerNormWeights {
  gamma: Float32Array;
  beta: Float32Array;
}

export interface EncoderLayerWeights {
  wq: Float32Array; bq: Float32Array;
  wk: Float32Array; bk: Float32Array;
  wv: Float32Array; bv: Float32Array;
  wo: Float32Array; bo: Float32Array;
  ln1: LayerNormWeights;
  w1: Float32Array; b1: Float32Array;
  w2: Float32Array; b2: Float32Array;
  ln2: LayerNormWeights;
}

/** A BERT-shaped encoder; matrices are row-major [in, out] (x · W). */
export interface TransformerWeights {
  type: 'transformer';
  /** How model.onnx stores the weights; the arrays here hold exactly the values it computes with. */
  storage: 'float32' | 'float16';
  vocabSize: number;
  dim: number;
  heads: number;
  ffnDim: number;
  maxPositions: number;
  outputs: number;
  eps: number;
  embedding: Float32Array;
  positionEmbedding: Float32Array;
  typeEmbedding: Float32Array | null;
  embLn: LayerNormWeights;
  layers: EncoderLayerWeights[];
  scoreW: Float32Array;
  scoreB: Float32Array;
}

export function toHalfBits(value: number): number;
export function fromHalfBits(bits: number): number;
export function roundToHalf(values: Float32Array): Float32Array;
export function seededRandom(seed: number): () => number;
export function randomMatrix(random: () => number, rows: number, cols: number, scale: number): Float32Array;

export class GraphBuilder {
  constructor(name: string);
  input(name: string, dims: (string | number)[], elemType?: number): string;
  output(name: string, dims: (string | number)[], elemType?: number): string;
  floatTensor(name: string, dims: number[], values: Float32Array | number[]): string;
  float16Tensor(name: string, dims: number[], values: Float32Array | number[]): string;
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
}): Weights;

export function makeTransformerWeights(options: {
  seed: number;
  vocabSize: number;
  dim: number;
  heads: number;
  ffnDim: number;
  layers: number;
  maxPositions: number;
  outputs?: number;
  typeVocab?: number;
  lexicon?: Record<number, number>;
  storage?: 'float32' | 'float16';
}): TransformerWeights;

export function buildTransformerOutcomeModel(weights: TransformerWeights, options?: { withTokenTypes?: boolean }): Uint8Array;
export function buildTokenModel(weights: Weights, options: { window: number; withTokenTypes?: boolean }): Uint8Array;
export function tokenForwardJs(weights: Weights, ids: number[], window: number, typeIds?: number[]): number[][];

export const SPECIAL_TOKENS: string[];
export function buildVocab(words: string[]): string[];
export function wordPieceTokenizerJson(vocab: string[], options?: { addedTokens?: string[] }): Record<string, unknown>;
