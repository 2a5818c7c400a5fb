// Builds tiny ONNX reward models and Hugging Face tokenizer files, deterministically, for the demo
// models (scripts/gen-demo-models.mjs) and for the scorer tests, which rebuild the same graphs and
// check onnxruntime's answers against the plain-JS forward passes below.
import onnxPackage from 'onnx-proto';

const { onnx } = onnxPackage;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

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
export function makeWeights({ seed, vocabSize, dim, hidden, outputs, typeVocab = 0, lexicon = {}, ffnLayers = 0, ffnDim = 0 }) {
  const random = seededRandom(seed);
  const embedding = randomMatrix(random, vocabSize, dim, 0.5);
  for (const [id, value] of Object.entries(lexicon)) embedding[Number(id) * dim] = value;
  const typeEmbedding = typeVocab > 0 ? randomMatrix(random, typeVocab, dim, 0.5) : null;
  // A token-wise residual feed-forward stack (weights shared by every layer): it costs compute per
  // token like a transformer's FFN blocks do, while the file stays small.
  const ffn =
    ffnLayers > 0
      ? {
          layers: ffnLayers,
          size: ffnDim,
          win: randomMatrix(random, dim, ffnDim, 0.2),
          bin: randomMatrix(random, 1, ffnDim, 0.05),
          wout: randomMatrix(random, ffnDim, dim, 0.05),
          bout: randomMatrix(random, 1, dim, 0.01),
        }
      : null;
  const w1 = randomMatrix(random, dim, hidden, 0.6);
  const b1 = randomMatrix(random, 1, hidden, 0.1);
  const w2 = randomMatrix(random, hidden, outputs, 0.6);
  const b2 = randomMatrix(random, 1, outputs, 0.1);
  // Route the lexicon column through hidden unit 0 to output column `outputs - 1` (the "good" class).
  w1[0] = 1.5;
  for (let j = 1; j < hidden; j++) w1[j] *= 0.3;
  w2[outputs - 1] = 2.5;
  if (outputs > 1) w2[0] = -2.5;
  return { dim, hidden, outputs, vocabSize, embedding, typeEmbedding, ffn, w1, b1, w2, b2 };
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
  if (weights.ffn) {
    const { ffn, dim } = weights;
    const win = g.floatTensor('ffn_in', [dim, ffn.size], ffn.win);
    const bin = g.floatTensor('ffn_in_bias', [ffn.size], ffn.bin);
    const wout = g.floatTensor('ffn_out', [ffn.size, dim], ffn.wout);
    const bout = g.floatTensor('ffn_out_bias', [dim], ffn.bout);
    for (let layer = 0; layer < ffn.layers; layer++) {
      const inner = g.node('Tanh', [g.node('Add', [g.node('MatMul', [emb, win]), bin])]);
      emb = g.node('Add', [emb, g.node('Add', [g.node('MatMul', [inner, wout]), bout])]);
    }
  }
  const maskF = g.node('Cast', [mask], { to: FLOAT });
  return { emb, maskF };
}

/**
 * Outcome model, shaped like an HF sequence-classification export: input_ids, attention_mask
 * (+ token_type_ids) → embedding → mask-weighted mean pool → tanh MLP → logits [batch, outputs].
 */
export function buildOutcomeModel(weights, { withTokenTypes = false } = {}) {
  const g = new GraphBuilder('arbiter-outcome');
  const { emb, maskF } = embed(g, weights, { withTokenTypes });
  const axis1 = g.int64Tensor('axis1', [1], [1]);
  const mask3 = g.node('Unsqueeze', [maskF, g.int64Tensor('axis2', [1], [2])]);
  const summed = g.node('ReduceSum', [g.node('Mul', [emb, mask3]), axis1], { keepdims: 0 });
  const count = g.node('Max', [g.node('ReduceSum', [maskF, axis1], { keepdims: 1 }), g.floatTensor('one', [1], [1])]);
  addHead(g, g.node('Div', [summed, count]), weights);
  g.output('logits', ['batch', weights.outputs]);
  return g.toBytes();
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

// ---- Reference forward passes in plain JS (float64), used by tests to check onnxruntime's answers.

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
  const { dim, embedding, typeEmbedding, ffn } = weights;
  let v = Array.from(embedding.subarray(id * dim, id * dim + dim));
  if (typeEmbedding && typeId !== undefined) for (let k = 0; k < dim; k++) v[k] += typeEmbedding[typeId * dim + k];
  for (let layer = 0; ffn && layer < ffn.layers; layer++) {
    const inner = new Array(ffn.size);
    for (let j = 0; j < ffn.size; j++) {
      let s = ffn.bin[j];
      for (let k = 0; k < dim; k++) s += v[k] * ffn.win[k * ffn.size + j];
      inner[j] = Math.tanh(s);
    }
    v = v.map((x, k) => {
      let s = ffn.bout[k];
      for (let j = 0; j < ffn.size; j++) s += inner[j] * ffn.wout[j * dim + k];
      return x + s;
    });
  }
  return v;
}

/** The outcome model's logits for one unpadded sequence. */
export function outcomeForwardJs(weights, ids, typeIds) {
  const mean = new Array(weights.dim).fill(0);
  ids.forEach((id, t) => tokenVector(weights, id, typeIds?.[t]).forEach((x, k) => (mean[k] += x)));
  return headJs(weights, mean.map((x) => x / Math.max(ids.length, 1)));
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
