// Random kills (issue 13, "Must hold"): real `arbiter` processes (the CLI and the `serve` host) are
// killed with SIGKILL at a random moment of label saves, imports, label merges, uploads, scoring,
// backups and project deletes. After each kill the database is opened as the app opens it (crash
// recovery included) and must hold: integrity_check ok, foreign_key_check empty, every save the API
// acknowledged present, nothing half-visible (an import's items all or none, a merge's revisions all or
// none, a project a killed import made either whole or not listed, a killed delete either whole or
// gone), the counters equal to a recount, and every backup file that exists a whole database.
//
// The seed is printed; KILL_SEED=<seed> draws the same rounds and delays again (the moment a delay
// lands in a process still depends on the machine). KILL_ROUNDS=<n per kind> changes the count.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../electron/core/store/db';
import { listProjects } from '../../electron/core/store/projects';
import { buildNodeSide, call, ROOT, startHostProcess, type HostProcess } from '../helpers/host';
import { seededRng, seedFrom, type Rng } from '../helpers/seeded';

const SEED = seedFrom('KILL_SEED');
const ROUNDS = Number(process.env.KILL_ROUNDS ?? 16);
const KINDS = ['save', 'import', 'merge', 'upload', 'score', 'backup', 'delete'] as const;
type Kind = (typeof KINDS)[number];

const OUTCOME = join(ROOT, 'resources/models/demo-outcome');
const PROCESS = join(ROOT, 'resources/models/demo-process');
const BASE_ITEMS = 300;
const CHAIN_ITEMS = 120;
const IMPORT_ITEMS = 6000;
const MERGE_REVISIONS = 5000;
const UPLOAD_ITEMS = 2000;
const DELETE_ITEMS = 2000;

let work = '';
let cliDb = '';
let hostDb = '';
const rng: Rng = seededRng(SEED);

// What the suite knows must hold, kept across rounds (one database per lane, reused).
const acked: string[] = []; // revision ids a saveLabel answered ok for
interface MergeRound { round: number; ids: string[]; completed: boolean }
interface ProjectRound { round: number; kind: Kind; project: string; items: number; completed: boolean; db: string }
const merges: MergeRound[] = [];
const madeProjects: ProjectRound[] = []; // imports and uploads into a project of their own
const deletes: ProjectRound[] = [];
const sharedImports = { expected: 0 }; // the project "imports" every other import round adds to

const failures: string[] = [];
const counts = { kills: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>, finishedFirst: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>, checks: 0 };
const durations = {} as Record<Kind, number>;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  ms: number;
}

function arbiter(db: string, args: string[], killAfterMs?: number): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), ...args, '--db', db], {
    env: { ...process.env, ARBITER_NO_DEMO: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output, ms: performance.now() - started });
    }),
  );
}

async function mustRun(db: string, args: string[]): Promise<Run> {
  const run = await arbiter(db, args);
  if (run.code !== 0) throw new Error(`arbiter ${args.join(' ')} failed (${run.code}):\n${run.output}`);
  return run;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- Files ----------------------------------------------------------------------------------------

function pairLines(tag: string, n: number): string {
  let text = '';
  for (let i = 0; i < n; i++) text += `${JSON.stringify({ prompt: `${tag} question ${i}: what follows ${i}?`, chosen: ` ${i + 1}, by one.`, rejected: ` ${i - 1}.` })}\n`;
  return text;
}

function writeFile(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

/** A labels file of fresh revisions on the base project's items, by three annotators, in time order. */
function labelsFile(round: number): { path: string; ids: string[] } {
  const ids: string[] = [];
  let text = '';
  const t0 = Date.UTC(2026, 0, 1) + round * 86_400_000;
  for (let i = 0; i < MERGE_REVISIONS; i++) {
    const id = rng.uuid();
    ids.push(id);
    const line = {
      id,
      item: `b${rng.int(BASE_ITEMS)}`,
      annotator: rng.pick(['ann', 'ben', 'cat']),
      choice: rng.pick(['A', 'B', 'tie', 'both_bad']),
      created_at: new Date(t0 + i * 1000).toISOString(),
    };
    text += `${JSON.stringify(line)}\n`;
  }
  return { path: writeFile(`labels-${round}.jsonl`, text), ids };
}

// ---- Checks ---------------------------------------------------------------------------------------

function visibleItems(db: Database.Database, project: string): number {
  return db
    .prepare("SELECT COUNT(*) FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = ? AND p.state = 'active' AND i.seq < p.visible_seq")
    .pluck()
    .get(project) as number;
}

function checkCounters(db: Database.Database, fail: (what: string) => void): void {
  const projects = db.prepare("SELECT id, name, item_count, visible_seq FROM project WHERE state = 'active'").all() as { id: number; name: string; item_count: number; visible_seq: number }[];
  for (const p of projects) {
    counts.checks++;
    const items = db.prepare('SELECT COUNT(*) FROM item WHERE project_id = ? AND seq < ?').pluck().get(p.id, p.visible_seq) as number;
    if (items !== p.item_count) fail(`project ${JSON.stringify(p.name)}: item_count ${p.item_count}, but ${items} items are visible`);
    const recount = new Map<string, number>();
    for (const row of db
      .prepare(
        `SELECT h.task, h.annotator_id AS a, COUNT(*) AS n FROM label_head h JOIN item i ON i.id = h.item_id
         WHERE i.project_id = ? AND i.seq < ? AND h.done = 1 GROUP BY h.task, h.annotator_id`,
      )
      .all(p.id, p.visible_seq) as { task: string; a: number; n: number }[])
      recount.set(`${row.task}|${row.a}`, row.n);
    const kept = new Map<string, number>();
    for (const row of db.prepare('SELECT task, annotator_id AS a, done FROM progress WHERE project_id = ? AND done <> 0').all(p.id) as { task: string; a: number; done: number }[])
      kept.set(`${row.task}|${row.a}`, row.done);
    counts.checks++;
    for (const key of new Set([...recount.keys(), ...kept.keys()]))
      if ((recount.get(key) ?? 0) !== (kept.get(key) ?? 0))
        fail(`project ${JSON.stringify(p.name)}: progress (task|annotator ${key}) is ${kept.get(key) ?? 0}, a recount gives ${recount.get(key) ?? 0}`);
    const labeled = new Map<string, number>();
    for (const row of db
      .prepare(
        `SELECT h.task, COUNT(DISTINCT h.item_id) AS n FROM label_head h JOIN item i ON i.id = h.item_id JOIN annotator a ON a.id = h.annotator_id
         WHERE i.project_id = ? AND i.seq < ? AND h.done = 1 AND a.kind = 'human' GROUP BY h.task`,
      )
      .all(p.id, p.visible_seq) as { task: string; n: number }[])
      labeled.set(row.task, row.n);
    const keptLabeled = new Map<string, number>();
    for (const row of db.prepare('SELECT task, labeled FROM task_progress WHERE project_id = ? AND labeled <> 0').all(p.id) as { task: string; labeled: number }[])
      keptLabeled.set(row.task, row.labeled);
    counts.checks++;
    for (const task of new Set([...labeled.keys(), ...keptLabeled.keys()]))
      if ((labeled.get(task) ?? 0) !== (keptLabeled.get(task) ?? 0))
        fail(`project ${JSON.stringify(p.name)}: task_progress.labeled (${task}) is ${keptLabeled.get(task) ?? 0}, a recount gives ${labeled.get(task) ?? 0}`);
  }
}

/** Every backup the kills may have left: a file that exists must be a whole database. */
function checkBackups(dir: string, fail: (what: string) => void): void {
  const files: string[] = [];
  for (const folder of [dir, join(dir, 'backups')]) {
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)) if (/\.sqlite$/.test(name) && (name.startsWith('bk-') || folder.endsWith('backups'))) files.push(join(folder, name));
  }
  for (const file of files) {
    if (checkedBackups.has(file)) continue;
    counts.checks++;
    let verdict: string;
    try {
      const copy = new Database(file, { readonly: true, fileMustExist: true });
      try {
        verdict = String(copy.pragma('integrity_check', { simple: true }));
        if (verdict === 'ok' && !copy.prepare("SELECT 1 FROM sqlite_master WHERE name = 'label'").get()) verdict = 'no label table';
      } finally {
        copy.close();
      }
    } catch (error) {
      verdict = (error as Error).message;
    }
    if (verdict !== 'ok') fail(`backup file ${file.slice(work.length + 1)} is not a whole database (${verdict}): a killed backup left a partial copy under a backup's name`);
    checkedBackups.add(file);
  }
}
const checkedBackups = new Set<string>();

/** Opens the database as the app does (recovery included) and checks everything the suite knows. */
/** Each broken thing once, at the round it was first seen (later rounds see it again). */
const reported = new Set<string>();

function checkAfter(dbPath: string, where: string): void {
  const fail = (what: string) => {
    const text = `KILL_SEED=${SEED} ${where}: ${what}`;
    if (!reported.has(what)) failures.push(text);
    reported.add(what);
  };
  // As the kill left it, before anything repairs it.
  const raw = new Database(dbPath);
  try {
    counts.checks++;
    const verdict = raw.pragma('integrity_check', { simple: true });
    if (verdict !== 'ok') fail(`integrity_check before recovery: ${String(verdict)}`);
  } finally {
    raw.close();
  }
  const db = openDb(dbPath);
  try {
    counts.checks += 2;
    const verdict = db.pragma('integrity_check', { simple: true });
    if (verdict !== 'ok') fail(`integrity_check: ${String(verdict)}`);
    const fk = db.pragma('foreign_key_check') as unknown[];
    if (fk.length) fail(`foreign_key_check: ${JSON.stringify(fk.slice(0, 3))}${fk.length > 3 ? ` and ${fk.length - 3} more` : ''}`);

    if (dbPath === hostDb) {
      counts.checks++;
      const present = db.prepare('SELECT COUNT(*) FROM label WHERE id IN (SELECT value FROM json_each(?))').pluck().get(JSON.stringify(acked)) as number;
      if (present !== acked.length) {
        const have = new Set(db.prepare('SELECT id FROM label WHERE id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(acked)) as string[]);
        const lost = acked.filter((id) => !have.has(id));
        fail(`${lost.length} of ${acked.length} acknowledged saves are missing (first: ${lost[0]})`);
      }
    }

    if (dbPath === cliDb) {
      for (const merge of merges) {
        counts.checks++;
        const present = db.prepare('SELECT COUNT(*) FROM label WHERE id IN (SELECT value FROM json_each(?))').pluck().get(JSON.stringify(merge.ids)) as number;
        if (merge.completed ? present !== merge.ids.length : present !== 0 && present !== merge.ids.length)
          fail(`labels merge of round ${merge.round}${merge.completed ? ' (which exited 0)' : ' (killed)'}: ${present} of its ${merge.ids.length} revisions are stored, not all or none`);
      }
      counts.checks++;
      const shared = visibleItems(db, 'imports');
      if (shared !== sharedImports.expected) fail(`project "imports" shows ${shared} items; the completed imports into it hold ${sharedImports.expected}`);
    }

    const listed = new Map(listProjects(db).map((p) => [p.name, p.items]));
    for (const made of [...madeProjects, ...deletes]) {
      if (made.db !== dbPath) continue;
      counts.checks++;
      const shown = listed.get(made.project);
      const visible = visibleItems(db, made.project);
      const what = made.kind === 'delete' ? `project ${made.project} (deleted in round ${made.round}${made.completed ? ', exited 0' : ', killed'})` : `project ${made.project} (made by the ${made.kind} of round ${made.round}${made.completed ? ', acknowledged' : ', killed'})`;
      if (made.kind === 'delete') {
        if (made.completed && shown !== undefined) fail(`${what} is still listed`);
        else if (shown !== undefined && (shown !== made.items || visible !== made.items)) fail(`${what} is listed with ${shown} items (${visible} visible), not all ${made.items}: half deleted`);
      } else if (made.completed && (shown !== made.items || visible !== made.items)) fail(`${what} shows ${shown ?? 'no project'} (${visible} visible items), not its ${made.items} items`);
      else if (shown !== undefined && shown !== made.items) fail(`${what} is listed with ${shown} items (${visible} visible), not all ${made.items} or none${shown === 0 ? ': an empty project is left (finding 7)' : ''}`);
      else if (shown === undefined && visible !== 0) fail(`${what} is not listed, yet ${visible} of its items are visible`);
    }

    counts.checks++;
    const pending = db.prepare("SELECT COUNT(*) FROM import_file WHERE state = 'pending'").pluck().get() as number;
    if (pending) fail(`${pending} pending import record(s) remain after the database was opened again`);
    counts.checks++;
    const badScores = db.prepare("SELECT COUNT(*) FROM score WHERE typeof(reward) NOT IN ('real', 'integer', 'null') OR (step_scores IS NOT NULL AND json_valid(step_scores) = 0)").pluck().get() as number;
    if (badScores) fail(`${badScores} score rows hold a reward or step scores that are not numbers / JSON`);
    checkCounters(db, fail);
  } finally {
    db.close();
  }
  checkBackups(work, fail);
}

// ---- The rounds -----------------------------------------------------------------------------------

/** How long a bare `arbiter` process takes to start and stop: kills before it mostly hit Node's start-up. */
let startupMs = 0;

/** A delay within the operation's measured duration, past the first half of a process start-up. */
function drawDelay(kind: Kind, floor = startupMs / 2): number {
  return Math.round(floor + rng() * Math.max(1, durations[kind] - floor));
}

/** A CLI round: runs the command, killed at a delay drawn within its measured duration. */
async function cliRound(kind: Kind, round: number, args: string[], onExit: (run: Run) => void): Promise<void> {
  const delay = drawDelay(kind);
  const run = await arbiter(cliDb, args, delay);
  const killed = run.signal === 'SIGKILL';
  if (killed) counts.kills[kind]++;
  else {
    counts.finishedFirst[kind]++;
    // It ran faster than measured (warm caches): draw the next delays within this run's duration.
    durations[kind] = run.ms;
    if (run.code !== 0) failures.push(`KILL_SEED=${SEED} round ${round} (${kind}): arbiter ${args.join(' ')} exited ${run.code} without being killed:\n${run.output.slice(-2000)}`);
  }
  onExit(run);
  checkAfter(cliDb, `round ${round} (${kind}, SIGKILL after ${delay} of ~${Math.round(durations[kind])} ms${killed ? '' : ', but it finished first'})`);
}

async function importRound(round: number, measure = false): Promise<void> {
  const own = round % 2 === 0;
  const project = own ? `imp-${round}` : 'imports';
  const path = writeFile(`import-${round}.jsonl`, pairLines(`import ${round}`, IMPORT_ITEMS));
  const args = ['import', path, '--project', project];
  if (measure) {
    durations.import = (await mustRun(cliDb, args)).ms;
    if (own) madeProjects.push({ round, kind: 'import', project, items: IMPORT_ITEMS, completed: true, db: cliDb });
    else sharedImports.expected += IMPORT_ITEMS;
    return;
  }
  const before = sharedImports.expected;
  const record: ProjectRound = { round, kind: 'import', project, items: IMPORT_ITEMS, completed: false, db: cliDb };
  await cliRound('import', round, args, (run) => {
    record.completed = run.code === 0;
    if (own) madeProjects.push(record);
    else if (record.completed) sharedImports.expected += IMPORT_ITEMS;
    else {
      // Killed: either none of it is visible, or all of it (the kill came after the import completed).
      const db = new Database(cliDb, { readonly: true });
      try {
        const shown = visibleItems(db, 'imports');
        if (shown === before + IMPORT_ITEMS) sharedImports.expected = shown;
      } finally {
        db.close();
      }
    }
  });
}

async function mergeRound(round: number, measure = false): Promise<void> {
  const { path, ids } = labelsFile(round);
  const args = ['labels', 'import', path, '--project', 'base'];
  if (measure) {
    durations.merge = (await mustRun(cliDb, args)).ms;
    merges.push({ round, ids, completed: true });
    return;
  }
  const merge: MergeRound = { round, ids, completed: false };
  merges.push(merge);
  await cliRound('merge', round, args, (run) => (merge.completed = run.code === 0));
}

/** Every score seen so far, by model hash and input: a score written by a killed run must equal it. */
const seenScores = new Map<string, { reward: number | null; steps: string | null; round: number }>();

function clearScores(round: number, fail?: (what: string) => void): void {
  const db = new Database(cliDb);
  try {
    const rows = db.prepare('SELECT m.hash, s.content_hash AS input, s.reward, s.step_scores AS steps FROM score s JOIN model m ON m.id = s.model_id').all() as {
      hash: string;
      input: string;
      reward: number | null;
      steps: string | null;
    }[];
    for (const row of rows) {
      const key = `${row.hash}|${row.input}`;
      const seen = seenScores.get(key);
      counts.checks++;
      if (!seen) seenScores.set(key, { reward: row.reward, steps: row.steps, round });
      else if ((seen.reward === null) !== (row.reward === null) || (seen.reward !== null && Math.abs(seen.reward - row.reward!) > 1e-4))
        fail?.(`score of input ${row.input.slice(0, 12)} is ${row.reward}, but ${seen.reward} in round ${seen.round}: a killed run left a wrong score`);
    }
    db.exec('DELETE FROM score');
  } finally {
    db.close();
  }
}

async function scoreRound(round: number, measure = false): Promise<void> {
  // The scores the last round left are compared with every earlier one, then cleared so this round scores again.
  clearScores(round, (what) => failures.push(`KILL_SEED=${SEED} before round ${round} (score): ${what}`));
  const args = round % 2 === 0 ? ['score', '--project', 'base', '--model', OUTCOME] : ['score', '--project', 'chains', '--model', PROCESS];
  if (measure) {
    durations.score = (await mustRun(cliDb, args)).ms;
    return;
  }
  await cliRound('score', round, args, () => undefined);
}

async function backupRound(round: number, measure = false): Promise<void> {
  const args = ['backup', '--out', join(work, `bk-${round}.sqlite`)];
  if (measure) {
    durations.backup = (await mustRun(cliDb, args)).ms;
    return;
  }
  await cliRound('backup', round, args, () => undefined);
}

async function deleteRound(round: number, measure = false): Promise<void> {
  const project = `del-${round}`;
  await mustRun(cliDb, ['import', writeFile(`del-${round}.jsonl`, pairLines(`delete ${round}`, DELETE_ITEMS)), '--project', project]);
  const args = ['projects', 'delete', project, '--yes'];
  if (measure) {
    durations.delete = (await mustRun(cliDb, args)).ms;
    return;
  }
  const record: ProjectRound = { round, kind: 'delete', project, items: DELETE_ITEMS, completed: false, db: cliDb };
  deletes.push(record);
  await cliRound('delete', round, args, (run) => (record.completed = run.code === 0));
}

/** Host rounds: a fresh `serve` on the host database, killed a drawn delay after it is ready. */
async function hostRound(kind: 'save' | 'upload', round: number, measure = false): Promise<void> {
  const host = await startHostProcess(hostDb);
  const exited = new Promise<void>((resolve) => host.child.once('exit', () => resolve()));
  let stop = false;
  killing = false;
  const started = performance.now();
  const operation = kind === 'save' ? saveBurst(host, () => stop, measure) : uploadOnce(host, round, measure);
  if (measure) {
    await operation;
    durations[kind] = performance.now() - started;
    host.child.kill('SIGKILL');
    await exited;
    checkAfter(hostDb, `calibration of ${kind}`);
    return;
  }
  const delay = drawDelay(kind, 0);
  let finished = false;
  void operation.then(() => (finished = true));
  await sleep(delay);
  const killedDuring = !finished;
  killing = true;
  host.child.kill('SIGKILL');
  await exited;
  stop = true;
  await operation;
  if (killedDuring) counts.kills[kind]++;
  else {
    counts.finishedFirst[kind]++;
    durations[kind] = Math.max(delay, 1);
  }
  checkAfter(hostDb, `round ${round} (${kind}, SIGKILL ${delay} ms after the host was ready, of ~${Math.round(durations[kind])} ms${killedDuring ? '' : ', after the operation finished'})`);
}

let hostItems: number[] = [];
/** Set just before the host is killed: a request failing after it failed because of the kill. */
let killing = false;

/** Four clients saving labels as fast as the host answers; an id is acknowledged when the answer is ok. */
async function saveBurst(host: HostProcess, stopped: () => boolean, measure: boolean): Promise<void> {
  const client = async (c: number) => {
    for (let n = 0; measure ? n < 25 : !stopped(); n++) {
      const id = rng.uuid();
      try {
        const answer = await call(host, 'saveLabel', {
          project: 'labeling',
          annotator: c % 2 ? 'alice' : 'bob',
          itemId: rng.pick(hostItems),
          id,
          choice: rng.pick(['A', 'B', 'tie', 'both_bad']),
          shownOrder: rng.chance(0.5) ? [0, 1] : [1, 0],
        });
        if (answer.status === 200 && answer.body?.ok) acked.push(id);
        else if (answer.status >= 500 || measure) throw new Error(`saveLabel answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      } catch (error) {
        // The host was killed under this request: not acknowledged, and the burst ends.
        if (measure) throw error;
        if (!killing) failures.push(`KILL_SEED=${SEED} saveLabel failed while the host was up: ${(error as Error).message}`);
        return;
      }
    }
  };
  await Promise.all([0, 1, 2, 3].map(client));
}

/** One upload through the host's API: start, three pieces, import into a project of its own. */
async function uploadOnce(host: HostProcess, round: number, measure: boolean): Promise<void> {
  const project = `up-${round}`;
  const bytes = Buffer.from(pairLines(`upload ${round}`, UPLOAD_ITEMS));
  const record: ProjectRound = { round, kind: 'upload', project, items: UPLOAD_ITEMS, completed: false, db: hostDb };
  madeProjects.push(record);
  try {
    const start = await call(host, 'startUpload', { fileName: `up-${round}.jsonl`, size: bytes.length });
    if (!start.body?.ok) throw new Error(`startUpload: ${JSON.stringify(start.body)}`);
    const uploadId = start.body.result.uploadId as string;
    const piece = Math.ceil(bytes.length / 3);
    for (let offset = 0; offset < bytes.length; offset += piece) {
      const chunk = await call(host, 'uploadChunk', { uploadId, offset, data: bytes.subarray(offset, offset + piece).toString('base64') });
      if (!chunk.body?.ok) throw new Error(`uploadChunk: ${JSON.stringify(chunk.body)}`);
    }
    const imported = await call(host, 'importUpload', { uploadId, project, createProject: true });
    if (imported.status === 200 && imported.body?.ok) record.completed = true;
    else throw new Error(`importUpload: ${imported.status} ${JSON.stringify(imported.body)}`);
  } catch (error) {
    if (measure) throw error;
    if (!killing) failures.push(`KILL_SEED=${SEED} round ${round} (upload): ${(error as Error).message}`);
  }
}

// ---- The suite ------------------------------------------------------------------------------------

beforeAll(async () => {
  buildNodeSide();
  work = mkdtempSync(join(tmpdir(), 'arbiter-kill-'));
  cliDb = join(work, 'cli.db');
  // The host's database lives in a folder of its own, made first: a --db in a missing folder is refused.
  mkdirSync(join(work, 'host'));
  hostDb = join(work, 'host', 'host.db');
  const base = Array.from({ length: BASE_ITEMS }, (_, i) => JSON.stringify({ id: `b${i}`, prompt: `Base question ${i}?`, responses: [{ text: `Answer one to ${i}.` }, { text: `Answer two to ${i}.` }] })).join('\n');
  await mustRun(cliDb, ['import', writeFile('base.jsonl', `${base}\n`), '--project', 'base']);
  const chains = Array.from({ length: CHAIN_ITEMS }, (_, i) =>
    JSON.stringify({ id: `c${i}`, prompt: `What is ${i} + ${i}?`, responses: [{ text: `${i} + ${i} = ${2 * i}. So ${2 * i}.`, steps: [`${i} + ${i} = ${2 * i}.`, `So ${2 * i}.`] }, { text: `It is ${i}.`, steps: [`It is ${i}.`] }] }),
  ).join('\n');
  await mustRun(cliDb, ['import', writeFile('chains.jsonl', `${chains}\n`), '--project', 'chains']);
  await mustRun(hostDb, ['import', writeFile('labeling.jsonl', pairLines('labeling', 200)), '--project', 'labeling']);
  const db = new Database(hostDb, { readonly: true });
  hostItems = db.prepare("SELECT i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = 'labeling'").pluck().all() as number[];
  db.close();
}, 120_000);

afterAll(() => {
  if (work && !process.env.KILL_KEEP) rmSync(work, { recursive: true, force: true });
});

describe('random kills', () => {
  it(`leaves a whole database after ${ROUNDS} SIGKILLs of each of ${KINDS.length} kinds of work`, async () => {
    console.log(`random-kill seed ${SEED} (KILL_SEED=${SEED} draws the same rounds); work in ${work}`);
    const wall = performance.now();
    // Calibration: each operation once, whole, to measure how long it takes here.
    let round = 0;
    startupMs = (await mustRun(cliDb, ['projects', '--json'])).ms;
    await hostRound('save', round++, true);
    await hostRound('upload', round++, true);
    await importRound(round++, true);
    await mergeRound(round++, true);
    await scoreRound(round++, true);
    await backupRound(round++, true);
    await deleteRound(round++, true);
    checkAfter(cliDb, 'calibration');
    console.log(`measured durations (ms): start-up ${Math.round(startupMs)}, ${KINDS.map((k) => `${k} ${Math.round(durations[k])}`).join(', ')}`);

    // Rounds in a seeded random order of kinds, until each kind has ROUNDS kills that landed during its
    // work (a round whose work finished before its kill is counted apart and does not count as a kill).
    const tries = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
    for (;;) {
      const open = KINDS.filter((k) => counts.kills[k] < ROUNDS && tries[k] < ROUNDS * 2);
      if (!open.length) break;
      const kind = rng.pick(open);
      tries[kind]++;
      const r = round++;
      if (kind === 'save' || kind === 'upload') await hostRound(kind, r);
      else if (kind === 'import') await importRound(r);
      else if (kind === 'merge') await mergeRound(r);
      else if (kind === 'score') await scoreRound(r);
      else if (kind === 'backup') await backupRound(r);
      else await deleteRound(r);
    }
    const kills = Object.values(counts.kills).reduce((a, b) => a + b, 0);
    console.log(
      `random-kill seed ${SEED}: ${kills} SIGKILLs (${KINDS.map((k) => `${k} ${counts.kills[k]}`).join(', ')}); ` +
        `${Object.values(counts.finishedFirst).reduce((a, b) => a + b, 0)} rounds finished before their kill (${KINDS.map((k) => `${k} ${counts.finishedFirst[k]}`).join(', ')}); ` +
        `${acked.length} acknowledged saves, ${merges.length} merges, ${counts.checks} checks; ${((performance.now() - wall) / 1000).toFixed(0)} s`,
    );
    expect(failures, failures.join('\n')).toEqual([]);
    expect(kills).toBeGreaterThanOrEqual(Math.min(100, ROUNDS * KINDS.length * 0.9));
  }, 600_000);
});
