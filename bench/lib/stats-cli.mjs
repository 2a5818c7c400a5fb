// `arbiter stats` against a plain GROUP BY pass (bench/review-metrics.mjs): a project of `items` pairs,
// each labelled by `raters` people (a pairwise choice that splits on about a third of the items), made
// once through the TypeScript sources (run under tsx) and kept in bench/.data. The CLI is the built one
// (bin/arbiter.mjs, start-up included); the baseline runs in this process on a connection of its own.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dataDir = join(root, 'bench', '.data');

async function writeLines(path, count, line) {
  const out = createWriteStream(path);
  for (let i = 0; i < count; i++) if (!out.write(`${line(i)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

async function makeProject(path, items, raters) {
  const { openDb } = await import('../../electron/core/store/db.ts');
  const { importFile, importLabelsFile } = await import('../../electron/core/formats/index.ts');
  const itemsFile = join(dataDir, `stats-items-${items}.jsonl`);
  const labelsFile = join(dataDir, `stats-labels-${items}x${raters}.jsonl`);
  await writeLines(itemsFile, items, (i) => JSON.stringify({ id: `q${i}`, prompt: `Question ${i}?`, responses: [{ text: `One answer to ${i}.` }, { text: `Another answer to ${i}, longer.` }] }));
  const uuid = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const start = Date.parse('2026-11-01T00:00:00Z');
  await writeLines(labelsFile, items * raters, (n) => {
    const item = Math.floor(n / raters);
    const who = n % raters;
    return JSON.stringify({
      id: uuid(n + 1),
      item: `q${item}`,
      annotator: `annotator-${who}`,
      annotator_uuid: uuid(1_000_000_000 + who),
      task: 'pairwise',
      choice: (item * 7 + who) % 3 === 0 ? 'B' : 'A',
      strength: 1 + ((item + who) % 3),
      shown_order: (item + who) % 2 ? [1, 0] : [0, 1],
      time_ms: 4000 + (n % 5000),
      prelabel_visible: n % 2 === 0,
      created_at: new Date(start + n * 1000).toISOString(),
    });
  });
  const making = `${path}.making`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(making + suffix, { force: true });
  const db = openDb(making);
  await importFile(db, { path: itemsFile, project: 'team', format: 'arbiter', createProject: true });
  await importLabelsFile(db, { path: labelsFile, project: 'team' });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  renameSync(making, path);
  rmSync(itemsFile);
  rmSync(labelsFile);
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** Prints the CLI's time, the baseline's and their ratio; returns them. */
export async function statsAgainstGroupBy({ items, raters, runs }) {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, `stats-${items}x${raters}.db`);
  if (!existsSync(path)) {
    const t = performance.now();
    await makeProject(path, items, raters);
    console.log(`(made the project for arbiter stats in ${((performance.now() - t) / 1000).toFixed(1)} s: ${path})`);
  }
  if (spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--node-only'], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) process.exit(1);
  const { default: Database } = await import('better-sqlite3');
  const groupBy = () => {
    const db = new Database(path, { readonly: true });
    const rows = db
      .prepare(
        `SELECT h.item_id, h.choice, COUNT(*) FROM label_head h JOIN item i ON i.id = h.item_id
         WHERE i.project_id = (SELECT id FROM project WHERE name = 'team') AND h.task = 'pairwise' AND h.done = 1
         GROUP BY h.item_id, h.choice`,
      )
      .raw()
      .all();
    db.close();
    return rows.length;
  };
  const cli = join(root, 'bin/arbiter.mjs');
  // The CLI's own CPU time (every thread), written by a module loaded before it (bench/lib/cpu-at-exit.mjs).
  const cpuAtExit = pathToFileURL(join(root, 'bench/lib/cpu-at-exit.mjs')).href;
  let cliCpu = 0;
  const stats = () => {
    const run = spawnSync(process.execPath, ['--import', cpuAtExit, cli, 'stats', '--project', 'team', '--json', '--db', path], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`arbiter stats failed: ${run.stderr}`);
    cliCpu = Number(/bench-cpu-us (\d+)/.exec(run.stderr)?.[1] ?? Number.NaN) / 1000;
    return JSON.parse(run.stdout);
  };
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const base = [];
  const cliRuns = [];
  const baseCpu = [];
  const cliCpus = [];
  let report;
  // Interleaved, so both see the same load on a shared machine. CPU time beside wall time: on a busy
  // machine a process waits for a core, and the CLI (a process of its own) waits more than this one.
  for (let r = 0; r <= runs; r++) {
    let t = performance.now();
    const c = cpuMs();
    groupBy();
    if (r > 0) {
      base.push(performance.now() - t);
      baseCpu.push(cpuMs() - c);
    }
    t = performance.now();
    report = stats();
    if (r > 0) {
      cliRuns.push(performance.now() - t);
      cliCpus.push(cliCpu);
    }
  }
  const baseMs = median(base);
  const cliMs = median(cliRuns);
  const choice = report.review.fields.find((f) => f.field === 'choice');
  console.log(`arbiter stats --json on ${report.review.labels.toLocaleString('en')} current labels (${items.toLocaleString('en')} items × ${raters} people), median of ${runs} after a warm-up`);
  console.log(`  plain GROUP BY pass (votes per item and choice), this process: ${baseMs.toFixed(0)} ms  (${base.map((ms) => ms.toFixed(0)).join(' / ')})`);
  console.log(`  arbiter stats, CLI start-up included:                          ${cliMs.toFixed(0)} ms  (${cliRuns.map((ms) => ms.toFixed(0)).join(' / ')})  ratio ${(cliMs / baseMs).toFixed(2)}×  (target ≤ 4×; α ${choice.alpha.value?.toFixed(3)}, queue ${report.review.queue.total.toLocaleString('en')} items)`);
  const [baseCpuMs, cliCpuMs] = [median(baseCpu), median(cliCpus)];
  console.log(`  CPU time (user + system): GROUP BY ${baseCpuMs.toFixed(0)} ms, arbiter stats ${cliCpuMs.toFixed(0)} ms (${cliCpus.map((ms) => ms.toFixed(0)).join(' / ')})  ratio ${(cliCpuMs / baseCpuMs).toFixed(2)}×`);
  console.log('');
  return { baseMs, cliMs, baseCpuMs, cliCpuMs };
}
