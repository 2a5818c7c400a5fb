// Which kind of source a file is: its first bytes first (a renamed or mislabelled download still
// opens), then its name. Only the `[` test depends on the name: a .jsonl (.ndjson) file is read as
// lines whatever its first character, as before; under any other name a leading `[` is a JSON array.
import { closeSync, openSync, readSync } from 'node:fs';

export type SourceKind = 'jsonl' | 'jsonl.gz' | 'json' | 'json-object' | 'parquet' | 'csv';

/** Enough to see past the blank lines or indentation before a JSON array's `[`. */
const SNIFF_BYTES = 64 * 1024;

const isGzip = (head: Buffer) => head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
const isParquet = (head: Buffer) => head.length >= 4 && head.toString('latin1', 0, 4) === 'PAR1';

/** The first byte that is not JSON whitespace (nor, at the start, a UTF-8 byte order mark); null if none. */
export function firstSignificantByte(bytes: Uint8Array): number | null {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let i = start; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return b;
  }
  return null;
}

function readHead(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    return head.subarray(0, readSync(fd, head, 0, SNIFF_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

/** 'jsonl.gz' stands for any gzip file (.json.gz too): whether it holds lines or an array is sniffed as it is inflated. */
export function describeSource(path: string): SourceKind {
  const head = readHead(path);
  const name = path.toLowerCase();
  if (isGzip(head)) return 'jsonl.gz';
  if (isParquet(head)) return 'parquet';
  // Named so but without the magic: a damaged file, better refused by its own reader with its reason
  // than read as text and refused line by line.
  if (name.endsWith('.gz')) return 'jsonl.gz';
  if (name.endsWith('.parquet')) return 'parquet';
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return 'jsonl';
  // A CSV is known by its name (its first bytes are any text): the video pair sets publish one.
  if (name.endsWith('.csv')) return 'csv';
  // One JSON object over many lines (a SWE-agent .traj): whole, as one record.
  if (name.endsWith('.traj') || isSpreadObject(head)) return 'json-object';
  return firstSignificantByte(head) === 0x5b ? 'json' : 'jsonl';
}

/** A `{` whose first line is not a whole JSON value: one object written over many lines (never JSON Lines). */
function isSpreadObject(head: Buffer): boolean {
  if (firstSignificantByte(head) !== 0x7b) return false;
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  const end = text.indexOf('\n');
  if (end < 0) return false;
  try {
    JSON.parse(text.slice(0, end));
    return false;
  } catch {
    return true;
  }
}
