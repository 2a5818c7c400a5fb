// File sources: .jsonl, .jsonl.gz/.json.gz, a .json array and parquet import the same records the same
// way, hash the bytes on disk, number a JSON array's elements as lines, and stream. Fixtures are written
// here, at test time (parquet with hyparquet-writer).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parquetWriteFile } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArbiterError, InvalidFileError } from '../../../electron/core/base/errors';
import { exportProject, importFile } from '../../../electron/core/formats';
import { chunkLines } from '../../../electron/core/formats/import/prepare';
import { describeSource, fileChunks, headLines } from '../../../electron/core/formats/sources/index';
import { openDb } from '../../../electron/core/store/db';

type Trl = { prompt: string; chosen: string; rejected: string; id: number };
const TRL: Trl[] = [
  { prompt: 'The sky is', chosen: ' blue.', rejected: ' green.', id: 1 },
  { prompt: 'Which is larger, 9.8 or 9.11?', chosen: '9.8 is larger.', rejected: '9.11 is larger.', id: 2 },
  { prompt: 'Translate "chat" to English.', chosen: '"Cat" — it is French.', rejected: 'Chat means to talk. 🙂', id: 3 },
  { prompt: 'Line\nbreaks\r\ninside', chosen: 'kept', rejected: 'lost', id: 4 },
  { prompt: '2 + 2 =', chosen: '4', rejected: '5', id: 5 },
];
const messages = (role: string, content: string) => [{ role, content }];
const CHAT = TRL.map((r) => ({ prompt: messages('user', r.prompt), chosen: messages('assistant', r.chosen), rejected: messages('assistant', r.rejected) }));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-sources-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const jsonl = (records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');
function write(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A list<struct<role, content>> column, as pyarrow writes a chat column. */
const messagesSchema = (name: string): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
  { name: 'role', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'content', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
];

function writeTrlParquet(name: string, codec: 'SNAPPY' | 'GZIP' = 'SNAPPY'): string {
  const filename = join(dir, name);
  const text = (key: 'prompt' | 'chosen' | 'rejected') => ({ name: key, data: TRL.map((r) => r[key]), type: 'STRING' as const });
  parquetWriteFile({
    filename,
    columnData: [text('prompt'), text('chosen'), text('rejected'), { name: 'id', data: TRL.map((r) => BigInt(r.id)), type: 'INT64' }],
    // Two row groups, so reading goes group by group.
    rowGroupSize: 3,
    codec,
    compressors: { GZIP: (input: Uint8Array) => gzipSync(input) },
  });
  return filename;
}

function writeChatParquet(name: string): string {
  const filename = join(dir, name);
  const keys = ['prompt', 'chosen', 'rejected'] as const;
  parquetWriteFile({
    filename,
    columnData: keys.map((key) => ({ name: key, data: CHAT.map((r) => r[key]) })),
    schema: [{ name: 'root', num_children: 3 }, ...keys.flatMap(messagesSchema)],
    rowGroupSize: 2,
  });
  return filename;
}

/** Imports into a database of its own and exports it again: what the import stored, as text. */
async function importAndExport(path: string, format: 'trl' | 'trl-chat') {
  const db = openDb(join(dir, `${path.split('/').pop()}.db`));
  try {
    const summary = await importFile(db, { path, project: 'p', createProject: true, parallel: false });
    const out = join(dir, `${path.split('/').pop()}.out.jsonl`);
    await exportProject(db, { project: 'p', format, out });
    const uids = db.prepare('SELECT uid FROM item ORDER BY seq').pluck().all();
    const recorded = db.prepare('SELECT sha256 FROM import_file').pluck().get();
    return { summary, exported: readFileSync(out, 'utf8'), uids, sha256: recorded };
  } finally {
    db.close();
  }
}

async function allChunks(path: string) {
  const hash = createHash('sha256');
  const lines: string[] = [];
  let first = true;
  for await (const chunk of fileChunks(path, hash)) {
    lines.push(...chunkLines(chunk, first));
    first = false;
  }
  return { lines, sha256: hash.digest('hex') };
}

describe('describeSource', () => {
  it('goes by the first bytes, then by the name', () => {
    expect(describeSource(write('a.jsonl', jsonl(TRL)))).toBe('jsonl');
    expect(describeSource(write('a.jsonl.gz', gzipSync(jsonl(TRL))))).toBe('jsonl.gz');
    expect(describeSource(write('a.json.gz', gzipSync(JSON.stringify(TRL))))).toBe('jsonl.gz');
    expect(describeSource(write('a.json', `\ufeff\n  ${JSON.stringify(TRL)}`))).toBe('json');
    expect(describeSource(writeTrlParquet('a.parquet'))).toBe('parquet');
    // Mislabelled downloads: a .json of JSON Lines, a gzip and a parquet file without their endings.
    expect(describeSource(write('lines.json', jsonl(TRL)))).toBe('jsonl');
    expect(describeSource(write('packed.jsonl', gzipSync(jsonl(TRL))))).toBe('jsonl.gz');
    expect(describeSource(write('data.bin', readFileSync(writeTrlParquet('b.parquet'))))).toBe('parquet');
    // A .jsonl is lines, whatever its first character.
    expect(describeSource(write('arrays.jsonl', '[1]\n'))).toBe('jsonl');
  });
});

describe('every source imports the same records the same way', () => {
  it('trl: .jsonl, .jsonl.gz, .json, .json.gz and parquet (snappy and gzip pages) give the same items', async () => {
    const paths = [
      write('trl.jsonl', jsonl(TRL)),
      write('trl.jsonl.gz', gzipSync(jsonl(TRL))),
      write('trl.json', `\ufeff${JSON.stringify(TRL, null, 2)}\n`),
      write('trl.json.gz', gzipSync(JSON.stringify(TRL))),
      writeTrlParquet('trl.parquet'),
      writeTrlParquet('trl-gzip.parquet', 'GZIP'),
    ];
    const results = [];
    for (const path of paths) results.push(await importAndExport(path, 'trl'));
    const [reference, ...others] = results;
    expect(reference!.summary).toMatchObject({ format: 'trl', lines: TRL.length, items: TRL.length, labels: TRL.length, rejected: 0 });
    expect(reference!.uids).toHaveLength(TRL.length);
    for (const [i, other] of others.entries()) {
      expect(other.summary, paths[i + 1]).toMatchObject({ format: 'trl', lines: TRL.length, items: TRL.length, labels: TRL.length, rejected: 0 });
      expect(other.uids, paths[i + 1]).toEqual(reference!.uids);
      expect(other.exported, paths[i + 1]).toBe(reference!.exported);
    }
    results.forEach((r, i) => expect(r.sha256, paths[i]).toBe(sha256(paths[i]!)));
  });

  it('trl-chat: list<struct> parquet columns stay nested and import as the JSON Lines do', async () => {
    const fromJsonl = await importAndExport(write('chat.jsonl', jsonl(CHAT)), 'trl-chat');
    const fromParquet = await importAndExport(writeChatParquet('chat.parquet'), 'trl-chat');
    expect(fromParquet.summary).toMatchObject({ format: 'trl-chat', items: CHAT.length });
    expect(fromParquet.uids).toEqual(fromJsonl.uids);
    expect(fromParquet.exported).toBe(fromJsonl.exported);
  });

  it('.jsonl still reads as raw byte chunks cut at line ends', async () => {
    const path = write('bytes.jsonl', jsonl(TRL));
    const chunks = [];
    for await (const chunk of fileChunks(path, createHash('sha256'))) chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(Buffer.from((chunks[0] as { bytes: Uint8Array }).bytes).toString('utf8')).toBe(jsonl(TRL));
  });

  it('parquet rows are JSON objects: INT64 as numbers, or strings when a number would change them', async () => {
    const filename = join(dir, 'ints.parquet');
    parquetWriteFile({ filename, columnData: [{ name: 'id', data: [1n, 9007199254740993n, -5n], type: 'INT64' }] });
    const { lines, sha256: hashed } = await allChunks(filename);
    expect(lines).toEqual(['{"id":1}', '{"id":"9007199254740993"}', '{"id":-5}']);
    expect(hashed).toBe(sha256(filename));
  });
});

describe('a JSON array', () => {
  it('reports a bad element by its number, counted from 1', async () => {
    const records: unknown[] = [TRL[0], TRL[1], 42, { prompt: 'no chosen', rejected: 'x' }, TRL[2]];
    const path = write('bad.json', JSON.stringify(records, null, 1));
    const db = openDb(join(dir, 'bad.db'));
    const error = await importFile(db, { path, project: 'p', format: 'trl', createProject: true, parallel: false }).catch((e: unknown) => e);
    db.close();
    expect(error).toBeInstanceOf(InvalidFileError);
    expect((error as InvalidFileError).errors.map((e) => e.line)).toEqual([3, 4]);
    expect((error as InvalidFileError).errors[0]!.reason).toContain('not a JSON object');
  });

  it('refuses broken JSON naming the element it broke in', async () => {
    const path = write('broken.json', `[${JSON.stringify(TRL[0])},\n${JSON.stringify(TRL[1])},\n{"prompt": "cut off`);
    const error = await allChunks(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArbiterError);
    expect((error as ArbiterError).code).toBe('invalid_file');
    expect((error as ArbiterError).message).toContain('element 3 of the array');
    // Cut short between elements: the parser's end-of-input error is reported the same way.
    const cut = await allChunks(write('cut.json', `[${JSON.stringify(TRL[0])},\n${JSON.stringify(TRL[1])},`)).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(ArbiterError);
    expect((cut as ArbiterError).message).toContain('element 3 of the array');
  });

  it('streams: 50k records come in chunks of 2,000, the first before most of the file is read', async () => {
    const records = Array.from({ length: 50_000 }, (_, i) => ({ prompt: `question ${i}`, chosen: `good answer ${i}`, rejected: `bad answer ${i}` }));
    const path = write('big.json', JSON.stringify(records));
    const size = readFileSync(path).length;
    const hash = createHash('sha256');
    let bytesRead = 0;
    const update = hash.update.bind(hash);
    vi.spyOn(hash, 'update').mockImplementation((data: unknown) => {
      bytesRead += (data as Buffer).length;
      return update(data as Buffer);
    });
    const chunks = fileChunks(path, hash);
    const first = await chunks.next();
    expect(first.done).toBe(false);
    expect((first.value as { lines: string[] }).lines).toHaveLength(2000);
    expect(JSON.parse((first.value as { lines: string[] }).lines[0]!)).toEqual(records[0]);
    expect(bytesRead).toBeLessThan(size / 2);
    let lines = 2000;
    for await (const chunk of chunks) lines += (chunk as { lines: string[] }).lines.length;
    expect(lines).toBe(records.length);
    expect(bytesRead).toBe(size);
    expect(hash.digest('hex')).toBe(sha256(path));
  });
});

describe('gzip', () => {
  it('cuts inflated lines at line ends across chunks, and hashes the compressed bytes', async () => {
    const records = Array.from({ length: 20_000 }, (_, i) => ({ prompt: `p${i}`, chosen: 'c'.repeat(i % 200), rejected: 'r' }));
    const path = write('many.jsonl.gz', gzipSync(jsonl(records)));
    const { lines, sha256: hashed } = await allChunks(path);
    expect(lines).toEqual(records.map((r) => JSON.stringify(r)));
    expect(hashed).toBe(sha256(path));
  });

  it('refuses a damaged gzip file as an invalid file', async () => {
    const packed = gzipSync(jsonl(TRL));
    const path = write('cut.jsonl.gz', packed.subarray(0, packed.length - 20));
    const error = await allChunks(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArbiterError);
    expect((error as ArbiterError).code).toBe('invalid_file');
  });
});

describe('headLines', () => {
  it('gives the first records of every kind as lines of text', async () => {
    const expected = TRL.slice(0, 2).map((r) => JSON.stringify(r));
    for (const path of [write('h.jsonl', jsonl(TRL)), write('h.jsonl.gz', gzipSync(jsonl(TRL))), write('h.json', JSON.stringify(TRL, null, 2)), writeTrlParquet('h.parquet')])
      expect(await headLines(path, 2), path).toEqual(expected);
  });

  // Stopping early must close the file, also behind a gzip inflater.
  it.skipIf(!existsSync('/proc/self/fd'))('closes the file when it stops early', async () => {
    const openFiles = () => readdirSync('/proc/self/fd').length;
    // Random text, so that even compressed the file is bigger than one read.
    const records = Array.from({ length: 50_000 }, (_, i) => ({ prompt: `p${i}`, chosen: randomBytes(48).toString('base64'), rejected: 'r' }));
    const paths = [write('e.jsonl', jsonl(records)), write('e.jsonl.gz', gzipSync(jsonl(records))), write('e.json', JSON.stringify(records)), writeTrlParquet('e.parquet')];
    const before = openFiles();
    for (const path of paths) expect(await headLines(path, 3), path).toHaveLength(3);
    expect(openFiles()).toBe(before);
  });

  it('keeps blank lines (so line numbers match the import) and stops at about 256 KiB', async () => {
    expect(await headLines(write('blank.jsonl', `\n${jsonl(TRL)}`), 1)).toEqual(['', JSON.stringify(TRL[0])]);
    const long = TRL.map((r) => ({ ...r, chosen: 'x'.repeat(100_000) }));
    expect(await headLines(write('long.jsonl', jsonl(long)))).toHaveLength(3);
  });
});
