// Connections to the team hub: a node-postgres Client or Pool from a hub URL
// (postgres://user@host:port/db?sslmode=…). The password never travels in the URL, is never read from a
// file and never written anywhere: the caller hands it over (the CLI from ARBITER_HUB_PASSWORD or a
// prompt, the desktop app from the OS keychain through a callback). Failures become sentences that say
// where the hub is and what to do, and never hold the password.
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type pg from 'pg';
import { ArbiterError } from '../base/errors';

/** A password, or a callback that fetches it when a connection needs it (the keychain in Electron). */
export type HubPassword = string | (() => string | Promise<string>);

export type SslMode = 'disable' | 'require' | 'verify-ca' | 'verify-full';

export interface HubAddress {
  host: string;
  port: number;
  database: string;
  user: string;
  sslmode: SslMode;
  sslrootcert?: string;
  sslcert?: string;
  sslkey?: string;
  connectTimeoutSeconds?: number;
  applicationName?: string;
  /** host:port, for sentences. */
  where: string;
  /** The URL without anything secret (it holds none): what may be stored and shown. */
  url: string;
}

/** Why a hub could not be used, for programs (the Team panel picks its words by it). */
export type HubFailure = 'address' | 'unreachable' | 'password' | 'refused' | 'no_database' | 'tls' | 'schema' | 'auth' | 'timeout';

export class HubError extends ArbiterError {
  constructor(
    readonly reason: HubFailure,
    message: string,
  ) {
    super(reason === 'password' || reason === 'refused' || reason === 'auth' ? 'unauthorized' : reason === 'address' ? 'invalid_input' : 'conflict', message, { hub: reason });
    this.name = 'HubError';
  }
}

const KNOWN_PARAMS = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'connect_timeout', 'application_name'];
const SSL_MODES: readonly string[] = ['disable', 'require', 'verify-ca', 'verify-full'];

/** Host, port and database: the same hub whichever login role connects to it (URLs that do not parse: the same text). */
export function sameHub(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.hostname === y.hostname && (x.port || '5432') === (y.port || '5432') && x.pathname === y.pathname;
  } catch {
    return a === b;
  }
}

/** Reads a hub URL; a mistake in it is a sentence naming the part that is wrong. */
export function parseHubUrl(text: string): HubAddress {
  const bad = (why: string) => new HubError('address', `The hub address ${JSON.stringify(redact(text))} ${why}`);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw bad('is not a URL; write it as postgres://USER@HOST:PORT/DATABASE (add ?sslmode=require for TLS).');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw bad('does not start with postgres://.');
  if (url.password) {
    throw bad(
      'holds a password. Leave it out of the address (it would be stored and shown with it) and give it through ARBITER_HUB_PASSWORD or the prompt.',
    );
  }
  const user = decodeURIComponent(url.username);
  if (!user) throw bad('names no user; write it as postgres://USER@HOST:PORT/DATABASE.');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw bad('names no host.');
  const port = url.port ? Number(url.port) : 5432;
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || user;
  for (const key of url.searchParams.keys()) {
    if (!KNOWN_PARAMS.includes(key)) throw bad(`has an unknown setting "${key}"; known: ${KNOWN_PARAMS.join(', ')}.`);
  }
  const mode = url.searchParams.get('sslmode') ?? 'disable';
  if (mode === 'allow' || mode === 'prefer') {
    throw bad(`says sslmode=${mode}, which may fall back to no encryption; say sslmode=require (or verify-full) for TLS, or sslmode=disable.`);
  }
  if (!SSL_MODES.includes(mode)) throw bad(`has sslmode=${mode}; one of: ${SSL_MODES.join(', ')}.`);
  const timeout = url.searchParams.get('connect_timeout');
  if (timeout !== null && !(Number(timeout) > 0)) throw bad(`has connect_timeout=${timeout}; give seconds, more than 0.`);
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    host,
    port,
    database,
    user,
    sslmode: mode as SslMode,
    sslrootcert: url.searchParams.get('sslrootcert') ?? undefined,
    sslcert: url.searchParams.get('sslcert') ?? undefined,
    sslkey: url.searchParams.get('sslkey') ?? undefined,
    connectTimeoutSeconds: timeout === null ? undefined : Number(timeout),
    applicationName: url.searchParams.get('application_name') ?? undefined,
    where,
    url: url.toString(),
  };
}

/** The URL with any password taken out, for messages. */
export function redact(text: string): string {
  return text.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

function readPem(path: string, what: string, address: HubAddress): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new HubError('tls', `Cannot read ${what} ${path} named in the address of the hub at ${address.where}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
}

/** node-postgres' ssl option for an sslmode, as libpq means it. */
function tlsOptions(address: HubAddress): false | ConnectionOptions {
  if (address.sslmode === 'disable') return false;
  // No servername here: node-postgres sends the host name as SNI itself, and never an IP address (RFC 6066).
  const ssl: ConnectionOptions = {};
  const systemRoots = address.sslrootcert === 'system';
  if (address.sslrootcert && !systemRoots) ssl.ca = readPem(address.sslrootcert, 'the root certificate', address);
  if (address.sslcert) ssl.cert = readPem(address.sslcert, 'the client certificate', address);
  if (address.sslkey) ssl.key = readPem(address.sslkey, 'the client key', address);
  // require: encrypted; the certificate is checked only when a root certificate is named (as libpq does).
  const verify = address.sslmode !== 'require' || Boolean(address.sslrootcert);
  ssl.rejectUnauthorized = verify;
  // verify-ca (and require with a root certificate): the chain is checked, the host name is not.
  if (address.sslmode !== 'verify-full') ssl.checkServerIdentity = () => undefined;
  return ssl;
}

export interface HubConnectOptions {
  password?: HubPassword;
  /** Seconds to wait for the server; the URL's connect_timeout, else 10. */
  connectTimeoutSeconds?: number;
  /** Seconds one statement may run (PostgreSQL's statement_timeout); none when left out. */
  statementTimeoutSeconds?: number;
  /** Polled while connected: true ends the connection at once, under a statement that waits (Disconnect). */
  isCancelled?: () => boolean;
}

/**
 * How long a hub session waits. lock: for any lock (PostgreSQL's lock_timeout, every session), so a
 * session holding a lock the hub's writes need (anyone may take an advisory lock) stalls no one for
 * long; syncStatement: for one statement of a sync. Past either, the statement fails and the sync says
 * the hub did not answer in time (hubTimeoutError), and tries again later. Tests may shorten them.
 */
export const HUB_TIMEOUTS = { lockSeconds: 15, syncStatementSeconds: 300 };

/** How often a connection asks isCancelled. */
const CANCEL_POLL_MS = 100;

export function hubClientConfig(url: string | HubAddress, options: HubConnectOptions = {}): pg.ClientConfig {
  const address = typeof url === 'string' ? parseHubUrl(url) : url;
  return {
    host: address.host,
    port: address.port,
    database: address.database,
    user: address.user,
    password: options.password,
    ssl: tlsOptions(address),
    connectionTimeoutMillis: 1000 * (options.connectTimeoutSeconds ?? address.connectTimeoutSeconds ?? 10),
    application_name: address.applicationName ?? 'arbiter',
    lock_timeout: 1000 * HUB_TIMEOUTS.lockSeconds,
    ...(options.statementTimeoutSeconds ? { statement_timeout: 1000 * options.statementTimeoutSeconds } : {}),
    // SCRAM-SHA-256-PLUS where TLS is on: a man in the middle (sslmode=require checks no certificate) cannot finish it.
    enableChannelBinding: address.sslmode !== 'disable',
  };
}

/** A request for the password in a form a server could read or replay, as node-postgres would answer it. */
class ScramOnlyError extends Error {
  readonly code = 'ARBITER_NOT_SCRAM';
  constructor(readonly asked: string) {
    super(`the server asked for ${asked}`);
  }
}

/**
 * A node-postgres Client that answers a password request by SCRAM only (libpq's
 * require_auth=scram-sha-256): a server asking for the password in plain text or as an MD5 hash (what a
 * server at the hub's address that is not the hub would do to learn it) gets nothing, and the
 * connection is cut before the password is even fetched. pg hands each request to these methods.
 */
async function scramOnlyClient(): Promise<new (config: pg.ClientConfig) => pg.Client> {
  if (ScramOnlyClient) return ScramOnlyClient;
  // pg is loaded with the first connection, not when a command that never meets the hub starts (docs/benchmarks.md).
  const { default: pgModule } = await import('pg');
  return (ScramOnlyClient = class extends pgModule.Client {
    _handleAuthCleartextPassword(): void {
      this.refuse('the password in plain text');
    }

    _handleAuthMD5Password(): void {
      this.refuse('an MD5 hash of the password');
    }

    private refuse(asked: string): void {
      const connection = (this as unknown as { connection: { stream: { destroy(): void }; emit(event: 'error', error: Error): void } }).connection;
      connection.stream.destroy();
      connection.emit('error', new ScramOnlyError(asked));
    }
  });
}
let ScramOnlyClient: (new (config: pg.ClientConfig) => pg.Client) | undefined;

/** A connected Client, or a HubError saying why not. The caller ends it. */
export async function connectHub(url: string | HubAddress, options: HubConnectOptions = {}): Promise<pg.Client> {
  const address = typeof url === 'string' ? parseHubUrl(url) : url;
  const client = new (await scramOnlyClient())(hubClientConfig(address, options));
  // An error after connecting (the server went away) must not crash the process; queries report it.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw explainHubError(error, address);
  }
  if (options.isCancelled) endWhenCancelled(client, options.isCancelled);
  return client;
}

/** Ends the client as soon as isCancelled says so: a statement waiting on the hub fails at once (pg destroys the socket under it). */
function endWhenCancelled(client: pg.Client, isCancelled: () => boolean): void {
  // Stopped while connecting (a worker that took its time to start): nothing is sent.
  if (isCancelled()) {
    void client.end().catch(() => undefined);
    return;
  }
  const poll = setInterval(() => {
    if (!isCancelled()) return;
    clearInterval(poll);
    void client.end().catch(() => undefined);
  }, CANCEL_POLL_MS);
  poll.unref?.();
  client.once('end', () => clearInterval(poll));
}

/**
 * A statement the hub stopped because it waited too long (55P03: lock_timeout; 57014: statement_timeout,
 * or cancelled there) as a sentence saying so; any other error as it was.
 */
export function hubTimeoutError(error: unknown, address: HubAddress): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== '55P03' && code !== '57014') return error;
  const what =
    code === '55P03'
      ? `${HUB_TIMEOUTS.lockSeconds} s: a statement waited that long for a lock another session holds there`
      : `${HUB_TIMEOUTS.syncStatementSeconds} s: a statement ran that long, or was cancelled there`;
  return new HubError(
    'timeout',
    `The hub at ${address.where} did not answer in ${what}. What went up is kept there, your labels are kept here, and the next sync goes on from there; if it keeps happening, ask the hub's admin what holds the hub up (pg_stat_activity).`,
  );
}

/** A failure to connect (or an error the server sent while connecting) in a sentence. */
export function explainHubError(error: unknown, address: HubAddress): ArbiterError {
  if (error instanceof ArbiterError) return error;
  const e = error as { code?: string; message?: string };
  const code = e.code ?? '';
  const message = e.message ?? String(error);
  const at = `the hub at ${address.where}`;
  const reach = (why: string, next: string) => new HubError('unreachable', `Could not reach ${at} (${why}). ${next}`);
  const check = 'Check that PostgreSQL runs there, and the address.';
  if (error instanceof ScramOnlyError) {
    return new HubError(
      'auth',
      `The server at ${address.where} asked for ${error.asked}; Arbiter sends a password only by SCRAM (scram-sha-256), which never reveals it, so it sent nothing. PostgreSQL 14 and later use SCRAM by default: check the address (this server may not be the hub), or ask the hub's admin to set password_encryption = scram-sha-256 and set the password again.`,
    );
  }
  if (code === 'ECONNREFUSED') return reach('connection refused', check);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return reach(`no host named ${address.host}`, 'Check the host name in the address.');
  if (code === 'ETIMEDOUT' || /timeout/i.test(message)) return reach('no answer in time', `${check} A firewall may be in the way.`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return reach('no route to the host', 'Check the network and the address.');
  if (code === 'ECONNRESET' || /Connection terminated unexpectedly/i.test(message)) return reach('the connection was closed', check);
  if (code === '28P01') {
    return new HubError('password', `The hub refused the password for user ${address.user} (${address.where}). Check ARBITER_HUB_PASSWORD or the password you typed.`);
  }
  if (/password must be a string|no password/i.test(message)) {
    return new HubError(
      'password',
      `The hub at ${address.where} asks for a password for user ${address.user}. Give it through ARBITER_HUB_PASSWORD, or run the command in a terminal to be asked for it.`,
    );
  }
  if (code === '28000') return new HubError('refused', `The hub at ${address.where} refused user ${address.user}: ${serverWords(message)}. Ask the hub's admin to grant you access (arbiter hub grant).`);
  if (code === '3D000') return new HubError('no_database', `The hub at ${address.where} has no database "${address.database}". Check the database name in the address.`);
  if (/does not support SSL/i.test(message)) {
    return new HubError('tls', `The hub at ${address.where} does not accept TLS, and the address asks for it (sslmode=${address.sslmode}). Ask the hub's admin to turn TLS on, or use sslmode=disable on a trusted network.`);
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/i.test(code) || /certificate/i.test(message)) {
    return new HubError(
      'tls',
      `The TLS certificate of the hub at ${address.where} could not be verified (${message.replace(/\s+/g, ' ')}). Name the hub's root certificate with sslrootcert=PATH in the address, or check the host name.`,
    );
  }
  if (/^(08|53|57P)/.test(code)) return reach(serverWords(message), check);
  return new HubError('unreachable', `The hub at ${address.where} failed: ${serverWords(message)}.`);
}

function serverWords(message: string): string {
  return message.replace(/\s+/g, ' ').replace(/\.$/, '');
}
