// A server at the hub's address that is not the hub: it asks for the password in plain text or as an MD5
// hash (node-postgres would answer both), and the password must never reach it, with sslmode=require
// (TLS, the certificate not checked) and with no sslmode. Only SCRAM is answered, with channel binding
// (SCRAM-SHA-256-PLUS) where TLS is on. The fake server is a few lines of the PostgreSQL startup
// protocol on a real socket.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectHub } from '../../electron/core/hub/connect';
import { tempDir } from '../helpers/tmp';

const PASSWORD = 'rogue-Pa55-word';
const SSL_REQUEST = 80877103;

type Ask = 'cleartext' | 'md5' | 'sasl';

/** What the fake server saw after its authentication request: each message's type and body. */
interface Seen {
  messages: { type: string; body: Buffer }[];
  raw: Buffer;
  closed: Promise<void>;
  cut(): void;
}

function authRequest(ask: Ask): Buffer {
  if (ask === 'cleartext') return Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]);
  if (ask === 'md5') return Buffer.from([0x52, 0, 0, 0, 12, 0, 0, 0, 5, 1, 2, 3, 4]);
  const mechanisms = Buffer.from('SCRAM-SHA-256-PLUS\0SCRAM-SHA-256\0\0');
  const head = Buffer.alloc(9);
  head.write('R', 0);
  head.writeInt32BE(8 + mechanisms.length, 1);
  head.writeInt32BE(10, 5);
  return Buffer.concat([head, mechanisms]);
}

let tls: { key: Buffer; cert: Buffer };
const servers: Server[] = [];

beforeAll(() => {
  const dir = tempDir('arbiter-rogue-');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=rogue', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** Starts a server that answers TLS when asked, reads the startup message, and asks for the password as `ask`. */
async function rogue(ask: Ask): Promise<{ port: number; seen: Promise<Seen> }> {
  let resolveSeen!: (seen: Seen) => void;
  const seen = new Promise<Seen>((resolve) => (resolveSeen = resolve));
  const server = createServer((plain) => {
    let socket: Socket = plain;
    let buffer = Buffer.alloc(0);
    let stage: 'first' | 'startup' | 'after' = 'first';
    let closedResolve!: () => void;
    const record: Seen = { messages: [], raw: Buffer.alloc(0), closed: new Promise((resolve) => (closedResolve = resolve)), cut: () => plain.destroy() };
    resolveSeen(record);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (stage === 'after') {
          record.raw = Buffer.concat([record.raw, chunk]);
          while (buffer.length >= 5 && buffer.length >= 1 + buffer.readInt32BE(1)) {
            const length = buffer.readInt32BE(1);
            record.messages.push({ type: String.fromCharCode(buffer[0]!), body: buffer.subarray(5, 1 + length) });
            buffer = buffer.subarray(1 + length);
          }
          return;
        }
        if (buffer.length < 8 || buffer.length < buffer.readInt32BE(0)) return;
        const length = buffer.readInt32BE(0);
        const code = buffer.readInt32BE(4);
        buffer = buffer.subarray(length);
        if (stage === 'first' && code === SSL_REQUEST) {
          plain.removeListener('data', onData);
          plain.write('S');
          const secure = new TLSSocket(plain, { isServer: true, key: tls.key, cert: tls.cert });
          secure.on('data', onData);
          secure.on('error', () => undefined);
          socket = secure;
          stage = 'startup';
          return;
        }
        stage = 'after';
        socket.write(authRequest(ask));
        return;
      }
    };
    plain.on('data', onData);
    plain.on('error', () => undefined);
    plain.on('close', () => closedResolve());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

describe('a server that is not the hub never receives the password', () => {
  for (const ask of ['cleartext', 'md5'] as const) {
    for (const sslmode of ['require', null] as const) {
      it(`asked for ${ask === 'md5' ? 'an MD5 hash' : 'the password in plain text'}, ${sslmode ? `sslmode=${sslmode}` : 'no sslmode'}: refused with a sentence, nothing sent`, async () => {
        const { port, seen } = await rogue(ask);
        const url = `postgres://alice@127.0.0.1:${port}/hub?connect_timeout=5${sslmode ? `&sslmode=${sslmode}` : ''}`;
        let asked = 0;
        const error = await connectHub(url, { password: () => (asked++, PASSWORD) }).then(
          (client) => (void client.end(), null),
          (e: unknown) => e as Error & { reason?: string },
        );
        const record = await seen;
        await record.closed;
        expect(record.messages.map((m) => m.type)).not.toContain('p');
        expect(record.raw.includes(Buffer.from(PASSWORD))).toBe(false);
        expect(asked).toBe(0);
        expect(error).toMatchObject({ reason: 'auth' });
        expect(error!.message).toBe(
          `The server at 127.0.0.1:${port} asked for ${ask === 'md5' ? 'an MD5 hash of the password' : 'the password in plain text'}; Arbiter sends a password only by SCRAM (scram-sha-256), which never reveals it, so it sent nothing. PostgreSQL 14 and later use SCRAM by default: check the address (this server may not be the hub), or ask the hub's admin to set password_encryption = scram-sha-256 and set the password again.`,
        );
      });
    }
  }

  it('SCRAM under TLS binds the channel (SCRAM-SHA-256-PLUS); the first message holds no password', async () => {
    const { port, seen } = await rogue('sasl');
    const attempt = connectHub(`postgres://alice@127.0.0.1:${port}/hub?connect_timeout=5&sslmode=require`, { password: PASSWORD }).catch((e: unknown) => e);
    const record = await seen;
    await expect.poll(() => record.messages.length).toBeGreaterThan(0);
    const first = record.messages[0]!;
    expect(first.type).toBe('p');
    expect(first.body.subarray(0, first.body.indexOf(0)).toString()).toBe('SCRAM-SHA-256-PLUS');
    expect(record.raw.includes(Buffer.from(PASSWORD))).toBe(false);
    record.cut();
    await attempt;
  });
});
