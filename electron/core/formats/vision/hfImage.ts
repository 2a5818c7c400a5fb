// Parquet with the Hugging Face `Image` feature: what the `datasets` library writes and reads for image
// columns, and what the Hub serves for image datasets. Sources: datasets' features/image.py (`Image.pa_type`
// is `struct<bytes: binary, path: string>`; bytes hold the encoded file, path the name it had, either may
// be null) and arrow_writer / features.py (the features travel as JSON under the Parquet key-value
// metadata key `huggingface`, `{"info": {"features": {...}}}`, which `Dataset.from_parquet` and
// `load_dataset("parquet")` read to decode those columns as images). Checked against datasets 5.0.1.
//
// Reading: the Parquet source (../sources/parquet.ts) gives a struct cell as `{bytes, path}` with the bytes
// already base64; `isHfImageValue` tells such a cell. Writing: `HfParquetWriter` writes rows column by
// column with hyparquet-writer, one row group per batch bounded in rows and bytes (images are big), to
// `<out>.partial`, renamed into place on commit, like the JSON Lines writer.
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ByteWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import type { RecordWriter } from '../recordWriter';

/** A column's (or a field's) type, as `datasets` names it; one description gives the Parquet schema and the features JSON. */
export type HfFeature =
  | { kind: 'string' }
  | { kind: 'int64' }
  | { kind: 'float64' }
  | { kind: 'bool' }
  /** Raw bytes (`Value("binary")`: Pick-a-Pic's jpg_0 / jpg_1), written as they are. */
  | { kind: 'binary' }
  /** The `Image` feature: struct<bytes: binary, path: string>. */
  | { kind: 'image' }
  | { kind: 'list'; of: HfFeature }
  /** Fields in the order given. */
  | { kind: 'struct'; fields: Record<string, HfFeature> };

/** An `Image` cell to write: the encoded file's bytes (as stored, never re-encoded) and the name it goes by. */
export interface HfImageValue {
  bytes: Uint8Array | null;
  path: string | null;
}

/** An `Image` cell as the Parquet source reads it: `bytes` base64 (or null), `path` a string (or null). */
export interface HfImageCell {
  bytes?: string | null;
  path?: string | null;
}

export const HF_STRING: HfFeature = { kind: 'string' };
export const HF_IMAGE: HfFeature = { kind: 'image' };
export const hfList = (of: HfFeature): HfFeature => ({ kind: 'list', of });
export const hfStruct = (fields: Record<string, HfFeature>): HfFeature => ({ kind: 'struct', fields });

/**
 * Whether a decoded cell is an `Image` feature value: an object whose only keys are `bytes` and `path`,
 * with base64 bytes or a path (one of them at least).
 */
export function isHfImageValue(value: unknown): value is HfImageCell {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (!keys.length || !keys.every((k) => k === 'bytes' || k === 'path')) return false;
  const { bytes, path } = value as HfImageCell;
  const okBytes = bytes === undefined || bytes === null || typeof bytes === 'string';
  const okPath = path === undefined || path === null || typeof path === 'string';
  return okBytes && okPath && (typeof bytes === 'string' || typeof path === 'string');
}

/** The features JSON `datasets` reads for one feature. Lists are written as `[inner]`, which every datasets version reads (4.x and later also write `{"_type": "List"}`). */
export function featureJson(feature: HfFeature): unknown {
  switch (feature.kind) {
    case 'string':
      return { dtype: 'string', _type: 'Value' };
    case 'int64':
      return { dtype: 'int64', _type: 'Value' };
    case 'float64':
      return { dtype: 'float64', _type: 'Value' };
    case 'bool':
      return { dtype: 'bool', _type: 'Value' };
    case 'binary':
      return { dtype: 'binary', _type: 'Value' };
    case 'image':
      return { _type: 'Image' };
    case 'list':
      return [featureJson(feature.of)];
    case 'struct':
      return Object.fromEntries(Object.entries(feature.fields).map(([name, f]) => [name, featureJson(f)]));
  }
}

/** The `huggingface` key-value metadata entry for these columns. */
export function huggingfaceMetadata(columns: Record<string, HfFeature>): { key: string; value: string } {
  return { key: 'huggingface', value: JSON.stringify({ info: { features: featureJson(hfStruct(columns)) } }) };
}

/** The Parquet schema elements of one column (depth first), as pyarrow writes the same features: every field optional, lists in three levels. */
function schemaOf(name: string, feature: HfFeature): SchemaElement[] {
  const optional = 'OPTIONAL' as const;
  switch (feature.kind) {
    case 'string':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional }];
    case 'int64':
      return [{ name, type: 'INT64', repetition_type: optional }];
    case 'float64':
      return [{ name, type: 'DOUBLE', repetition_type: optional }];
    case 'bool':
      return [{ name, type: 'BOOLEAN', repetition_type: optional }];
    case 'binary':
      return [{ name, type: 'BYTE_ARRAY', repetition_type: optional }];
    case 'image':
      return [
        { name, repetition_type: optional, num_children: 2 },
        { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: optional },
        { name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional },
      ];
    case 'list':
      return [{ name, repetition_type: optional, converted_type: 'LIST', num_children: 1 }, { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, ...schemaOf('element', feature.of)];
    case 'struct': {
      const fields = Object.entries(feature.fields);
      return [{ name, repetition_type: optional, num_children: fields.length }, ...fields.flatMap(([field, f]) => schemaOf(field, f))];
    }
  }
}

export function parquetSchema(columns: Record<string, HfFeature>): SchemaElement[] {
  const entries = Object.entries(columns);
  return [{ name: 'schema', num_children: entries.length }, ...entries.flatMap(([name, f]) => schemaOf(name, f))];
}

/** A value as the column writer takes it: int64 as BigInt, image bytes as a Uint8Array, missing fields null. */
function cellOf(feature: HfFeature, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (feature.kind) {
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'int64':
      return typeof value === 'bigint' ? value : BigInt(Math.trunc(Number(value)));
    case 'float64':
      return Number(value);
    case 'bool':
      return Boolean(value);
    case 'binary':
      return value instanceof Uint8Array ? value : null;
    case 'image': {
      const image = value as HfImageValue;
      return { bytes: image.bytes ?? null, path: image.path ?? null };
    }
    case 'list':
      return Array.isArray(value) ? value.map((v) => cellOf(feature.of, v)) : null;
    case 'struct': {
      const object = value as Record<string, unknown>;
      return Object.fromEntries(Object.entries(feature.fields).map(([name, f]) => [name, cellOf(f, object[name])]));
    }
  }
}

/** Bytes of image data in a value (what bounds a row group). */
function imageBytes(feature: HfFeature, value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (feature.kind === 'image') return (value as HfImageValue).bytes?.byteLength ?? 0;
  if (feature.kind === 'binary') return value instanceof Uint8Array ? value.byteLength : 0;
  if (feature.kind === 'list') return Array.isArray(value) ? value.reduce((n: number, v) => n + imageBytes(feature.of, v), 0) : 0;
  if (feature.kind === 'struct') return Object.entries(feature.fields).reduce((n, [name, f]) => n + imageBytes(f, (value as Record<string, unknown>)[name]), 0);
  return 0;
}

function holdsImage(feature: HfFeature): boolean {
  return feature.kind === 'image' || feature.kind === 'binary' || (feature.kind === 'list' && holdsImage(feature.of)) || (feature.kind === 'struct' && Object.values(feature.fields).some(holdsImage));
}

/** A row group closes at this many rows, or sooner when its images reach ROW_GROUP_IMAGE_BYTES. */
export const ROW_GROUP_ROWS = 1000;
export const ROW_GROUP_IMAGE_BYTES = 64 * 1024 * 1024;

/** hyparquet-writer's byte writer, emptied into the file after each row group. */
class FileByteWriter extends ByteWriter {
  constructor(private readonly file: FileHandle) {
    super(1 << 20);
  }

  async flush(): Promise<void> {
    let at = 0;
    while (at < this.index) at += (await this.file.write(new Uint8Array(this.buffer, at, this.index - at))).bytesWritten;
    this.index = 0;
  }

  override finish(): Promise<void> {
    return this.flush();
  }
}

/**
 * Writes rows of the given columns to a Parquet file with the `huggingface` features metadata. Rows are
 * plain objects keyed by column; `Image` values are HfImageValue. `write` buffers a row and, when a row
 * group is full, writes it (awaited: memory stays bounded by one row group).
 */
export class HfParquetWriter implements RecordWriter {
  lines = 0;
  private rows: Record<string, unknown>[] = [];
  private pendingImageBytes = 0;
  private finished = false;

  private constructor(
    readonly out: string,
    readonly partial: string,
    private readonly file: FileHandle,
    private readonly columns: Record<string, HfFeature>,
    private readonly writer: ParquetWriter,
  ) {}

  static async open(out: string, columns: Record<string, HfFeature>): Promise<HfParquetWriter> {
    await mkdir(dirname(out), { recursive: true });
    const partial = `${out}.partial`;
    const file = await open(partial, 'w');
    const writer = new ParquetWriter({ writer: new FileByteWriter(file), schema: parquetSchema(columns), kvMetadata: [huggingfaceMetadata(columns)], createdBy: 'Arbiter (hyparquet-writer)' });
    return new HfParquetWriter(out, partial, file, columns, writer);
  }

  write(row: unknown): Promise<void> | void {
    const object = row as Record<string, unknown>;
    this.rows.push(object);
    this.lines++;
    for (const [name, feature] of Object.entries(this.columns)) this.pendingImageBytes += imageBytes(feature, object[name]);
    if (this.rows.length >= ROW_GROUP_ROWS || this.pendingImageBytes >= ROW_GROUP_IMAGE_BYTES) return this.flushGroup();
  }

  private async flushGroup(): Promise<void> {
    if (!this.rows.length) return;
    const rows = this.rows;
    this.rows = [];
    this.pendingImageBytes = 0;
    const columnData = Object.entries(this.columns).map(([name, feature]) => ({
      name,
      data: rows.map((row) => cellOf(feature, row[name])),
      // Images are compressed already, and their min/max say nothing.
      ...(holdsImage(feature) ? { codec: 'UNCOMPRESSED' as const, statistics: false } : {}),
    }));
    await this.writer.write({ columnData, rowGroupSize: rows.length });
  }

  async commit(): Promise<void> {
    await this.flushGroup();
    this.finished = true;
    await this.writer.finish();
    await this.file.sync();
    await this.file.close();
    await rename(this.partial, this.out);
  }

  async abort(): Promise<void> {
    this.rows = [];
    if (!this.finished) {
      this.finished = true;
      await this.file.close().catch(() => undefined);
    }
    await rm(this.partial, { force: true });
  }
}
