// The database-free half of an import: line splitting as readline does it, and prepared item rows that
// hash and store exactly what the one-by-one path did.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { responsesSearchText, searchText } from '../../../shared/searchText';
import { chunkLines, PARSERS, prepareLines, RECORD_STRIDE } from '../../../electron/core/formats/import/prepare';
import { readLines } from '../../../electron/core/formats/jsonl';
import { draftUid } from '../../../electron/core/store/itemInsert';

const dir = mkdtempSync(join(tmpdir(), 'arbiter-prepare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function viaReadline(text: string): Promise<string[]> {
  const path = join(dir, 'f.jsonl');
  writeFileSync(path, text);
  const out: string[] = [];
  for await (const line of readLines(path)) out.push(line);
  return out;
}

describe('chunkLines', () => {
  const texts = [
    '',
    '\n',
    'a',
    'a\n',
    'a\nb',
    'a\n\nb\n\n',
    'a\r\nb\r\n',
    'a\rb\r',
    'a\r\r\nb',
    '\r\n\r\n',
    'é ✓ 😀\n{"x":"y"}\r\n',
    '\uFEFFa\nb\n',
  ];
  it.each(texts.map((t) => [JSON.stringify(t), t]))('splits %s as readline does', async (_, text) => {
    const expected = await viaReadline(text);
    if (expected.length && expected[0]!.charCodeAt(0) === 0xfeff) expected[0] = expected[0]!.slice(1);
    expect(chunkLines({ bytes: Buffer.from(text, 'utf8') }, true)).toEqual(expected);
  });

  it('takes given lines as they are, less one trailing \\r, and a BOM only on the first chunk', () => {
    expect(chunkLines({ lines: ['\uFEFFa\r', 'b\r\r', ''] }, true)).toEqual(['a', 'b\r', '']);
    expect(chunkLines({ lines: ['\uFEFFa'] }, false)).toEqual(['\uFEFFa']);
  });
});

describe('prepareLines', () => {
  it('stores and hashes what itemInserter did, for text and chat content', () => {
    const records = [
      { format: 'trl', record: { prompt: 'Why "x"?\n', chosen: ' Because ✓', rejected: ' No', id: 7, chosen_model: 'm1', extra: { b: 1, a: [2] } } },
      {
        format: 'trl-chat',
        record: {
          prompt: [{ role: 'user', content: 'hi', name: 'u' }],
          chosen: [{ content: 'hello', role: 'assistant' }],
          rejected: [{ role: 'assistant', content: 'bye' }],
        },
      },
      { format: 'arbiter', record: { id: 'q', prompt: 'p', responses: [{ text: 'a', steps: ['s1', 's2'] }, { text: [{ role: 'assistant', content: 'b' }], model: 'm' }], reference: 'r', metadata: { z: 1 } } },
    ] as const;
    for (const { format, record } of records) {
      const parse = PARSERS[format];
      const result = prepareLines(parse, [JSON.stringify(record)]);
      expect(result.errors).toEqual([]);
      const { draft, preference } = parse(JSON.parse(JSON.stringify(record)));
      expect(result.rows).toEqual([
        draftUid(draft),
        draft.externalId,
        JSON.stringify(draft.prompt),
        draft.reference,
        JSON.stringify(draft.metadata),
        String(draft.responses.length),
        preference,
        null,
        '1',
        null,
        // What the search index takes: the prompt's text, the responses' text, their tool calls' and results'.
        searchText(draft.prompt).text,
        responsesSearchText(draft.responses.map((r) => r.content)).text,
        '',
      ]);
      expect(result.rows).toHaveLength(RECORD_STRIDE);
      expect(result.responses).toEqual(draft.responses.flatMap((r) => [JSON.stringify(r.content), r.model, r.steps === null ? null : JSON.stringify(r.steps)]));
    }
  });

  it('reports bad lines by their place in the chunk, skips blank ones, and only validates when asked', () => {
    const good = JSON.stringify({ prompt: 'p', chosen: 'c', rejected: 'r' });
    const result = prepareLines(PARSERS.trl, [good, '', '{oops', '  ', '[1]', good], true);
    expect(result).toMatchObject({ lines: 6, records: 4, rows: [] });
    expect(result.errors.map((e) => [e.line, e.text])).toEqual([
      [3, '{oops'],
      [5, '[1]'],
    ]);
  });
});
