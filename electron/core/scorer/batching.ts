// Length-sorted batches (so a batch's rows are about as long as each other and little compute goes
// to padding) and the padded arrays for every graph input.
import type { GraphInput, Side } from './types';

export interface Sequence {
  ids: number[];
  typeIds: number[];
}

/**
 * Groups example indexes into batches of at most `maxBatch` rows and at most `maxTokens` padded
 * tokens, in length order. Returns the batches; each lists indexes into `lengths`.
 */
export function lengthSortedBatches(lengths: number[], maxBatch: number, maxTokens = Infinity): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const batches: number[][] = [];
  let current: number[] = [];
  for (const index of order) {
    // Sorted ascending, so the row being added is the longest: it sets the padded width.
    const width = lengths[index]!;
    if (current.length && (current.length >= maxBatch || (current.length + 1) * width > maxTokens)) {
      batches.push(current);
      current = [];
    }
    current.push(index);
  }
  if (current.length) batches.push(current);
  return batches;
}

export interface PaddedBatch {
  rows: number;
  width: number;
  /** Where each row's first real token is (non-zero only with left padding). */
  offsets: number[];
  /** One typed array per graph input, row-major [rows, width]. */
  feeds: Record<string, { dtype: 'int64' | 'int32'; data: BigInt64Array | Int32Array }>;
  realTokens: number;
}

type Feed = PaddedBatch['feeds'][string];

/** Every platform onnxruntime-node ships for is little-endian; the int64 fast path below relies on it. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function allocate(dtype: 'int64' | 'int32', n: number, fill: number): Feed {
  return dtype === 'int64' ? { dtype, data: new BigInt64Array(n).fill(BigInt(fill)) } : { dtype, data: new Int32Array(n).fill(fill) };
}

/**
 * A view that writes int32-range values into a feed: an int64 feed's low words (the high words stay
 * as the fill left them: 0, all values here being ≥ 0), so no BigInt is made per token.
 */
function writer(feed: Feed): (index: number, value: number) => void {
  if (feed.dtype === 'int32') {
    const data = feed.data as Int32Array;
    return (i, v) => (data[i] = v);
  }
  const data = feed.data as BigInt64Array;
  if (!LITTLE_ENDIAN) return (i, v) => (data[i] = BigInt(v));
  const words = new Int32Array(data.buffer, data.byteOffset, data.length * 2);
  return (i, v) => {
    words[2 * i] = v;
    words[2 * i + 1] = v < 0 ? -1 : 0;
  };
}

/** Pads rows to the longest; fills each graph input the way its source says (written straight into typed arrays). */
export function padBatch(rows: Sequence[], inputs: GraphInput[], padId: number, side: Side): PaddedBatch {
  const width = Math.max(1, ...rows.map((r) => r.ids.length));
  const n = rows.length * width;
  // HF's conventions for padded positions: pad id, mask 0, type 0, position 1.
  const padValue = { input_ids: padId, attention_mask: 0, token_type_ids: 0, position_ids: 1 };
  const feeds: PaddedBatch['feeds'] = {};
  for (const input of inputs) feeds[input.name] = allocate(input.dtype, n, padValue[input.source]);
  const writers = inputs.map((input) => ({ source: input.source, write: writer(feeds[input.name]!) }));
  const offsets: number[] = [];
  let realTokens = 0;
  rows.forEach((row, r) => {
    const length = row.ids.length;
    const offset = side === 'left' ? width - length : 0;
    offsets.push(offset);
    realTokens += length;
    const base = r * width + offset;
    for (const { source, write } of writers) {
      if (source === 'input_ids') for (let t = 0; t < length; t++) write(base + t, row.ids[t]!);
      else if (source === 'attention_mask') for (let t = 0; t < length; t++) write(base + t, 1);
      else if (source === 'token_type_ids') for (let t = 0; t < length; t++) write(base + t, row.typeIds[t] ?? 0);
      else for (let t = 0; t < length; t++) write(base + t, t);
    }
  });
  return { rows: rows.length, width, offsets, feeds, realTokens };
}
