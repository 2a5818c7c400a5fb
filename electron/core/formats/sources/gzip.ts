// Gzip-compressed records (.jsonl.gz, .json.gz), inflated as a stream. The hash is of the compressed
// bytes: the file as it is on disk. What is inside is sniffed, since `.json.gz` names JSON Lines as
// often as an array: a first non-blank `[` is read as a JSON array, anything else as lines.
import type { Hash } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ArbiterError } from '../../base/errors';
import type { Chunk } from './chunk';
import { jsonArrayChunks } from './jsonArray';
import { CHUNK_BYTES, hashedReads } from './jsonl';
import { LineCap } from './cap';
import { firstSignificantByte } from './sniff';

export async function* gzipChunks(path: string, hash: Hash, recordsPerChunk?: number, name = path): AsyncGenerator<Chunk> {
  // pipeline (not .pipe) destroys every stream on an error, so iterating the inflater sees it; stopping
  // early destroys the inflater, which closes the file through the generator's finally.
  const inflated: AsyncIterable<Buffer> = pipeline(Readable.from(hashedReads(path, hash)), createGunzip(), () => {});
  const pieces = describeErrors(inflated, path);
  // Hold back the first pieces until one shows a non-blank byte, then replay them.
  const held: Buffer[] = [];
  let first: number | null = null;
  const iterator = pieces[Symbol.asyncIterator]();
  while (first === null) {
    const next = await iterator.next();
    if (next.done) break;
    held.push(next.value);
    first = firstSignificantByte(next.value);
  }
  const replayed = replay(held, iterator);
  if (first === 0x5b) yield* jsonArrayChunks(replayed, name, recordsPerChunk);
  else yield* lineEndChunks(replayed, name);
}

async function* replay(held: Buffer[], rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  try {
    yield* held;
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // A reader that stops early (the preview) must close the file behind the inflater too.
    await rest.return?.();
  }
}

/** zlib's errors ("incorrect header check", "unexpected end of file") as an invalid file. */
async function* describeErrors(pieces: AsyncIterable<Buffer>, path: string): AsyncGenerator<Buffer> {
  try {
    yield* pieces;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('Z_')) throw error;
    throw new ArbiterError('invalid_file', `${path} is not a readable gzip file (${(error as Error).message})`);
  }
}

/**
 * Inflated bytes regrouped into chunks of about CHUNK_BYTES that end at a line end, as .jsonl gives. A
 * line longer than the record cap stops the reading with its number before more of it is held.
 */
async function* lineEndChunks(pieces: AsyncIterable<Buffer>, name: string): AsyncGenerator<Chunk> {
  const cap = new LineCap(name);
  let parts: Buffer[] = [];
  let size = 0;
  // Bytes up to the last line end seen; each piece is searched once, so a long line costs no rescans.
  let cut = 0;
  for await (const piece of pieces) {
    const end = piece.lastIndexOf(10);
    if (end >= 0) {
      // The line that was open ends in this piece: it is complete now, and must not have been too long.
      const first = piece.indexOf(10);
      cap.check(size - cut + first, parts);
      cut = size + end + 1;
    } else cap.check(size - cut + piece.length, parts);
    parts.push(piece);
    size += piece.length;
    if (size < CHUNK_BYTES || cut === 0) continue;
    const joined = Buffer.concat(parts, size);
    const bytes = joined.subarray(0, cut);
    cap.passed(bytes);
    yield { bytes };
    parts = cut < size ? [joined.subarray(cut)] : [];
    size -= cut;
    cut = 0;
  }
  cap.check(size - cut, parts);
  if (size) yield { bytes: Buffer.concat(parts, size) };
}
