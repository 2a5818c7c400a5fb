// kill -9 during a sync, once while pushing and once while pulling, with thousands of revisions so the
// kill lands mid-way: afterwards the hub and the SQLite file agree (a watermark is never ahead of what
// the other side committed), the database is whole, and the next sync completes the work.
// - Pushing: the child `arbiter sync` is killed while its INSERT of a batch waits on the hub's
//   commit-order lock (held by the test), i.e. inside an uncommitted hub transaction.
// - Pulling: the child is killed while a batch's labels merge is pending in the SQLite file.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHub } from '../../electron/core/hub/connect';
import { syncProject } from '../../electron/core/hub/sync';
import { hubLink } from '../../electron/core/store/hub';
import { openDb, type Db } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { findAnnotator } from '../../electron/core/store/annotators';
import { requireProject } from '../../electron/core/store/projects';
import { writeNow } from '../../electron/core/store/write';
import { itemIds, labelState, PROJECT, setUpTeam, type Desktop } from '../helpers/hubTeam';
import { hubSkipReason, useHubCluster } from '../helpers/hubCluster';

const reason = hubSkipReason('hub-kill');

const REVISIONS = 8000;
/** Takes the hub's commit-order lock on arbiter.revision (hub migration 0003: a row of arbiter.commit_order) until ROLLBACK. */
const ORDER_LOCK = "SELECT 1 FROM arbiter.commit_order WHERE writes = 'revision' FOR UPDATE";

/** Saves `n` revisions by `d.name` on its desktop, as the app's saves store them (here, import_id NULL). */
function saveMany(d: Desktop, n: number): void {
  const project = requireProject(d.db, PROJECT);
  const me = findAnnotator(d.db, d.name)!;
  const ids = [...itemIds(d).values()];
  const t0 = Date.UTC(2026, 0, 1);
  for (let done = 0; done < n; ) {
    writeNow(d.db, () => {
      const append = labelAppender(d.db);
      for (let k = 0; k < 1000 && done < n; k++, done++) {
        append({ projectId: project.id, itemId: ids[done % ids.length]!, annotatorId: me.id, task: 'pairwise', createdAt: new Date(t0 + done * 1000).toISOString(), choice: done % 3 ? 'A' : 'B', shownOrder: [0, 1] });
      }
    });
  }
}

/** `arbiter sync` in a child process; resolves lines of stderr as they come through `onLine`. */
function syncChild(dbPath: string, batch: number, onLine: (line: string) => void): { child: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> } {
  const cli = pathToFileURL(join(__dirname, '../../electron/cli/main.ts')).href;
  const script = `const { runCli } = await import(${JSON.stringify(cli)}); process.exitCode = await runCli(process.argv.slice(1));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, 'sync', '--project', PROJECT, '--batch', String(batch), '--db', dbPath], {
    env: { ...process.env, ARBITER_NO_DEMO: '1', ARBITER_HUB_PASSWORD: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => {
    output += c.toString();
    partial += c.toString();
    const lines = partial.split('\n');
    partial = lines.pop()!;
    for (const line of lines) onLine(line);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, output })));
  return { child, exited };
}

/** Waits for a condition, checking every few ms, up to 60 s. */
async function until(what: string, check: () => boolean | Promise<boolean>, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited 60 s for ${what}:\n${output()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The ids of a project's revisions on the hub. */
async function hubIds(admin: pg.Client): Promise<Set<string>> {
  return new Set((await admin.query<{ id: string }>('SELECT id FROM arbiter.revision')).rows.map((r) => r.id));
}

/** What a database must be after a kill, opened as the app opens it (which removes a merge cut short). */
function reopen(d: Desktop): Db {
  d.db.close();
  d.db = openDb(d.dbPath);
  expect(d.db.pragma('integrity_check', { simple: true })).toBe('ok');
  expect(d.db.pragma('foreign_key_check')).toEqual([]);
  expect(d.db.prepare("SELECT COUNT(*) FROM label_import WHERE state <> 'complete'").pluck().get()).toBe(0);
  // The progress counters equal a recount of the current labels.
  const counters = d.db.prepare('SELECT annotator_id, task, done FROM progress WHERE done <> 0 ORDER BY 1, 2').all();
  const recount = d.db.prepare('SELECT annotator_id, task, SUM(done) AS done FROM label_head GROUP BY 1, 2 HAVING SUM(done) <> 0 ORDER BY 1, 2').all();
  expect(counters).toEqual(recount);
  return d.db;
}

describe.skipIf(reason)('kill -9 during a sync', () => {
  const hub = useHubCluster('hub-kill', { settings: { client_connection_check_interval: '50ms' } });
  let admin: pg.Client;
  let alice: Desktop;
  let bob: Desktop;
  beforeAll(async () => {
    // A statement waiting for a lock notices a client that went away within 50 ms, as a server with
    // client_connection_check_interval set (or TCP keepalives) does.
    const team = await setUpTeam(hub.cluster, hub.dir, 'hub_kill', 40, [
      { name: 'alice', role: 'annotator' },
      { name: 'bob', role: 'annotator' },
    ]);
    admin = team.admin;
    [alice, bob] = team.desktops as [Desktop, Desktop];
    saveMany(alice, REVISIONS);
  }, 180_000);
  afterAll(async () => {
    await admin?.end();
    alice?.db.close();
    bob?.db.close();
  });

  it('while pushing: the watermark never passes what the hub committed, and the next sync pushes the rest', async () => {
    const projectId = requireProject(alice.db, PROJECT).id;
    const locker = await connectHub(hub.cluster.url(undefined, undefined, 'hub_kill'));
    let pushed = 0;
    const run = syncChild(alice.dbPath, 500, (line) => {
      const m = /^push: (\d+) pushed/.exec(line);
      if (m) pushed = Number(m[1]);
    });
    let output = '';
    void run.exited.then((r) => (output = r.output));
    try {
      // A few batches in, the test takes the hub's commit-order lock: the child's next INSERT waits on it,
      // inside its hub transaction. That is where it is killed.
      await until('three batches pushed', () => pushed >= 1500, () => output);
      await locker.query('BEGIN');
      await locker.query(ORDER_LOCK);
      await until(
        'the child waiting on the lock',
        async () => ((await locker.query("SELECT 1 FROM pg_stat_activity WHERE usename = 'arbiter_alice' AND wait_event_type = 'Lock'")).rowCount ?? 0) > 0,
        () => output,
      );
      run.child.kill('SIGKILL');
      expect((await run.exited).signal).toBe('SIGKILL');
      // The server notices the dead client while its statement waits (client_connection_check_interval)
      // and rolls the batch back. Only then is the lock let go: else the waiting INSERT would go on and commit.
      await until('the killed connection gone', async () => ((await admin.query("SELECT 1 FROM pg_stat_activity WHERE usename = 'arbiter_alice'")).rowCount ?? 0) === 0, () => output);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }

    const db = reopen(alice);
    const watermark = hubLink(db, projectId)!.pushedLabelSeq;
    const own = db.prepare('SELECT seq, id FROM label WHERE import_id IS NULL ORDER BY seq').all() as { seq: number; id: string }[];
    const onHub = await hubIds(admin);
    expect(onHub.size).toBeGreaterThanOrEqual(1500);
    expect(onHub.size).toBeLessThan(REVISIONS);
    // Consistent: everything at or below the watermark is on the hub, and the hub holds only own
    // revisions, none of the killed batch (the server rolled it back).
    const upTo = own.filter((r) => r.seq <= watermark).map((r) => r.id);
    expect(upTo.filter((id) => !onHub.has(id))).toEqual([]);
    const ownIds = new Set(own.map((r) => r.id));
    expect([...onHub].filter((id) => !ownIds.has(id))).toEqual([]);
    expect(onHub.size).toBe(upTo.length);

    // The next sync pushes the rest, exactly once each.
    const summary = await syncProject(db, { project: PROJECT, batch: 500 });
    expect(summary).toMatchObject({ pushed: REVISIONS - upTo.length, alreadyOnHub: 0, notPushed: 0 });
    expect((await hubIds(admin)).size).toBe(REVISIONS);
  }, 180_000);

  it('while pulling: the watermark never passes what merged here, and the next sync pulls the rest', async () => {
    const projectId = requireProject(bob.db, PROJECT).id;
    const reader = new Database(bob.dbPath, { readonly: true });
    let pulled = 0;
    let output = '';
    const run = syncChild(bob.dbPath, 1000, (line) => {
      const m = /^pull: \d+ pushed, (\d+) pulled/.exec(line);
      if (m) pulled = Number(m[1]);
    });
    void run.exited.then((r) => (output = r.output));
    const pending = reader.prepare("SELECT COUNT(*) FROM label_import WHERE state = 'pending'").pluck();
    try {
      // Two batches merged, then the moment the next batch's merge is pending here: killed then.
      await until('two batches pulled', () => pulled >= 2000, () => output);
      await until('a merge in progress', () => (pending.get() as number) > 0, () => output);
      run.child.kill('SIGKILL');
      expect((await run.exited).signal).toBe('SIGKILL');
    } finally {
      reader.close();
    }

    const db = reopen(bob);
    const watermark = hubLink(db, projectId)!.pulledSeq;
    const upTo = (await admin.query<{ id: string }>('SELECT id FROM arbiter.revision WHERE hub_seq <= $1', [watermark])).rows.map((r) => r.id);
    const here = new Set(db.prepare('SELECT id FROM label').pluck().all() as string[]);
    expect(upTo.length).toBeGreaterThanOrEqual(2000);
    expect(upTo.length).toBeLessThan(REVISIONS);
    // Consistent: every revision at or below the pull watermark merged here (and shows: no merge is pending).
    expect(upTo.filter((id) => !here.has(id))).toEqual([]);

    const summary = await syncProject(db, { project: PROJECT, batch: 1000 });
    expect(summary.pulled + upTo.length).toBeGreaterThanOrEqual(REVISIONS);
    expect(summary.deferred).toBe(0);
    const a = labelState(alice.db);
    const b = labelState(bob.db);
    expect(b.current).toEqual(a.current);
    expect(b.revisions).toEqual(a.revisions);
    expect(b.progress).toEqual(a.progress);
  }, 180_000);
});
