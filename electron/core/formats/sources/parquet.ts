// Parquet (what the Hugging Face Hub serves for every dataset), read one row group at a time with
// hyparquet: a row group's bytes are read once, in file order, hashed, and decoded from memory. Each
// row becomes one line, a JSON object, so "line N" is row N of the file (1-based).
import type { Hash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { parquetMetadataAsync, parquetReadObjects, type AsyncBuffer, type Compressors, type RowGroup } from 'hyparquet';
import { ArbiterError } from '../../base/errors';
import type { Chunk } from './chunk';
import { RecordTooLongError, recordMaxBytes } from './cap';
import { CHUNK_RECORDS } from './jsonArray';
import { CHUNK_BYTES } from './jsonl';
import { validUtf8 } from './utf8';

export interface ParquetReadLimits {
  /** Rows per chunk (CHUNK_RECORDS by default). */
  rowsPerChunk?: number;
  /** Stop after this many rows (the preview); the hash is then of the bytes read so far only. */
  maxRows?: number;
  /** How messages name the file (its path unless given). */
  name?: string;
}

export async function* parquetChunks(path: string, hash: Hash, limits: ParquetReadLimits = {}): AsyncGenerator<Chunk> {
  const rowsPerChunk = limits.rowsPerChunk ?? CHUNK_RECORDS;
  const maxRows = limits.maxRows ?? Infinity;
  const name = limits.name ?? path;
  const maxBytes = recordMaxBytes();
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    const onDisk: AsyncBuffer = { byteLength: size, slice: async (start, end = size) => (await readRange(file, start, end)).buffer };
    const metadata = await refuseUnreadable(path, () => parquetMetadataAsync(onDisk));
    const compressors = await decompressors();
    // The bytes before `hashed` are in the hash. Row groups are normally stored in order and back to
    // back, so each group's bytes are read once; the footer is hashed at the end.
    let hashed = 0;
    const hashUpTo = async (to: number) => {
      for (; hashed < to; hashed = Math.min(to, hashed + CHUNK_BYTES)) hash.update(await readRange(file, hashed, Math.min(to, hashed + CHUNK_BYTES)));
    };
    let rowStart = 0;
    for (const group of metadata.row_groups) {
      if (rowStart >= maxRows) return;
      const rows = Number(group.num_rows);
      const [from, to] = byteRange(group);
      await hashUpTo(from);
      const bytes = await refuseUnreadable(path, () => readRange(file, from, to));
      if (to > hashed) {
        hash.update(bytes.subarray(hashed - from));
        hashed = to;
      }
      const inMemory: AsyncBuffer = {
        byteLength: size,
        slice: (start, end = size) => (start >= from && end <= to ? bytes.buffer.slice(start - from, end - from) : onDisk.slice(start, end)),
      };
      const rowEnd = Math.min(rowStart + rows, maxRows);
      // utf8: false keeps binary columns bytes (an Image feature's encoded file); plainJson makes text of the rest.
      const objects = await refuseUnreadable(path, () => parquetReadObjects({ file: inMemory, metadata, rowStart, rowEnd, compressors, utf8: false }));
      for (let i = 0; i < objects.length; i += rowsPerChunk) {
        const lines = objects.slice(i, i + rowsPerChunk).map((row) => JSON.stringify(plainJson(row)));
        // A row group is decoded whole, so a huge cell is in memory already; it still goes no further.
        lines.forEach((line, k) => {
          if (line.length > maxBytes || (line.length * 3 > maxBytes && Buffer.byteLength(line) > maxBytes)) throw new RecordTooLongError(name, rowStart + i + k + 1, maxBytes, 'row');
        });
        yield { lines };
      }
      rowStart += rows;
    }
    await hashUpTo(size);
  } finally {
    await file.close();
  }
}

/** Every codec parquet writers use. hyparquet-compressors (WASM snappy, zstd, brotli, lz4) loads on first use. */
async function decompressors(): Promise<Compressors> {
  const { compressors } = await import('hyparquet-compressors');
  // Node's own zlib is faster than the JavaScript inflater for GZIP pages.
  return { ...compressors, GZIP: (input: Uint8Array) => gunzipSync(input) };
}

/** The file bytes of a row group: from its first column chunk's first page to its last chunk's end. */
function byteRange(group: RowGroup): [number, number] {
  let from = Infinity;
  let to = 0;
  for (const column of group.columns) {
    const meta = column.meta_data;
    if (!meta) continue;
    // As hyparquet reads it: a dictionary page, when there is one, comes before the data pages.
    const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
    from = Math.min(from, start);
    to = Math.max(to, start + Number(meta.total_compressed_size));
  }
  return from < to ? [from, to] : [0, 0];
}

async function readRange(file: FileHandle, start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
  // Its own ArrayBuffer, exactly this long: hyparquet is handed `.buffer`.
  const bytes = new Uint8Array(end - start);
  for (let at = 0; at < bytes.length; ) {
    const { bytesRead } = await file.read(bytes, at, bytes.length - at, start + at);
    if (bytesRead === 0) throw new Error(`the file ends before byte ${end}, which its metadata points to`);
    at += bytesRead;
  }
  return bytes;
}

async function refuseUnreadable<T>(path: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    // Ours already say what is wrong, and the system's (EIO, EACCES) are not about the format.
    if (error instanceof ArbiterError || typeof (error as { code?: unknown }).code === 'string') throw error;
    throw new ArbiterError('invalid_file', `${path} is not a readable parquet file (${(error as Error).message})`);
  }
}

/**
 * A decoded value as JSON would have it. INT64 columns decode to BigInt: a safe integer becomes a
 * number, a bigger one its decimal string (a number would silently change it). Dates become ISO
 * strings. Binary that is UTF-8 becomes its text (strings some writers store without the UTF8
 * annotation), other binary base64; the `bytes` of a Hugging Face `Image` cell (a struct of exactly
 * `bytes` and `path`) is always base64, since it is an encoded file. Lists and structs stay nested, as
 * the JSON Lines of the same data.
 */
export function plainJson(value: unknown): unknown {
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainJson);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) {
    const buffer = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return validUtf8(value) ? buffer.toString('utf8') : buffer.toString('base64');
  }
  const plain: Record<string, unknown> = {};
  const entries = Object.entries(value);
  const image = entries.length === 2 && 'bytes' in value && 'path' in value;
  for (const [key, item] of entries) {
    if (item === undefined) continue;
    plain[key] = image && key === 'bytes' && item instanceof Uint8Array ? Buffer.from(item.buffer, item.byteOffset, item.byteLength).toString('base64') : plainJson(item);
  }
  return plain;
}
