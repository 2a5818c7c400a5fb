// A tiny video reward model, shaped like an ONNX export of a video scorer that reads a frame stack:
// inputs pixel_values [batch, frames, 3, H, W] (float32, each frame as preprocessor_config.json makes an
// image) and the prompt's input_ids / attention_mask; output logits [batch, 1]. Made by the video
// scorer tests (test/scorer/video-model.test.ts) and the video pre-label e2e, with a plain-JS forward pass
// beside it (videoRewardJs) so a test can work out the reward from the frames.
//
// What it computes:
//   colour = Σ_c t_c · m_c, where m = the mean of each channel over every frame and pixel, and t = the
//            image model's text colour vector (onnx-image-builder.mjs: colourBias + the masked mean of
//            the colour table over the prompt's tokens; "red" [3, 0, 0], "green" [0, 3, 0], "blue" [0, 0, 3]).
//   motion = the mean absolute difference between consecutive frames (0 for a still video).
//   logits = colourScale · colour + motionScale · motion.
import onnxPackage from 'onnx-proto';
import { GraphBuilder } from './onnx-builder.mjs';
import { COLOUR_WORDS } from './onnx-image-builder.mjs';

const { onnx } = onnxPackage;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

/** Weights: the colour table by token id (`vocab`: the tokenizer's tokens by id), the bias and the two scales. */
export function makeVideoRewardWeights({ vocab, size = 32, colourScale = 4, motionScale = 2, colourBias = [0.2, -0.1, -0.1] }) {
  const colourTable = new Float32Array(vocab.length * 3);
  for (const [word, channel] of Object.entries(COLOUR_WORDS)) {
    const id = vocab.indexOf(word);
    if (id >= 0) colourTable[id * 3 + channel] = 3;
  }
  return { type: 'video-reward', size, vocabSize: vocab.length, colourTable, colourBias: Float32Array.from(colourBias), colourScale, motionScale };
}

/** The graph. `frames`, `height`, `width`: the pixel input's dims (a string makes a named dynamic dimension; frames ≥ 2). */
export function buildVideoRewardModel(w, { frames = 4, height = w.size, width = w.size } = {}) {
  const g = new GraphBuilder('arbiter-video-reward');
  const pixels = g.input('pixel_values', ['batch', frames, 3, height, width], FLOAT);
  const ids = g.input('input_ids', ['batch', 'sequence']);
  const mask = g.input('attention_mask', ['batch', 'sequence']);
  const maskF = g.node('Cast', [mask], { to: FLOAT });

  const rows = g.node('Gather', [g.floatTensor('text.colour_table', [w.vocabSize, 3], w.colourTable), ids], { axis: 0 });
  const mask3 = g.node('Unsqueeze', [maskF, g.int64Tensor('axis_last', [1], [2])]);
  const summed = g.node('ReduceSum', [g.node('Mul', [rows, mask3]), g.int64Tensor('axis_seq', [1], [1])], { keepdims: 0 });
  const count = g.node('Max', [g.node('ReduceSum', [maskF, g.int64Tensor('axis_seq2', [1], [1])], { keepdims: 1 }), g.floatTensor('one', [1], [1])]);
  const t = g.node('Add', [g.node('Div', [summed, count]), g.floatTensor('text.colour_bias', [3], w.colourBias)]);

  // Channel means over frames and pixels [B, 3]; colour = Σ t·m [B, 1].
  const means = g.node('ReduceMean', [pixels], { axes: [1, 3, 4], keepdims: 0 });
  const colour = g.node('ReduceSum', [g.node('Mul', [t, means]), g.int64Tensor('axis_chan', [1], [1])], { keepdims: 1 });

  // Motion: frames 1.. minus frames ..−1, absolute, mean over all but the batch [B, 1].
  const big = g.int64Tensor('big', [1], [1_000_000]);
  const axis1 = g.int64Tensor('axis_frames', [1], [1]);
  const later = g.node('Slice', [pixels, g.int64Tensor('from_one', [1], [1]), big, axis1]);
  const earlier = g.node('Slice', [pixels, g.int64Tensor('from_zero', [1], [0]), g.int64Tensor('to_last', [1], [-1]), axis1]);
  const motion = g.node('ReduceMean', [g.node('Abs', [g.node('Sub', [later, earlier])])], { axes: [1, 2, 3, 4], keepdims: 0 });
  const motion2 = g.node('Unsqueeze', [motion, g.int64Tensor('axis_one', [1], [1])]);

  g.node('Add', [g.node('Mul', [colour, g.floatTensor('colour_scale', [], [w.colourScale])]), g.node('Mul', [motion2, g.floatTensor('motion_scale', [], [w.motionScale])])], {}, 'logits');
  g.output('logits', ['batch', 1]);
  return g.toBytes();
}

/** The same reward in plain JavaScript, for one video: `pixels` [frames, 3, H, W] and the prompt's token ids. */
export function videoRewardJs(w, pixels, frames, ids) {
  const plane = pixels.length / frames / 3;
  const t = [0, 1, 2].map((c) => ids.reduce((s, id) => s + w.colourTable[id * 3 + c], 0) / Math.max(1, ids.length) + w.colourBias[c]);
  let colour = 0;
  for (let c = 0; c < 3; c++) {
    let sum = 0;
    for (let f = 0; f < frames; f++) for (let i = 0; i < plane; i++) sum += pixels[(f * 3 + c) * plane + i];
    colour += t[c] * (sum / (frames * plane));
  }
  let diff = 0;
  for (let f = 1; f < frames; f++) for (let i = 0; i < 3 * plane; i++) diff += Math.abs(pixels[f * 3 * plane + i] - pixels[(f - 1) * 3 * plane + i]);
  const motion = frames > 1 ? diff / ((frames - 1) * 3 * plane) : 0;
  return w.colourScale * colour + w.motionScale * motion;
}
