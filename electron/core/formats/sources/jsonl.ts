// JSON Lines on disk, read as the importer has always read it: raw bytes cut at line ends.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Hash } from 'node:crypto';
import type { Chunk } from './chunk';
import { LineCap } from './cap';

/** Bytes of a file read at a time. */
export const CHUNK_BYTES = 1 << 20;

/**
 * A file's bytes in chunks that end at a line end (or the end of the file), hashed on the way. Reads are
 * synchronous: from the page cache they take well under a millisecond, less than a trip through the
 * thread pool and back on a busy machine. A line longer than the record cap stops the reading with its
 * number (`name` is how messages call the file): its bytes past the cap are never held.
 */
export async function* jsonlChunks(path: string, hash: Hash, name = path): AsyncGenerator<Chunk> {
  const cap = new LineCap(name);
  const fd = openSync(path, 'r');
  try {
    // The bytes of the line not yet ended, in the pieces they came in.
    let carry: Buffer[] = [];
    let carried = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafeSlow(CHUNK_BYTES);
      const bytesRead = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const read = buffer.subarray(0, bytesRead);
      hash.update(read);
      const cut = read.lastIndexOf(10) + 1;
      if (cut === 0) {
        carry.push(read);
        carried += bytesRead;
        cap.check(carried, carry);
        continue;
      }
      cap.check(carried + read.indexOf(10), carry);
      const bytes = carried ? Buffer.concat([...carry, read.subarray(0, cut)]) : read.subarray(0, cut);
      cap.passed(bytes);
      yield { bytes };
      carry = cut < bytesRead ? [read.subarray(cut)] : [];
      carried = bytesRead - cut;
    }
    cap.check(carried, carry);
    if (carried) yield { bytes: Buffer.concat(carry) };
  } finally {
    closeSync(fd);
  }
}

/** A file's raw bytes in pieces of up to CHUNK_BYTES, hashed as they are read (for the other sources). */
export async function* hashedReads(path: string, hash: Hash): AsyncGenerator<Buffer> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafeSlow(CHUNK_BYTES);
      const bytesRead = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return;
      const read = buffer.subarray(0, bytesRead);
      hash.update(read);
      yield read;
    }
  } finally {
    closeSync(fd);
  }
}
