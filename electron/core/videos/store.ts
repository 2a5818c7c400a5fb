// The video store: every video's bytes once, content-addressed, in the image store's `videos/` folder
// beside the database (`<database path>.images/videos/<sha256[0..2]>/<sha256>`, no extension; the image
// store itself is core/images/store.ts). A video is copied and hashed in one pass, a MiB at a time, into a
// temp file in the store, then renamed to its hash: never whole in memory, whatever its size (up to
// videoMaxBytes, 4 GiB by default). Sync code with no database: the import workers call it (./resolve.ts).
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { SHA256_HEX } from '../../../shared/images';

const CHUNK = 1 << 20;

/** The video store inside the image store `imageStore` (core/images/store.ts imageStoreDir). */
export function videoStoreDir(imageStore: string): string {
  return join(imageStore, 'videos');
}

/** Where the bytes of video `sha256` are (or would be) in the store `dir`. */
export function videoFile(dir: string, sha256: string): string {
  if (!SHA256_HEX.test(sha256)) throw new Error(`not a video hash (64 lower-case hex digits): ${JSON.stringify(sha256.slice(0, 80))}`);
  return join(dir, sha256.slice(0, 2), sha256);
}

export function hasVideo(dir: string, sha256: string): boolean {
  return SHA256_HEX.test(sha256) && existsSync(videoFile(dir, sha256));
}

/** sha256 and size of the file at `path`, read a MiB at a time. */
export function hashVideoFile(path: string): { sha256: string; bytes: number } {
  return copyHashing(path, null);
}

/**
 * Copies the file at `path` into the store `dir` while hashing it, and names the copy by its sha256. A
 * video already stored (same hash and size) is kept as it is; `added` says whether this call wrote it.
 * No fsync, as for images (core/images/store.ts): a short file after a power cut is written again by the
 * next import of it, whose size check finds it wrong.
 */
export function putVideoFile(dir: string, path: string): { sha256: string; bytes: number; added: boolean } {
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
  let done: { sha256: string; bytes: number };
  try {
    done = copyHashing(path, temp);
    const file = videoFile(dir, done.sha256);
    if (statSync(file, { throwIfNoEntry: false })?.size === done.bytes) {
      rmSync(temp, { force: true });
      return { ...done, added: false };
    }
    mkdirSync(join(dir, done.sha256.slice(0, 2)), { recursive: true });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return { ...done, added: true };
}

function copyHashing(path: string, to: string | null): { sha256: string; bytes: number } {
  const hash = createHash('sha256');
  const input = openSync(path, 'r');
  const output = to === null ? null : openSync(to, 'wx');
  try {
    const size = fstatSync(input).size;
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, size)));
    let total = 0;
    for (;;) {
      const n = readSync(input, buf, 0, buf.length, total);
      if (n === 0) break;
      const chunk = buf.subarray(0, n);
      hash.update(chunk);
      if (output !== null) for (let at = 0; at < n; ) at += writeSync(output, chunk, at, n - at);
      total += n;
    }
    return { sha256: hash.digest('hex'), bytes: total };
  } finally {
    closeSync(input);
    if (output !== null) closeSync(output);
  }
}
