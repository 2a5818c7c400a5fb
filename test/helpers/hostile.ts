// Hostile values for the fuzz suites: what a malformed or malicious file or request may hold. Values
// that JSON.stringify cannot write (1e309, deep nesting, duplicate keys, bad escapes) are raw JSON
// text, spliced in where a placeholder string stands.
import type { Rng } from './seeded';

/** A JSON value, or raw JSON text standing for one (spliced in by toJsonText). */
export type Hostile = { raw: string; name: string } | { value: unknown; name: string };

const nest = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Hostile values, each with a name a failure message can quote. `long` bounds the longest string. */
export function hostileValue(rng: Rng, long: number): Hostile {
  const pick = rng.int(36);
  switch (pick) {
    case 0: return { value: null, name: 'null' };
    case 1: return { value: true, name: 'true' };
    case 2: return { value: 0, name: '0' };
    case 3: return { raw: '-0', name: '-0' };
    case 4: return { raw: '1e309', name: '1e309' };
    case 5: return { raw: '-1e309', name: '-1e309' };
    case 6: return { raw: '1e-400', name: '1e-400' };
    case 7: return { raw: '123456789012345678901234567890', name: 'a 30-digit integer' };
    case 8: return { value: 2 ** 53 + 1, name: '2^53+1' };
    case 9: return { value: -1, name: '-1' };
    case 10: return { value: 1.5, name: '1.5' };
    case 11: return { value: rng.pick(['NaN', 'Infinity', '-Infinity', 'nan', 'null', 'undefined', 'true', '0x10', '1e309']), name: 'a NaN-like string' };
    case 12: return { value: '', name: 'the empty string' };
    case 13: return { value: ' \t\n ', name: 'whitespace' };
    case 14: return { value: 'x'.repeat(rng.int(long)), name: 'a long string' };
    case 15: return { value: `nul\u0000inside`, name: 'a string with a NUL' };
    case 16: return { raw: '"lone \\ud800 surrogate"', name: 'a lone surrogate escape' };
    case 17: return { value: '\ufeffbom first', name: 'a string starting with a BOM' };
    case 18: return { value: '\u202eright-to-left \u200b zero-width', name: 'bidi and zero-width characters' };
    case 19: return { value: [], name: '[]' };
    case 20: return { value: {}, name: '{}' };
    case 21: return { raw: nest(rng.pick([50, 120, 5000])), name: 'deeply nested lists' };
    case 22: return { raw: nestObjects(rng.pick([50, 120, 3000])), name: 'deeply nested objects' };
    case 23: return { raw: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}', name: '__proto__ and constructor keys' };
    case 24: return { raw: '{"toString":1,"valueOf":"v","hasOwnProperty":null}', name: 'toString / valueOf / hasOwnProperty keys' };
    case 25: return { raw: '{"k":1,"k":2}', name: 'a duplicate key' };
    case 26: return { value: [null, 1, 'two', [3], { four: 4 }], name: 'a mixed list' };
    case 27: return { value: ['a', 'b'], name: 'a list of strings' };
    case 28: return { value: [{ role: 'user', content: 'hi' }], name: 'a message list' };
    case 29: return { value: [{ role: 'wizard', content: 7 }], name: 'a message with a bad role' };
    case 30: return { value: { type: 'image', url: 'http://example.invalid/x.png' }, name: 'an image part' };
    case 31: return { value: '<script>alert(1)</script>', name: 'markup' };
    case 32: return { value: '%E0%A4%A', name: 'a malformed % escape' };
    case 33: return { value: '../../../etc/passwd', name: 'a path' };
    case 34: return { value: 1e308, name: '1e308' };
    default: return { value: -(2 ** 31), name: '-2^31' };
  }
}

/** JSON text of `value`, with every `{ raw }` hostile value spliced in as raw JSON. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && 'raw' in v && 'name' in v && Object.keys(v).length === 2) {
      raws.push((v as { raw: string }).raw);
      return `\u0000RAW${raws.length - 1}\u0000`;
    }
    if (v && typeof v === 'object' && 'value' in v && 'name' in v && Object.keys(v).length === 2) return (v as { value: unknown }).value;
    return v;
  });
  return text.replace(/"\\u0000RAW(\d+)\\u0000"/g, (_m, i: string) => raws[Number(i)]!);
}

/** Every path to a value inside a JSON value (objects' keys and lists' indexes), the root included. */
export function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

/** A deep copy of `value` with the value at `path` replaced (or removed, with `remove`). */
export function setAt(value: unknown, path: (string | number)[], replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const copy: unknown = Array.isArray(value) ? [...value] : { ...(value as object) };
  const [head, ...rest] = path;
  const target = copy as Record<string | number, unknown>;
  if (rest.length === 0 && remove) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete target[head!];
  } else target[head!] = setAt(target[head!], rest, replacement, remove);
  return copy;
}

/** Byte-level damage to one line of a file: what a broken download or a hostile file holds. */
export function damageBytes(rng: Rng, line: Buffer, cap: number): { bytes: Buffer; name: string } {
  const at = (from = 1) => from + rng.int(Math.max(1, line.length - from));
  const quote = line.indexOf('"', at(1));
  const inString = quote > 0 ? quote + 1 : at();
  switch (rng.int(10)) {
    case 0: return { bytes: line.subarray(0, Math.max(1, at())), name: 'truncated JSON' };
    case 1: return { bytes: Buffer.concat([line.subarray(0, inString), Buffer.from([0xff, 0xfe]), line.subarray(inString)]), name: 'invalid UTF-8 bytes (ff fe) in a string' };
    case 2: return { bytes: Buffer.concat([line.subarray(0, inString), Buffer.from([0xc3, 0x28]), line.subarray(inString)]), name: 'an invalid UTF-8 sequence (c3 28) in a string' };
    case 3: return { bytes: Buffer.concat([line.subarray(0, inString), Buffer.from([0xed, 0xa0, 0x80]), line.subarray(inString)]), name: 'an encoded surrogate (ed a0 80) in a string' };
    case 4: return { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), line]), name: 'a UTF-8 BOM before the record' };
    case 5: return { bytes: Buffer.concat([line.subarray(0, inString), Buffer.from([0]), line.subarray(inString)]), name: 'a raw NUL byte' };
    case 6: return { bytes: Buffer.concat([line, Buffer.from(' }')]), name: 'trailing garbage' };
    case 7: return { bytes: Buffer.from(rng.pick(['[]', '"just a string"', '42', 'null', '{}', '[{"prompt":"x"}]', '{', 'NaN'])), name: 'not an object' };
    case 8: {
      // A line padded to just under the record cap: its first string made long (a line over the cap
      // stops a whole import, so the suites put those in files of their own: overCapLine).
      const target = Math.max(0, cap - 64 - rng.int(1024));
      const text = line.toString('utf8');
      const at = text.indexOf('":"');
      if (at < 0) return { bytes: line, name: 'unchanged (no string to pad)' };
      const pad = 'p'.repeat(Math.max(0, target - Buffer.byteLength(text)));
      return { bytes: Buffer.from(`${text.slice(0, at + 3)}${pad}${text.slice(at + 3)}`), name: 'a line just under the record cap' };
    }
    default: return { bytes: Buffer.from(line.toString('utf8').replace(/:(\s*)(-?\d+(\.\d+)?)/, ':$1 1e309')), name: 'a number replaced by 1e309' };
  }
}
