#!/usr/bin/env node
// Label saves while another process imports: `npm run bench:saves`, or
//   node bench/save-during-import.mjs [--n 400000] [--saves 300]
// The browser host serves a small project; saves go to it over HTTP as the renderer sends them, one
// every 10 ms. First with nothing else running (the baseline, same process, same database), then while
// `arbiter import` writes --n pairs into another project of the same database. Prints save latency
// p50 / p95 / max for both, the ratio, and how long the import took (the bound: every save ≤ 300 ms).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'bench', '.data');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const N = arg('--n', 400_000);
const SAVES = arg('--saves', 300);
const bin = join(root, 'bin', 'arbiter.mjs');
const env = { ...process.env, ARBITER_NO_DEMO: '1', ARBITER_HOME: join(dataDir, 'home') };

if (spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--node-only'], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) process.exit(1);
mkdirSync(dataDir, { recursive: true });

const pairsFile = join(dataDir, `saves-import-${N}.jsonl`);
if (!existsSync(pairsFile)) {
  const out = createWriteStream(pairsFile);
  for (let i = 0; i < N; i++) {
    if (!out.write(`${JSON.stringify({ prompt: `Question ${i}: what follows ${i}?`, chosen: ` ${i + 1}, since counting goes up by one.`, rejected: ` ${i - 1}.` })}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
const itemsFile = join(dataDir, 'saves-items.jsonl');
const items = Array.from({ length: SAVES * 2 }, (_, i) => JSON.stringify({ id: `s${i}`, prompt: `small ${i}`, responses: [{ text: 'a' }, { text: 'b' }] }));
await import('node:fs').then((fs) => fs.writeFileSync(itemsFile, `${items.join('\n')}\n`));

const dbPath = join(dataDir, 'saves.db');
for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
if (spawnSync(process.execPath, [bin, 'import', itemsFile, '--project', 'labeling', '--format', 'arbiter', '--db', dbPath], { env }).status !== 0) process.exit(1);

const host = spawn(process.execPath, [bin, 'serve', '--db', dbPath, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
const url = await new Promise((done) => {
  let output = '';
  const onData = (chunk) => {
    output += chunk.toString();
    const match = /(http:\/\/127\.0\.0\.1:\d+)\/#token=([\w-]+)/.exec(output);
    if (match) done({ origin: match[1], token: match[2] });
  };
  host.stdout.on('data', onData);
  host.stderr.on('data', onData);
});
const call = async (name, input) => {
  const response = await fetch(`${url.origin}/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-arbiter-token': url.token }, body: JSON.stringify(input) });
  const body = await response.json();
  if (!body.ok) throw new Error(`${name}: ${body.error.message}`);
  return body.result;
};
const ids = (await call('listItems', { project: 'labeling', limit: 1000 })).rows.map((r) => r.id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function saves(from, count, keepGoing = () => true) {
  const latencies = [];
  for (let i = from; i < from + count && keepGoing(); i++) {
    const started = performance.now();
    await call('saveLabel', { project: 'labeling', annotator: 'bench', itemId: ids[i], choice: i % 2 ? 'A' : 'B', shownOrder: [0, 1] });
    latencies.push(performance.now() - started);
    await sleep(10);
  }
  return latencies;
}
const q = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const line = (name, v) => `${name}: ${v.length} saves, p50 ${q(v, 0.5).toFixed(1)} ms, p95 ${q(v, 0.95).toFixed(1)} ms, max ${Math.max(...v).toFixed(1)} ms`;

try {
  const baseline = await saves(0, SAVES);
  const started = performance.now();
  const importer = spawn(process.execPath, [bin, 'import', pairsFile, '--project', 'bulk', '--db', dbPath], { env, stdio: 'ignore' });
  let running = true;
  const exited = new Promise((done) => importer.on('exit', (code) => ((running = false), done(code))));
  await sleep(300); // let it start writing
  const during = await saves(SAVES, SAVES, () => running);
  const code = await exited;
  const importSeconds = (performance.now() - started) / 1000;
  console.log(`node ${process.version}; ${N.toLocaleString()} pairs imported by another process in ${importSeconds.toFixed(1)} s (exit ${code})`);
  console.log(line('saves, nothing else running', baseline));
  console.log(line('saves during the import     ', during));
  console.log(`ratio during / baseline: p50 ${(q(during, 0.5) / q(baseline, 0.5)).toFixed(1)}×, p95 ${(q(during, 0.95) / q(baseline, 0.95)).toFixed(1)}×  (bound: every save ≤ 300 ms)`);
  const progress = await call('progress', { project: 'labeling', annotator: 'bench' });
  console.log(`kept: ${progress.labeledByMe} of ${baseline.length + during.length} saves`);
} finally {
  host.kill('SIGTERM');
}
