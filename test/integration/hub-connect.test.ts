// Connecting to the hub on a real PostgreSQL 15 with scram passwords and TLS (a throwaway cluster with a
// self-signed certificate): the password comes from the caller only, failures are sentences, sslmode means
// what libpq means; and `arbiter hub init` / `hub grant` from the command line.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { connectHub, parseHubUrl } from '../../electron/core/hub/connect';
import { latestHubVersion, listHubMigrations } from '../../electron/core/hub/schema';
import { skipReason, startCluster, type PgCluster } from '../helpers/postgres';

const reason = skipReason();
if (reason) console.warn(`hub-connect skipped: ${reason}`);

describe('hub URLs', () => {
  it('reads user, host, port, database and sslmode', () => {
    expect(parseHubUrl('postgres://alice@hub.example:6543/team?sslmode=verify-full')).toMatchObject({
      user: 'alice',
      host: 'hub.example',
      port: 6543,
      database: 'team',
      sslmode: 'verify-full',
      where: 'hub.example:6543',
    });
    expect(parseHubUrl('postgresql://bob@10.0.0.1')).toMatchObject({ port: 5432, database: 'bob', sslmode: 'disable' });
  });

  it('refuses a password in the URL, a fallback sslmode, an unknown setting, a missing user', () => {
    expect(() => parseHubUrl('postgres://alice:s3cret@h/db')).toThrow(/"postgres:\/\/alice:\*\*\*@h\/db" holds a password\. Leave it out .* ARBITER_HUB_PASSWORD/);
    expect(() => parseHubUrl('postgres://alice:s3cret@h/db')).not.toThrow(/s3cret/);
    expect(() => parseHubUrl('postgres://alice@h/db?sslmode=prefer')).toThrow(/sslmode=prefer, which may fall back to no encryption/);
    expect(() => parseHubUrl('postgres://alice@h/db?sslmod=require')).toThrow(/unknown setting "sslmod"/);
    expect(() => parseHubUrl('postgres://h/db')).toThrow(/names no user/);
    expect(() => parseHubUrl('http://alice@h/db')).toThrow(/does not start with postgres:\/\//);
  });
});

describe.skipIf(reason)('hub connections and the hub commands on PostgreSQL', () => {
  let cluster: PgCluster;
  let certDir: string;
  const SUPER = 'super-Pa55 word';
  const NEW = 'alice-Pa55-ß';
  const env = { ...process.env };
  const base = (user: string, query = '') => `postgres://${user}@127.0.0.1:${cluster.port}/postgres${query}`;

  beforeAll(async () => {
    certDir = mkdtempSync(join(tmpdir(), 'arbiter-hub-tls-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=arbiter-test-hub',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem'),
    ], { stdio: 'ignore' });
    cluster = await startCluster({
      auth: 'scram',
      superPassword: SUPER,
      tls: { cert: readFileSync(join(certDir, 'cert.pem'), 'utf8'), key: readFileSync(join(certDir, 'key.pem'), 'utf8') },
      // Every statement goes to the server log: the test reads it for passwords.
      settings: { log_statement: 'all' },
    });
  });
  afterAll(async () => {
    await cluster?.stop();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });
  afterEach(() => {
    process.env = { ...env };
  });

  async function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out, err: err.join('\n') };
  }

  it('connects with the password it is given, and says why not otherwise', async () => {
    const ok = await connectHub(base('postgres'), { password: async () => SUPER });
    expect((await ok.query('SELECT current_user AS u')).rows[0].u).toBe('postgres');
    await ok.end();
    await expect(connectHub(base('postgres'), { password: 'wrong' })).rejects.toThrow(
      `The hub refused the password for user postgres (127.0.0.1:${cluster.port}). Check ARBITER_HUB_PASSWORD or the password you typed.`,
    );
    await expect(connectHub(base('postgres'))).rejects.toThrow(/asks for a password for user postgres\. Give it through ARBITER_HUB_PASSWORD/);
    await expect(connectHub(base('nobody'), { password: 'x' })).rejects.toMatchObject({ reason: 'password' });
    await expect(connectHub(`postgres://postgres@127.0.0.1:${cluster.port}/nope`, { password: SUPER })).rejects.toThrow(/has no database "nope"/);
    // A port nothing listens on (the cluster's own, plus one, is free in practice; checked by the refusal).
    const closed = cluster.port === 65535 ? cluster.port - 1 : cluster.port + 1;
    await expect(connectHub(`postgres://postgres@127.0.0.1:${closed}/postgres`, { password: SUPER })).rejects.toThrow(
      `Could not reach the hub at 127.0.0.1:${closed} (connection refused). Check that PostgreSQL runs there, and the address.`,
    );
  });

  it('sslmode: require encrypts; verify-full checks the certificate and the host; verify-ca the certificate only', async () => {
    const tlsIn = async (url: string) => {
      const client = await connectHub(url, { password: SUPER });
      const { rows } = await client.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
      await client.end();
      return rows[0].ssl as boolean;
    };
    const cert = join(certDir, 'cert.pem');
    expect(await tlsIn(base('postgres'))).toBe(false);
    expect(await tlsIn(base('postgres', '?sslmode=require'))).toBe(true);
    await expect(tlsIn(base('postgres', '?sslmode=verify-full'))).rejects.toMatchObject({ reason: 'tls', message: expect.stringMatching(/could not be verified .*sslrootcert=PATH/) });
    expect(await tlsIn(base('postgres', `?sslmode=verify-full&sslrootcert=${cert}`))).toBe(true);
    // The certificate names 127.0.0.1, not localhost: verify-full refuses, verify-ca does not look.
    const byName = `postgres://postgres@localhost:${cluster.port}/postgres?sslrootcert=${cert}&sslmode=`;
    await expect(tlsIn(byName + 'verify-full')).rejects.toMatchObject({ reason: 'tls' });
    expect(await tlsIn(byName + 'verify-ca')).toBe(true);
  });

  it('hub init twice and hub grant from the command line; the new password never reaches the server in plain text', async () => {
    process.env.ARBITER_HUB_PASSWORD = SUPER;
    const first = await cli(['hub', 'init', '--hub', base('postgres', '?sslmode=require')]);
    expect(first).toMatchObject({ code: 0, out: [JSON.stringify({ hub: `127.0.0.1:${cluster.port}/postgres`, version: latestHubVersion(), from: 0, applied: listHubMigrations().map((m) => m.name) })] });
    const second = await cli(['hub', 'init', '--hub', base('postgres')]);
    expect(second.out).toEqual([JSON.stringify({ hub: `127.0.0.1:${cluster.port}/postgres`, version: latestHubVersion(), from: latestHubVersion(), applied: [] })]);

    // Without a new password and with nobody to ask, a new login role is refused before anything changes.
    const none = await cli(['hub', 'grant', '--hub', base('postgres'), '--annotator', 'Alice', '--role', 'annotator']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/the new login role arbiter_alice needs a password: set ARBITER_HUB_NEW_PASSWORD/);

    process.env.ARBITER_HUB_NEW_PASSWORD = NEW;
    const granted = await cli(['hub', 'grant', '--hub', base('postgres'), '--annotator', 'Alice', '--role', 'lead']);
    expect(granted.code).toBe(0);
    const result = JSON.parse(granted.out[0]!);
    expect(result).toMatchObject({ annotator: 'Alice', role: 'lead', login_role: 'arbiter_alice', created: true });
    expect(granted.err).toContain(`connects as postgres://arbiter_alice@127.0.0.1:${cluster.port}/postgres`);

    const alice = await connectHub(base('arbiter_alice'), { password: NEW });
    expect((await alice.query("SELECT pg_has_role('arbiter_hub_lead', 'MEMBER') AS lead")).rows[0].lead).toBe(true);
    await alice.end();
    const admin = await connectHub(base('postgres'), { password: SUPER });
    const stored = (await admin.query("SELECT rolpassword FROM pg_authid WHERE rolname = 'arbiter_alice'")).rows[0].rolpassword as string;
    await admin.end();
    expect(stored).toMatch(/^SCRAM-SHA-256\$4096:/);
    const log = readFileSync(join(cluster.dir, 'server.log'), 'utf8');
    expect(log).toContain('CREATE ROLE "arbiter_alice" LOGIN');
    expect(log).not.toContain(NEW);
    expect(log).not.toContain(SUPER);

    // A role change keeps the uuid; with no new password in the environment the password is kept.
    delete process.env.ARBITER_HUB_NEW_PASSWORD;
    const demoted = await cli(['hub', 'grant', '--hub', base('postgres'), '--annotator', 'Alice', '--role', 'annotator']);
    expect(JSON.parse(demoted.out[0]!)).toMatchObject({ uuid: result.uuid, role: 'annotator', created: false });
    const again = await connectHub(base('arbiter_alice'), { password: NEW });
    expect((await again.query("SELECT pg_has_role('arbiter_hub_lead', 'MEMBER') AS lead")).rows[0].lead).toBe(false);
    await again.end();
  });

  it('the hub commands say what went wrong in a sentence, with no password in it', async () => {
    process.env.ARBITER_HUB_PASSWORD = 'not-it';
    const wrong = await cli(['hub', 'init', '--hub', base('postgres')]);
    expect(wrong).toMatchObject({ code: 1, err: `arbiter hub: The hub refused the password for user postgres (127.0.0.1:${cluster.port}). Check ARBITER_HUB_PASSWORD or the password you typed.` });
    const inUrl = await cli(['hub', 'init', '--hub', `postgres://postgres:${SUPER}@127.0.0.1:${cluster.port}/postgres`]);
    expect(inUrl.code).toBe(1);
    expect(inUrl.err).not.toContain(SUPER);
    const usage = await cli(['hub', 'grant', '--hub', base('postgres'), '--annotator', 'Bob']);
    expect(usage).toMatchObject({ code: 2, err: expect.stringContaining('--role is required: annotator or lead') });
    const unknown = await cli(['hub', 'frobnicate']);
    expect(unknown).toMatchObject({ code: 2, err: expect.stringContaining('unknown hub command "frobnicate"; one of: init, grant') });
  });
});
