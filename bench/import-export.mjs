#!/usr/bin/env node
// Import/export benchmark: `npm run bench`, or from the repository root
//   node bench/import-export.mjs [--n 100000] [--mem-n 500000] [--skip-mem] [--parallel on|off]
// It measures the shipped code: the Node side is built first (out/node/core.mjs and its worker threads),
// so the import's parse worker starts as it does in the app, not through tsx's on-the-fly compiler.
// 1. baseline: readline + JSON.parse + one prepared INSERT per row, one transaction, fresh WAL database;
//    and the same with an FTS5 table of the same texts beside it (the baseline of an import with its index)
// 2. Arbiter's importFile (format trl) of the same file into a fresh database; --parallel on/off forces
//    the import worker on or off (by default importFile uses it for big files on 2+ cores)
// 3. exportProject to trl, in a child process that samples memory every 20 ms
// 4. the same export at --mem-n items, to check that peak memory does not grow with the project
// Data and databases go to bench/.data/ (gitignored).
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const CORE = pathToFileURL(join(root, 'out/node/core.mjs')).href;
if (process.argv[2] !== '--child-export') {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--node-only'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const { mulberry32 } = await import(CORE);
const dataDir = join(here, '.data');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};

const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;
const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;

function removeDb(path) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
}

// ------------------------------------------------------------------------------------------------
// child: one export, memory sampled every 20 ms
if (argv[0] === '--child-export') {
  const [, dbPath, out] = argv;
  const { openDb, exportProject } = await import(CORE);
  const db = openDb(dbPath);
  global.gc?.();
  const start = process.memoryUsage();
  let peakRss = start.rss;
  let peakHeap = start.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    if (m.rss > peakRss) peakRss = m.rss;
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
  };
  const timer = setInterval(sample, 20);
  const t0 = performance.now();
  // onProgress runs once per page of items, so the sampling also happens inside the export loop.
  const summary = await exportProject(db, { project: 'bench', format: 'trl', out, onProgress: sample });
  const ms = performance.now() - t0;
  clearInterval(timer);
  sample();
  // The OS peak before close: closing checkpoints the WAL, which is SQLite's work, not the export's.
  const maxRssKiB = process.resourceUsage().maxRSS;
  db.close();
  process.stdout.write(
    JSON.stringify({ ms, written: summary.written, startRss: start.rss, peakRss, startHeap: start.heapUsed, peakHeap, maxRssKiB }) + '\n',
  );
  process.exit(0);
}

// ------------------------------------------------------------------------------------------------
// data

const WORDS = 'the of and a to in is you that it he was for on are as with his they I at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part'.split(' ');
function sentence(rand, words) {
  let s = '';
  for (let i = 0; i < words; i++) s += (i ? ' ' : '') + WORDS[Math.floor(rand() * WORDS.length)];
  return s;
}

async function generate(path, n) {
  if (existsSync(path) && statSync(path).size > 0) return false;
  mkdirSync(dirname(path), { recursive: true });
  const rand = mulberry32(n);
  const out = createWriteStream(path);
  for (let i = 0; i < n; i++) {
    const row = {
      prompt: `Q${i}: ${sentence(rand, 15 + Math.floor(rand() * 40))}?`,
      chosen: ` ${sentence(rand, 30 + Math.floor(rand() * 80))}.`,
      rejected: ` ${sentence(rand, 30 + Math.floor(rand() * 80))}.`,
    };
    if (!out.write(JSON.stringify(row) + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return true;
}

// ------------------------------------------------------------------------------------------------
// 1. baseline

/** This process's CPU milliseconds (user + system, its worker threads included) since `from`. */
const cpuMs = (from) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

/**
 * readline + JSON.parse + one INSERT a row; with `fts`, also one INSERT a row into an FTS5 table of the same
 * texts, with the tokenizer Arbiter's index uses (issue 22 §7's baseline for an import with its index).
 */
async function baseline(file, dbPath, fts = false) {
  const { default: Database } = await import('better-sqlite3');
  removeDb(dbPath);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE pair (id INTEGER PRIMARY KEY, prompt TEXT NOT NULL, chosen TEXT NOT NULL, rejected TEXT NOT NULL)');
  if (fts) db.exec("CREATE VIRTUAL TABLE pair_text USING fts5(prompt, chosen, rejected, tokenize = 'unicode61 remove_diacritics 2')");
  const insert = db.prepare('INSERT INTO pair (prompt, chosen, rejected) VALUES (?, ?, ?)');
  const insertText = fts ? db.prepare('INSERT INTO pair_text (rowid, prompt, chosen, rejected) VALUES (?, ?, ?, ?)') : null;
  db.exec('BEGIN');
  let rows = 0;
  for await (const line of createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })) {
    if (!line) continue;
    const r = JSON.parse(line);
    const { lastInsertRowid } = insert.run(r.prompt, r.chosen, r.rejected);
    insertText?.run(lastInsertRowid, r.prompt, r.chosen, r.rejected);
    rows++;
  }
  db.exec('COMMIT');
  db.close();
  return { ms: performance.now() - t0, cpuMs: cpuMs(cpu), rows };
}

// ------------------------------------------------------------------------------------------------
// 2. Arbiter import

async function arbiterImport(file, dbPath) {
  const { openDb, importFile } = await import(CORE);
  removeDb(dbPath);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const db = openDb(dbPath);
  const summary = await importFile(db, { path: file, project: 'bench', format: 'trl', createProject: true, parallel });
  db.close();
  return { ms: performance.now() - t0, cpuMs: cpuMs(cpu), summary };
}

// 3./4. export in a child process
async function childExport(dbPath, out) {
  const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child-export', dbPath, out], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (d) => (text += d));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`export child exited with ${code}`);
  return JSON.parse(text.trim().split('\n').pop());
}

// ------------------------------------------------------------------------------------------------

const n = Number(arg('--n', '100000'));
const memN = Number(arg('--mem-n', '500000'));
const skipMem = argv.includes('--skip-mem');
const parallel = { on: true, off: false }[arg('--parallel', 'auto')];
const file = join(dataDir, `pairs-${n}.jsonl`);
console.log(`node ${process.version}, ${availableParallelism()} cores, ${n} pairs in ${file}`);
if (await generate(file, n)) console.log(`generated ${mb(statSync(file).size)}`);
else console.log(`reusing ${mb(statSync(file).size)}`);

// The baseline runs before and after the import and the ratio is against their mean: on a machine that
// others share, the load changes from one second to the next.
const before = await baseline(file, join(dataDir, 'baseline.db'));
const beforeFts = await baseline(file, join(dataDir, 'baseline-fts.db'), true);
const imp = await arbiterImport(file, join(dataDir, `arbiter-${n}.db`));
const afterFts = await baseline(file, join(dataDir, 'baseline-fts.db'), true);
const after = await baseline(file, join(dataDir, 'baseline.db'));
const mean = (a, b) => ({ ms: (a.ms + b.ms) / 2, cpuMs: (a.cpuMs + b.cpuMs) / 2, rows: a.rows });
const base = mean(before, after);
const baseFts = mean(beforeFts, afterFts);
console.log(`1. baseline import (readline + JSON.parse + 1 INSERT/row): ${secs(base.ms)} (${base.rows} rows; before ${secs(before.ms)}, after ${secs(after.ms)}; CPU ${secs(base.cpuMs)})`);
console.log(`   baseline with an FTS5 table of the same texts:        ${secs(baseFts.ms)} (before ${secs(beforeFts.ms)}, after ${secs(afterFts.ms)}; CPU ${secs(baseFts.cpuMs)})`);
console.log(`2. Arbiter importFile (trl, parallel ${arg('--parallel', 'auto')}), search index included: ${secs(imp.ms)} (${imp.summary.items} items, ${imp.summary.labels} labels; CPU ${secs(imp.cpuMs)}, worker included)`);
const ratio = imp.ms / base.ms;
console.log(`   ratio import / baseline: ${ratio.toFixed(2)}×, CPU ${(imp.cpuMs / base.cpuMs).toFixed(2)}×  (issue 20: ≤ 2×, ≤ 10 s)`);
console.log(`   ratio import / baseline with FTS5: ${(imp.ms / baseFts.ms).toFixed(2)}×, CPU ${(imp.cpuMs / baseFts.cpuMs).toFixed(2)}×  (issue 22 §7: ≤ 2×)`);

const exp = await childExport(join(dataDir, `arbiter-${n}.db`), join(dataDir, `export-${n}.jsonl`));
console.log(
  `3. exportProject trl, ${exp.written} lines: ${secs(exp.ms)} (target ≤ 5 s); peak RSS ${mb(exp.peakRss)} (start ${mb(exp.startRss)}, max RSS ${mb(exp.maxRssKiB * 1024)}), peak heap ${mb(exp.peakHeap)} (start ${mb(exp.startHeap)})`,
);

if (!skipMem) {
  const bigFile = join(dataDir, `pairs-${memN}.jsonl`);
  if (await generate(bigFile, memN)) console.log(`generated ${memN} pairs, ${mb(statSync(bigFile).size)}`);
  const bigImp = await arbiterImport(bigFile, join(dataDir, `arbiter-${memN}.db`));
  console.log(`   import of ${memN}: ${secs(bigImp.ms)}`);
  const big = await childExport(join(dataDir, `arbiter-${memN}.db`), join(dataDir, `export-${memN}.jsonl`));
  console.log(
    `4. exportProject trl, ${big.written} lines: ${secs(big.ms)}; peak RSS ${mb(big.peakRss)} (start ${mb(big.startRss)}, max RSS ${mb(big.maxRssKiB * 1024)}), peak heap ${mb(big.peakHeap)} (start ${mb(big.startHeap)})`,
  );
  console.log(
    `   peak RSS growth ${n} → ${memN}: ${mb(exp.peakRss - exp.startRss)} → ${mb(big.peakRss - big.startRss)}; peak heap ${mb(exp.peakHeap)} → ${mb(big.peakHeap)}`,
  );
}
