// Types for onnx-video-builder.mjs, so the TypeScript tests can build video models with it under `strict`.

/** The tiny video reward model's weights. */
export interface VideoRewardWeights {
  type: 'video-reward';
  size: number;
  vocabSize: number;
  /** [vocab, 3]: the colour each token adds to the prompt's colour vector. */
  colourTable: Float32Array;
  colourBias: Float32Array;
  colourScale: number;
  motionScale: number;
}

export function makeVideoRewardWeights(options: { vocab: string[]; size?: number; colourScale?: number; motionScale?: number; colourBias?: number[] }): VideoRewardWeights;

/** model.onnx bytes; `frames`, `height`, `width` as numbers (fixed) or strings (named dynamic dimensions). */
export function buildVideoRewardModel(weights: VideoRewardWeights, options?: { frames?: number | string; height?: number | string; width?: number | string }): Uint8Array;

/** The reward for one video: `pixels` [frames, 3, H, W] and the prompt's token ids. */
export function videoRewardJs(weights: VideoRewardWeights, pixels: Float32Array, frames: number, ids: number[]): number;
