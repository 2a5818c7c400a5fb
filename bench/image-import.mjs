#!/usr/bin/env node
// Importing image pairs from Parquet (issue 15): `node bench/image-import.mjs [--n 10000] [--edge 512]`
// A Pick-a-Pic-shaped Parquet file (caption, jpg_0, jpg_1 as binary columns, label_0 / label_1; row
// groups of 500) of --n pairs, every image distinct (16 drawn pictures, each copy made unique by a JPEG
// comment). Two runs, each in a child process that reports its time and its peak RSS (getrusage):
// 1. baseline: hyparquet reads the file group by group; each image is hashed (sha256) and written once
//    to a content-addressed folder; one SQLite row per pair (caption, the two hashes, the labels) in one
//    transaction: the least an importer that keeps every image must do;
// 2. Arbiter: importFile (format pickapic, auto-detected) into a fresh database: parse, store each image
//    beside the database, items, responses, the file's own preferences.
// The file and databases go to bench/.data/ (gitignored).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { uniqueJpeg } from './lib/images.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const dataDir = join(here, '.data');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;

function removeDb(path) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  rmSync(`${path}.images`, { recursive: true, force: true });
}

// ------------------------------------------------------------------------------------------------
// children: one run each, reporting {ms, rows, maxRssKiB}
if (argv[0] === '--child') {
  const [, kind, file, dbPath] = argv;
  removeDb(dbPath);
  const t0 = performance.now();
  let rows = 0;
  if (kind === 'arbiter') {
    const { openDb, importFile } = await import(pathToFileURL(join(root, 'out/node/core.mjs')).href);
    const db = openDb(dbPath);
    const summary = await importFile(db, { path: file, project: 'pairs', format: 'auto', skipInvalid: false, createProject: true });
    rows = summary.items;
    db.close();
  } else {
    const { parquetMetadataAsync, parquetReadObjects, asyncBufferFromFile } = await import('hyparquet');
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(dbPath);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE pair (id INTEGER PRIMARY KEY, caption TEXT NOT NULL, image_0 TEXT NOT NULL, image_1 TEXT NOT NULL, label_0 REAL, label_1 REAL)');
    const insert = db.prepare('INSERT INTO pair (caption, image_0, image_1, label_0, label_1) VALUES (?, ?, ?, ?, ?)');
    const store = `${dbPath}.images`;
    const put = (bytes) => {
      const sha = createHash('sha256').update(bytes).digest('hex');
      const path = join(store, sha.slice(0, 2), sha);
      if (!existsSync(path)) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, bytes);
      }
      return sha;
    };
    const source = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(source);
    db.exec('BEGIN');
    let start = 0;
    for (const group of metadata.row_groups) {
      const end = start + Number(group.num_rows);
      for (const row of await parquetReadObjects({ file: source, metadata, rowStart: start, rowEnd: end, utf8: false })) {
        insert.run(typeof row.caption === 'string' ? row.caption : new TextDecoder().decode(row.caption), put(row.jpg_0), put(row.jpg_1), row.label_0, row.label_1);
        rows++;
      }
      start = end;
    }
    db.exec('COMMIT');
    db.close();
  }
  process.stdout.write(JSON.stringify({ ms: performance.now() - t0, rows, maxRssKiB: process.resourceUsage().maxRSS }) + '\n');
  process.exit(0);
}

// ------------------------------------------------------------------------------------------------
const N = arg('--n', 10_000);
const EDGE = arg('--edge', 512);
const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--node-only'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (built.status !== 0) process.exit(built.status ?? 1);
mkdirSync(dataDir, { recursive: true });

async function pictures(edge) {
  const { default: sharp } = await import('sharp');
  const out = [];
  for (let k = 0; k < 16; k++) {
    const shapes = Array.from({ length: 8 }, (_, j) => `<circle cx="${((k * 97 + j * 181) % 100) * edge / 100}" cy="${((k * 53 + j * 67) % 100) * edge / 100}" r="${edge * (0.05 + j / 100)}" fill="hsl(${(k * 23 + j * 31) % 360},70%,55%)"/>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${edge}" height="${edge}"><rect width="${edge}" height="${edge}" fill="hsl(${k * 22},40%,80%)"/>${shapes}</svg>`;
    out.push(await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer());
  }
  return out;
}


async function generate(path) {
  if (existsSync(path)) return;
  const { ParquetWriter, schemaFromColumnData } = await import('hyparquet-writer');
  const { fileWriter } = await import('hyparquet-writer/src/node.js');
  const base = await pictures(EDGE);
  const columns = (from, to) => {
    const rows = Array.from({ length: to - from }, (_, k) => from + k);
    return [
      { name: 'caption', data: rows.map((i) => `Prompt ${i}: a lighthouse on a cliff at sunset, oil painting`), type: 'STRING' },
      { name: 'jpg_0', data: rows.map((i) => new Uint8Array(uniqueJpeg(base[(2 * i) % 16], `pair ${i} image 0`))), type: 'BYTE_ARRAY' },
      { name: 'jpg_1', data: rows.map((i) => new Uint8Array(uniqueJpeg(base[(2 * i + 1) % 16], `pair ${i} image 1`))), type: 'BYTE_ARRAY' },
      { name: 'label_0', data: rows.map((i) => (i % 3 === 2 ? 0 : 1)), type: 'DOUBLE' },
      { name: 'label_1', data: rows.map((i) => (i % 3 === 2 ? 1 : 0)), type: 'DOUBLE' },
    ];
  };
  const partial = `${path}.partial`;
  const writer = new ParquetWriter({ writer: fileWriter(partial), schema: schemaFromColumnData({ columnData: columns(0, 1) }), codec: 'UNCOMPRESSED', statistics: false });
  for (let from = 0; from < N; from += 500) writer.write({ columnData: columns(from, Math.min(N, from + 500)), rowGroupSize: 500 });
  writer.finish();
  const { renameSync } = await import('node:fs');
  renameSync(partial, path);
}

function run(kind, file, dbPath) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, file, dbPath], { encoding: 'utf8', env: { ...process.env, ARBITER_NO_DEMO: '1' } });
  if (child.status !== 0) throw new Error(`${kind}: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop());
}

const file = join(dataDir, `pickapic-${N}-${EDGE}.parquet`);
await generate(file);
const size = statSync(file).size;
const base = run('baseline', file, join(dataDir, 'image-import-baseline.db'));
const arbiter = run('arbiter', file, join(dataDir, 'image-import-arbiter.db'));
const rate = (r) => `${Math.round(r.rows / (r.ms / 1000)).toLocaleString()} pairs/s, ${((2 * r.rows) / (r.ms / 1000)).toFixed(0)} images/s`;
console.log(`node ${process.version}; ${N.toLocaleString()} pairs of ${EDGE}×${EDGE} JPEGs (${(2 * N).toLocaleString()} distinct images), Pick-a-Pic-shaped Parquet of ${mb(size)}`);
console.log(`1. baseline (hyparquet + sha256 + one file per image + one SQLite row per pair): ${(base.ms / 1000).toFixed(1)} s, ${rate(base)}; peak RSS ${mb(base.maxRssKiB * 1024)}`);
console.log(`2. arbiter import (pickapic, auto-detected):                                   ${(arbiter.ms / 1000).toFixed(1)} s, ${rate(arbiter)}; peak RSS ${mb(arbiter.maxRssKiB * 1024)}`);
console.log(`ratio arbiter / baseline: time ${(arbiter.ms / base.ms).toFixed(2)}×, peak RSS ${(arbiter.maxRssKiB / base.maxRssKiB).toFixed(2)}×`);
for (const db of ['image-import-baseline.db', 'image-import-arbiter.db']) removeDb(join(dataDir, db));
