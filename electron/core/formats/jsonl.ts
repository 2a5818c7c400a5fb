// Streaming JSON Lines I/O. Writing goes to `<out>.partial` through a WriteStream that honours
// backpressure, and is renamed to `<out>` only when everything is on disk, so a failed export never
// leaves a half-written file where the finished one is expected. Reading yields lines one at a time.
import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ArbiterError } from '../base/errors';
import { jsonlChunks } from './sources/jsonl';
import { firstInvalidUtf8, invalidUtf8Reason, validUtf8 } from './sources/utf8';
import type { RecordWriter } from './recordWriter';

export type { RecordWriter } from './recordWriter';

const CHUNK = 64 * 1024;

export class JsonlWriter implements RecordWriter {
  lines = 0;
  private buffer = '';
  private failure: Error | null = null;

  private constructor(
    readonly out: string,
    readonly partial: string,
    private readonly stream: WriteStream,
  ) {
    stream.on('error', (error) => {
      this.failure ??= error;
    });
  }

  static async open(out: string): Promise<JsonlWriter> {
    await mkdir(dirname(out), { recursive: true });
    const partial = `${out}.partial`;
    // flush: the file descriptor is fsynced before it is closed, so the rename publishes a complete file.
    const stream = createWriteStream(partial, { flags: 'w', encoding: 'utf8', flush: true });
    await once(stream, 'open');
    return new JsonlWriter(out, partial, stream);
  }

  /** Appends one record; awaits only when the buffer is handed to the stream and the stream is full. */
  write(value: unknown): Promise<void> | void {
    this.buffer += `${JSON.stringify(value)}\n`;
    this.lines++;
    if (this.buffer.length >= CHUNK) return this.flush();
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.buffer) return;
    const ok = this.stream.write(this.buffer);
    this.buffer = '';
    if (!ok) await once(this.stream, 'drain'); // rejects if the stream emits 'error' first
  }

  /** Writes what is left, closes the file and renames it into place. */
  async commit(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      this.stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
    });
    if (this.failure) throw this.failure;
    await rename(this.partial, this.out);
  }

  /** Gives up: closes the stream and deletes the partial file; `out` is left as it was. */
  async abort(): Promise<void> {
    this.buffer = '';
    if (!this.stream.destroyed) {
      const closed = once(this.stream, 'close').catch(() => undefined);
      this.stream.destroy();
      await closed;
    }
    await rm(this.partial, { force: true });
  }
}

/** The chunk reader hashes what it reads; readLines' callers never ask for the hash (a labels merge reads its file twice). */
const NO_HASH = { update: () => NO_HASH } as unknown as Hash;

/**
 * The lines of a UTF-8 text file, without their line ends ("\n" or "\r\n"), and without a leading byte
 * order mark. Bytes that are not UTF-8 and a line longer than the record cap stop the reading with the
 * line's number (`name`: how messages call the file); past the cap no more of a line is held.
 */
export async function* readLines(path: string, name = path): AsyncGenerator<string> {
  let line = 0;
  let first = true;
  for await (const chunk of jsonlChunks(path, NO_HASH, name)) {
    if (!('bytes' in chunk)) continue;
    const bytes = Buffer.from(chunk.bytes.buffer, chunk.bytes.byteOffset, chunk.bytes.byteLength);
    const valid = validUtf8(bytes);
    for (let start = 0; start < bytes.length; ) {
      let end = bytes.indexOf(10, start);
      if (end < 0) end = bytes.length;
      const bad = valid ? -1 : firstInvalidUtf8(bytes, start, end);
      if (bad >= 0) throw new ArbiterError('invalid_file', `${name}:${line + 1}: ${invalidUtf8Reason(bad - start + 1, bytes[bad]!)}; nothing was imported.`, { line: line + 1 });
      let text = bytes.toString('utf8', start, end);
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
      // As readline splits: a lone \r ends a line too, and \r\n is one line end.
      const parts = text.includes('\r') ? text.split('\r') : [text];
      if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
      for (const part of parts) {
        line++;
        yield part;
      }
      start = end + 1;
    }
  }
}

export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Splits text into lines the way readLines does (for content the UI sends instead of a path). */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
