// A tiny llama-architecture GGUF written from the GGUF spec (version 3, little-endian): random F32
// weights from a seed, a GPT-2 style byte-level vocabulary (the 256 bytes, no merges) plus the three
// ChatML special tokens, and a ChatML chat template in `tokenizer.chat_template`. llama.cpp loads it like
// any model; its answers are noise, which is the point: the judges' grammar must make noise parse.
import { writeFileSync } from 'node:fs';

const ALIGN = 32;
const T = { U32: 4, I32: 5, F32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;
type Value = { type: 'u32' | 'i32' | 'f32'; value: number } | { type: 'bool'; value: boolean } | string | { type: 'strings'; value: string[] } | { type: 'i32s'; value: number[] };

export const CHATML_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export interface TinyGgufOptions {
  seed?: number;
  embedding?: number;
  layers?: number;
  heads?: number;
  feedForward?: number;
  contextLength?: number;
}

/** GPT-2's bytes_to_unicode: each byte's printable stand-in, as byte-level BPE vocabularies spell them. */
export function byteLevelAlphabet(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map = new Array<string>(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) map[b] = String.fromCodePoint(printable.includes(b) ? b : 256 + extra++);
  return map;
}

class Writer {
  private chunks: Buffer[] = [];
  size = 0;
  push(buf: Buffer): void {
    this.chunks.push(buf);
    this.size += buf.length;
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  str(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(): void {
    const rest = this.size % ALIGN;
    if (rest) this.push(Buffer.alloc(ALIGN - rest));
  }
  value(v: Value): void {
    if (typeof v === 'string') return (this.u32(T.STRING), this.str(v));
    if (v.type === 'u32') return (this.u32(T.U32), this.u32(v.value));
    if (v.type === 'i32') return (this.u32(T.I32), this.i32(v.value));
    if (v.type === 'f32') return (this.u32(T.F32), this.f32(v.value));
    if (v.type === 'bool') return (this.u32(T.BOOL), this.push(Buffer.from([v.value ? 1 : 0])));
    this.u32(T.ARRAY);
    if (v.type === 'strings') {
      this.u32(T.STRING);
      this.u64(v.value.length);
      for (const s of v.value) this.str(s);
    } else {
      const list = v.value as number[];
      this.u32(T.I32);
      this.u64(list.length);
      for (const n of list) this.i32(n);
    }
  }
  concat(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** mulberry32, then Box–Muller: the same seed writes the same bytes. */
function normals(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

/** The GGUF file's bytes. */
export function tinyGguf(options: TinyGgufOptions = {}): Buffer {
  const { seed = 7, embedding: d = 64, layers = 2, heads = 4, feedForward: ff = 128, contextLength = 4096 } = options;
  const tokens = [...byteLevelAlphabet(), '<|endoftext|>', '<|im_start|>', '<|im_end|>'];
  const types = tokens.map((_, i) => (i < 256 ? 1 : 3));
  const eos = tokens.indexOf('<|im_end|>');
  const meta: [string, Value][] = [
    ['general.architecture', 'llama'],
    ['general.name', 'arbiter-tiny-judge'],
    ['general.alignment', { type: 'u32', value: ALIGN }],
    ['general.file_type', { type: 'u32', value: 0 }],
    ['llama.context_length', { type: 'u32', value: contextLength }],
    ['llama.embedding_length', { type: 'u32', value: d }],
    ['llama.block_count', { type: 'u32', value: layers }],
    ['llama.feed_forward_length', { type: 'u32', value: ff }],
    ['llama.attention.head_count', { type: 'u32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'u32', value: heads }],
    ['llama.rope.dimension_count', { type: 'u32', value: d / heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['tokenizer.ggml.model', 'gpt2'],
    ['tokenizer.ggml.pre', 'gpt-2'],
    ['tokenizer.ggml.tokens', { type: 'strings', value: tokens }],
    ['tokenizer.ggml.token_type', { type: 'i32s', value: types }],
    ['tokenizer.ggml.merges', { type: 'strings', value: [] }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: tokens.indexOf('<|endoftext|>') }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: eos }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: false }],
    ['tokenizer.chat_template', CHATML_TEMPLATE],
  ];
  const ones = (n: number) => ({ dims: [n], fill: () => 1 });
  const random = (rows: number, cols: number) => ({ dims: [cols, rows], fill: null as null | (() => number), scale: 1 / Math.sqrt(cols) });
  const tensors: { name: string; dims: number[]; fill: (() => number) | null; scale?: number }[] = [
    { name: 'token_embd.weight', ...random(tokens.length, d) },
    { name: 'output_norm.weight', ...ones(d) },
    { name: 'output.weight', ...random(tokens.length, d) },
  ];
  for (let i = 0; i < layers; i++) {
    const p = `blk.${i}.`;
    tensors.push(
      { name: `${p}attn_norm.weight`, ...ones(d) },
      { name: `${p}attn_q.weight`, ...random(d, d) },
      { name: `${p}attn_k.weight`, ...random(d, d) },
      { name: `${p}attn_v.weight`, ...random(d, d) },
      { name: `${p}attn_output.weight`, ...random(d, d) },
      { name: `${p}ffn_norm.weight`, ...ones(d) },
      { name: `${p}ffn_gate.weight`, ...random(ff, d) },
      { name: `${p}ffn_up.weight`, ...random(ff, d) },
      { name: `${p}ffn_down.weight`, ...random(d, ff) },
    );
  }
  const w = new Writer();
  w.push(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [key, value] of meta) {
    w.str(key);
    w.value(value);
  }
  let offset = 0;
  const sizes = tensors.map((t) => t.dims.reduce((a, b) => a * b, 1) * 4);
  tensors.forEach((t, i) => {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const n of t.dims) w.u64(n);
    w.u32(0); // GGML_TYPE_F32
    w.u64(offset);
    offset += Math.ceil(sizes[i]! / ALIGN) * ALIGN;
  });
  w.pad();
  const next = normals(seed);
  tensors.forEach((t, i) => {
    const data = Buffer.alloc(Math.ceil(sizes[i]! / ALIGN) * ALIGN);
    for (let k = 0; k < sizes[i]! / 4; k++) data.writeFloatLE(t.fill ? t.fill() : next() * (t.scale ?? 1), k * 4);
    w.push(data);
  });
  return w.concat();
}

export function writeTinyGguf(path: string, options: TinyGgufOptions = {}): string {
  writeFileSync(path, tinyGguf(options));
  return path;
}
