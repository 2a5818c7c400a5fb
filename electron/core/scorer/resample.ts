// Pillow's resize of 8-bit RGB, reproduced to the bit, because transformers' image processors resize
// with Pillow (image_transforms.resize → PIL.Image.resize, reducing_gap None) and a reward model saw its
// training images that way. libvips (sharp) resamples with another convention when enlarging (its
// output sits about half a source pixel off Pillow's), so sharp only decodes here.
//
// The algorithm is Pillow's libImaging/Resample.c: a separable convolution, horizontal pass then
// vertical, each output pixel centred at (i + 0.5) · scale in the source, the filter widened by the
// scale when shrinking, its weights normalised to 1 and turned into 22-bit fixed point (rounded away
// from zero), sums started at half a unit and clipped to 0..255 after each pass. NEAREST is Pillow's
// scaling affine transform (ImagingScaleAffine in Geometry.c).
import type { ImagePreprocess } from './types';

const PRECISION_BITS = 32 - 8 - 2;
const HALF = 1 << (PRECISION_BITS - 1);
const ONE = 1 << PRECISION_BITS;

type Filter = { support: number; weight: (x: number) => number };

const sinc = (x: number) => {
  if (x === 0) return 1;
  const px = x * Math.PI;
  return Math.sin(px) / px;
};

const FILTERS: Record<Exclude<ImagePreprocess['resample'], 'nearest'>, Filter> = {
  bilinear: {
    support: 1,
    weight: (x) => {
      const a = Math.abs(x);
      return a < 1 ? 1 - a : 0;
    },
  },
  bicubic: {
    support: 2,
    // Keys' cubic with a = −0.5, as Pillow writes it.
    weight: (x) => {
      const a = -0.5;
      const t = Math.abs(x);
      if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
      if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
      return 0;
    },
  },
  lanczos: { support: 3, weight: (x) => (x >= -3 && x < 3 ? sinc(x) * sinc(x / 3) : 0) },
  box: { support: 0.5, weight: (x) => (x > -0.5 && x <= 0.5 ? 1 : 0) },
  hamming: {
    support: 1,
    // Pillow's constants are C floats (0.54f, 0.46f).
    weight: (x) => {
      const t = Math.abs(x);
      if (t === 0) return 1;
      if (t >= 1) return 0;
      const px = t * Math.PI;
      return (Math.sin(px) / px) * (Math.fround(0.54) + Math.fround(0.46) * Math.cos(px));
    },
  },
};

interface Coefficients {
  ksize: number;
  /** Per output pixel: first source index and how many are used. */
  bounds: Int32Array;
  /** Per output pixel, ksize fixed-point weights. */
  weights: Int32Array;
}

/** Pillow's precompute_coeffs + normalize_coeffs_8bpc for one axis. */
function coefficients(inSize: number, outSize: number, filter: Filter): Coefficients {
  const scale = inSize / outSize;
  const filterScale = Math.max(scale, 1);
  const support = filter.support * filterScale;
  const ksize = Math.ceil(support) * 2 + 1;
  const bounds = new Int32Array(outSize * 2);
  const weights = new Int32Array(outSize * ksize);
  const k = new Float64Array(ksize);
  for (let xx = 0; xx < outSize; xx++) {
    const center = (xx + 0.5) * scale;
    const ss = 1 / filterScale;
    // C's (int) truncates toward zero; both values are ≥ −0.5 + …, so trunc as C does.
    let xmin = Math.trunc(center - support + 0.5);
    if (xmin < 0) xmin = 0;
    let xmax = Math.trunc(center + support + 0.5);
    if (xmax > inSize) xmax = inSize;
    xmax -= xmin;
    let ww = 0;
    for (let x = 0; x < xmax; x++) {
      const w = filter.weight((x + xmin - center + 0.5) * ss);
      k[x] = w;
      ww += w;
    }
    for (let x = 0; x < ksize; x++) {
      const w = x < xmax ? (ww !== 0 ? k[x]! / ww : k[x]!) : 0;
      weights[xx * ksize + x] = w < 0 ? Math.trunc(-0.5 + w * ONE) : Math.trunc(0.5 + w * ONE);
    }
    bounds[xx * 2] = xmin;
    bounds[xx * 2 + 1] = xmax;
  }
  return { ksize, bounds, weights };
}

/** (ss >> 22) clipped to 0..255, as Pillow's clip8. */
function clip8(ss: number): number {
  const v = ss >> PRECISION_BITS;
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

/**
 * Resizes RGB bytes [height, width, 3] to outWidth × outHeight as PIL.Image.resize does. The image is
 * returned as it is when the size does not change (Pillow copies it).
 */
export function resizeRgb(rgb: Uint8Array, width: number, height: number, outWidth: number, outHeight: number, resample: ImagePreprocess['resample']): Uint8Array {
  if (outWidth === width && outHeight === height) return rgb;
  if (resample === 'nearest') return nearest(rgb, width, height, outWidth, outHeight);
  const filter = FILTERS[resample];
  const vertical = coefficients(height, outHeight, filter);
  let src = rgb;
  let rowOffset = 0;
  if (outWidth !== width) {
    // Only the source rows the vertical pass reads go through the horizontal pass.
    const firstRow = vertical.bounds[0]!;
    const lastRow = vertical.bounds[(outHeight - 1) * 2]! + vertical.bounds[(outHeight - 1) * 2 + 1]!;
    src = horizontalPass(rgb, width, firstRow, lastRow, outWidth, coefficients(width, outWidth, filter));
    rowOffset = firstRow;
  }
  if (outHeight === height) return src;
  return verticalPass(src, outWidth * 3, rowOffset, outHeight, vertical);
}

function horizontalPass(rgb: Uint8Array, width: number, firstRow: number, lastRow: number, outWidth: number, { ksize, bounds, weights }: Coefficients): Uint8Array {
  const rows = lastRow - firstRow;
  const out = new Uint8Array(rows * outWidth * 3);
  for (let y = 0; y < rows; y++) {
    const inRow = (y + firstRow) * width * 3;
    let o = y * outWidth * 3;
    for (let xx = 0; xx < outWidth; xx++) {
      const n = bounds[xx * 2 + 1]!;
      let at = inRow + bounds[xx * 2]! * 3;
      let k = xx * ksize;
      let s0 = HALF;
      let s1 = HALF;
      let s2 = HALF;
      for (let x = 0; x < n; x++, at += 3, k++) {
        const w = weights[k]!;
        s0 += rgb[at]! * w;
        s1 += rgb[at + 1]! * w;
        s2 += rgb[at + 2]! * w;
      }
      out[o++] = clip8(s0);
      out[o++] = clip8(s1);
      out[o++] = clip8(s2);
    }
  }
  return out;
}

/** Each output row sums whole source rows (sequential reads), in a row of sums. */
function verticalPass(src: Uint8Array, rowLength: number, rowOffset: number, outHeight: number, { ksize, bounds, weights }: Coefficients): Uint8Array {
  const out = new Uint8Array(outHeight * rowLength);
  const sums = new Float64Array(rowLength);
  for (let yy = 0; yy < outHeight; yy++) {
    const ymin = bounds[yy * 2]! - rowOffset;
    const n = bounds[yy * 2 + 1]!;
    sums.fill(HALF);
    for (let y = 0; y < n; y++) {
      const w = weights[yy * ksize + y]!;
      const row = (y + ymin) * rowLength;
      for (let x = 0; x < rowLength; x++) sums[x] = sums[x]! + src[row + x]! * w;
    }
    const o = yy * rowLength;
    for (let x = 0; x < rowLength; x++) out[o + x] = clip8(sums[x]!);
  }
  return out;
}

/**
 * Pillow's ImagingScaleAffine: the source position starts at scale / 2 and grows by scale per pixel (a
 * running float sum, as Pillow keeps it, so a position that should land on a whole number may fall just
 * short of it), truncated.
 */
function nearest(rgb: Uint8Array, width: number, height: number, outWidth: number, outHeight: number): Uint8Array {
  const out = new Uint8Array(outWidth * outHeight * 3);
  const sx = width / outWidth;
  const sy = height / outHeight;
  const columns = new Int32Array(outWidth);
  let xo = sx * 0.5;
  for (let x = 0; x < outWidth; x++, xo += sx) columns[x] = Math.min(width - 1, Math.trunc(xo));
  let yo = sy * 0.5;
  for (let y = 0; y < outHeight; y++, yo += sy) {
    const srcY = Math.min(height - 1, Math.trunc(yo));
    for (let x = 0; x < outWidth; x++) {
      const at = (srcY * width + columns[x]!) * 3;
      out.set(rgb.subarray(at, at + 3), (y * outWidth + x) * 3);
    }
  }
  return out;
}
