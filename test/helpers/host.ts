// Starts the real browser host (`arbiter serve`) as a child process and reads its URL and token; speaks
// raw HTTP to it where a test must send headers a fetch() would not let it set (Host, Origin).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

export function buildNodeSide(): void {
  if (process.env.ARBITER_SKIP_BUILD === '1' && existsSync(join(ROOT, 'out/node/cli.mjs'))) return;
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--node-only'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stderr}`);
}

export interface HostProcess {
  child: ChildProcess;
  baseUrl: string;
  port: number;
  token: string;
  url: string;
  output: () => string;
}

export function startHostProcess(dbPath: string, env: Record<string, string> = {}, extraArgs: string[] = []): Promise<HostProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), 'serve', '--db', dbPath, '--port', '0', ...extraArgs], {
    env: { ...process.env, ARBITER_NO_DEMO: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/(http:\/\/(?:\[[\da-f:]+\]|[^/\s:]+):(\d+))\/#token=([\w-]+)/);
      if (match) {
        clearTimeout(timer);
        resolve({ child, baseUrl: match[1]!, port: Number(match[2]), token: match[3]!, url: match[0], output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`host exited with ${code}:\n${output}`)));
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON the host answers
export async function call(host: HostProcess, name: string, input: unknown, token = host.token): Promise<{ status: number; body: any }> {
  const response = await fetch(`${host.baseUrl}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-arbiter-token': token },
    body: typeof input === 'string' ? input : JSON.stringify(input),
  });
  return { status: response.status, body: await response.json() };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One HTTP request to the host's address with exactly the headers given (Host included), as a
 * DNS-rebinding page or a cross-site form would send it. Stops reading after `maxBytes` (event streams).
 */
export function rawRequest(
  host: HostProcess,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string; maxBytes?: number },
): Promise<RawResponse> {
  const base = new URL(host.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname.replace(/^\[|\]$/g, ''),
        port: host.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: base.host, ...options.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.length >= (options.maxBytes ?? Infinity)) {
            res.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A JSON API call sent raw, so a test can add or forge headers around the token. */
export function rawCall(host: HostProcess, name: string, input: unknown, headers: Record<string, string> = {}, query = ''): Promise<RawResponse> {
  return rawRequest(host, {
    method: 'POST',
    path: `/api/${name}${query}`,
    headers: { 'content-type': 'application/json', 'x-arbiter-token': host.token, ...headers },
    body: JSON.stringify(input),
  });
}

/**
 * The local addresses the kernel lists as listening on a TCP port (Linux: /proc/net/tcp and tcp6), so
 * a test sees what the socket is bound to, not what the program says it did.
 */
export function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const [file, decode] of [
    ['/proc/net/tcp', decodeIpv4],
    ['/proc/net/tcp6', decodeIpv6],
  ] as const) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A') continue; // 0A: LISTEN
      const [hex, portHex] = local.split(':');
      if (parseInt(portHex!, 16) === port) found.push(decode(hex!));
    }
  }
  return found;
}

function decodeIpv4(hex: string): string {
  // Four bytes in host (little-endian) order.
  const bytes = hex.match(/../g)!.map((b) => parseInt(b, 16));
  return bytes.reverse().join('.');
}

function decodeIpv6(hex: string): string {
  // Four 32-bit words, each in host (little-endian) order.
  const words = hex.match(/.{8}/g)!.map((w) => w.match(/../g)!.reverse().join(''));
  const groups = words.join('').match(/.{4}/g)!.map((g) => parseInt(g, 16).toString(16));
  const text = groups.join(':');
  if (text === '0:0:0:0:0:0:0:0') return '::';
  if (text === '0:0:0:0:0:0:0:1') return '::1';
  return text;
}
