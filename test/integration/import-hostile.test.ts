// Hostile and odd input files against the item import, on a real SQLite file (issue 13): a record
// longer than the cap, bytes that are not UTF-8, numbers JSON cannot hold, keys that name Object's own
// properties, records nested thousands deep, a project made for an import that fails or is killed,
// items sharing an external id, images in text-format exports, and a chain given by its steps alone.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArbiterError, InvalidFileError } from '../../electron/core/base/errors';
import { exportProject, importFile, importLabelsFile } from '../../electron/core/formats';
import { ArbiterService } from '../../electron/core/service';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { iterateItems } from '../../electron/core/store/items';
import { findProject, listProjects, requireProject } from '../../electron/core/store/projects';
import { tempDir } from '../helpers/tmp';

const ROOT = join(__dirname, '..', '..');

let dir: string;
let db: Db;

beforeEach(() => {
  dir = tempDir('arbiter-hostile-');
  db = openDb(join(dir, 'arbiter.db'));
});

afterEach(() => {
  delete process.env.ARBITER_RECORD_MAX_BYTES;
  delete process.env.ARBITER_RECORD_MAX_DEPTH;
  db.close();
});

const pair = (i: number, extra: Record<string, unknown> = {}) => JSON.stringify({ prompt: `p${i}`, chosen: `c${i}`, rejected: `r${i}`, ...extra });
const write = (name: string, data: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
};
const items = (project = 'p') => [...iterateItems(db, requireProject(db, project).id)];

async function refusal(run: Promise<unknown>): Promise<ArbiterError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ArbiterError);
  return error as ArbiterError;
}

/** Runs the CLI from source in a child process; prints its peak RSS (MiB) on the last stderr line. */
function cli(args: string[], env: Record<string, string> = {}) {
  const script = `
    const { runCli } = await import(${JSON.stringify(join(ROOT, 'electron/cli/main.ts'))});
    const code = await runCli(${JSON.stringify(args)});
    process.stderr.write('\\nmaxrss ' + Math.round(process.resourceUsage().maxRSS / 1024) + '\\n');
    process.exit(code);`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ARBITER_NO_DEMO: '1', ARBITER_IMPORT_WORKER: 'off', ...env },
    maxBuffer: 64 << 20,
  });
  const rss = Number(/maxrss (\d+)/.exec(result.stderr)?.[1] ?? NaN);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, rss };
}

describe('a record longer than the cap (finding 2)', () => {
  it('refuses a JSON Lines file whose line 2 is over the cap, naming the line, and imports nothing', async () => {
    process.env.ARBITER_RECORD_MAX_BYTES = '1MiB';
    const path = write('long.jsonl', [pair(1), pair(2, { pad: 'x'.repeat(3 << 20) }), pair(3)].join('\n') + '\n');
    const error = await refusal(importFile(db, { path, project: 'p', createProject: true }));
    expect(error.message).toMatch(/long\.jsonl:2: .*longer than 1 MiB/);
    expect(error.message).toMatch(/ARBITER_RECORD_MAX_BYTES/);
    expect(findProject(db, 'p')).toBeUndefined();
  });

  it('refuses a gzip file and a JSON array the same way, by line and by element', async () => {
    process.env.ARBITER_RECORD_MAX_BYTES = '1MiB';
    const gz = write('long.jsonl.gz', gzipSync(Buffer.from([pair(1), pair(2), pair(3, { pad: 'y'.repeat(8 << 20) })].join('\n') + '\n')));
    expect((await refusal(importFile(db, { path: gz, project: 'p', createProject: true }))).message).toMatch(/long\.jsonl\.gz:3: .*longer than 1 MiB/);
    const array = write('long.json', `[${pair(1)},\n${pair(2, { pad: 'z'.repeat(3 << 20) })}]`);
    expect((await refusal(importFile(db, { path: array, project: 'p', createProject: true }))).message).toMatch(/long\.json:2: .*longer than 1 MiB/);
  });

  it('the CLI stops a 100 MiB line in a small .jsonl.gz at the default 64 MiB cap, with the line and bounded memory', () => {
    const gz = write('huge.jsonl.gz', gzipSync(Buffer.concat([Buffer.from(`${pair(1)}\n{"prompt":"`), Buffer.alloc(100 << 20, 0x61), Buffer.from('","chosen":"a","rejected":"b"}\n')])));
    const result = cli(['import', gz, '--project', 'p', '--db', join(dir, 'cli.db')]);
    expect(result.code, result.stderr).not.toBe(0);
    expect(result.stderr).toMatch(/huge\.jsonl\.gz:2: .*longer than 64 MiB/);
    // Today's reader held the whole line, then its string twice over.
    expect(result.rss).toBeLessThan(400);
  }, 120_000);
});

describe('bytes that are not UTF-8 (finding 8)', () => {
  const bad = Buffer.concat([Buffer.from(`${pair(1)}\n{"prompt":"caf`), Buffer.from([0xe9]), Buffer.from(`","chosen":"a","rejected":"b"}\n${pair(3)}\n`)]);

  it('refuses the line with its byte offset, and --skip-invalid rejects only that line', async () => {
    const path = write('latin1.jsonl', bad);
    const error = await refusal(importFile(db, { path, project: 'p', createProject: true }));
    expect(error).toBeInstanceOf(InvalidFileError);
    expect((error as InvalidFileError).errors).toEqual([{ line: 2, reason: expect.stringMatching(/not valid UTF-8.*byte 15/) }]);
    const summary = await importFile(db, { path, project: 'p', createProject: true, skipInvalid: true });
    expect(summary).toMatchObject({ items: 2, rejected: 1 });
    expect(items().some((i) => JSON.stringify(i).includes('\ufffd'))).toBe(false);
  });

  it('refuses it in a gzip file too', async () => {
    const path = write('latin1.jsonl.gz', gzipSync(bad));
    const error = await refusal(importFile(db, { path, project: 'p', createProject: true }));
    expect((error as InvalidFileError).errors).toEqual([{ line: 2, reason: expect.stringMatching(/not valid UTF-8/) }]);
  });

  it('labels import refuses it with the line and byte', async () => {
    await importFile(db, { path: write('ok.jsonl', `${pair(1)}\n`), project: 'p', createProject: true });
    const labels = write('labels.jsonl', Buffer.concat([Buffer.from('{"id":"0191d5a0-7c1e-7000-8000-000000000001","item":"x","annotator":"b'), Buffer.from([0xff, 0xfe]), Buffer.from('b","choice":"A","created_at":"2026-01-01T00:00:00Z"}\n')]));
    const error = await refusal(importLabelsFile(db, { path: labels, project: 'p' }));
    expect(error.message).toMatch(/labels\.jsonl:1: .*not valid UTF-8.*byte 71/);
  });

  it('rubric import refuses it with the line and byte', () => {
    const dbPath = join(dir, 'cli.db');
    expect(cli(['import', write('ok.jsonl', `${pair(1)}\n`), '--project', 'p', '--db', dbPath]).code).toBe(0);
    const rubric = write('rubric.json', Buffer.concat([Buffer.from('{"name":"r",\n"criteria":[{"id":"c","name":"na'), Buffer.from([0xc3]), Buffer.from('ve","type":"binary"}]}\n')]));
    const result = cli(['rubric', 'import', rubric, '--project', 'p', '--db', dbPath]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/rubric\.json:2: .*not valid UTF-8.*byte 33/);
  }, 60_000);
});

describe('numbers and keys JSON can hold (finding 9)', () => {
  it('refuses a number that overflows to infinity, naming the line and the field', async () => {
    const path = write('big.jsonl', `${pair(1)}\n{"prompt":"p","chosen":"a","rejected":"b","score":{"x":[1,-1e309]}}\n`);
    const error = await refusal(importFile(db, { path, project: 'p', createProject: true }));
    expect((error as InvalidFileError).errors).toEqual([{ line: 2, reason: expect.stringMatching(/score\.x\[1\]: .*too large/) }]);
  });

  it("keeps keys named after Object's own properties, through the store and back out", async () => {
    const keys = { ['__proto__']: { polluted: true }, constructor: 'c', toString: 't', valueOf: 1, hasOwnProperty: false };
    const record = `{"id":"k1","prompt":"p","responses":[{"text":"a"},{"text":"b"}],"metadata":${JSON.stringify({ tag: 1 })},"__proto__":{"top":1},"constructor":"top-c","toString":"top-t","valueOf":2,"hasOwnProperty":true}`;
    const meta = `{"id":"k2","prompt":"q","responses":[{"text":"a"},{"text":"b"}],"metadata":{"__proto__":{"polluted":true},"constructor":"c","toString":"t","valueOf":1,"hasOwnProperty":false}}`;
    const trl = `{"prompt":"r","chosen":"a","rejected":"b","__proto__":{"x":1},"constructor":"k","toString":"s"}`;
    await importFile(db, { path: write('keys.jsonl', `${record}\n${meta}\n`), project: 'p', createProject: true, format: 'arbiter' });
    await importFile(db, { path: write('trl.jsonl', `${trl}\n`), project: 't', createProject: true, format: 'trl' });
    const out = join(dir, 'out.jsonl');
    await exportProject(db, { project: 'p', format: 'arbiter', out });
    const [first, second] = readFileSync(out, 'utf8').trim().split('\n');
    expect(first).toContain('"__proto__":{"top":1}');
    expect(JSON.parse(first!).metadata).toMatchObject({ tag: 1, constructor: 'top-c', toString: 'top-t', valueOf: 2, hasOwnProperty: true });
    expect(second).toContain('"__proto__":{"polluted":true}');
    expect(Object.keys(JSON.parse(second!).metadata).sort()).toEqual(Object.keys(keys).sort());
    const trlOut = join(dir, 'trl-out.jsonl');
    await exportProject(db, { project: 't', format: 'arbiter', out: trlOut });
    const kept = readFileSync(trlOut, 'utf8');
    expect(kept).toContain('"__proto__":{"x":1}');
    expect(kept).toContain('"constructor":"k"');
    expect(kept).toContain('"toString":"s"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('records nested thousands deep (finding 10)', () => {
  it('is an invalid line, skipped with --skip-invalid, whatever the depth', async () => {
    const deep = (n: number) => `{"prompt":"p","chosen":"a","rejected":"b","meta":${'['.repeat(n)}1${']'.repeat(n)}}`;
    const path = write('deep.jsonl', [pair(1), deep(5000), deep(200_000), pair(4)].join('\n') + '\n');
    const summary = await importFile(db, { path, project: 'p', createProject: true, skipInvalid: true });
    expect(summary).toMatchObject({ items: 2, rejected: 2 });
    expect(summary.errors.map((e) => e.line)).toEqual([2, 3]);
    expect(summary.errors[0]!.reason).toMatch(/nested more than 100 levels deep/);
  });
});

describe('an element of a JSON array nested thousands deep (finding 10)', () => {
  it('stops the import with the element number, not a stack overflow', async () => {
    const deep = `{"prompt":"p","chosen":"a","rejected":"b","meta":${'['.repeat(5000)}1${']'.repeat(5000)}}`;
    const path = write('deep.json', `[${pair(1)},\n${deep}]`);
    const error = await refusal(importFile(db, { path, project: 'p', createProject: true, skipInvalid: true }));
    expect(error.message).toMatch(/deep\.json:2: element 2 of the array is nested more than 100 levels deep/);
    expect(findProject(db, 'p')).toBeUndefined();
  });
});

describe('a project made for an import (finding 7)', () => {
  it('is not listed while the import runs, nor after it fails in the host', async () => {
    const service = new ArbiterService(db, { dbPath: join(dir, 'arbiter.db'), transport: 'http', version: 'test', defaultAnnotator: 'a' });
    try {
      const content = `${pair(1)}\nnot json\n`;
      const { uploadId } = await service.dispatch('startUpload', { fileName: 'bad.jsonl', size: Buffer.byteLength(content) });
      await service.dispatch('uploadChunk', { uploadId, offset: 0, data: Buffer.from(content).toString('base64') });
      await expect(service.dispatch('importUpload', { uploadId, project: 'fresh', format: 'auto', skipInvalid: false, createProject: true })).rejects.toThrow(/invalid line/);
      expect(listProjects(db).map((p) => p.name)).not.toContain('fresh');
      await expect(service.dispatch('importContent', { project: 'fresh2', fileName: 'bad.jsonl', content, format: 'auto', skipInvalid: false, createProject: true })).rejects.toThrow(/invalid line/);
      expect(listProjects(db).map((p) => p.name)).not.toContain('fresh2');
    } finally {
      service.stopBackgroundWork();
    }
  });

  it('leaves no project behind when `arbiter import` is killed, and none is listed meanwhile', async () => {
    const path = write('many.jsonl', Array.from({ length: 300_000 }, (_, i) => pair(i)).join('\n') + '\n');
    const dbPath = join(dir, 'kill.db');
    const script = `const { runCli } = await import(${JSON.stringify(join(ROOT, 'electron/cli/main.ts'))}); process.exit(await runCli(${JSON.stringify(['import', path, '--project', 'killed', '--db', dbPath])}));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, ARBITER_NO_DEMO: '1' }, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const watcher = openDb(dbPath);
    try {
      // Wait until the import has written rows, then look and kill.
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && ((watcher.prepare('SELECT COUNT(*) FROM item').pluck().get() as number) ?? 0) < 1000) await new Promise((r) => setTimeout(r, 20));
      expect(watcher.prepare('SELECT COUNT(*) FROM item').pluck().get()).toBeGreaterThan(0);
      expect(listProjects(watcher).map((p) => p.name)).not.toContain('killed');
      child.kill('SIGKILL');
      await exited;
    } finally {
      watcher.close();
    }
    const reopened = openDb(dbPath);
    try {
      expect(listProjects(reopened).map((p) => p.name)).toEqual([]);
      expect(reopened.prepare('SELECT COUNT(*) FROM project').pluck().get()).toBe(0);
      expect(reopened.prepare('SELECT COUNT(*) FROM item').pluck().get()).toBe(0);
    } finally {
      reopened.close();
    }
  }, 120_000);
});

describe('items that share an external id (finding 13)', () => {
  it('says how many and which, in the file and against the project', async () => {
    const rec = (id: string, p: string) => JSON.stringify({ id, prompt: p, responses: [{ text: 'a' }, { text: 'b' }] });
    const first = await importFile(db, { path: write('a.jsonl', [rec('x', '1'), rec('x', '2'), rec('y', '3')].join('\n') + '\n'), project: 'p', createProject: true });
    expect(first.sharedIds).toEqual({ items: 2, examples: ['x'] });
    const second = await importFile(db, { path: write('b.jsonl', [rec('y', '4'), rec('z', '5')].join('\n') + '\n'), project: 'p' });
    expect(second.sharedIds).toEqual({ items: 1, examples: ['y'] });
  });
});

/** A 1 × 1 red PNG (made by sharp), as a data URI: an image is stored now, so it must be one (issue 15). */
const PNG_1X1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVQImWP4z8AAAAMBAQCc479ZAAAAAElFTkSuQmCC';
const PNG_SHA256 = createHash('sha256').update(Buffer.from(PNG_1X1.slice(22), 'base64')).digest('hex');

describe('images (finding 21)', () => {
  const withImage = JSON.stringify({
    id: 'img-1',
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PNG_1X1 } }] }],
    responses: [{ text: 'A cat.' }, { text: 'A dog.' }],
  });

  it('are counted and named at import, refused from text formats unless dropped, and kept by arbiter', async () => {
    const summary = await importFile(db, { path: write('img.jsonl', `${withImage}\n${JSON.stringify({ id: 'plain', prompt: 'p', responses: [{ text: 'a' }, { text: 'b' }] })}\n`), project: 'p', createProject: true });
    expect(summary.images).toEqual({ items: 1, examples: ['img-1'] });
    const item = items().find((i) => i.externalId === 'img-1')!;
    expect(item).toBeTruthy();
    // Every item decided, so that trl writes it.
    const alice = ensureAnnotator(db, 'alice', 'human').id;
    for (const it of items()) labelAppender(db)({ projectId: requireProject(db, 'p').id, itemId: it.id, annotatorId: alice, choice: 'A', strength: null, shownOrder: [0, 1] });
    for (const format of ['trl', 'hh-rlhf'] as const) {
      const error = await refusal(exportProject(db, { project: 'p', format, out: join(dir, `${format}.jsonl`) }));
      expect(error.message).toMatch(/1 item holds images/);
      const dropped = await exportProject(db, { project: 'p', format, out: join(dir, `${format}.jsonl`), images: 'drop' });
      expect(dropped.written).toBe(2);
      expect(dropped.note).toMatch(/1 item held images, left out of the text/);
      expect(readFileSync(join(dir, `${format}.jsonl`), 'utf8')).not.toContain('[image]');
    }
    await exportProject(db, { project: 'p', format: 'arbiter', out: join(dir, 'a.jsonl') });
    // Arbiter's own format keeps the stored image part (by hash; the bytes are in the image store).
    expect(readFileSync(join(dir, 'a.jsonl'), 'utf8')).toContain(PNG_SHA256);
  });
});

describe('the CLI says it too', () => {
  it('import prints shared ids and images on stderr; export refuses images, or drops them with --images drop', () => {
    const dbPath = join(dir, 'cli.db');
    const rec = (id: string, prompt: unknown) => JSON.stringify({ id, prompt, responses: [{ text: 'a' }, { text: 'b' }] });
    const image = [{ role: 'user', content: [{ type: 'image_url', image_url: { url: PNG_1X1 } }] }];
    const file = write('cli.jsonl', [rec('x', 'one'), rec('x', 'two'), rec('pic', image)].join('\n') + '\n');
    const imported = cli(['import', file, '--project', 'p', '--db', dbPath]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('arbiter import: 2 new items have an external id that another item of the project also has (x); all were imported, as different items.');
    expect(imported.stderr).toContain('arbiter import: 1 new item holds images (pic): 1 image stored (new).');
    expect(JSON.parse(imported.stdout)).toMatchObject({ sharedIds: { items: 2, examples: ['x'] }, images: { items: 1, examples: ['pic'] } });
    const out = join(dir, 'rb.jsonl');
    const refused = cli(['export', '--project', 'p', '--format', 'rewardbench', '--out', out, '--db', dbPath]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/1 item holds images \(pic\), which the rewardbench format cannot carry/);
    const dropped = cli(['export', '--project', 'p', '--format', 'rewardbench', '--out', out, '--images', 'drop', '--db', dbPath]);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(JSON.parse(dropped.stdout)).toMatchObject({ imagesDropped: { items: 1, examples: ['pic'] } });
  }, 60_000);

  it('a preview of an upload names the file by its own name, never where the host keeps it', async () => {
    process.env.ARBITER_RECORD_MAX_BYTES = '1MiB';
    const service = new ArbiterService(db, { dbPath: join(dir, 'arbiter.db'), transport: 'http', version: 'test', defaultAnnotator: 'a' });
    try {
      const content = `${pair(1, { pad: 'x'.repeat(2 << 20) })}\n`;
      const { uploadId } = await service.dispatch('startUpload', { fileName: 'mine.jsonl', size: Buffer.byteLength(content) });
      for (let at = 0; at < content.length; at += 1 << 20)
        await service.dispatch('uploadChunk', { uploadId, offset: at, data: Buffer.from(content.slice(at, at + (1 << 20))).toString('base64') });
      const error = await refusal(service.dispatch('previewUpload', { uploadId, format: 'auto' }));
      expect(error.message).toMatch(/^mine\.jsonl:1: the record is longer than 1 MiB/);
    } finally {
      service.stopBackgroundWork();
    }
  });
});

describe('a chain given by its steps alone (finding 26)', () => {
  it('takes the response text from the steps', async () => {
    const record = JSON.stringify({ id: 's1', prompt: 'Add 2 and 3.', responses: [{ steps: ['2 + 3 = 5.', 'So the answer is 5.'] }] });
    const summary = await importFile(db, { path: write('steps.jsonl', `${record}\n`), project: 'p', createProject: true, format: 'arbiter' });
    expect(summary.items).toBe(1);
    expect(items()[0]!.responses[0]).toMatchObject({ content: '2 + 3 = 5.\n\nSo the answer is 5.', steps: ['2 + 3 = 5.', 'So the answer is 5.'] });
  });
});
