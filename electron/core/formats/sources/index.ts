// What people download, read for the importer: JSON Lines (.jsonl), gzip-compressed JSON Lines or
// arrays (.jsonl.gz, .json.gz), a JSON array (.json), parquet and CSV (.csv, a header row), all streamed. Whatever the source,
// the importer gets Chunks of lines, and "line N" in its messages means: line N of JSON Lines, element
// N of a JSON array (1-based), row N of a parquet file. The hash is always of the file as it is on disk.
import { createHash, type Hash } from 'node:crypto';
import { chunkLines, type Chunk } from './chunk';
import { csvChunks } from './csv';
import { gzipChunks } from './gzip';
import { hashedReads, jsonlChunks } from './jsonl';
import { jsonArrayChunks } from './jsonArray';
import { jsonObjectChunks } from './jsonObject';
import { parquetChunks } from './parquet';
import { describeSource, type SourceKind } from './sniff';

export { describeSource, type SourceKind };

/** Text a preview reads at most (the record that crosses it is still included). */
export const HEAD_CHARS = 256 * 1024;

/**
 * The file's records in chunks, hashed (sha256 of the bytes on disk) once every chunk has been read.
 * `name` is how messages call the file (an upload's own name rather than where it was stored).
 */
export function fileChunks(path: string, hash: Hash, name = path): AsyncGenerator<Chunk> {
  return chunksOf(path, hash, name);
}

/** `recordsPerChunk` only applies where records are parsed here (a JSON array, parquet). */
function chunksOf(path: string, hash: Hash, name: string, recordsPerChunk?: number, maxRecords?: number): AsyncGenerator<Chunk> {
  switch (describeSource(path)) {
    case 'jsonl':
      return jsonlChunks(path, hash, name);
    case 'jsonl.gz':
      return gzipChunks(path, hash, recordsPerChunk, name);
    case 'json':
      return jsonArrayChunks(hashedReads(path, hash), name, recordsPerChunk);
    case 'json-object':
      return jsonObjectChunks(hashedReads(path, hash), name);
    case 'parquet':
      return parquetChunks(path, hash, { rowsPerChunk: recordsPerChunk, maxRows: maxRecords, name });
    case 'csv':
      return csvChunks(path, hash, name, maxRecords);
  }
}

/**
 * The first records of a file as lines of text, for the import preview: up to `maxRecords` non-blank
 * lines (blank ones kept, so line numbers match the import's), and no more than about HEAD_CHARS.
 */
export async function headLines(path: string, maxRecords = 50, name = path): Promise<string[]> {
  const lines: string[] = [];
  let records = 0;
  let chars = 0;
  let first = true;
  // Leaving the loop early closes the file (the generators' finally blocks).
  for await (const chunk of chunksOf(path, createHash('sha256'), name, maxRecords, maxRecords)) {
    for (const line of chunkLines(chunk, first)) {
      lines.push(line);
      chars += line.length;
      if (line.trim() !== '') records++;
      if (records >= maxRecords || chars >= HEAD_CHARS) return lines;
    }
    first = false;
  }
  return lines;
}
