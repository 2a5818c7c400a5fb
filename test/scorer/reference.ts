// The encoder outcome model's forward pass in plain JS (float64), written from the architecture's
// definition rather than from the graph code, to check onnxruntime's answers: one unpadded sequence
// at a time (no mask needed), positions 0…n-1, embeddings + LayerNorm, post-LN encoder layers
// (multi-head softmax attention, tanh GELU MLP), the score head on the last token's hidden state.
import type { LayerNormWeights, TransformerWeights } from '../../scripts/lib/onnx-builder.mjs';

type Vec = number[];

function row(m: Float32Array, r: number, cols: number): Vec {
  return Array.from(m.subarray(r * cols, (r + 1) * cols));
}

/** x · W + b with W row-major [inputs, outputs]. */
function linear(x: Vec, w: Float32Array, b: Float32Array, outputs: number): Vec {
  const out = Array.from(b);
  for (let i = 0; i < x.length; i++) {
    const xi = x[i]!;
    for (let o = 0; o < outputs; o++) out[o]! += xi * w[i * outputs + o]!;
  }
  return out;
}

function layerNorm(x: Vec, ln: LayerNormWeights, eps: number): Vec {
  const mean = x.reduce((a, b) => a + b, 0) / x.length;
  const variance = x.reduce((a, b) => a + (b - mean) ** 2, 0) / x.length;
  const inv = 1 / Math.sqrt(variance + eps);
  return x.map((v, k) => (v - mean) * inv * ln.gamma[k]! + ln.beta[k]!);
}

const gelu = (v: number) => 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3)));

function attention(x: Vec[], w: TransformerWeights['layers'][number], dim: number, heads: number): Vec[] {
  const headDim = dim / heads;
  const q = x.map((v) => linear(v, w.wq, w.bq, dim));
  const k = x.map((v) => linear(v, w.wk, w.bk, dim));
  const v = x.map((u) => linear(u, w.wv, w.bv, dim));
  const context = x.map(() => new Array<number>(dim).fill(0));
  for (let h = 0; h < heads; h++) {
    const lo = h * headDim;
    for (let i = 0; i < x.length; i++) {
      const scores = k.map((kj) => {
        let s = 0;
        for (let c = lo; c < lo + headDim; c++) s += q[i]![c]! * kj[c]!;
        return s / Math.sqrt(headDim);
      });
      const max = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - max));
      const sum = e.reduce((a, b) => a + b, 0);
      for (let j = 0; j < x.length; j++) {
        const p = e[j]! / sum;
        for (let c = lo; c < lo + headDim; c++) context[i]![c]! += p * v[j]![c]!;
      }
    }
  }
  return context.map((c) => linear(c, w.wo, w.bo, dim));
}

/** The encoder outcome model's logits for one unpadded sequence (typeIds when it reads token types). */
export function encoderForwardJs(w: TransformerWeights, ids: number[], typeIds?: number[]): number[] {
  const { dim, heads, ffnDim, eps } = w;
  if (ids.length > w.maxPositions) throw new Error(`${ids.length} tokens exceed ${w.maxPositions} positions`);
  let x = ids.map((id, t) => {
    const e = row(w.embedding, id, dim);
    const p = row(w.positionEmbedding, t, dim);
    const ty = w.typeEmbedding ? row(w.typeEmbedding, typeIds?.[t] ?? 0, dim) : null;
    return layerNorm(e.map((value, c) => value + p[c]! + (ty ? ty[c]! : 0)), w.embLn, eps);
  });
  for (const layer of w.layers) {
    const attended = attention(x, layer, dim, heads);
    x = x.map((v, i) => layerNorm(v.map((value, c) => value + attended[i]![c]!), layer.ln1, eps));
    x = x.map((v) => {
      const inner = linear(v, layer.w1, layer.b1, ffnDim).map(gelu);
      const out = linear(inner, layer.w2, layer.b2, dim);
      return layerNorm(v.map((value, c) => value + out[c]!), layer.ln2, eps);
    });
  }
  return linear(x[x.length - 1]!, w.scoreW, w.scoreB, w.outputs);
}
