// A tiny image reward model, shaped like an ONNX export of a CLIP-style scorer: inputs pixel_values
// [batch, 3, H, W] (float32, as preprocessor_config.json makes them) and the prompt's input_ids /
// attention_mask; output logits [batch, 1]. Deterministic (seeded), for the demo model
// (scripts/gen-demo-models.mjs → resources/models/demo-image) and the scorer tests, which check
// onnxruntime's answers against a plain-JS forward pass written apart from this graph code
// (test/scorer/imageReference.ts).
//
// What it computes, so a test can know the order of two images in advance:
//   colour  = Σ_c t_c · m_c, where m = the mean of each channel of pixel_values (normalised R, G, B) and
//             t = colourBias + the masked mean over the prompt's tokens of a colour table: "red" is
//             [3, 0, 0], "green" [0, 3, 0], "blue" [0, 0, 3], every other token [0, 0, 0]. With no colour
//             word, t = colourBias = [0.2, −0.1, −0.1]: the score is the image's mean redness.
//   texture = a small convolutional branch (conv 4×4 stride 4 → ReLU → conv 3×3 stride 2 pad 1 → ReLU
//             → global average → linear), seeded weights of small scale: it depends on every pixel.
//   logits  = colourScale · colour + texture.
import onnxPackage from 'onnx-proto';
import { GraphBuilder, randomMatrix, seededRandom } from './onnx-builder.mjs';

const { onnx } = onnxPackage;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

export const COLOUR_WORDS = { red: 0, green: 1, blue: 2 };

/**
 * Weights for the image model. `vocab`: the tokenizer's tokens by id (colour words found by name).
 * conv1 [c1, 3, 4, 4], conv2 [c2, c1, 3, 3], head [c2] (+ bias), all float32.
 */
export function makeImageRewardWeights({ seed, vocab, size = 224, c1 = 8, c2 = 16, colourScale = 4, colourBias = [0.2, -0.1, -0.1], textureScale = 0.1 }) {
  const random = seededRandom(seed);
  const colourTable = new Float32Array(vocab.length * 3);
  for (const [word, channel] of Object.entries(COLOUR_WORDS)) {
    const id = vocab.indexOf(word);
    if (id >= 0) colourTable[id * 3 + channel] = 3;
  }
  const conv1 = randomMatrix(random, c1, 3 * 4 * 4, Math.sqrt(6 / (3 * 16 + c1)));
  const conv1Bias = randomMatrix(random, 1, c1, 0.05);
  const conv2 = randomMatrix(random, c2, c1 * 9, Math.sqrt(6 / (c1 * 9 + c2)));
  const conv2Bias = randomMatrix(random, 1, c2, 0.05);
  const head = randomMatrix(random, c2, 1, textureScale);
  const headBias = randomMatrix(random, 1, 1, 0.05);
  return { type: 'image-reward', size, vocabSize: vocab.length, c1, c2, colourTable, colourBias: Float32Array.from(colourBias), colourScale, conv1, conv1Bias, conv2, conv2Bias, head, headBias };
}

/** The graph. `height` / `width`: the pixel input's fixed size (a string makes it a named dynamic dimension). */
export function buildImageRewardModel(w, { height = w.size, width = w.size } = {}) {
  const g = new GraphBuilder('arbiter-image-reward');
  const pixels = g.input('pixel_values', ['batch', 3, height, width], FLOAT);
  const ids = g.input('input_ids', ['batch', 'sequence']);
  const mask = g.input('attention_mask', ['batch', 'sequence']);
  const maskF = g.node('Cast', [mask], { to: FLOAT });

  // Text: the masked mean of the colour rows, plus the bias. [B, 3]
  const rows = g.node('Gather', [g.floatTensor('text.colour_table', [w.vocabSize, 3], w.colourTable), ids], { axis: 0 }); // [B, L, 3]
  const mask3 = g.node('Unsqueeze', [maskF, g.int64Tensor('axis_last', [1], [2])]);
  const summed = g.node('ReduceSum', [g.node('Mul', [rows, mask3]), g.int64Tensor('axis_seq', [1], [1])], { keepdims: 0 }); // [B, 3]
  const count = g.node('Max', [g.node('ReduceSum', [maskF, g.int64Tensor('axis_seq2', [1], [1])], { keepdims: 1 }), g.floatTensor('one', [1], [1])]); // [B, 1]
  const t = g.node('Add', [g.node('Div', [summed, count]), g.floatTensor('text.colour_bias', [3], w.colourBias)]);

  // Image: channel means [B, 3]; colour = Σ t·m [B, 1].
  const means = g.node('ReduceMean', [pixels], { axes: [2, 3], keepdims: 0 });
  const colour = g.node('ReduceSum', [g.node('Mul', [t, means]), g.int64Tensor('axis_chan', [1], [1])], { keepdims: 1 });

  // Texture: conv → relu → conv → relu → global average → linear. [B, 1]
  const c1 = g.node('Relu', [g.node('Conv', [pixels, g.floatTensor('vision.conv1.weight', [w.c1, 3, 4, 4], w.conv1), g.floatTensor('vision.conv1.bias', [w.c1], w.conv1Bias)], { kernel_shape: [4, 4], strides: [4, 4] })]);
  const c2 = g.node('Relu', [g.node('Conv', [c1, g.floatTensor('vision.conv2.weight', [w.c2, w.c1, 3, 3], w.conv2), g.floatTensor('vision.conv2.bias', [w.c2], w.conv2Bias)], { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] })]);
  const pooled = g.node('Flatten', [g.node('GlobalAveragePool', [c2])], { axis: 1 }); // [B, c2]
  const texture = g.node('Add', [g.node('MatMul', [pooled, g.floatTensor('head.weight', [w.c2, 1], w.head)]), g.floatTensor('head.bias', [1], w.headBias)]);

  g.node('Add', [g.node('Mul', [colour, g.floatTensor('colour_scale', [], [w.colourScale])]), texture], {}, 'logits');
  g.output('logits', ['batch', 1]);
  return g.toBytes();
}

/** preprocessor_config.json as transformers' CLIPImageProcessor writes it (save_pretrained), for `size` pixels. */
export function clipPreprocessorConfig(size = 224, extra = {}) {
  return {
    crop_size: { height: size, width: size },
    do_center_crop: true,
    do_convert_rgb: true,
    do_normalize: true,
    do_rescale: true,
    do_resize: true,
    image_mean: [0.48145466, 0.4578275, 0.40821073],
    image_processor_type: 'CLIPImageProcessor',
    image_std: [0.26862954, 0.26130258, 0.27577711],
    resample: 3,
    rescale_factor: 0.00392156862745098,
    size: { shortest_edge: size },
    ...extra,
  };
}
