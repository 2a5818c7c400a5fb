// The longest record an import reads (limits.ts: recordMaxBytes, 64 MiB unless ARBITER_RECORD_MAX_BYTES
// says otherwise). The line splitters stop collecting a line's bytes once it passes the cap and refuse
// the file with the line's number, so one hostile line costs at most the cap in memory, never the line.
import { ArbiterError } from '../../base/errors';
import { formatBytes, limit, limitEnvName } from '../../base/limits';

export class RecordTooLongError extends ArbiterError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly maxBytes: number,
    what = 'record',
  ) {
    super(
      'invalid_file',
      `${file}:${line}: the ${what} is longer than ${formatBytes(maxBytes)}, the most one record may hold; nothing was imported. ` +
        `Split it, or set ${limitEnvName('recordMaxBytes')} to a larger size (such as 256MiB) if the machine has the memory.`,
      { line },
    );
  }
}

export const recordMaxBytes = (): number => limit('recordMaxBytes');

/** Line ends in bytes[from, to) as the importer's line splitter counts them (\n, \r\n, a lone \r). */
export function countLineEnds(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let n = 0;
  for (let i = bytes.indexOf(10, from); i >= 0 && i < to; i = bytes.indexOf(10, i + 1)) n++;
  for (let i = bytes.indexOf(13, from); i >= 0 && i < to; i = bytes.indexOf(13, i + 1)) if (i + 1 < to && bytes[i + 1] !== 10) n++;
  return n;
}

/**
 * Counts the lines a splitter has passed on, so that a line too long can be named: `passed(bytes)`
 * after each piece handed on (it ends at a line end), `check(held)` with the bytes held since the last
 * line end.
 */
export class LineCap {
  private lines = 0;
  readonly maxBytes = recordMaxBytes();

  constructor(private readonly file: string) {}

  passed(bytes: Uint8Array): void {
    this.lines += countLineEnds(bytes);
  }

  /**
   * Throws when the line being collected (`held` bytes long) is over the cap. `heldBytes`: the bytes held
   * and not yet passed on, whose line ends come before that line.
   */
  check(held: number, heldBytes?: readonly Uint8Array[]): void {
    if (held <= this.maxBytes) return;
    let extra = 0;
    if (heldBytes) for (const b of heldBytes) extra += countLineEnds(b);
    throw new RecordTooLongError(this.file, this.lines + extra + 1, this.maxBytes);
  }
}
