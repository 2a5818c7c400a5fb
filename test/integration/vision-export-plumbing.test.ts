// Where a trl-vision export goes (issue 15): the service writes `x.jsonl` and `x_images/` into the exports
// folder (Parquet as `x.parquet`); the browser host's download sends the pair as one `x.zip` (stored
// entries) and a Parquet export as itself, each with its content type; the exports folder lets both go a
// minute after the download; the desktop save dialog's move takes the folder along under the chosen name,
// the rows' image paths rewritten. A real SQLite file, a real host on a port, real fetches.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importFile } from '../../electron/core/formats/index';
import { moveImagesBeside } from '../../electron/core/formats/vision/imagesBeside';
import { imageFile, imageStoreDir } from '../../electron/core/images/store';
import { exportsDir } from '../../electron/core/base/paths';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { startHost, type RunningHost } from '../../electron/host/server';
import { unzip } from '../helpers/zipEntries';

const ROOT = join(__dirname, '../..');
let home: string;
let service: ArbiterService;
let running: RunningHost;
let cat: Buffer;
let dog: Buffer;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'arbiter-vision-plumbing-'));
  vi.stubEnv('ARBITER_HOME', home);
  cat = await sharp({ create: { width: 12, height: 8, channels: 3, background: '#c84' } }).png().toBuffer();
  dog = await sharp({ create: { width: 9, height: 9, channels: 3, background: '#48c' } }).jpeg().toBuffer();
  mkdirSync(join(home, 'data'), { recursive: true });
  writeFileSync(join(home, 'data/cat.png'), cat);
  writeFileSync(join(home, 'data/dog.jpg'), dog);
  const rows = [
    { prompt: [{ role: 'user', content: [{ type: 'image' }, { type: 'text', text: 'What animal?' }] }], chosen: 'A cat.', rejected: 'A dog.', images: ['cat.png'] },
    { prompt: [{ role: 'user', content: [{ type: 'image' }, { type: 'text', text: 'And this one?' }] }], chosen: 'A dog.', rejected: 'A cat.', images: ['dog.jpg'] },
  ];
  writeFileSync(join(home, 'data/pairs.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const dbPath = join(home, 'arbiter.db');
  const db = openDb(dbPath);
  await importFile(db, { path: join(home, 'data/pairs.jsonl'), project: 'vis', format: 'auto', skipInvalid: false, createProject: true });
  service = new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
  running = await startHost({ service, rendererDir: join(ROOT, 'out', 'renderer'), port: 0 });
});

afterAll(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await running.close();
  service.db.close();
  rmSync(home, { recursive: true, force: true });
});

describe('trl-vision exports leave the exports folder as one download', () => {
  it('JSON Lines with its images beside it: x.zip holding x.jsonl and x_images/, stored', async () => {
    const summary = await service.dispatch('exportProject', { project: 'vis', format: 'trl-vision' });
    expect(summary.out).toMatch(/^vis-trl-vision-.*\.jsonl$/);
    const stem = summary.out.replace(/\.jsonl$/, '');
    // The summary tells the browser's user what the download will be.
    expect(summary.note).toContain(`The download is ${stem}.zip: ${summary.out} and its folder ${stem}_images`);
    const folder = join(exportsDir(service.options.dbPath), `${stem}_images`);
    expect(readdirSync(folder).sort()).toEqual([`${sha(cat)}.png`, `${sha(dog)}.jpg`].sort());
    const { ticket } = await service.dispatch('downloadTicket', { project: 'vis', file: summary.out });
    const response = await fetch(new URL(`/download/${ticket}`, running.url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${stem}.zip"`);
    const zip = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-length')).toBe(String(zip.length));
    const entries = unzip(zip);
    expect([...entries.keys()]).toEqual([summary.out, ...[`${stem}_images/${sha(cat)}.png`, `${stem}_images/${sha(dog)}.jpg`].sort()]);
    for (const entry of entries.values()) expect(entry.method).toBe(0);
    expect(sha(entries.get(`${stem}_images/${sha(cat)}.png`)!.bytes)).toBe(sha(cat));
    const lines = entries.get(summary.out)!.bytes.toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { images: string[] });
    // Every path in the file names an entry of the zip: unpacked, it loads as written.
    for (const line of lines) for (const path of line.images) expect(entries.has(path), path).toBe(true);

    // A minute after the download, the file and its folder leave the exports folder.
    const later = Date.now() + 61_000;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    const other = await service.dispatch('exportProject', { project: 'vis', format: 'trl-vision-parquet' });
    await service.dispatch('downloadTicket', { project: 'vis', file: other.out });
    expect(existsSync(join(exportsDir(service.options.dbPath), summary.out))).toBe(false);
    expect(existsSync(folder)).toBe(false);
    vi.restoreAllMocks();
  });

  it('Parquet: the file itself, as application/vnd.apache.parquet', async () => {
    const summary = await service.dispatch('exportProject', { project: 'vis', format: 'trl-vision-parquet' });
    expect(summary.out).toMatch(/^vis-trl-vision-parquet-.*\.parquet$/);
    const { ticket } = await service.dispatch('downloadTicket', { project: 'vis', file: summary.out });
    const response = await fetch(new URL(`/download/${ticket}`, running.url));
    expect(response.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${summary.out}"`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(bytes.equals(readFileSync(join(exportsDir(service.options.dbPath), summary.out)))).toBe(true);
  });
});

describe('the save dialog moves an export with its images folder', () => {
  it('renames the folder after the chosen name and rewrites the rows’ paths to it', async () => {
    const summary = await service.dispatch('exportProject', { project: 'vis', format: 'trl-vision' });
    const written = join(exportsDir(service.options.dbPath), summary.out);
    const chosen = join(home, 'saved/my pairs.jsonl');
    mkdirSync(join(home, 'saved'), { recursive: true });
    await moveImagesBeside(written, chosen);
    expect(existsSync(written)).toBe(false);
    expect(existsSync(written.replace(/\.jsonl$/, '_images'))).toBe(false);
    const rows = readFileSync(chosen, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { images: string[] });
    expect(rows.flatMap((r) => r.images).sort()).toEqual([`my pairs_images/${sha(cat)}.png`, `my pairs_images/${sha(dog)}.jpg`].sort());
    for (const path of rows.flatMap((r) => r.images)) expect(sha(readFileSync(join(home, 'saved', path)))).toBe(path.split('/')[1]!.split('.')[0]);
  });
});

describe('an image the store has lost', () => {
  it('stops every image export with the same sentence and kind, naming the item and the image', async () => {
    const file = imageFile(imageStoreDir(service.options.dbPath), sha(cat));
    renameSync(file, `${file}.aside`);
    try {
      const said = new Set<string>();
      for (const format of ['trl-vision-parquet', 'openai-vision'] as const) {
        const error = (await service.dispatch('exportProject', { project: 'vis', format }).then(
          () => null,
          (e: unknown) => e,
        )) as { code: string; message: string } | null;
        expect(error, format).not.toBeNull();
        expect(error!.message).toMatch(new RegExp(`holds the image ${sha(cat).slice(0, 12)}…, which is not in the image store .*; nothing was written`));
        said.add(`${error!.code} ${error!.message}`);
      }
      expect(said.size).toBe(1);
    } finally {
      renameSync(`${file}.aside`, file);
    }
  });
});
