#!/usr/bin/env node
// The team hub's sync: `npm run bench:hub`, or
//   node --import tsx bench/hub-sync.mjs [--items 100000] [--revisions 300000] [--keep]
// On a throwaway PostgreSQL 15 cluster (test/helpers/postgres.ts: initdb / pg_ctl in a temporary folder, a free
// port, fsync on as a real server has it), times the shipped `arbiter` commands against a bare COPY of the same
// rows into the same server, in the same run:
//   up:   `arbiter sync` on machine A pushes its --revisions own revisions (one annotator, --items items, each
//         labeled and relabeled in turn), connected as that annotator's login role (row-level security on);
//   down: `arbiter sync` on machine B (joined as another annotator) pulls them all into its SQLite file;
//   COPY: the same lines (`arbiter export --format labels` of A) COPYed into a table with the hub's columns,
//         keys and index, and COPYed out again (bench/lib/pg-copy.mjs);
//   merge: `arbiter labels import` of those lines into a third machine, joined the same way (the merge a pull
//         runs, without the hub);
//   saves during the app's pull: a fourth machine connects through the app's service (connectHub: join, then
//         the pull in its worker) and saves labels while it pulls them all, against the same saves after it
//         (bench/lib/app-pull-saves.mjs; target every save under 50 ms; --no-app-saves leaves it out).
// Each command runs as a process of its own, its peak RSS read from inside it (bench/lib/peak-rss.mjs).
// Machine A's database is made through the store's own functions (import of the items, labelAppender for
// the revisions, one transaction), which is quick and makes them revisions saved here, the ones a sync pushes.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { skipReason, startCluster } from '../test/helpers/postgres.ts';
import { openDb } from '../electron/core/store/db.ts';
import { importFile } from '../electron/core/formats/index.ts';
import { ensureAnnotatorByUuid } from '../electron/core/store/annotators.ts';
import { labelAppender } from '../electron/core/store/labels.ts';
import { requireProject } from '../electron/core/store/projects.ts';
import { savesDuringPull } from './lib/app-pull-saves.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'bench', '.data', 'hub');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const ITEMS = arg('--items', 100_000);
const REVISIONS = arg('--revisions', 300_000);
const PROJECT = 'team';
const ANA = '0192f0c4-0000-7000-8000-00000000a0a0';

const reason = skipReason();
if (reason) {
  console.log(`bench:hub skipped: ${reason}`);
  process.exit(0);
}
if (spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--node-only'], { stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) process.exit(1);
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

const bin = join(root, 'bin', 'arbiter.mjs');
const peakRss = join(root, 'bench', 'lib', 'peak-rss.mjs');
const rssFile = join(dataDir, 'peak-rss');
const env = { ...process.env, ARBITER_NO_DEMO: '1', ARBITER_HOME: join(dataDir, 'home') };
delete env.ARBITER_HUB_PASSWORD;

/** Runs a script in a process of its own; returns its stdout's last line parsed, its time and peak RSS (MiB). */
function timed(label, script, args, extraEnv = {}) {
  rmSync(rssFile, { force: true });
  const t0 = performance.now();
  const result = spawnSync(process.execPath, ['--import', peakRss, script, ...args], {
    env: { ...env, ...extraEnv, BENCH_PEAK_RSS_FILE: rssFile },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (result.status !== 0) {
    console.error(`${label} failed (exit ${result.status}):\n${result.stderr}${result.stdout}`);
    throw new Error(`${label} failed`);
  }
  const last = result.stdout.trim().split('\n').pop() ?? '';
  let summary = null;
  try {
    summary = JSON.parse(last);
  } catch {
    summary = last;
  }
  const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) / 1024 : NaN;
  return { ms, rss, summary };
}
const arbiter = (label, args) => timed(label, bin, args);

// Machine A: the items, and REVISIONS revisions by one human annotator saved here.
async function writeLines(path, count, line) {
  const out = createWriteStream(path);
  for (let i = 0; i < count; i++) if (!out.write(`${line(i)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}
const itemsFile = join(dataDir, `items-${ITEMS}.jsonl`);
await writeLines(itemsFile, ITEMS, (i) =>
  JSON.stringify({ id: `q${i}`, prompt: `Question ${i}: which answer is right?`, responses: [{ text: `Answer one to ${i}.` }, { text: `Answer two to ${i}.` }] }),
);
const dbA = join(dataDir, 'a.db');
const dbB = join(dataDir, 'b.db');
const tMake = performance.now();
{
  const db = openDb(dbA);
  await importFile(db, { path: itemsFile, project: PROJECT, format: 'arbiter', createProject: true });
  const project = requireProject(db, PROJECT);
  const ana = ensureAnnotatorByUuid(db, ANA, 'ana', 'human');
  const itemIds = db.prepare('SELECT id FROM item WHERE project_id = ? ORDER BY id').pluck().all(project.id);
  const append = labelAppender(db);
  const start = Date.parse('2026-11-01T00:00:00Z');
  db.transaction(() => {
    for (let n = 0; n < REVISIONS; n++) {
      const item = n % itemIds.length;
      const round = Math.floor(n / itemIds.length);
      append({
        projectId: project.id,
        itemId: itemIds[item],
        annotatorId: ana.id,
        createdAt: new Date(start + n * 1000).toISOString(),
        choice: (item * 7 + round) % 3 === 0 ? 'B' : 'A',
        strength: 1 + ((item + round) % 3),
        shownOrder: (item + round) % 2 ? [1, 0] : [0, 1],
        body: { rationale: round === 0 ? `Looked at ${item}.` : `Changed my mind on ${item} (round ${round}).`, time_ms: 4000 + (n % 5000), prelabel_visible: false },
      });
    }
  })();
  db.close();
}
const makeMs = performance.now() - tMake;

const pg = await startCluster({ settings: { fsync: 'on', max_wal_size: '4GB' } });
try {
  const owner = pg.url();
  const as = (role) => pg.url(role);
  arbiter('hub init', ['hub', 'init', '--hub', owner]);
  arbiter('hub grant ana', ['hub', 'grant', '--hub', owner, '--annotator', 'ana', '--role', 'lead', '--uuid', ANA, '--no-password']);
  arbiter('hub grant ben', ['hub', 'grant', '--hub', owner, '--annotator', 'ben', '--role', 'annotator', '--no-password']);
  const publish = arbiter('hub publish', ['hub', 'publish', '--project', PROJECT, '--hub', as('arbiter_ana'), '--db', dbA]);
  const up = arbiter('sync up', ['sync', '--project', PROJECT, '--hub', as('arbiter_ana'), '--db', dbA]);
  const joined = arbiter('hub join', ['hub', 'join', '--project', PROJECT, '--hub', as('arbiter_ben'), '--db', dbB]);
  const down = arbiter('sync down', ['sync', '--project', PROJECT, '--hub', as('arbiter_ben'), '--db', dbB]);
  const again = arbiter('sync again', ['sync', '--project', PROJECT, '--hub', as('arbiter_ben'), '--db', dbB]);

  // B now holds every revision of A, with the same current labels.
  const { default: Database } = await import('better-sqlite3');
  const facts = (path) => {
    const db = new Database(path, { readonly: true });
    const revisions = db.prepare('SELECT COUNT(*) FROM label').pluck().get();
    const heads = db
      .prepare("SELECT group_concat(i.uid || ':' || l.id, ',') FROM (SELECT h.item_id, h.label_seq FROM label_head h JOIN annotator a ON a.id = h.annotator_id WHERE a.uuid = ? ORDER BY h.item_id) h JOIN item i ON i.id = h.item_id JOIN label l ON l.seq = h.label_seq")
      .pluck()
      .get(ANA);
    db.close();
    return { revisions, heads };
  };
  const a = facts(dbA);
  const b = facts(dbB);
  const same = a.revisions === REVISIONS && a.revisions === b.revisions && Boolean(a.heads) && a.heads === b.heads;

  // The baseline: the same lines, COPYed in and out of the same server.
  const labelsFile = join(dataDir, 'labels.jsonl');
  arbiter('export labels', ['export', '--project', PROJECT, '--format', 'labels', '--out', labelsFile, '--db', dbA]);
  const copyScript = join(root, 'bench', 'lib', 'pg-copy.mjs');
  const copyIn = timed('COPY in', copyScript, ['in', owner, labelsFile, '1']);
  const copyOut = timed('COPY out', copyScript, ['out', owner]);
  // The merge alone: the same lines as a labels file into a third machine joined the same way.
  const dbC = join(dataDir, 'c.db');
  arbiter('hub join C', ['hub', 'join', '--project', PROJECT, '--hub', as('arbiter_ben'), '--db', dbC]);
  const merge = arbiter('labels import', ['labels', 'import', labelsFile, '--project', PROJECT, '--db', dbC]);

  // Saves in the app while its background sync pulls everything.
  const appSaves = argv.includes('--no-app-saves')
    ? null
    : () =>
        savesDuringPull({
          dbPath: join(dataDir, 'd.db'),
          project: PROJECT,
          name: 'cara',
          revisions: REVISIONS,
          grant: (uuid) => {
            arbiter('hub grant cara', ['hub', 'grant', '--hub', owner, '--annotator', 'cara', '--role', 'annotator', '--uuid', uuid, '--no-password']);
            return as('arbiter_cara');
          },
        });

  const n = REVISIONS;
  const rate = (ms) => `${Math.round(n / (ms / 1000)).toLocaleString('en')} revisions/s`;
  const line = (name, r, base) =>
    `  ${name.padEnd(34)} ${(r.ms / 1000).toFixed(2).padStart(6)} s  ${rate(r.ms).padStart(18)}  peak RSS ${Math.round(r.rss)} MiB${base ? `  ratio ${(r.ms / base.ms).toFixed(1)}× COPY` : ''}`;
  console.log(`hub sync: ${n.toLocaleString('en')} revisions (${ITEMS.toLocaleString('en')} items, one annotator), PostgreSQL ${pg.port} on this machine, fsync on`);
  console.log(`  machine A made in ${(makeMs / 1000).toFixed(1)} s; hub publish of ${ITEMS.toLocaleString('en')} items ${(publish.ms / 1000).toFixed(1)} s, join ${(joined.ms / 1000).toFixed(1)} s`);
  console.log(line('COPY in (baseline)', copyIn));
  console.log(line('arbiter sync, up (push)', up, copyIn));
  console.log(line('COPY out (baseline)', copyOut));
  console.log(line('arbiter sync, down (pull)', down, copyOut));
  console.log(`${line('arbiter labels import, same lines', merge)}  (the merge alone; sync down is ${(down.ms / merge.ms).toFixed(1)}× it)`);
  console.log(`  B holds ${b.revisions.toLocaleString('en')} revisions, A ${a.revisions.toLocaleString('en')}; ana's current labels ${same ? 'the same on both' : 'DIFFER'}`);
  console.log(`  sync again (nothing new): ${(again.ms / 1000).toFixed(2)} s  ${JSON.stringify(again.summary)}`);
  console.log(`  up: ${JSON.stringify(up.summary)}`);
  console.log(`  down: ${JSON.stringify(down.summary)}`);
  console.log(`  every time is a whole process: node starting, connecting, the work (COPY alone: in ${(copyIn.summary.ms / 1000).toFixed(2)} s, out ${(copyOut.summary.ms / 1000).toFixed(2)} s)`);
  if (appSaves) await appSaves();
  if (!same) process.exitCode = 1;
} finally {
  await pg.stop();
  if (!argv.includes('--keep')) rmSync(dataDir, { recursive: true, force: true });
}
