// A throwaway PostgreSQL 15 cluster for one test file: Debian's binaries, a temporary folder, a free port,
// the unix socket in that folder, never a system service. Use it as
//
//   const reason = skipReason();
//   describe.skipIf(reason)('…', () => {
//     let pg: PgCluster;
//     beforeAll(async () => (pg = await startCluster()));
//     afterAll(() => pg?.stop());
//     … new pg.Client({ connectionString: pg.url() }) …
//   });
//
// initdb and postgres refuse to run as root, so as root they run as the `postgres` user
// (`runuser -u postgres --`) in a folder chowned to it; as any other user they run as that user.
//
// initdb is most of a cluster's start (3–4 s of bootstrap on the busy CI machine, against ~0.2 s to copy its
// 39 MB). Under vitest's globalSetup (test/helpers/postgresTemplates.ts, which sets ARBITER_PG_TEMPLATES to a
// folder for the run) the first cluster of each kind (auth, password) is initdb'd once into that folder and
// every cluster after it, in any worker, starts from a copy: still one server and one folder per test file,
// nothing shared between files. Without that variable (a bench, another config) each cluster runs initdb.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { failIfRequired } from './required';

const run = promisify(execFile);

export const PG_BIN = process.env.ARBITER_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const SUPERUSER = 'postgres';

export interface PgClusterOptions {
  /** 'trust' (default): no password for anyone. 'scram': TCP connections need a scram-sha-256 password
   *  (the superuser's is `superPassword`); the unix socket in the folder stays trusted for the test's own setup. */
  auth?: 'trust' | 'scram';
  /** The superuser's password under scram auth (default 'postgres-test-password'). */
  superPassword?: string;
  /** Extra server settings, passed as -c name=value. */
  settings?: Record<string, string | number>;
  /** TLS: PEM texts of the server's certificate and key; the server then takes TLS connections (and plain ones). */
  tls?: { cert: string; key: string };
}

export interface PgCluster {
  host: string;
  port: number;
  /** The cluster's folder (data in dir/data, the socket in dir). */
  dir: string;
  superuser: string;
  /** Set under scram auth. */
  superPassword?: string;
  /** postgres://user[:password]@127.0.0.1:port/db (user defaults to the superuser, db to 'postgres'). */
  url(user?: string, password?: string, db?: string): string;
  /** Stops the server (immediate) and removes the folder. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Why PostgreSQL tests cannot run here, or null when they can (each test file prints it as it skips).
 * Under ARBITER_REQUIRE_ALL=1 (CI) a reason throws instead: the test file fails (helpers/required.ts).
 */
export function skipReason(): string | null {
  return failIfRequired('The team hub tests (PostgreSQL)', missingPostgres());
}

function missingPostgres(): string | null {
  for (const bin of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(PG_BIN, bin))) {
      return `PostgreSQL 15 is not installed (no ${join(PG_BIN, bin)}): install Debian's postgresql package (apt-get install postgresql) to run the hub tests`;
    }
  }
  if (isRoot()) {
    if (!existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser') && !existsSync('/usr/bin/runuser')) {
      return 'PostgreSQL refuses to run as root and runuser is missing, so the test cannot run it as the postgres user';
    }
    if (postgresIds() === null) return 'PostgreSQL refuses to run as root and there is no postgres user to run it as';
  }
  return null;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function postgresIds(): { uid: number; gid: number } | null {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${SUPERUSER}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Runs a PostgreSQL binary, as the postgres user when we are root. */
async function pgRun(bin: string, args: string[]): Promise<string> {
  return runAsOwner(join(PG_BIN, bin), args, bin);
}

/** Runs a program as the clusters' owner: the postgres user when we are root, else ourselves. */
async function runAsOwner(file: string, args: string[], bin: string): Promise<string> {
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', SUPERUSER, '--', file, ...args]] : [file, args];
  try {
    const { stdout } = await run(cmd, argv, { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${bin} failed: ${(err.stderr || err.stdout || err.message).trim()}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  const reason = skipReason();
  if (reason) throw new Error(reason);
  const auth = options.auth ?? 'trust';
  const superPassword = auth === 'scram' ? (options.superPassword ?? 'postgres-test-password') : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  if (isRoot()) {
    const ids = postgresIds()!;
    chownSync(dir, ids.uid, ids.gid);
  }
  let stopped = false;
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const initArgs = ['-U', SUPERUSER, '--no-sync', '-E', 'UTF8', '--locale=C'];
    if (auth === 'scram') {
      const pwfile = join(dir, 'pwfile');
      writeFileSync(pwfile, `${superPassword}\n`, { mode: 0o600 });
      if (isRoot()) chownSync(pwfile, postgresIds()!.uid, postgresIds()!.gid);
      initArgs.push('--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${pwfile}`);
    } else {
      initArgs.push('-A', 'trust');
    }
    await initData(data, initArgs, `${auth}\n${superPassword ?? ''}`);
    rmSync(join(dir, 'pwfile'), { force: true });

    const settings: Record<string, string | number> = { fsync: 'off', ...options.settings };
    if (options.tls) {
      for (const [name, text] of [['server.crt', options.tls.cert], ['server.key', options.tls.key]] as const) {
        writeFileSync(join(dir, name), text, { mode: 0o600 });
        if (isRoot()) chownSync(join(dir, name), postgresIds()!.uid, postgresIds()!.gid);
      }
      Object.assign(settings, { ssl: 'on', ssl_cert_file: join(dir, 'server.crt'), ssl_key_file: join(dir, 'server.key') });
    }
    let port = 0;
    let lastError: unknown = null;
    // A port found free may be taken before the server binds it: try a few.
    for (let attempt = 0; attempt < 5 && !port; attempt++) {
      const candidate = await freePort();
      const serverOptions = [
        `-p ${candidate}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`),
      ].join(' ');
      try {
        await pgRun('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', serverOptions]);
        port = candidate;
      } catch (e) {
        lastError = e;
        const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
        if (!/could not bind|address already in use/i.test(text)) break;
      }
    }
    if (!port) {
      const text = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-5).join('\n') : '';
      throw new Error(`${(lastError as Error)?.message ?? 'pg_ctl start failed'}\n${text}`);
    }
    const host = '127.0.0.1';
    return {
      host,
      port,
      dir,
      superuser: SUPERUSER,
      superPassword,
      url(user = SUPERUSER, password = user === SUPERUSER ? superPassword : undefined, db = 'postgres') {
        const auth = password === undefined ? encodeURIComponent(user) : `${encodeURIComponent(user)}:${encodeURIComponent(password)}`;
        return `postgres://${auth}@${host}:${port}/${db}`;
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          await pgRun('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
        } finally {
          remove();
        }
      },
    };
  } catch (e) {
    // Never leave a server or a folder behind when starting fails halfway.
    await pgRun('pg_ctl', ['stop', '-D', data, '-m', 'immediate']).catch(() => undefined);
    remove();
    throw e;
  }
}

/**
 * Makes the data folder `data`: a copy of the run's template of this kind (made by the first cluster that
 * needs it, initdb'd to a folder of its own and renamed into place, so a worker never copies a half-made one),
 * or, with no template folder for the run, initdb itself.
 */
async function initData(data: string, initArgs: string[], kind: string): Promise<void> {
  const templates = process.env.ARBITER_PG_TEMPLATES;
  if (!templates || !existsSync(templates)) {
    await pgRun('initdb', ['-D', data, ...initArgs]);
    return;
  }
  const template = join(templates, Buffer.from(kind).toString('hex'));
  if (!existsSync(join(template, 'PG_VERSION'))) {
    const making = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await pgRun('initdb', ['-D', making, ...initArgs]);
    try {
      renameSync(making, template);
    } catch {
      // Another worker's template got there first: the same kind, so use that one.
      rmSync(making, { recursive: true, force: true });
    }
  }
  await runAsOwner('/bin/cp', ['-a', template, data], 'cp');
}
