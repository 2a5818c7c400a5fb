// Types for onnx-image-builder.mjs, so the TypeScript tests can build image models with it under `strict`.

export const COLOUR_WORDS: { red: 0; green: 1; blue: 2 };

/** The tiny image reward model's weights; conv weights row-major [out, in, kh, kw]. */
export interface ImageRewardWeights {
  type: 'image-reward';
  size: number;
  vocabSize: number;
  c1: number;
  c2: number;
  /** [vocab, 3]: the colour each token adds to the prompt's colour vector. */
  colourTable: Float32Array;
  colourBias: Float32Array;
  colourScale: number;
  conv1: Float32Array;
  conv1Bias: Float32Array;
  conv2: Float32Array;
  conv2Bias: Float32Array;
  head: Float32Array;
  headBias: Float32Array;
}

export function makeImageRewardWeights(options: {
  seed: number;
  vocab: string[];
  size?: number;
  c1?: number;
  c2?: number;
  colourScale?: number;
  colourBias?: number[];
  textureScale?: number;
}): ImageRewardWeights;
export function buildImageRewardModel(weights: ImageRewardWeights, options?: { height?: number | string; width?: number | string }): Uint8Array;
export function clipPreprocessorConfig(size?: number, extra?: Record<string, unknown>): Record<string, unknown>;
