// Streaming JSON Lines I/O. Writing goes to `<out>.partial` through a WriteStream that honours
// backpressure, and is renamed to `<out>` only when everything is on disk, so a failed export never
// leaves a half-written file where the finished one is expected. Reading yields lines one at a time.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';

const CHUNK = 64 * 1024;

export class JsonlWriter {
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

/** The lines of a UTF-8 text file, without their line ends ("\n" or "\r\n"). */
export function readLines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 }), crlfDelay: Infinity });
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
