// The image store: every image's bytes once, content-addressed, in a folder beside the database
// (`<database path>.images/`, files at `<sha256[0..2]>/<sha256>`, no extension). A file is written once
// (a temp file in the same folder, then a rename) and never changed; one already there is kept. Sync
// code with no database in it: the import workers call it (./resolve.ts).
//
// How other code gets the folder: from the database connection, `imageStoreDir(db.name)` (better-sqlite3
// keeps the path it opened; `imageStoreOf(db)` says it shorter), or in a service handler from the
// context, `ctx.imageStore` (service/context.ts). An import worker is handed the folder by the importer
// (import/protocol.ts). An in-memory database (`:memory:`, or '' for SQLite's anonymous temp database)
// has no path to sit beside: it gets a temp folder this module makes once per process and removes on exit.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SHA256_HEX } from '../../../shared/images';

let memoryDir: string | null = null;

/** The image store of the database at `dbPath` (made when the first image is put, not here). */
export function imageStoreDir(dbPath: string): string {
  if (dbPath === ':memory:' || dbPath === '') {
    if (memoryDir === null) {
      const dir = mkdtempSync(join(tmpdir(), 'arbiter-images-'));
      memoryDir = dir;
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    }
    return memoryDir;
  }
  return `${resolve(dbPath)}.images`;
}

/** The image store of an open connection (better-sqlite3's `name` is the path it opened). */
export function imageStoreOf(db: { name: string }): string {
  return imageStoreDir(db.name);
}

/** Where the bytes of image `sha256` are (or would be) in the store `dir`. */
export function imageFile(dir: string, sha256: string): string {
  if (!SHA256_HEX.test(sha256)) throw new Error(`not an image hash (64 lower-case hex digits): ${JSON.stringify(sha256.slice(0, 80))}`);
  return join(dir, sha256.slice(0, 2), sha256);
}

export function imageSha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Whether the store `dir` holds image `sha256`. */
export function hasImage(dir: string, sha256: string): boolean {
  return SHA256_HEX.test(sha256) && existsSync(imageFile(dir, sha256));
}

/**
 * Stores `bytes` (as they are, never re-encoded) and returns their sha256. An image already stored is
 * kept as it is (same hash, same bytes); `added` in putImageOnce says which happened.
 */
export function putImage(dir: string, bytes: Uint8Array): string {
  return putImageOnce(dir, bytes).sha256;
}

/**
 * putImage that also says whether this call wrote the file (false: it was stored already).
 *
 * No fsync per file: it made an import of 2,000 images 4× slower (bench/image-import.mjs: 5.2 s of 7.3 s
 * in fsync). A kill leaves the page cache to the kernel, so files survive it; a power cut right after an
 * import can leave a file empty or short (delayed allocation), like the SQLite pages that synchronous=NORMAL
 * lets go. Such a file is never taken for the image: the next import of it finds the size wrong and writes it
 * again, and until then the image route says the image is damaged.
 */
export function putImageOnce(dir: string, bytes: Uint8Array, sha256 = imageSha256(bytes)): { sha256: string; added: boolean } {
  const file = imageFile(dir, sha256);
  if (statSync(file, { throwIfNoEntry: false })?.size === bytes.byteLength) return { sha256, added: false };
  const folder = join(dir, sha256.slice(0, 2));
  mkdirSync(folder, { recursive: true });
  // Same folder, so the rename is atomic: a reader sees no file or the whole file, never part of one.
  const temp = join(folder, `.${sha256}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(temp, 'wx');
    try {
      for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at, bytes.byteLength - at);
    } finally {
      closeSync(fd);
    }
    // Another writer (a second import, a worker) may have put the same bytes meanwhile: either copy is it.
    if (statSync(file, { throwIfNoEntry: false })?.size === bytes.byteLength) {
      unlinkSync(temp);
      return { sha256, added: false };
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return { sha256, added: true };
}
