// Importing images (issue 15): every raw form a file holds (data URI, base64, OpenAI image_url, HF
// {bytes, path}, paths relative to the file's folder or the images folder given) becomes a stored part
// whose bytes are in the image store beside the database, once per image; http URLs are kept and never
// fetched; hostile images (not an image, missing, outside the folder, a JPEG bomb, too many bytes) are
// an error naming the line and the path, or a reject with skipInvalid. Real SQLite files, real images
// made by sharp, real child processes for the CLI.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ContentPart, LineError } from '../../shared/domain';
import { isImagePart, type ImagePart } from '../../shared/images';
import { importNotes } from '../../shared/importNotes';
import { ArbiterError, type InvalidFileError } from '../../electron/core/base/errors';
import { exportProject, importFile, importLines } from '../../electron/core/formats';
import { imageFile, imageStoreOf } from '../../electron/core/images/store';
import { ArbiterService } from '../../electron/core/service';
import { openDb, type Db } from '../../electron/core/store/db';
import { projectHoldsImage, projectImageCount } from '../../electron/core/store/images';
import { iterateItems } from '../../electron/core/store/items';
import { requireProject } from '../../electron/core/store/projects';
import { tempDir } from '../helpers/tmp';

const ROOT = join(__dirname, '..', '..');

let dir: string;
let db: Db;
let store: string;
let red: Buffer; // 3 × 2 PNG
let blue: Buffer; // 4 × 2 JPEG stored sideways (EXIF orientation 6): shown 2 × 4
let green: Buffer; // 5 × 5 WebP

beforeAll(async () => {
  red = await sharp({ create: { width: 3, height: 2, channels: 3, background: '#f00' } }).png().toBuffer();
  blue = await sharp({ create: { width: 4, height: 2, channels: 3, background: '#00f' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
  green = await sharp({ create: { width: 5, height: 5, channels: 3, background: '#0f0' } }).webp().toBuffer();
});

beforeEach(() => {
  dir = tempDir('arbiter-images-');
  db = openDb(join(dir, 'arbiter.db'));
  store = imageStoreOf(db);
});

afterEach(() => {
  delete process.env.ARBITER_IMAGE_MAX_BYTES;
  db.close();
});

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const dataUri = (bytes: Buffer, mime = 'image/png') => `data:${mime};base64,${bytes.toString('base64')}`;
const write = (name: string, data: string | Buffer, under = dir) => {
  const path = join(under, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, data);
  return path;
};
/** An Arbiter-format item whose prompt is a user turn with `parts`. */
const item = (id: string, ...parts: unknown[]) => JSON.stringify({ id, prompt: [{ role: 'user', content: [{ type: 'text', text: `question ${id}` }, ...parts] }], responses: [{ text: 'a' }, { text: 'b' }] });
const lines = (...records: string[]) => `${records.join('\n')}\n`;
const items = (project = 'p') => [...iterateItems(db, requireProject(db, project).id)];
const promptImages = (project = 'p'): ImagePart[] =>
  items(project).flatMap((i) => (i.prompt as ChatMessage[]).flatMap((m) => (Array.isArray(m.content) ? (m.content as ContentPart[]) : []).filter(isImagePart)));
/** Bytes this process's reads have returned so far (threads included): /proc/self/io's rchar. */
const bytesRead = () => Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
const storedFiles = () => (existsSync(store) ? readdirSync(store, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : []);

/** The refusal of an all-or-nothing import, with its lines as the CLI prints them (`FILE:LINE: reason`). */
async function refused(run: Promise<unknown>): Promise<InvalidFileError & { lines: string }> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ArbiterError);
  const refusal = error as InvalidFileError;
  const errors = (refusal.errors ?? refusal.details) as LineError[];
  expect(refusal.message).toMatch(/invalid line\(s\) in .*; nothing was imported\./);
  return Object.assign(refusal, { lines: errors.map((e) => `${refusal.file ?? ''}:${e.line}: ${e.reason}`).join('\n') });
}

describe('every raw form becomes a stored image', () => {
  it('data URI, base64, OpenAI image_url and input_image, HF {bytes, path} and image strings', async () => {
    const file = write(
      'forms.jsonl',
      lines(
        item('uri', { type: 'image_url', image_url: { url: dataUri(red) } }),
        item('uri-string', { type: 'image_url', image_url: dataUri(red) }),
        item('input', { type: 'input_image', image_url: dataUri(blue, 'image/jpeg') }),
        item('b64', { type: 'image', base64: green.toString('base64') }),
        item('hf', { type: 'image', image: { bytes: blue.toString('base64'), path: 'photo.jpg' }, column: 'images', index: 0 }),
        item('hf-string', { type: 'image', image: dataUri(green, 'image/webp') }),
        item('source', { type: 'image', source: { type: 'base64', media_type: 'image/png', data: red.toString('base64') } }),
      ),
    );
    const summary = await importFile(db, { path: file, project: 'p', createProject: true });
    expect(summary.items).toBe(7);
    expect(summary.images).toEqual({ items: 7, examples: ['uri', 'uri-string', 'input', 'b64', 'hf'] });
    // Three distinct images, each written once.
    expect(summary.imageFiles).toEqual({ added: 3, kept: 0 });
    expect(storedFiles().sort()).toEqual([sha(red), sha(blue), sha(green)].sort());
    expect(readFileSync(imageFile(store, sha(blue))).equals(blue)).toBe(true);
    const byId = new Map(items().map((i) => [i.externalId, i]));
    const part = (id: string) => ((byId.get(id)!.prompt as ChatMessage[])[0]!.content as ContentPart[])[1] as ImagePart;
    expect(part('uri')).toEqual({ type: 'image', image: { sha256: sha(red), mime: 'image/png', width: 3, height: 2, bytes: red.length }, origin: { kind: 'inline' } });
    // EXIF orientation 6: the 4 × 2 stored pixels are shown 2 wide, 4 tall.
    expect(part('input').image).toEqual({ sha256: sha(blue), mime: 'image/jpeg', width: 2, height: 4, bytes: blue.length });
    expect(part('b64').image).toMatchObject({ sha256: sha(green), mime: 'image/webp', width: 5, height: 5 });
    expect(part('hf').origin).toEqual({ kind: 'column', column: 'images', index: 0, path: 'photo.jpg' });
    expect(part('source').image!.sha256).toBe(sha(red));
    for (const s of [sha(red), sha(blue), sha(green)]) expect(projectHoldsImage(db, requireProject(db, 'p').id, s)).toBe(true);
    expect(projectImageCount(db, requireProject(db, 'p').id)).toBe(3);
    expect(importNotes(summary)).toContain('7 new items hold images (uri, uri-string, input, b64, hf, …): 3 images stored (all new).');
  });

  it('relative paths: from the file’s own folder, or from the images folder given', async () => {
    write('imgs/cat.png', red);
    const file = write('set.jsonl', lines(item('a', { type: 'image', image: 'imgs/cat.png' }), item('b', { type: 'image', path: 'imgs\\cat.png' })));
    const summary = await importFile(db, { path: file, project: 'p', createProject: true });
    expect(summary.imageFiles).toEqual({ added: 1, kept: 0 });
    expect(promptImages().map((p) => p.origin)).toEqual([
      { kind: 'path', path: 'imgs/cat.png' },
      { kind: 'path', path: 'imgs\\cat.png' },
    ]);
    // A file elsewhere, its images in another folder.
    const elsewhere = tempDir('arbiter-images-folder-');
    write('pics/dog.jpg', blue, elsewhere);
    const other = write('other/set.jsonl', lines(item('c', { type: 'image_url', image_url: { url: 'pics/dog.jpg' } })));
    const alone = await refused(importFile(db, { path: other, project: 'p' }));
    expect(alone.lines).toContain(`other/set.jsonl:1: prompt message 1, part 2: pics/dog.jpg: no such file in ${join(dir, 'other')} (the file’s folder)`);
    const given = await importFile(db, { path: other, project: 'p', imagesDir: elsewhere });
    expect(given.items).toBe(1);
    expect(given.imageFiles).toEqual({ added: 1, kept: 0 });
    expect(readFileSync(imageFile(store, sha(blue))).equals(blue)).toBe(true);
  });

  it('the same image in two items (and a response) is stored once; a re-import adds nothing', async () => {
    write('cat.png', red);
    const response = JSON.stringify({ id: 'gen', prompt: 'draw a cat', responses: [{ text: [{ role: 'assistant', content: [{ type: 'image', image: 'cat.png' }] }] }, { text: 'no' }] });
    const file = write('twice.jsonl', lines(item('one', { type: 'image', image: 'cat.png' }), item('two', { type: 'image_url', image_url: { url: dataUri(red) } }), response));
    const first = await importFile(db, { path: file, project: 'p', createProject: true });
    expect(first.items).toBe(3);
    expect(first.imageFiles).toEqual({ added: 1, kept: 0 });
    expect(storedFiles()).toEqual([sha(red)]);
    const generated = items().find((i) => i.externalId === 'gen')!;
    expect(((generated.responses[0]!.content as ChatMessage[])[0]!.content as ContentPart[])[0]).toMatchObject({ type: 'image', image: { sha256: sha(red) } });
    const again = await importFile(db, { path: file, project: 'p' });
    expect(again).toMatchObject({ items: 0, duplicates: 3, images: { items: 0 }, imageFiles: { added: 0, kept: 0 } });
    expect(storedFiles()).toEqual([sha(red)]);
    // Another project: its items are new, their image is kept from the store.
    const other = await importFile(db, { path: file, project: 'q', createProject: true });
    expect(other.imageFiles).toEqual({ added: 0, kept: 1 });
    expect(importNotes(other)).toContain('3 new items hold images (one, two, gen): 1 image stored (already in the image store).');
  });

  it('the uid covers the image bytes, not how the file wrote them', async () => {
    write('cat.png', red);
    const file = write('ways.jsonl', lines(item('x', { type: 'image', image: 'cat.png' })));
    await importFile(db, { path: file, project: 'p', createProject: true });
    // The same path written as another raw form: the same stored part, so the same item.
    const same = write('same.jsonl', lines(item('x', { type: 'image', path: 'cat.png' })));
    expect(await importFile(db, { path: same, project: 'p' })).toMatchObject({ items: 0, duplicates: 1 });
    // The same record naming a file whose bytes changed is a new item (its sha256 differs).
    writeFileSync(join(dir, 'cat.png'), blue);
    expect(await importFile(db, { path: file, project: 'p' })).toMatchObject({ items: 1, imageFiles: { added: 1, kept: 0 } });
  });

  it('http(s) URLs are kept, shown as not available offline, and never fetched', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end(red);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cat.png`;
    try {
      const file = write('remote.jsonl', lines(item('web', { type: 'image_url', image_url: { url } }), item('web2', { type: 'image', url: url.replace('http:', 'https:') })));
      const summary = await importFile(db, { path: file, project: 'p', createProject: true });
      expect(summary).toMatchObject({ items: 2, images: { items: 2 }, imageFiles: { added: 0, kept: 0 }, imagesOffline: { items: 2, examples: ['web', 'web2'] } });
      expect(promptImages()[0]).toEqual({ type: 'image', origin: { kind: 'url', url }, unavailable: 'not available offline: http URL' });
      expect(importNotes(summary)).toContain(
        '2 new items have an image that is not available offline (web, web2): an http(s) URL, kept and never fetched; it shows as “not available offline”.',
      );
      expect(storedFiles()).toEqual([]);
    } finally {
      server.close();
    }
    expect(requests).toBe(0);
  });

  it('trl-chat files with image_url parts (kept raw before) store them now', async () => {
    const prompt = [{ role: 'user', content: [{ type: 'text', text: 'what is it?' }, { type: 'image_url', image_url: { url: dataUri(red) } }] }];
    const file = write('chat.jsonl', lines(JSON.stringify({ prompt, chosen: [{ role: 'assistant', content: 'red' }], rejected: [{ role: 'assistant', content: 'blue' }] })));
    const summary = await importFile(db, { path: file, project: 'p', createProject: true, format: 'trl-chat' });
    expect(summary.imageFiles).toEqual({ added: 1, kept: 0 });
    expect(promptImages()[0]!.image!.sha256).toBe(sha(red));
  });

  it('an Arbiter export read back into another database finds its images by hash where the store has them', async () => {
    const file = write('a.jsonl', lines(item('x', { type: 'image_url', image_url: { url: dataUri(red) } })));
    await importFile(db, { path: file, project: 'p', createProject: true });
    const out = join(dir, 'export.jsonl');
    await exportProject(db, { project: 'p', format: 'arbiter', out });
    expect(readFileSync(out, 'utf8')).toContain(sha(red));
    const back = await importFile(db, { path: out, project: 'q', createProject: true });
    expect(back.imageFiles).toEqual({ added: 0, kept: 1 });
    expect(promptImages('q')[0]!.image).toEqual(promptImages('p')[0]!.image);
    // A database whose store lacks the bytes: refused with a sentence, not a part pointing at nothing.
    const elsewhere = openDb(join(tempDir(), 'other.db'));
    try {
      const error = await refused(importFile(elsewhere, { path: out, project: 'p', createProject: true }));
      expect(error.lines).toMatch(/export\.jsonl:1: prompt message 1, part 2: the image [0-9a-f]{12}…: it is not in this database’s image store/);
    } finally {
      elsewhere.close();
    }
  });

  it('an import worker stores the same images as the importing thread', async () => {
    write('imgs/cat.png', red);
    const records = Array.from({ length: 40 }, (_, i) => item(`w${i}`, { type: 'image', image: i % 2 ? 'imgs/cat.png' : dataUri(blue, 'image/jpeg') }));
    const file = write('many.jsonl', lines(...records));
    const here = await importFile(db, { path: file, project: 'here', createProject: true, format: 'arbiter', parallel: false });
    const worker = await importFile(db, { path: file, project: 'worker', createProject: true, format: 'arbiter', parallel: true });
    expect(worker.items).toBe(40);
    expect(worker.imageFiles).toEqual({ added: 0, kept: 2 });
    expect(here.imageFiles).toEqual({ added: 2, kept: 0 });
    expect(items('worker').map((i) => i.uid)).toEqual(items('here').map((i) => i.uid));
    expect(projectImageCount(db, requireProject(db, 'worker').id)).toBe(2);
  });
});

/** A JPEG header claiming 60000 × 60000 pixels (3.6 billion), 41 bytes: a decompression bomb. */
function jpegBomb(): Buffer {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00];
  const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, 0xea, 0x60, 0xea, 0x60, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01];
  return Buffer.from([0xff, 0xd8, ...app0, ...sof0, 0xff, 0xd9]);
}

describe('hostile images', () => {
  beforeEach(() => {
    for (const under of ['imgs', 'set/imgs']) {
      write(`${under}/ok.png`, red);
      write(`${under}/fake.png`, '<html><script>alert(1)</script></html>');
      write(`${under}/bomb.jpg`, jpegBomb());
    }
    write('imgs/big.png', Buffer.concat([red, Buffer.alloc(4096)]));
    write('secret.png', red);
  });

  const cases: [string, unknown, RegExp][] = [
    ['not an image', { type: 'image', image: 'imgs/fake.png' }, /prompt message 1, part 2: imgs\/fake\.png: not an image: its bytes are not PNG, JPEG, WebP, GIF, AVIF, BMP, TIFF or SVG \(it starts like text\)/],
    ['missing', { type: 'image', image: 'imgs/gone.png' }, /imgs\/gone\.png: no such file in .* \(the file’s folder\)/],
    ['absolute', { type: 'image', path: '/tmp/secret.png' }, /\/tmp\/secret\.png: an absolute path; image paths must be relative/],
    ['Windows absolute', { type: 'image', image: 'C:\\Users\\me\\secret.png' }, /secret\.png: an absolute path/],
    ['outside', { type: 'image', image: '../secret.png' }, /\.\.\/secret\.png: outside .*\/set \(the file’s folder\); image paths may not leave it/],
    ['file URL', { type: 'image_url', image_url: { url: 'file:///etc/passwd' } }, /file:\/\/\/etc\/passwd: a file: URL/],
    ['JPEG bomb', { type: 'image', image: 'imgs/bomb.jpg' }, /imgs\/bomb\.jpg: the image is 60000 × 60000 pixels \(3,600,000,000\), more than the 100,000,000 one image may have \(ARBITER_IMAGE_MAX_PIXELS raises it\)/],
    ['bomb inline', { type: 'image_url', image_url: { url: dataUri(jpegBomb(), 'image/jpeg') } }, /a data: URI: the image is 60000 × 60000 pixels/],
    ['bad base64', { type: 'image', base64: 'not base64 at all!!' }, /base64 image data: not base64/],
    ['no image', { type: 'image' }, /an image part with no image in it/],
    ['OpenAI file id', { type: 'input_image', file_id: 'file-abc' }, /the file id "file-abc": it names a file kept on OpenAI's servers/],
  ];

  it.each(cases)('%s: an error naming the line and the path; a reject with skipInvalid', async (_name, part, reason) => {
    const file = write('set/in.jsonl', lines(item('good', { type: 'image', image: 'imgs/ok.png' }), item('bad', part)));
    const error = await refused(importFile(db, { path: file, project: 'p', createProject: true }));
    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]!.line).toBe(2);
    expect(error.lines).toContain('in.jsonl:2: ');
    expect(error.lines).toMatch(reason);
    // All or nothing: no project, no image rows.
    expect(() => requireProject(db, 'p')).toThrow();
    const skipped = await importFile(db, { path: file, project: 'p', createProject: true, skipInvalid: true });
    expect(skipped).toMatchObject({ items: 1, rejected: 1 });
    expect(skipped.errors[0]!.reason).toMatch(reason);
    expect(readFileSync(`${file}.rejects.jsonl`, 'utf8')).toContain('"bad"');
    expect(projectImageCount(db, requireProject(db, 'p').id)).toBe(1);
  });

  it('an image over imageMaxBytes, as a file and inline, is refused before it is decoded', async () => {
    process.env.ARBITER_IMAGE_MAX_BYTES = '2KiB';
    const file = write('big.jsonl', lines(item('file', { type: 'image', image: 'imgs/big.png' }), item('inline', { type: 'image', base64: Buffer.concat([red, Buffer.alloc(4096)]).toString('base64') })));
    const error = await refused(importFile(db, { path: file, project: 'p', createProject: true }));
    expect(error.errors.map((e) => e.line)).toEqual([1, 2]);
    expect(error.errors[0]!.reason).toBe('prompt message 1, part 2: imgs/big.png: the image is 4.1 KiB, more than the 2 KiB one image may be (ARBITER_IMAGE_MAX_BYTES raises it)');
    expect(error.errors[1]!.reason).toMatch(/base64 image data: the image is 4\.1 KiB, more than the 2 KiB/);
  });

  it('a 200 MB image file is refused from its size alone, at once', async () => {
    const path = join(dir, 'imgs', 'huge.png');
    const fd = openSync(path, 'w');
    try {
      writeFileSync(fd, red);
      ftruncateSync(fd, 200 * 1000 * 1000);
    } finally {
      closeSync(fd);
    }
    const file = write('huge.jsonl', lines(item('huge', { type: 'image', image: 'imgs/huge.png' })));
    // From its size alone: this process (the import's worker threads included) reads a few KB of the
    // run's files, never the 200 MB (Linux counts every byte a read returns in /proc/self/io, rchar).
    const readBefore = bytesRead();
    const error = await refused(importFile(db, { path: file, project: 'p', createProject: true }));
    expect(bytesRead() - readBefore).toBeLessThan(16 * 1024 * 1024);
    expect(error.errors[0]!.reason).toBe('prompt message 1, part 2: imgs/huge.png: the image is 190.7 MiB, more than the 64 MiB one image may be (ARBITER_IMAGE_MAX_BYTES raises it)');
  });

  it('a link inside the folder to a file outside it is refused naming the file; a link that stays inside imports', async () => {
    symlinkSync(join(dir, 'secret.png'), join(dir, 'set', 'imgs', 'leak.png'));
    symlinkSync(dir, join(dir, 'set', 'up'));
    symlinkSync('ok.png', join(dir, 'set', 'imgs', 'alias.png'));
    const file = write('set/links.jsonl', lines(item('leak', { type: 'image', image: 'imgs/leak.png' }), item('via', { type: 'image', image: 'up/secret.png' }), item('alias', { type: 'image', image: 'imgs/alias.png' })));
    const error = await refused(importFile(db, { path: file, project: 'p', createProject: true }));
    expect(error.errors.map((e) => e.line)).toEqual([1, 2]);
    expect(error.errors[0]!.reason).toBe(`prompt message 1, part 2: imgs/leak.png: a link to ${join(dir, 'secret.png')}, outside ${join(dir, 'set')} (the file’s folder); image paths may not leave it`);
    expect(error.errors[1]!.reason).toMatch(/up\/secret\.png: a link to .*secret\.png, outside .*\/set \(the file’s folder\)/);
    // The same with the images folder given, and reached through a link of its own.
    symlinkSync(join(dir, 'set', 'imgs'), join(dir, 'imgs-link'));
    const named = write('set/named.jsonl', lines(item('leak', { type: 'image', image: 'leak.png' })));
    const viaFolder = await refused(importFile(db, { path: named, project: 'p', createProject: true, imagesDir: join(dir, 'imgs-link') }));
    expect(viaFolder.errors[0]!.reason).toBe(`prompt message 1, part 2: leak.png: a link to ${join(dir, 'secret.png')}, outside ${join(dir, 'imgs-link')} (the images folder); image paths may not leave it`);
    const only = write('set/alias.jsonl', lines(item('alias', { type: 'image', image: 'alias.png' })));
    expect(await importFile(db, { path: only, project: 'p', createProject: true, imagesDir: join(dir, 'imgs-link') })).toMatchObject({ items: 1 });
    expect(storedFiles()).toHaveLength(1);
  });

  it('a symlink or folder named as an image, and an images folder that is not one', async () => {
    mkdirSync(join(dir, 'imgs', 'folder.png'));
    const file = write('dir.jsonl', lines(item('d', { type: 'image', image: 'imgs/folder.png' })));
    const error = await refused(importFile(db, { path: file, project: 'p', createProject: true }));
    expect(error.errors[0]!.reason).toMatch(/imgs\/folder\.png: not a file in .* but a folder/);
    await expect(importFile(db, { path: file, project: 'p', createProject: true, imagesDir: join(dir, 'nowhere') })).rejects.toThrow(
      `The images folder ${join(dir, 'nowhere')} does not exist; nothing was imported.`,
    );
  });
});

describe('uploads and text sent by a page have no folder of their own', () => {
  it('a relative path needs the images folder; with it the upload imports', async () => {
    const folder = tempDir('arbiter-upload-images-');
    write('cat.png', red, folder);
    // The same name beside the upload's copy must not be read: the upload has no folder.
    const service = new ArbiterService(db, { dbPath: join(dir, 'arbiter.db'), transport: 'http', version: 'test', defaultAnnotator: 'a' });
    try {
      const content = lines(item('up', { type: 'image', image: 'cat.png' }));
      const upload = async () => {
        const { uploadId } = await service.dispatch('startUpload', { fileName: 'mine.jsonl', size: Buffer.byteLength(content) });
        await service.dispatch('uploadChunk', { uploadId, offset: 0, data: Buffer.from(content).toString('base64') });
        return uploadId;
      };
      const uploadId = await upload();
      const refusal = await refused(service.dispatch('importUpload', { uploadId, project: 'p', createProject: true }));
      expect(refusal.lines).toMatch(/:1: prompt message 1, part 2: cat\.png: a relative image path, and an uploaded file has no folder of its own: give the images folder/);
      const summary = await service.dispatch('importUpload', { uploadId, project: 'p', createProject: true, imagesDir: folder });
      expect(summary).toMatchObject({ items: 1, imageFiles: { added: 1, kept: 0 } });
      const text = await service.dispatch('importContent', { project: 'p', fileName: 'pasted.jsonl', content: lines(item('pasted', { type: 'image', image: 'cat.png' })), imagesDir: folder });
      expect(text).toMatchObject({ items: 1, imageFiles: { added: 0, kept: 1 } });
    } finally {
      service.stopBackgroundWork();
    }
  });

  it('importLines with no folder refuses a relative path with the same sentence', async () => {
    const error = await refused(importLines(db, { project: 'p', fileName: 'x.jsonl', lines: [item('x', { type: 'image', image: 'cat.png' })], sha256: 'x', format: 'arbiter', skipInvalid: false, createProject: true }));
    expect(error.lines).toMatch(/x\.jsonl:1: .*cat\.png: a relative image path, and an uploaded file has no folder of its own/);
  });
});

describe('arbiter import --images-dir', () => {
  it('reads paths from the folder given and says what it stored', () => {
    const folder = tempDir('arbiter-cli-images-');
    write('a/cat.png', red, folder);
    write('a/dog.jpg', blue, folder);
    const file = write('cli.jsonl', lines(item('c1', { type: 'image', image: 'a/cat.png' }), item('c2', { type: 'image', image: 'a/dog.jpg' }, { type: 'image_url', image_url: { url: 'https://example.invalid/x.png' } })));
    const dbPath = join(dir, 'cli.db');
    const run = (args: string[]) => {
      const script = `const { runCli } = await import(${JSON.stringify(join(ROOT, 'electron/cli/main.ts'))}); process.exit(await runCli(${JSON.stringify(args)}));`;
      const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ARBITER_NO_DEMO: '1' } });
      return { code: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    const without = run(['import', file, '--project', 'p', '--db', dbPath]);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain(`cli.jsonl:1: prompt message 1, part 2: a/cat.png: no such file in ${dir} (the file’s folder)`);
    const imported = run(['import', file, '--project', 'p', '--db', dbPath, '--images-dir', folder]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('arbiter import: 2 new items hold images (c1, c2): 2 images stored (all new).');
    expect(imported.stderr).toContain('arbiter import: 1 new item has an image that is not available offline (c2)');
    expect(JSON.parse(imported.stdout)).toMatchObject({ items: 2, imageFiles: { added: 2, kept: 0 }, imagesOffline: { items: 1, examples: ['c2'] } });
    expect(existsSync(join(`${dbPath}.images`, sha(red).slice(0, 2), sha(red)))).toBe(true);
  }, 60_000);
});
