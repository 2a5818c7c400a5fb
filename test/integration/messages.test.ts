// Messages people see: each says what happened, where, and what to do, in the words of the screen it
// reaches. A CSV file is "not JSON Lines" (no --format advice outside the CLI); a record longer than the
// preview reads is still recognised; validation never reaches the UI as zod's text; an item from
// another project says so.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { toErrorShape } from '../../electron/core/base/errors';
import { importLines, previewHead } from '../../electron/core/formats';
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { createProject } from '../../electron/core/store/projects';
import { schemas } from '../../shared/api';
import { tempDir } from '../helpers/tmp';

const CSV = ['id,prompt,chosen,rejected', '1,The sky is,blue,green', '2,Water boils at,100 C,50 C'];

function database() {
  const dbPath = join(tempDir(), 'arbiter.db');
  return { dbPath, db: openDb(dbPath) };
}

describe('a file that is not JSON Lines', () => {
  it('the import says "not JSON Lines", where, and what to do, without CLI advice', async () => {
    const { db } = database();
    createProject(db, 'p');
    const refused = importLines(db, { project: 'p', fileName: 'pairs.csv', lines: CSV, sha256: 'x', format: 'auto', skipInvalid: false });
    await expect(refused).rejects.toThrow(
      'pairs.csv is not JSON Lines: line 1 is not a JSON object (it begins "id,prompt,chosen,rejected"); nothing was imported. Convert the table to JSON Lines (one JSON object per row), a .json array, .jsonl.gz or .parquet, then import it again.',
    );
    await expect(refused).rejects.not.toThrow(/--format|no records to look at/);
    db.close();
  });

  it('the preview says "not JSON Lines" instead of "no records to look at"', () => {
    const preview = previewHead(`${CSV.join('\n')}\n`, 'auto');
    expect(preview.detected).toBeNull();
    expect(preview.reason).toBe('not JSON Lines: line 1 is not a JSON object (it begins "id,prompt,chosen,rejected")');
  });

  it('JSON records of no known format: the UI is told to choose the format, the CLI to name it with --format', async () => {
    const { db, dbPath } = database();
    createProject(db, 'p');
    const refused = importLines(db, { project: 'p', fileName: 'qa.jsonl', lines: ['{"question":"q","answer":"a"}'], sha256: 'x', format: 'auto', skipInvalid: false });
    await expect(refused).rejects.toThrow(/^Cannot tell the format of qa\.jsonl: .*"question", "answer"\. Choose its format and import it again\.$/);
    await expect(refused).rejects.not.toThrow(/--format/);
    db.close();

    const dir = tempDir();
    const err: string[] = [];
    const io = { out: () => undefined, err: (line: string) => err.push(line) };
    writeFileSync(join(dir, 'qa.jsonl'), '{"question":"q","answer":"a"}\n');
    // Comma-separated text under another name than .csv (a .csv is read by its header row: sources/csv.ts).
    writeFileSync(join(dir, 'pairs.txt'), `${CSV.join('\n')}\n`);
    expect(await runCli(['import', join(dir, 'qa.jsonl'), '--project', 'p', '--db', dbPath], io)).toBe(1);
    expect(err.pop()).toMatch(/cannot tell the format of .*qa\.jsonl: .*Name it with --format \(one of: arbiter, trl,/);
    expect(await runCli(['import', join(dir, 'pairs.txt'), '--project', 'p', '--db', dbPath], io)).toBe(1);
    expect(err.pop()).toMatch(/pairs\.txt is not JSON Lines: line 1/);
  });
});

describe('a record longer than the preview reads', () => {
  const big = (fields: Record<string, string>) => JSON.stringify(fields);
  const HEAD = 256 * 1024;

  it('a 5 MB first record previews as the format the import then finds', async () => {
    const line = big({ prompt: 'Summarise this.', chosen: 'x'.repeat(5 << 20), rejected: 'Too long.' });
    const preview = previewHead(line.slice(0, HEAD), 'auto');
    expect(preview.detected).toBe('trl');
    expect(preview.reason).toMatch(/^trl: string "prompt", "chosen" and "rejected" \(line 1 is longer than the 256 KiB the preview reads/);

    const { db } = database();
    const imported = await importLines(db, { project: 'p', fileName: 'big.jsonl', lines: [line], sha256: 'x', format: 'auto', skipInvalid: false, createProject: true });
    expect(imported.summary.format).toBe(preview.detected);
    db.close();
  });

  it('tells HH transcripts and chat lists apart from the fields before the cut', () => {
    const hh = big({ chosen: `\n\nHuman: Hi\n\nAssistant: ${'y'.repeat(HEAD)}`, rejected: '\n\nHuman: Hi\n\nAssistant: No.' });
    expect(previewHead(hh.slice(0, HEAD), 'auto').detected).toBe('hh-rlhf');
    const chat = JSON.stringify({ prompt: [{ role: 'user', content: 'Hi' }], chosen: [{ role: 'assistant', content: 'z'.repeat(HEAD) }], rejected: [] });
    expect(previewHead(chat.slice(0, HEAD), 'auto').detected).toBe('trl-chat');
    // A cut inside an escape sequence does not throw.
    expect(previewHead(`{"prompt":"a","chosen":"${'\\u00e9'.repeat(60_000)}`.slice(0, HEAD - 3), 'auto').detected).toBe('trl');
  });

  it('a cut last line after whole records is still left out, as before', () => {
    const head = `${big({ prompt: 'a', chosen: 'b', rejected: 'c' })}\n{"prompt":"cut`;
    const preview = previewHead(head, 'auto');
    expect(preview.records).toHaveLength(1);
    expect(preview.errors).toEqual([]);
  });
});

describe('invalid input at the API boundary', () => {
  function service() {
    const { db, dbPath } = database();
    createProject(db, 'p');
    return { db, service: new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice' }) };
  }

  it('is a sentence for people, never zod text', async () => {
    const { db, service: s } = service();
    const cases: [string, unknown, string][] = [
      ['getItem', { project: 'p', annotator: 'a', itemId: 0 }, 'Could not open the item: the item id must be more than 0 (it was 0).'],
      ['getItem', { project: 'p', annotator: 'a', itemId: 'seven' }, 'Could not open the item: the item id must be a number (it was “seven”).'],
      ['saveLabel', { project: 'p', annotator: 'a', itemId: 1, choice: 'C', shownOrder: [0, 1] }, 'Could not save the label: the choice must be one of "A", "B", "tie", "both_bad" (it was “C”).'],
      ['listItems', { project: 'p', limit: 5000 }, 'Could not list the items: the number of rows must be 1000 or less (it was 5000).'],
      ['createProject', { name: 'a/b' }, 'Could not create the project: project name has a slash or a control character.'],
      ['getItem', { project: 'p', annotator: 'a', itemId: 1, color: 'red' }, 'Could not open the item: Arbiter does not know “color” here.'],
      ['saveLabel', { project: 'p', annotator: 'a', choice: 'A', shownOrder: [0, 1] }, 'Could not save the label: the item id is missing.'],
    ];
    for (const [name, input, message] of cases) {
      const refused = s.dispatch(name as 'getItem', input as never);
      await expect(refused, name).rejects.toThrow(message);
      await expect(refused, name).rejects.not.toThrow(/Invalid input|Too small|Too big|expected number/);
    }
    db.close();
  });

  it('any zod error that reaches a transport is worded the same way, without the values in details', () => {
    const result = schemas.getItem.safeParse({ project: 'p', annotator: 'a', itemId: -3 });
    expect(result.success).toBe(false);
    const shape = toErrorShape(result.error);
    expect(shape.code).toBe('invalid_input');
    expect(shape.message).toBe('The request was refused: the item id must be more than 0.');
    expect(JSON.stringify(shape.details)).not.toContain('-3');
  });

  it('an item id from another project says where the item is', async () => {
    const { db, service: s } = service();
    const { importLines: load } = await import('../../electron/core/formats/index');
    await load(db, { project: 'other', fileName: 'o.jsonl', lines: ['{"prompt":"o","chosen":"x","rejected":"y"}'], sha256: 'o', format: 'trl', skipInvalid: false, createProject: true });
    const foreign = db.prepare('SELECT id FROM item').pluck().get() as number;
    await expect(s.dispatch('getItem', { project: 'p', annotator: 'a', itemId: foreign })).rejects.toThrow(
      `Item ${foreign} is not in the project “p”: it belongs to “other”. Open “other” to see it, or pick an item from the list of “p”.`,
    );
    await expect(s.dispatch('getItem', { project: 'p', annotator: 'a', itemId: 424242 })).rejects.toThrow('The project “p” has no item 424242 (it may have been removed).');
    db.close();
  });
});
