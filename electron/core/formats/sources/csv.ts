// CSV (RFC 4180: commas, "quoted" fields with "" for a quote, line breaks inside quotes, CRLF or LF), as the
// video preference sets publish it (VideoGen-RewardBench / VideoAlign's pair CSV). The first row names the
// columns; every later row becomes one line, a JSON object of column → text, so "line N" is row N after
// the header (1-based). Read in chunks as they are hashed; a row longer than the record cap stops it.
import type { Hash } from 'node:crypto';
import { RecordTooLongError, recordMaxBytes } from './cap';
import type { Chunk } from './chunk';
import { hashedReads } from './jsonl';

/** Rows per chunk handed to the importer. */
const ROWS_PER_CHUNK = 2000;

export async function* csvChunks(path: string, hash: Hash, name = path, maxRows = Infinity): AsyncGenerator<Chunk> {
  const max = recordMaxBytes();
  let header: string[] | null = null;
  let field = '';
  let row: string[] = [];
  let quoted = false;
  let afterQuote = false;
  let rowChars = 0;
  let rows = 0;
  let lines: string[] = [];
  let first = true;
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const endRow = () => {
    row.push(field);
    field = '';
    rowChars = 0;
    if (header === null) {
      header = row.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim());
    } else if (!(row.length === 1 && row[0] === '')) {
      const record: Record<string, string> = {};
      header.forEach((h, i) => {
        if (h !== '' && row[i] !== undefined) record[h] = row[i]!;
      });
      lines.push(JSON.stringify(record));
      rows++;
    }
    row = [];
  };
  for await (const bytes of hashedReads(path, hash)) {
    const text = decoder.decode(bytes, { stream: true });
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (++rowChars > max) throw new RecordTooLongError(name, rows + 1, max, 'row');
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else {
            quoted = false;
            afterQuote = true;
          }
        } else field += c;
        continue;
      }
      if (c === '"' && field === '' && !afterQuote) quoted = true;
      else if (c === ',') {
        row.push(field);
        field = '';
        afterQuote = false;
      } else if (c === '\n' || c === '\r') {
        if (c === '\r' && text[i + 1] === '\n') i++;
        afterQuote = false;
        endRow();
        if (rows >= maxRows) break;
      } else field += c;
    }
    if (lines.length >= ROWS_PER_CHUNK || rows >= maxRows) {
      yield { lines };
      lines = [];
      first = false;
    }
    if (rows >= maxRows) return;
  }
  if (field !== '' || row.length) endRow();
  if (lines.length || first) yield { lines };
}
