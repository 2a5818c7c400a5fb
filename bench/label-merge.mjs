#!/usr/bin/env node
// Merging a team's labels: `npm run bench:merge`, or
//   node bench/label-merge.mjs [--items 100000] [--annotators 3]
// A project of --items pairs, and a labels file with one revision per item and annotator (300k by
// default), as three teammates' "my labels" exports put together. Times `labels import` of the file
// (the shipped code, out/node/core.mjs), then the same file again (every revision a duplicate), against a
// plain baseline in the same process: parse every line and insert it into a bare table with a unique id
// (run before and after the merge; the ratio is against their mean, in wall time and in CPU time).
// Then times the review of the merged project (every agreement figure, consensus and queue: `arbiter stats`).
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'bench', '.data');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const ITEMS = arg('--items', 100_000);
const ANNOTATORS = arg('--annotators', 3);
const CORE = pathToFileURL(join(root, 'out/node/core.mjs')).href;

if (spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--node-only'], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) process.exit(1);
mkdirSync(dataDir, { recursive: true });

async function writeLines(path, count, line) {
  if (existsSync(path)) return;
  const out = createWriteStream(path);
  for (let i = 0; i < count; i++) if (!out.write(`${line(i)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

const itemsFile = join(dataDir, `merge-items-${ITEMS}.jsonl`);
await writeLines(itemsFile, ITEMS, (i) =>
  JSON.stringify({ id: `q${i}`, prompt: `Question ${i}: which answer is right?`, responses: [{ text: `Answer one to ${i}.` }, { text: `Answer two to ${i}.` }] }),
);
const labelsFile = join(dataDir, `merge-labels-${ITEMS}x${ANNOTATORS}.jsonl`);
const uuid = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const start = Date.parse('2026-11-01T00:00:00Z');
await writeLines(labelsFile, ITEMS * ANNOTATORS, (n) => {
  const item = Math.floor(n / ANNOTATORS);
  const who = n % ANNOTATORS;
  return JSON.stringify({
    id: uuid(n + 1),
    item: `q${item}`,
    annotator: `annotator-${who}`,
    annotator_uuid: uuid(1_000_000_000 + who),
    task: 'pairwise',
    choice: (item * 7 + who) % 3 === 0 ? 'B' : 'A',
    strength: 1 + ((item + who) % 3),
    shown_order: [0, 1],
    rationale: who === 0 ? `Looked at ${item}.` : undefined,
    time_ms: 4000 + (n % 5000),
    created_at: new Date(start + n * 1000).toISOString(),
  });
});

/** Wall and CPU milliseconds of fn (CPU: this process's user + system time, which other work on a busy machine does not inflate as much). */
async function timed(fn) {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - t0, cpuMs: (used.user + used.system) / 1000, value };
}

async function baseline() {
  const { default: Database } = await import('better-sqlite3');
  const path = join(dataDir, 'merge-baseline.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE label (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, item TEXT, annotator TEXT, choice TEXT, body TEXT)');
  const insert = db.prepare('INSERT OR IGNORE INTO label (id, item, annotator, choice, body) VALUES (?, ?, ?, ?, ?)');
  db.exec('BEGIN');
  for await (const line of createInterface({ input: createReadStream(labelsFile, { encoding: 'utf8' }), crlfDelay: Infinity })) {
    if (!line) continue;
    const r = JSON.parse(line);
    insert.run(r.id, r.item, r.annotator_uuid, r.choice, JSON.stringify({ rationale: r.rationale, time_ms: r.time_ms }));
  }
  db.exec('COMMIT');
  db.close();
}

const { openDb, importFile, importLabelsFile, buildReview, requireProject } = await import(CORE);
const dbPath = join(dataDir, 'merge.db');
for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
const db = openDb(dbPath);
await importFile(db, { path: itemsFile, project: 'team', format: 'arbiter', createProject: true });
// --no-search-index: the labels' full-text rows left out, to show what the index costs the merge; the app
// never runs without them. Migration 12's triggers on label_head (issue 22) are dropped, and the per-head
// text the merge rewrites each touched item's row from (migration 19's label_head_text) reads as empty.
if (argv.includes('--no-search-index')) {
  for (const t of ['item_search_head_insert', 'item_search_head_update', 'item_search_head_delete']) db.exec(`DROP TRIGGER ${t}`);
  db.exec(`DROP VIEW item_label_text; DROP VIEW label_head_text;
           CREATE VIEW label_head_text AS SELECT item_id, annotator_id, task, NULL AS rationale, NULL AS critique, NULL AS correction, NULL AS note FROM label_head WHERE 0`);
  console.log('  (the labels\' search index left out: --no-search-index)');
}

const revisions = ITEMS * ANNOTATORS;
// The baseline runs before and after the merge, and the ratio is against their mean: on a machine that
// others share, the load changes over the merge's seconds.
const before = await timed(baseline);
const merge = await timed(() => importLabelsFile(db, { path: labelsFile, project: 'team' }));
const after = await timed(baseline);
const baseMs = (before.ms + after.ms) / 2;
const baseCpuMs = (before.cpuMs + after.cpuMs) / 2;
const merged = merge.value;
const mergeMs = merge.ms;
const t1 = performance.now();
const again = await importLabelsFile(db, { path: labelsFile, project: 'team' });
const againMs = performance.now() - t1;
// The review of the merged project (what `arbiter stats` and the dashboard compute): every figure and queue.
const reviewRuns = [];
let review;
for (let run = 0; run < 3; run++) {
  const t = performance.now();
  review = buildReview(db, requireProject(db, 'team'));
  reviewRuns.push(performance.now() - t);
}
db.close();

const rate = (ms) => Math.round(revisions / (ms / 1000)).toLocaleString('en');
console.log(`labels merge: ${revisions.toLocaleString('en')} revisions (${ITEMS.toLocaleString('en')} items × ${ANNOTATORS} annotators)`);
console.log(`  baseline (parse + bare insert):  ${(baseMs / 1000).toFixed(2)} s  ${rate(baseMs)} revisions/s  (before ${(before.ms / 1000).toFixed(2)} s, after ${(after.ms / 1000).toFixed(2)} s; CPU ${(baseCpuMs / 1000).toFixed(2)} s)`);
console.log(`  arbiter labels import:           ${(mergeMs / 1000).toFixed(2)} s  ${rate(mergeMs)} revisions/s  ratio ${(mergeMs / baseMs).toFixed(2)}×  (CPU ${(merge.cpuMs / 1000).toFixed(2)} s, ${(merge.cpuMs / baseCpuMs).toFixed(2)}×; target ≤ 5×)  added ${merged.added}`);
console.log(`  the same file again (all dups):  ${(againMs / 1000).toFixed(2)} s  ${rate(againMs)} revisions/s  duplicates ${again.duplicates}`);
const choice = review.report.fields.find((f) => f.field === 'choice');
console.log(`  review (agreement, Dawid–Skene, people, queue) on ${review.report.labels.toLocaleString('en')} labels: ${reviewRuns.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(' / ')}  (target ≤ 2 s; queue ${review.report.queue.total.toLocaleString('en')} items, α ${choice.alpha.value?.toFixed(3)})`);
console.log(`  peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
