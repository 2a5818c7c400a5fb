// The Parquet `Image` feature helpers (electron/core/formats/vision/hfImage.ts): a file HfParquetWriter
// writes reads back through Arbiter's own Parquet source with its images byte for byte, and carries the
// `huggingface` features metadata that `datasets` decodes (datasets' features/image.py: the Image feature
// is struct<bytes: binary, path: string>; arrow_writer.py stores the features under that key). Python's
// `datasets` reading the file is checked in test/integration/vision-trl.test.ts.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetChunks } from '../../../electron/core/formats/sources/parquet';
import { HF_IMAGE, HF_STRING, HfParquetWriter, featureJson, hfList, hfStruct, isHfImageValue } from '../../../electron/core/formats/vision/hfImage';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-hfimage-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Hand-written bytes: not a decodable image, which is the point (the writer never looks inside).
const bytesA = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5]);
const bytesB = new Uint8Array(70_000).map((_, i) => (i * 31) % 251);

async function rowsOf(path: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const chunk of parquetChunks(path, createHash('sha256'))) if ('lines' in chunk) rows.push(...chunk.lines.map((l) => JSON.parse(l) as Record<string, unknown>));
  return rows;
}

describe('HfParquetWriter', () => {
  const message = hfStruct({ role: HF_STRING, content: hfList(hfStruct({ type: HF_STRING, text: HF_STRING })) });
  const columns = { prompt: hfList(message), images: hfList(HF_IMAGE), image: HF_IMAGE };

  it('writes nested message lists and Image cells that read back byte for byte, with the features metadata', async () => {
    const out = join(dir, 'a.parquet');
    const writer = await HfParquetWriter.open(out, columns);
    await writer.write({ prompt: [{ role: 'user', content: [{ type: 'image' }, { type: 'text', text: 'What is it?' }] }], images: [{ bytes: bytesA, path: 'a.png' }], image: { bytes: bytesB, path: null } });
    await writer.write({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'none' }] }], images: [], image: null });
    expect(existsSync(out)).toBe(false);
    await writer.commit();
    expect(existsSync(`${out}.partial`)).toBe(false);
    const rows = await rowsOf(out);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.prompt).toEqual([{ role: 'user', content: [{ type: 'image', text: null }, { type: 'text', text: 'What is it?' }] }]);
    const images = rows[0]!.images as unknown[];
    expect(images.every(isHfImageValue)).toBe(true);
    expect(Buffer.from((images[0] as { bytes: string }).bytes, 'base64')).toEqual(Buffer.from(bytesA));
    expect((images[0] as { path: string }).path).toBe('a.png');
    expect(Buffer.from((rows[0]!.image as { bytes: string }).bytes, 'base64')).toEqual(Buffer.from(bytesB));
    expect(rows[1]!.images).toEqual([]);
    expect(rows[1]!.image ?? null).toBeNull();
    const bytes = readFileSync(out);
    const kv = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)).key_value_metadata ?? [];
    const hf = JSON.parse(kv.find((e) => e.key === 'huggingface')!.value!) as { info: { features: Record<string, unknown> } };
    expect(hf.info.features.images).toEqual([{ _type: 'Image' }]);
    expect(hf.info.features.image).toEqual({ _type: 'Image' });
    expect(hf.info.features.prompt).toEqual(featureJson(hfList(message)));
  });

  it('splits row groups by image bytes, and abort leaves no file', async () => {
    const out = join(dir, 'b.parquet');
    const writer = await HfParquetWriter.open(out, { image: HF_IMAGE });
    const big = new Uint8Array(40 * 1024 * 1024);
    await writer.write({ image: { bytes: big, path: null } });
    await writer.write({ image: { bytes: big, path: null } }); // past 64 MiB: the group is written now
    await writer.write({ image: { bytes: bytesA, path: 'x' } });
    await writer.commit();
    const bytes = readFileSync(out);
    expect(parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)).row_groups).toHaveLength(2);
    const other = join(dir, 'c.parquet');
    const aborted = await HfParquetWriter.open(other, { image: HF_IMAGE });
    await aborted.write({ image: { bytes: bytesA, path: null } });
    await aborted.abort();
    expect(existsSync(other) || existsSync(`${other}.partial`)).toBe(false);
  });

  it('tells Image cells from other structs', () => {
    expect(isHfImageValue({ bytes: 'iVBO', path: null })).toBe(true);
    expect(isHfImageValue({ bytes: null, path: 'a.png' })).toBe(true);
    expect(isHfImageValue({ bytes: null, path: null })).toBe(false);
    expect(isHfImageValue({ bytes: 'x', path: 'a', width: 2 })).toBe(false);
    expect(isHfImageValue('a.png')).toBe(false);
  });
});
