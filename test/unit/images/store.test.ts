// The image store: content-addressed files beside the database, written once.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasImage, imageFile, imageStoreDir, putImage, putImageOnce } from '../../../electron/core/images/store';
import { tempDir } from '../../helpers/tmp';

describe('image store', () => {
  it('sits beside the database and names files by sha256', () => {
    const dir = tempDir();
    expect(imageStoreDir(join(dir, 'arbiter.db'))).toBe(join(dir, 'arbiter.db.images'));
    const sha = 'ab'.repeat(32);
    expect(imageFile('/s', sha)).toBe(join('/s', 'ab', sha));
    expect(() => imageFile('/s', '../etc/passwd')).toThrow(/not an image hash/);
  });

  it('stores bytes once, as they are, and keeps what is there', () => {
    const store = imageStoreDir(join(tempDir(), 'a.db'));
    const bytes = Buffer.from('not really a png, the store does not care');
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(hasImage(store, sha)).toBe(false);
    expect(putImageOnce(store, bytes)).toEqual({ sha256: sha, added: true });
    expect(hasImage(store, sha)).toBe(true);
    expect(readFileSync(imageFile(store, sha)).equals(bytes)).toBe(true);
    expect(putImageOnce(store, bytes)).toEqual({ sha256: sha, added: false });
    expect(putImage(store, bytes)).toBe(sha);
    // No temp file is left behind.
    expect(readdirSync(join(store, sha.slice(0, 2)))).toEqual([sha]);
    expect(hasImage(store, 'nothex')).toBe(false);
  });

  it('gives an in-memory database a temp folder of its own process', () => {
    const a = imageStoreDir(':memory:');
    expect(a).toBe(imageStoreDir(''));
    const sha = putImage(a, Buffer.from([1, 2, 3]));
    expect(hasImage(a, sha)).toBe(true);
  });
});

describe('a stored file cut short (a power cut after an import)', () => {
  it('is written again by the next put of the same bytes', () => {
    const dir = tempDir();
    const bytes = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
    const sha = putImage(dir, bytes);
    writeFileSync(imageFile(dir, sha), new Uint8Array(0));
    expect(putImageOnce(dir, bytes)).toEqual({ sha256: sha, added: true });
    expect([...readFileSync(imageFile(dir, sha))]).toEqual([...bytes]);
    expect(putImageOnce(dir, bytes).added).toBe(false);
  });
});
