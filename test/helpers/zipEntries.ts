// The entries of a zip file as the browser host's downloads send them (stored, yazl), read from its central
// directory, each checked against its CRC-32: what the export tests unpack.
import { crc32 } from 'node:zlib';
import { expect } from 'vitest';

/** The entries of a zip file, read from its central directory, each checked against its CRC-32. */
export function unzip(zip: Buffer): Map<string, { bytes: Buffer; method: number }> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(0);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries = new Map<string, { bytes: Buffer; method: number }>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const bytes = zip.subarray(start, start + size);
    expect(crc32(bytes) >>> 0, name).toBe(crc);
    entries.set(name, { bytes, method });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
