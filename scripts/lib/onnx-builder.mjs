// Builds tiny ONNX reward models and Hugging Face tokenizer files, deterministically, for the demo
// models (scripts/gen-demo-models.mjs) and for the scorer tests, which rebuild the same graphs and
// check onnxruntime's answers against plain-JS forward passes (the per-token model's below; the
// encoder's in test/scorer/reference.ts, written apart from the graph code it checks).
import onnxPackage from 'onnx-proto';

const { onnx } = onnxPackage;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
const FLOAT16 = onnx.TensorProto.DataType.FLOAT16;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE half-precision bits of a float32, rounded to nearest even (finite values within half range). */
export function toHalfBits(value) {
  f32[0] = value;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = ((x >>> 23) & 0xff) - 127 + 15;
  const mant = x & 0x7fffff;
  if (exp >= 31) throw new Error(`${value} does not fit in float16`);
  if (exp <= 0) {
    // Subnormal half: shift the implicit bit in, round to nearest even.
    if (exp < -10) return sign;
    const m = mant | 0x800000;
    const shift = 14 - exp;
    const half = m >>> shift;
    const rest = m & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (half + (rest > mid || (rest === mid && half & 1) ? 1 : 0));
  }
  const half = (exp << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

/** The float value of half-precision bits. */
export function fromHalfBits(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

/** The same values rounded to float16 precision (still a Float32Array: every half is exact in float32). */
export function roundToHalf(values) {
  return values.map((v) => fromHalfBits(toHalfBits(v)));
}

/** mulberry32: a small seeded PRNG, so the same seed always writes the same weights. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A float32 matrix of uniform values in [-scale, scale]; rounded through Float32Array so JS and ORT agree. */
export function randomMatrix(random, rows, cols, scale) {
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = (random() * 2 - 1) * scale;
  return data;
}

/** Collects inputs, initializers and nodes, then writes a ModelProto. */
export class GraphBuilder {
  constructor(name) {
    this.name = name;
    this.inputs = [];
    this.outputs = [];
    this.initializers = [];
    this.nodes = [];
    this.counter = 0;
  }

  static valueInfo(name, elemType, dims) {
    return onnx.ValueInfoProto.create({
      name,
      type: onnx.TypeProto.create({
        tensorType: onnx.TypeProto.Tensor.create({
          elemType,
          shape: onnx.TensorShapeProto.create({
            dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })),
          }),
        }),
      }),
    });
  }

  input(name, dims, elemType = INT64) {
    this.inputs.push(GraphBuilder.valueInfo(name, elemType, dims));
    return name;
  }

  output(name, dims, elemType = FLOAT) {
    this.outputs.push(GraphBuilder.valueInfo(name, elemType, dims));
    return name;
  }

  floatTensor(name, dims, values) {
    const data = values instanceof Float32Array ? values : Float32Array.from(values);
    this.initializers.push(
      onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }),
    );
    return name;
  }

  /** A float16 initializer holding `values`, which must already be float16 values (see roundToHalf). */
  float16Tensor(name, dims, values) {
    const bits = Uint16Array.from(values, (v) => toHalfBits(v));
    if (bits.some((b, i) => fromHalfBits(b) !== values[i])) throw new Error(`${name}: values are not float16 values`);
    this.initializers.push(
      onnx.TensorProto.create({ name, dims, dataType: FLOAT16, rawData: new Uint8Array(bits.buffer, bits.byteOffset, bits.byteLength) }),
    );
    return name;
  }

  int64Tensor(name, dims, values) {
    const data = BigInt64Array.from(values.map((v) => BigInt(v)));
    this.initializers.push(
      onnx.TensorProto.create({ name, dims, dataType: INT64, rawData: new Uint8Array(data.buffer) }),
    );
    return name;
  }

  /** Adds a node; returns its (single) output name. attributes: {name: number | number[] | {float}}. */
  node(opType, inputs, attributes = {}, output = `${opType.toLowerCase()}_${this.counter++}`) {
    const attribute = Object.entries(attributes).map(([name, value]) => {
      if (Array.isArray(value)) return { name, type: onnx.AttributeProto.AttributeType.INTS, ints: value };
      if (typeof value === 'object') return { name, type: onnx.AttributeProto.AttributeType.FLOAT, f: value.float };
      return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
    });
    this.nodes.push(onnx.NodeProto.create({ opType, input: inputs, output: [output], name: `${output}_node`, attribute }));
    return output;
  }

  /** Serialises the model: IR 8, opset 17 (what torch.onnx and optimum export today). */
  toBytes() {
    const graph = onnx.GraphProto.create({
      name: this.name,
      input: this.inputs,
      output: this.outputs,
      initializer: this.initializers,
      node: this.nodes,
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [{ domain: '', version: 17 }],
      producerName: 'arbiter-onnx-builder',
      graph,
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

/**
 * Deterministic weights for the models below. `lexicon` maps token ids to a value written into
 * embedding column 0, which the weights route to the output, so chosen words push scores up or down.
 */
export function makeWeights({ seed, vocabSize, dim, hidden, outputs, typeVocab = 0, lexicon = {} }) {
  const random = seededRandom(seed);
  const embedding = randomMatrix(random, vocabSize, dim, 0.5);
  for (const [id, value] of Object.entries(lexicon)) embedding[Number(id) * dim] = value;
  const typeEmbedding = typeVocab > 0 ? randomMatrix(random, typeVocab, dim, 0.5) : null;
  const w1 = randomMatrix(random, dim, hidden, 0.6);
  const b1 = randomMatrix(random, 1, hidden, 0.1);
  const w2 = randomMatrix(random, hidden, outputs, 0.6);
  const b2 = randomMatrix(random, 1, outputs, 0.1);
  // Route the lexicon column through hidden unit 0 to output column `outputs - 1` (the "good" class).
  w1[0] = 1.5;
  for (let j = 1; j < hidden; j++) w1[j] *= 0.3;
  w2[outputs - 1] = 2.5;
  if (outputs > 1) w2[0] = -2.5;
  return { dim, hidden, outputs, vocabSize, embedding, typeEmbedding, w1, b1, w2, b2 };
}

function addHead(g, features, weights) {
  const { dim, hidden, outputs } = weights;
  const h = g.node('Tanh', [g.node('Add', [g.node('MatMul', [features, g.floatTensor('w1', [dim, hidden], weights.w1)]), g.floatTensor('b1', [hidden], weights.b1)])]);
  return g.node('Add', [g.node('MatMul', [h, g.floatTensor('w2', [hidden, outputs], weights.w2)]), g.floatTensor('b2', [outputs], weights.b2)], {}, 'logits');
}

function embed(g, weights, { withTokenTypes }) {
  const ids = g.input('input_ids', ['batch', 'sequence']);
  const mask = g.input('attention_mask', ['batch', 'sequence']);
  let emb = g.node('Gather', [g.floatTensor('embedding', [weights.vocabSize, weights.dim], weights.embedding), ids], { axis: 0 });
  if (withTokenTypes) {
    const types = g.input('token_type_ids', ['batch', 'sequence']);
    const typeEmb = g.node('Gather', [g.floatTensor('type_embedding', [weights.typeEmbedding.length / weights.dim, weights.dim], weights.typeEmbedding), types], { axis: 0 });
    emb = g.node('Add', [emb, typeEmb]);
  }
  const maskF = g.node('Cast', [mask], { to: FLOAT });
  return { emb, maskF };
}

/**
 * Per-token model: each position sees the masked mean of the last `window` tokens (itself included),
 * then the MLP gives logits [batch, sequence, outputs]. outputs = 2 is a Qwen2.5-Math-PRM-style
 * token classifier; outputs = vocabSize is a Math-Shepherd-style language-model head.
 */
export function buildTokenModel(weights, { window, withTokenTypes = false }) {
  const g = new GraphBuilder('arbiter-per-token');
  const { emb, maskF } = embed(g, weights, { withTokenTypes });
  const axis1 = g.int64Tensor('axis1', [], [1]);
  const axes1 = g.int64Tensor('axes1', [1], [1]);
  const starts = g.int64Tensor('slice_starts', [1], [0]);
  const ends = g.int64Tensor('slice_ends', [1], [-window]);
  // window sum = cumsum[t] - cumsum[t - window], the shifted cumsum made by padding `window` zeros in front.
  const windowSum = (x, pads) => {
    const c = g.node('CumSum', [x, axis1]);
    const shifted = g.node('Slice', [g.node('Pad', [c, pads]), starts, ends, axes1]);
    return g.node('Sub', [c, shifted]);
  };
  const mask3 = g.node('Unsqueeze', [maskF, g.int64Tensor('axis2', [1], [2])]);
  const sums = windowSum(g.node('Mul', [emb, mask3]), g.int64Tensor('pads3', [6], [0, window, 0, 0, 0, 0]));
  const counts = windowSum(maskF, g.int64Tensor('pads2', [4], [0, window, 0, 0]));
  const counts3 = g.node('Max', [g.node('Unsqueeze', [counts, g.int64Tensor('axis2b', [1], [2])]), g.floatTensor('one', [1], [1])]);
  addHead(g, g.node('Div', [sums, counts3]), weights);
  g.output('logits', ['batch', 'sequence', weights.outputs]);
  return g.toBytes();
}

// ---- Transformer encoder (the demo outcome model and the outcome test models).

/**
 * Deterministic weights for a BERT-shaped encoder: token + learned position (+ token type)
 * embeddings, embedding LayerNorm, `layers` post-LN encoder layers (multi-head self-attention, tanh
 * GELU MLP), and a linear score head on the last real token's hidden state.
 *
 * `lexicon` (token id → value) is written into hidden dimension 0, which carries nothing else: in
 * each layer head 0 has zero query/key weights, so it attends uniformly to the real tokens, and its
 * value/output weights copy dimension 0's mean back into dimension 0; the score head reads it. So
 * the chosen words push the reward up or down, under seeded noise from every other weight.
 */
export function makeTransformerWeights({ seed, vocabSize, dim, heads, ffnDim, layers, maxPositions, outputs = 1, typeVocab = 0, lexicon = {}, storage = 'float32' }) {
  if (dim % heads) throw new Error(`dim ${dim} is not a multiple of heads ${heads}`);
  const random = seededRandom(seed);
  const headDim = dim / heads;
  const xavier = (rows, cols) => randomMatrix(random, rows, cols, Math.sqrt(6 / (rows + cols)));
  const lexical = Object.keys(lexicon).length > 0;
  const clearColumn0 = (m, rows) => {
    if (lexical) for (let r = 0; r < rows; r++) m[r * dim] = 0;
    return m;
  };
  const embedding = clearColumn0(randomMatrix(random, vocabSize, dim, 0.5), vocabSize);
  for (const [id, value] of Object.entries(lexicon)) embedding[Number(id) * dim] = value;
  const positionEmbedding = clearColumn0(randomMatrix(random, maxPositions, dim, 0.1), maxPositions);
  const typeEmbedding = typeVocab > 0 ? clearColumn0(randomMatrix(random, typeVocab, dim, 0.1), typeVocab) : null;
  const layerNorm = () => {
    const gamma = randomMatrix(random, 1, dim, 0.1).map((x) => 1 + x);
    const beta = randomMatrix(random, 1, dim, 0.02);
    if (lexical) {
      gamma[0] = 1;
      beta[0] = 0;
    }
    return { gamma, beta };
  };
  const embLn = layerNorm();
  const encoder = [];
  for (let l = 0; l < layers; l++) {
    const layer = {
      wq: xavier(dim, dim), bq: randomMatrix(random, 1, dim, 0.02),
      wk: xavier(dim, dim), bk: randomMatrix(random, 1, dim, 0.02),
      wv: xavier(dim, dim), bv: randomMatrix(random, 1, dim, 0.02),
      wo: xavier(dim, dim), bo: randomMatrix(random, 1, dim, 0.02),
      ln1: layerNorm(),
      w1: xavier(dim, ffnDim), b1: randomMatrix(random, 1, ffnDim, 0.02),
      w2: xavier(ffnDim, dim), b2: randomMatrix(random, 1, dim, 0.02),
      ln2: layerNorm(),
    };
    if (lexical) {
      // Head 0 (columns 0..headDim-1 of q, k, v): uniform attention; its first value channel is dimension 0.
      for (let r = 0; r < dim; r++) {
        for (let c = 0; c < headDim; c++) {
          layer.wq[r * dim + c] = 0;
          layer.wk[r * dim + c] = 0;
          layer.wv[r * dim + c] = r === 0 && c === 0 ? 1 : r === 0 || c === 0 ? 0 : layer.wv[r * dim + c];
        }
      }
      for (let c = 0; c < headDim; c++) {
        layer.bq[c] = 0;
        layer.bk[c] = 0;
      }
      layer.bv[0] = 0;
      // Attention output: value channel 0 → dimension 0 only; nothing else writes dimension 0.
      for (let r = 0; r < dim; r++) layer.wo[r * dim] = r === 0 ? 1.5 : 0;
      for (let c = 1; c < dim; c++) layer.wo[c] = 0;
      layer.bo[0] = 0;
      for (let r = 0; r < ffnDim; r++) layer.w2[r * dim] = 0;
      layer.b2[0] = 0;
      for (let c = 0; c < ffnDim; c++) layer.w1[c] *= 0.1;
    }
    encoder.push(layer);
  }
  const scoreW = randomMatrix(random, dim, outputs, 0.05);
  const scoreB = randomMatrix(random, 1, outputs, 0.1);
  if (lexical) scoreW[outputs - 1] = 0.6;
  const weights = { type: 'transformer', storage, vocabSize, dim, heads, ffnDim, maxPositions, outputs, eps: 1e-5, embedding, positionEmbedding, typeEmbedding, embLn, layers: encoder, scoreW, scoreB };
  // Stored as float16: round every weight now, so these arrays hold exactly what the graph computes with.
  return storage === 'float16' ? mapArrays(weights, roundToHalf) : weights;
}

function mapArrays(value, fn) {
  if (value instanceof Float32Array) return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapArrays(v, fn));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapArrays(v, fn)]));
  return value;
}

/**
 * Outcome model shaped like an HF sequence-classification export of an encoder: inputs input_ids,
 * attention_mask (+ token_type_ids); output logits [batch, outputs].
 *
 * Positions count real tokens (cumsum of the mask − 1), so left and right padding give the same
 * answer; padded keys get −1e9 added to their attention scores; the reward is read from the hidden
 * state of the last real token (as GPT-2/Llama/Qwen *ForSequenceClassification do).
 */
export function buildTransformerOutcomeModel(weights, { withTokenTypes = false } = {}) {
  const { dim, heads, ffnDim, vocabSize, maxPositions, outputs, eps } = weights;
  const headDim = dim / heads;
  const g = new GraphBuilder('arbiter-outcome-encoder');
  // float16 storage halves the file; each weight is cast to float32 once (onnxruntime folds the Cast
  // into a float32 initializer when the session loads), so the arithmetic is float32 throughout.
  const weight = (name, dims, values) =>
    weights.storage === 'float16' ? g.node('Cast', [g.float16Tensor(`${name}_fp16`, dims, values)], { to: FLOAT }, name) : g.floatTensor(name, dims, values);
  const ids = g.input('input_ids', ['batch', 'sequence']);
  const mask = g.input('attention_mask', ['batch', 'sequence']);
  const types = withTokenTypes ? g.input('token_type_ids', ['batch', 'sequence']) : null;
  const maskF = g.node('Cast', [mask], { to: FLOAT });
  const axis1 = g.int64Tensor('axis1', [], [1]);
  const axes1 = g.int64Tensor('axes1', [1], [1]);
  const one = g.floatTensor('one', [], [1]);
  const counted = g.node('CumSum', [maskF, axis1]); // [B, L]: real tokens up to and including t
  const positions = g.node('Cast', [g.node('Relu', [g.node('Sub', [counted, one])])], { to: INT64 });

  let x = g.node('Add', [
    g.node('Gather', [weight('embeddings.word', [vocabSize, dim], weights.embedding), ids], { axis: 0 }),
    g.node('Gather', [weight('embeddings.position', [maxPositions, dim], weights.positionEmbedding), positions], { axis: 0 }),
  ]);
  if (types) {
    const typeRows = weights.typeEmbedding.length / dim;
    x = g.node('Add', [x, g.node('Gather', [weight('embeddings.token_type', [typeRows, dim], weights.typeEmbedding), types], { axis: 0 })]);
  }
  const layerNorm = (input, ln, name) =>
    g.node('LayerNormalization', [input, weight(`${name}.weight`, [dim], ln.gamma), weight(`${name}.bias`, [dim], ln.beta)], { axis: -1, epsilon: { float: eps } });
  x = layerNorm(x, weights.embLn, 'embeddings.LayerNorm');

  // Additive attention bias [B, 1, 1, L]: 0 on real keys, −1e9 on padding.
  const bias = g.node('Unsqueeze', [g.node('Mul', [g.node('Sub', [one, maskF]), g.floatTensor('mask_value', [], [-1e9])]), g.int64Tensor('axes12', [2], [1, 2])]);
  const splitShape = g.int64Tensor('split_heads', [4], [0, 0, heads, headDim]);
  const mergeShape = g.int64Tensor('merge_heads', [3], [0, 0, dim]);
  const scale = g.floatTensor('attention_scale', [], [1 / Math.sqrt(headDim)]);
  const linear = (input, w, b, rows, cols, name) =>
    g.node('Add', [g.node('MatMul', [input, weight(`${name}.weight`, [rows, cols], w)]), weight(`${name}.bias`, [cols], b)]);
  const geluCube = g.floatTensor('gelu_cube', [], [0.044715]);
  const geluScale = g.floatTensor('gelu_scale', [], [Math.sqrt(2 / Math.PI)]);
  const half = g.floatTensor('half', [], [0.5]);
  const gelu = (v) => {
    // tanh GELU ("gelu_new"): 0.5·v·(1 + tanh(√(2/π)·(v + 0.044715·v³)))
    const cube = g.node('Mul', [g.node('Mul', [v, v]), v]);
    const inner = g.node('Mul', [g.node('Add', [v, g.node('Mul', [cube, geluCube])]), geluScale]);
    return g.node('Mul', [g.node('Mul', [v, half]), g.node('Add', [g.node('Tanh', [inner]), one])]);
  };

  weights.layers.forEach((layer, l) => {
    const p = `encoder.layer.${l}`;
    const heads4 = (v, perm) => g.node('Transpose', [g.node('Reshape', [v, splitShape])], { perm });
    const q = heads4(linear(x, layer.wq, layer.bq, dim, dim, `${p}.attention.query`), [0, 2, 1, 3]); // [B, H, L, d]
    const k = heads4(linear(x, layer.wk, layer.bk, dim, dim, `${p}.attention.key`), [0, 2, 3, 1]); // [B, H, d, L]
    const v = heads4(linear(x, layer.wv, layer.bv, dim, dim, `${p}.attention.value`), [0, 2, 1, 3]); // [B, H, L, d]
    const scores = g.node('Add', [g.node('Mul', [g.node('MatMul', [q, k]), scale]), bias]);
    const context = g.node('MatMul', [g.node('Softmax', [scores], { axis: -1 }), v]);
    const merged = g.node('Reshape', [g.node('Transpose', [context], { perm: [0, 2, 1, 3] }), mergeShape]);
    const attention = linear(merged, layer.wo, layer.bo, dim, dim, `${p}.attention.output`);
    x = layerNorm(g.node('Add', [x, attention]), layer.ln1, `${p}.attention.LayerNorm`);
    const hidden = gelu(linear(x, layer.w1, layer.b1, dim, ffnDim, `${p}.intermediate`));
    x = layerNorm(g.node('Add', [x, linear(hidden, layer.w2, layer.b2, ffnDim, dim, `${p}.output`)]), layer.ln2, `${p}.output.LayerNorm`);
  });

  // The last real token of each row: where the running count of real tokens reaches the total.
  const total = g.node('ReduceSum', [maskF, axes1], { keepdims: 1 });
  const isLast = g.node('Mul', [g.node('Cast', [g.node('Equal', [counted, total])], { to: FLOAT }), maskF]);
  const last = g.node('MatMul', [g.node('Unsqueeze', [isLast, axes1]), x]); // [B, 1, D]
  const pooled = g.node('Reshape', [last, g.int64Tensor('pooled_shape', [2], [0, dim])]);
  g.node('Add', [g.node('MatMul', [pooled, weight('score.weight', [dim, outputs], weights.scoreW)]), weight('score.bias', [outputs], weights.scoreB)], {}, 'logits');
  g.output('logits', ['batch', outputs]);
  return g.toBytes();
}

// ---- The per-token model's reference forward pass in plain JS (float64), used by tests.

function headJs(weights, features) {
  const { dim, hidden, outputs, w1, b1, w2, b2 } = weights;
  const h = new Array(hidden);
  for (let j = 0; j < hidden; j++) {
    let s = b1[j];
    for (let k = 0; k < dim; k++) s += features[k] * w1[k * hidden + j];
    h[j] = Math.tanh(s);
  }
  const out = new Array(outputs);
  for (let o = 0; o < outputs; o++) {
    let s = b2[o];
    for (let j = 0; j < hidden; j++) s += h[j] * w2[j * outputs + o];
    out[o] = s;
  }
  return out;
}

function tokenVector(weights, id, typeId) {
  const { dim, embedding, typeEmbedding } = weights;
  const v = Array.from(embedding.subarray(id * dim, id * dim + dim));
  if (typeEmbedding && typeId !== undefined) for (let k = 0; k < dim; k++) v[k] += typeEmbedding[typeId * dim + k];
  return v;
}

/** The per-token model's logits for one unpadded sequence: an array of [outputs] per position. */
export function tokenForwardJs(weights, ids, window, typeIds) {
  const vectors = ids.map((id, t) => tokenVector(weights, id, typeIds?.[t]));
  return ids.map((_, t) => {
    const from = Math.max(0, t - window + 1);
    const mean = new Array(weights.dim).fill(0);
    for (let s = from; s <= t; s++) vectors[s].forEach((x, k) => (mean[k] += x));
    return headJs(weights, mean.map((x) => x / (t - from + 1)));
  });
}

// ---- Tokenizer files: a real Hugging Face tokenizer.json (BERT-style WordPiece).

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

/**
 * A WordPiece vocabulary that can spell any lower-case ASCII text: specials, punctuation, digits,
 * letters and their ## continuations, common suffixes, then the given words.
 */
export function buildVocab(words) {
  const vocab = [...SPECIAL_TOKENS];
  const seen = new Set(vocab);
  const add = (t) => {
    if (!seen.has(t)) {
      seen.add(t);
      vocab.push(t);
    }
  };
  for (const c of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') add(c);
  for (const c of '0123456789abcdefghijklmnopqrstuvwxyz') {
    add(c);
    add(`##${c}`);
  }
  for (const s of ['s', 'es', 'ed', 'ing', 'ly', 'er', 'est', 'tion', 'ment', 'al', 'ity', 'ness', 'ful', 'less', 'able']) add(`##${s}`);
  for (const w of words) add(w.toLowerCase());
  return vocab;
}

/**
 * tokenizer.json for a WordPiece vocabulary with BERT normalisation and pre-tokenization and a
 * TemplateProcessing post-processor with single and pair templates ([CLS] A [SEP] / [CLS] A [SEP] B [SEP]).
 * addedTokens: extra special tokens (chat markers, step tags) appended after the vocabulary.
 */
export function wordPieceTokenizerJson(vocab, { addedTokens = [] } = {}) {
  const allTokens = [...vocab, ...addedTokens];
  const id = (t) => allTokens.indexOf(t);
  const added = [...SPECIAL_TOKENS, ...addedTokens].map((content) => ({
    id: id(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  const special = (t, typeId) => ({ SpecialToken: { id: t, type_id: typeId } });
  const sequence = (s, typeId) => ({ Sequence: { id: s, type_id: typeId } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]', 0), sequence('A', 0), special('[SEP]', 0)],
      pair: [special('[CLS]', 0), sequence('A', 0), special('[SEP]', 0), sequence('B', 1), special('[SEP]', 1)],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}
