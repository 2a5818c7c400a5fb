// A plain-JS forward pass (float64) of the tiny image reward model, written from the description in
// scripts/lib/onnx-image-builder.mjs and not from its graph code, so the tests can check what
// onnxruntime computes from the graph against it.
import type { ImageRewardWeights } from '../../scripts/lib/onnx-image-builder.mjs';

/** conv2d, no dilation, one image [cin, h, w] → [cout, oh, ow] (weights [cout, cin, k, k]). */
function conv(x: Float64Array, cin: number, h: number, w: number, weight: Float32Array, bias: Float32Array, cout: number, k: number, stride: number, pad: number) {
  const oh = Math.floor((h + 2 * pad - k) / stride) + 1;
  const ow = Math.floor((w + 2 * pad - k) / stride) + 1;
  const out = new Float64Array(cout * oh * ow);
  for (let o = 0; o < cout; o++) {
    for (let oy = 0; oy < oh; oy++) {
      for (let ox = 0; ox < ow; ox++) {
        let s = bias[o]!;
        for (let c = 0; c < cin; c++) {
          for (let ky = 0; ky < k; ky++) {
            const y = oy * stride - pad + ky;
            if (y < 0 || y >= h) continue;
            for (let kx = 0; kx < k; kx++) {
              const xx = ox * stride - pad + kx;
              if (xx < 0 || xx >= w) continue;
              s += x[(c * h + y) * w + xx]! * weight[((o * cin + c) * k + ky) * k + kx]!;
            }
          }
        }
        out[(o * oh + oy) * ow + ox] = Math.max(0, s); // ReLU follows each conv
      }
    }
  }
  return { out, oh, ow };
}

/** The model's logit for one image (pixel values [3, h, w]) and its prompt's token ids (unpadded). */
export function imageRewardJs(w: ImageRewardWeights, pixels: Float32Array, h: number, width: number, ids: number[]): number {
  const plane = h * width;
  const t = [0, 1, 2].map((c) => ids.reduce((sum, id) => sum + w.colourTable[id * 3 + c]!, 0) / Math.max(1, ids.length) + w.colourBias[c]!);
  let colour = 0;
  for (let c = 0; c < 3; c++) {
    let sum = 0;
    for (let i = 0; i < plane; i++) sum += pixels[c * plane + i]!;
    colour += t[c]! * (sum / plane);
  }
  const x = Float64Array.from(pixels);
  const a = conv(x, 3, h, width, w.conv1, w.conv1Bias, w.c1, 4, 4, 0);
  const b = conv(a.out, w.c1, a.oh, a.ow, w.conv2, w.conv2Bias, w.c2, 3, 2, 1);
  let texture = w.headBias[0]!;
  const cells = b.oh * b.ow;
  for (let o = 0; o < w.c2; o++) {
    let sum = 0;
    for (let i = 0; i < cells; i++) sum += b.out[o * cells + i]!;
    texture += (sum / cells) * w.head[o]!;
  }
  return w.colourScale * colour + texture;
}
