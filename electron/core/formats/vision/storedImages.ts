// Parquet rows whose images are stored parts: each top-level field that is an image part (or a list of
// them) becomes the `Image` feature's cell, {bytes, path}, the bytes read from the image store as they are
// (never re-encoded) and the path the name the image came with (its column's or file's path), else null
// (as `datasets` writes an image that had none, so a Parquet file reads back to the same items). Rows are handed to HfParquetWriter (./hfImage.ts), which bounds its row groups by
// image bytes, so memory stays at one row group's images. A null row is left out.
import { isImagePart, type ImagePart } from '../../../../shared/images';
import type { RecordWriter } from '../recordWriter';
import { HfParquetWriter, type HfFeature, type HfImageValue } from './hfImage';
import { storedBytes } from './imageFiles';
import { ROW_ITEM } from './rows';

/** The name an image goes by in an `Image` cell: the path it came with, else none. */
export function imagePathOf(part: ImagePart): string | null {
  const origin = part.origin;
  if (origin.kind === 'path') return origin.path;
  if (origin.kind === 'column' && origin.path) return origin.path;
  return null;
}

/** An `Image` cell from a stored part: its bytes from the store. */
export async function hfImageOf(store: string, part: ImagePart, item: string): Promise<HfImageValue> {
  return { bytes: await storedBytes(store, part.image!, item), path: imagePathOf(part) };
}

export class StoredImagesParquetWriter implements RecordWriter {
  private constructor(
    private readonly parquet: HfParquetWriter,
    private readonly store: string,
  ) {}

  static async open(out: string, columns: Record<string, HfFeature>, store: string): Promise<StoredImagesParquetWriter> {
    return new StoredImagesParquetWriter(await HfParquetWriter.open(out, columns), store);
  }

  get lines(): number {
    return this.parquet.lines;
  }

  async write(row: unknown): Promise<void> {
    if (row === null || row === undefined) return;
    const item = String((row as { [ROW_ITEM]?: unknown })[ROW_ITEM] ?? 'of this export');
    const cell = (part: ImagePart) => hfImageOf(this.store, part, item);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row as Record<string, unknown>)) {
      if (isImagePart(value) && value.image) out[key] = await cell(value);
      else if (Array.isArray(value) && value.length && value.every((v) => isImagePart(v) && v.image)) {
        const cells: HfImageValue[] = [];
        for (const part of value as ImagePart[]) cells.push(await cell(part));
        out[key] = cells;
      } else out[key] = value;
    }
    await this.parquet.write(out);
  }

  commit(): Promise<void> {
    return this.parquet.commit();
  }

  abort(): Promise<void> {
    return this.parquet.abort();
  }
}
