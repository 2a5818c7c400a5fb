#!/usr/bin/env node
// Items at scale (issue 22 §7): `npm run bench:items`, or from the repository root
//   node bench/items-scale.mjs [--items 10000000] [--queries 200] [--facet-queries 60] [--labeled 0.2]
//                              [--baselines 2] [--keep] [--data DIR]
// (--baselines 1: the baseline import once, before ours, not before and after: at 10M each is ~20 min)
// It runs the shipped code (out/node/core.mjs, built first) and prints, each beside its plain baseline
// measured in the same run:
// 1. the import of N generated items (arbiter format: pairs, with 10% rankings of 4 and 10% chains of
//    steps; a category, a source and two model names each) with its search index, against readline +
//    JSON.parse + one INSERT a row into a table and into an FTS5 table of the same texts; then labels
//    with text on a share of the items (--labeled, 20%: a rationale of 8-30 words, a third of them a
//    critique too, from the same vocabulary), as a labelled project has;
// 2. a search's first page (store/search.ts searchPage: 50 hits ranked by bm25, snippets) p50/p95, wall and
//    CPU time, beside a plain FTS5 query of the same terms (SELECT rowid … MATCH … ORDER BY rank LIMIT 50), and the slowest
//    kind of query alone; the queries whose words are in labels' text too (most, once labels exist) on
//    their own: the joined set (store/searchBoth.ts bothPage, before) against the split by the label
//    half's hits (bothSplit + splitPage, after), rows only, beside the plain query; then the items explorer's first page of the same searches (queryItems without
//    facet counts) by relevance and in file order;
// 3. facet counts under a search p95: the items query's facets (queryItems) when the core has them, and
//    the matching set (matchingItemIds) with a plain GROUP BY over it;
// 4. the host's memory (peak RSS, worker threads included) and the database's bytes per item with and
//    without the index.
// Text is drawn from a Zipf vocabulary of 30,000 made-up words, so a query's words hit as few or as many
// items as words do in real text. Data and databases go to bench/.data/ (gitignored; --data another
// folder); --keep reuses them.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--node-only'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (built.status !== 0) process.exit(built.status ?? 1);
const core = await import(pathToFileURL(join(root, 'out/node/core.mjs')).href);
const { default: Database } = await import('better-sqlite3');

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const N = Number(arg('--items', '10000000'));
const QUERIES = Number(arg('--queries', '200'));
const keep = argv.includes('--keep');
const LABELED = Number(arg('--labeled', '0.2'));
const BASELINES = Number(arg('--baselines', '2'));
const FACET_QUERIES = Number(arg('--facet-queries', '60'));
const started = performance.now();
const stamp = (what) => console.log(`   [${secs(performance.now() - started)}] ${what} (RSS now ${mb(process.memoryUsage().rss)}, peak so far ${mb(process.resourceUsage().maxRSS * 1024)})`);
const dataDir = resolve(arg('--data', join(here, '.data')));
mkdirSync(dataDir, { recursive: true });
const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (v) => `${v.toFixed(1)} ms`;
// CPU time of this thread's work (user + system), beside the wall time: on a shared machine the wall time
// of a query is mostly waiting for a core.
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
sampler.unref();

// ------------------------------------------------------------------------------------------------
// data: a Zipf vocabulary (rank r drawn with weight 1 / r^1.07), words made of syllables

const rand = core.mulberry32(N);
const SYLLABLES = 'ka lo mi ne su ta ri po ve da zu fe gi ho ju ba'.split(' ');
const VOCAB = Array.from({ length: 30_000 }, (_, r) => {
  let w = '';
  let x = r + 1;
  while (x > 0) {
    w += SYLLABLES[x % 16];
    x = Math.floor(x / 16);
  }
  return w;
});
const cumulative = new Float64Array(VOCAB.length);
for (let r = 0, sum = 0; r < VOCAB.length; r++) cumulative[r] = sum += 1 / Math.pow(r + 1, 1.07);
const total = cumulative[cumulative.length - 1];
const word = () => {
  const x = rand() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCAB[lo];
};
const text = (n) => Array.from({ length: n }, word).join(' ');
const CATEGORIES = ['math', 'code', 'chat', 'safety', 'reasoning', 'writing'];
const SOURCES = ['ultrafeedback', 'hh-rlhf', 'helpsteer', 'arena', 'synthetic'];
const MODELS = ['m-small', 'm-base', 'm-large', 'm-chat', 'm-code', 'm-instruct'];

async function generate(path) {
  if (existsSync(path) && statSync(path).size > 0) return false;
  const out = createWriteStream(path);
  for (let i = 0; i < N; i++) {
    const shape = rand();
    const count = shape < 0.1 ? 4 : shape < 0.2 ? 1 : 2;
    const responses = Array.from({ length: count }, () => ({ text: text(25 + Math.floor(rand() * 60)), model: MODELS[Math.floor(rand() * MODELS.length)] }));
    if (count === 1) responses[0] = { steps: Array.from({ length: 3 + Math.floor(rand() * 4) }, () => text(8 + Math.floor(rand() * 10))), model: responses[0].model };
    const record = {
      id: `it-${i}`,
      prompt: text(10 + Math.floor(rand() * 30)),
      responses,
      metadata: { category: CATEGORIES[Math.floor(rand() * CATEGORIES.length)], source: SOURCES[Math.floor(rand() * SOURCES.length)] },
    };
    if (!out.write(JSON.stringify(record) + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return true;
}

/** The texts a baseline row takes: the prompt and each response's text (steps joined). */
const responseText = (r) => (r.text ?? r.steps.join('\n\n'));

/** readline + JSON.parse + one INSERT a row into a table and one into an FTS5 table of the same texts. */
async function baseline(file, dbPath) {
  for (const s of ['', '-wal', '-shm']) rmSync(dbPath + s, { force: true });
  const t0 = performance.now();
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE item (id INTEGER PRIMARY KEY, external_id TEXT, prompt TEXT NOT NULL, responses TEXT NOT NULL, metadata TEXT NOT NULL)');
  db.exec("CREATE VIRTUAL TABLE item_text USING fts5(prompt, response, tokenize = 'unicode61 remove_diacritics 2')");
  const insert = db.prepare('INSERT INTO item (external_id, prompt, responses, metadata) VALUES (?, ?, ?, ?)');
  const insertText = db.prepare('INSERT INTO item_text (rowid, prompt, response) VALUES (?, ?, ?)');
  db.exec('BEGIN');
  for await (const line of createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity })) {
    if (!line) continue;
    const r = JSON.parse(line);
    const { lastInsertRowid } = insert.run(r.id, r.prompt, JSON.stringify(r.responses), JSON.stringify(r.metadata));
    insertText.run(lastInsertRowid, r.prompt, r.responses.map(responseText).join('\n\n'));
  }
  db.exec('COMMIT');
  db.close();
  return performance.now() - t0;
}

/** A pairwise label with a rationale (a third with a critique too) on a share of the items, in one transaction. */
function labelSome(path) {
  const db = core.openDb(path);
  const projectId = core.requireProject(db, 'bench').id;
  const annotatorId = core.ensureAnnotator(db, 'bench-annotator', 'human').id;
  const save = core.labelAppender(db);
  const labelRand = core.mulberry32(11);
  const ids = db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY id').pluck().all(projectId);
  let count = 0;
  db.exec('BEGIN');
  for (const itemId of ids) {
    if (labelRand() >= LABELED) continue;
    const rationale = text(8 + Math.floor(labelRand() * 23));
    const body = labelRand() < 1 / 3 ? { rationale, critique: { A: text(8 + Math.floor(labelRand() * 23)) } } : { rationale };
    save({ projectId, itemId, annotatorId, choice: labelRand() < 0.5 ? 'A' : 'B', body });
    count++;
  }
  db.exec('COMMIT');
  db.close();
  return count;
}

// ------------------------------------------------------------------------------------------------

const file = join(dataDir, `items-${N}.jsonl`);
const dbPath = join(dataDir, `items-${N}.db`);
console.log(`node ${process.version}, ${availableParallelism()} cores, ${N.toLocaleString('en')} items`);
let t = performance.now();
if (await generate(file)) console.log(`generated ${mb(statSync(file).size)} in ${secs(performance.now() - t)}`);
else console.log(`reusing ${file} (${mb(statSync(file).size)})`);

let importMs = null;
if (!keep || !existsSync(dbPath)) {
  const before = await baseline(file, join(dataDir, 'items-baseline.db'));
  rmSync(join(dataDir, 'items-baseline.db'), { force: true });
  stamp(`baseline import ${secs(before)}`);
  for (const s of ['', '-wal', '-shm']) rmSync(dbPath + s, { force: true });
  t = performance.now();
  const db = core.openDb(dbPath);
  const summary = await core.importFile(db, { path: file, project: 'bench', format: 'arbiter', createProject: true });
  importMs = performance.now() - t;
  db.close();
  stamp(`our import ${secs(importMs)}`);
  const after = BASELINES > 1 ? await baseline(file, join(dataDir, 'items-baseline.db')) : null;
  const base = after === null ? before : (before + after) / 2;
  console.log(`1. import with the search index: ${secs(importMs)} (${summary.items.toLocaleString('en')} items); baseline (table + FTS5 table of the same texts) ${secs(base)} (${after === null ? 'run once, before' : `before ${secs(before)}, after ${secs(after)}`})`);
  console.log(`   ratio ${(importMs / base).toFixed(2)}× (goal ≤ 2×)`);
  rmSync(join(dataDir, 'items-baseline.db'), { force: true });
  t = performance.now();
  const labelled = labelSome(dbPath);
  stamp('labels written');
  console.log(`   labels with text on ${labelled.toLocaleString('en')} items (${(LABELED * 100).toFixed(0)}%): ${secs(performance.now() - t)}`);
} else console.log(`1. import: reusing ${dbPath} (--keep)`);

// ------------------------------------------------------------------------------------------------
// queries

const db = core.openDb(dbPath);
const projectId = core.requireProject(db, 'bench').id;
stamp('queries start');
const queryRand = core.mulberry32(7);
const pick = (from, to) => VOCAB[from + Math.floor(queryRand() * (to - from))];
// The kinds of query people type: a rare word, a middling one, two words, a phrase of two common
// words, a prefix, a field, an OR.
const kinds = [
  () => pick(3000, 20000),
  () => pick(300, 3000),
  () => `${pick(100, 2000)} ${pick(100, 2000)}`,
  () => `"${pick(0, 50)} ${pick(0, 50)}"`,
  () => `${pick(200, 3000).slice(0, 5)}*`,
  () => `prompt:${pick(200, 3000)}`,
  () => `${pick(1000, 5000)} OR ${pick(1000, 5000)}`,
];
const queries = Array.from({ length: QUERIES }, (_, i) => kinds[i % kinds.length]());
const plain = db.prepare('SELECT rowid FROM item_search WHERE item_search MATCH ? ORDER BY rank LIMIT 50');
const first = [];
const plainMs = [];
const firstCpu = [];
const plainCpu = [];
const hits = [];
for (const q of queries) {
  const match = core.parseSearch(q).query.match;
  let c0 = cpuMs();
  let t0 = performance.now();
  plain.all(match);
  plainMs.push(performance.now() - t0);
  plainCpu.push(cpuMs() - c0);
  c0 = cpuMs();
  t0 = performance.now();
  const page = core.searchPage(db, projectId, q, { limit: 50 });
  first.push(performance.now() - t0);
  firstCpu.push(cpuMs() - c0);
  hits.push(page.rows.length);
}
console.log(`2. a search's first page (50 hits, bm25, snippets), ${QUERIES} queries: p50 ${ms(pct(first, 50))}, p95 ${ms(pct(first, 95))} (goal ≤ 50 ms); plain FTS5 query of the same terms: p50 ${ms(pct(plainMs, 50))}, p95 ${ms(pct(plainMs, 95))}`);
console.log(`   CPU: the page p50 ${ms(pct(firstCpu, 50))}, p95 ${ms(pct(firstCpu, 95))}; the plain query p50 ${ms(pct(plainCpu, 50))}, p95 ${ms(pct(plainCpu, 95))}`);
const kindNames = ['a rare word', 'a middling word', 'two words', 'a phrase of two common words', 'a prefix', 'a field', 'an OR'];
const byKind = kindNames.map((name, k) => ({ name, page: first.filter((_, i) => i % kinds.length === k), plain: plainMs.filter((_, i) => i % kinds.length === k) }));
const slowest = byKind.reduce((a, b) => (pct(b.page, 95) > pct(a.page, 95) ? b : a));
console.log(`   slowest kind, ${slowest.name} (${slowest.page.length} queries): page p95 ${ms(pct(slowest.page, 95))}, plain p95 ${ms(pct(slowest.plain, 95))}; the others: page p95 ${ms(pct(byKind.filter((k) => k !== slowest).flatMap((k) => k.page), 95))}`);
for (const k of byKind) console.log(`   ${k.name} (${k.page.length}): page p50 ${ms(pct(k.page, 50))}, p95 ${ms(pct(k.page, 95))}; plain p50 ${ms(pct(k.plain, 50))}, p95 ${ms(pct(k.plain, 95))}`);
stamp('first pages done');
const both = queries.filter((q) => core.planOf(db, q).kind === 'both');
if (both.length) {
  const joined = [];
  const split = [];
  const plainBoth = [];
  let splitCount = 0;
  for (const q of both) {
    const { node, match } = core.parseSearch(q).query;
    let t0 = performance.now();
    plain.all(match);
    plainBoth.push(performance.now() - t0);
    t0 = performance.now();
    const before = core.bothPage(db, node, projectId, 51, null);
    joined.push(performance.now() - t0);
    t0 = performance.now();
    const s = core.bothSplit(db, node);
    if (s) splitCount++;
    const after = s ? core.splitPage(db, s, projectId, 51, null) : core.bothPage(db, node, projectId, 51, null);
    split.push(performance.now() - t0);
    if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`the split's page differs from the joined set's for ${q}`);
  }
  console.log(`   words in labels' text too, ${both.length} of ${QUERIES} queries (rows of the first page, equal; ${splitCount} split, the rest over the split's bound of labelled hits): before (joined set) p50 ${ms(pct(joined, 50))}, p95 ${ms(pct(joined, 95))}; after (split) p50 ${ms(pct(split, 50))}, p95 ${ms(pct(split, 95))}; plain FTS5 query p50 ${ms(pct(plainBoth, 50))}, p95 ${ms(pct(plainBoth, 95))}`);
} else console.log("   no query's words are in labels' text (--labeled 0?)");
if (typeof core.runItemsQuery === 'function') {
  stamp('the items explorer\'s facts: a first read');
  const f0 = performance.now();
  core.runItemsQuery(db, { project: 'bench', query: '', limit: 50, facets: false }); // the project's facts, read once
  stamp(`the facts read in ${secs(performance.now() - f0)}`);
  for (const [label, sort] of [['by relevance', undefined], ['in file order', { column: 'seq', desc: false }]]) {
    const pageMs = [];
    for (const q of queries.slice(0, Math.min(70, QUERIES))) {
      const t0 = performance.now();
      core.runItemsQuery(db, { project: 'bench', query: q, limit: 50, facets: false, ...(sort ? { sort } : {}) });
      pageMs.push(performance.now() - t0);
    }
    console.log(`   the items explorer's first page ${label} (queryItems, no facet counts), ${pageMs.length} queries: p50 ${ms(pct(pageMs, 50))}, p95 ${ms(pct(pageMs, 95))}`);
  }
}

const facetQueries = queries.slice(0, Math.min(FACET_QUERIES, QUERIES));
const matchMs = [];
const counts = [];
let groupBy = null;
for (const q of facetQueries) {
  const t0 = performance.now();
  const { count } = core.matchingItemIds(db, projectId, q);
  groupBy ??= db.prepare("SELECT i.metadata ->> '$.category' AS value, COUNT(*) AS n FROM temp.search_match m CROSS JOIN item i ON i.id = m.item_id GROUP BY 1");
  groupBy.all();
  matchMs.push(performance.now() - t0);
  counts.push(count);
}
stamp('explorer pages done');
stamp('matching sets done');
console.log(`3. matching set + a GROUP BY over it (one facet), ${facetQueries.length} queries: p50 ${ms(pct(matchMs, 50))}, p95 ${ms(pct(matchMs, 95))}; matches p50 ${pct(counts, 50)}, max ${Math.max(...counts)}`);
if (typeof core.runItemsQuery === 'function') {
  core.runItemsQuery(db, { project: 'bench', query: '', limit: 50, facets: true }); // the project's facts, read once
  const facetMs = [];
  const facetCpu = [];
  for (const q of facetQueries) {
    const c0 = cpuMs();
    const t0 = performance.now();
    core.runItemsQuery(db, { project: 'bench', query: q, limit: 50, facets: true });
    facetMs.push(performance.now() - t0);
    facetCpu.push(cpuMs() - c0);
  }
  stamp('facet counts done');
  console.log(`   the items query with every facet counted (queryItems): p50 ${ms(pct(facetMs, 50))}, p95 ${ms(pct(facetMs, 95))} (goal ≤ 300 ms); CPU p50 ${ms(pct(facetCpu, 50))}, p95 ${ms(pct(facetCpu, 95))}`);
  // What the host does after each label: the label's items' facts at once, the review's part (project-wide)
  // read again while the rest is held. One label, in a transaction rolled back after (--keep reuses the file).
  const annotatorId = core.ensureAnnotator(db, 'bench-annotator', 'human').id;
  const itemId = db.prepare('SELECT id FROM item WHERE project_id = ? AND seq = 5').pluck().get(projectId);
  db.exec('BEGIN');
  try {
    core.labelAppender(db)({ projectId, itemId, annotatorId, choice: 'B', body: {} });
    const r0 = performance.now();
    core.runItemsQuery(db, { project: 'bench', query: '', limit: 50, facets: true });
    stamp(`a label saved: the facts again (the review's part read again) in ${secs(performance.now() - r0)}`);
  } finally {
    db.exec('ROLLBACK');
  }
} else console.log('   (this core has no items query with facets yet: only the matching set above is timed)');

// ------------------------------------------------------------------------------------------------
// size and memory

const pages = (like) => db.prepare('SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name LIKE ?').pluck().get(like);
const all = pages('%');
const index = pages('item_search%');
console.log(`4. database ${mb(all)}: ${(all / N).toFixed(0)} bytes an item with the index, ${((all - index) / N).toFixed(0)} without (the index ${(index / N).toFixed(0)})`);
db.close();
peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
console.log(`   host peak RSS ${mb(peakRss)} (goal < 1 GB)`);
