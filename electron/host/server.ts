// The browser host: serves the built renderer and the same API over HTTP on 127.0.0.1, guarded by a
// per-launch random token. It is what `npm start` falls back to where Electron cannot start. The page
// is untrusted: see guards.ts for what every request must show, downloads.ts for how exports leave,
// images.ts for how stored images reach the page, videos.ts for videos (a ticket, HTTP Range), and
// core/base/limits.ts for how large a body each operation may send and how many are read at once.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { API_NAMES, type ApiErrorShape, type ApiName } from '../../shared/api';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { invalidInput, toErrorShape } from '../core/base/errors';
import { bodyLimitFor, formatBytes, limit, limitEnvName, type LimitName } from '../core/base/limits';
import type { ArbiterService } from '../core/service';
import { DOWNLOAD_PREFIX, serveDownload } from './downloads';
import { acceptedHosts, refuseRequest } from './guards';
import { IMAGE_PREFIX, serveImageRoute } from './images';
import { serveVideoRoute, VIDEO_PREFIX } from './videos';

const STATUS_BY_CODE: Record<string, number> = {
  invalid_input: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  invalid_file: 422,
  internal: 500,
};
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
};
export interface HostOptions {
  service: ArbiterService;
  rendererDir: string;
  host?: string;
  port?: number;
  token?: string;
}

export interface RunningHost {
  server: Server;
  /** The page's URL with the token in its fragment; on a wildcard bind, its loopback address. */
  url: string;
  token: string;
  /** The address and port the socket is actually bound to (server.address()). */
  bound: AddressInfo;
  close(): Promise<void>;
}

/** Sent with every answer: no MIME sniffing, no referrer, nothing embeddable by other sites. */
const BASE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

function sendError(res: ServerResponse, status: number, code: ApiErrorShape['code'], message: string): void {
  sendJson(res, status, { ok: false, error: { code, message } });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

class BodyTooLarge extends Error {
  readonly status = 413;
}

function tooLarge(operation: string, max: { bytes: number; name: LimitName }, size: number | null): BodyTooLarge {
  return new BodyTooLarge(
    `${operation} takes a request body of at most ${formatBytes(max.bytes)}; this one is ${size === null ? 'larger' : formatBytes(size)}. ` +
      `Send less (a file goes up in 4 MiB pieces), or start the host with ${limitEnvName(max.name)} set higher.`,
  );
}

/**
 * The body as text, read up to `max.bytes`: past that it stops reading (nothing more is buffered) and
 * rejects with a 413 whose sentence names the operation and the limit.
 */
function readBody(req: IncomingMessage, operation: string, max: { bytes: number; name: LimitName }): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      fn();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max.bytes) settle(() => (req.pause(), reject(tooLarge(operation, max, null))));
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => settle(() => resolveBody(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', (error) => settle(() => reject(error)));
    req.on('close', () => settle(() => reject(invalidInput('The request was closed before its body arrived.'))));
  });
}

/** The path with its % escapes decoded, or null when one is malformed. */
function decodePath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const host = options.host ?? '127.0.0.1';
  const rendererDir = resolve(options.rendererDir);
  const { service } = options;
  const eventClients = new Set<ServerResponse>();
  service.events.on('event', (event: unknown) => {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const client of eventClients) client.write(line);
  });

  let accepted = new Set<string>();
  let bodiesInFlight = 0;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    for (const [name, value] of Object.entries(BASE_HEADERS)) res.setHeader(name, value);
    try {
      const refusal = refuseRequest(req, url, accepted);
      if (refusal) return sendError(res, refusal.status, 'unauthorized', refusal.message);
      if (url.pathname.startsWith(DOWNLOAD_PREFIX)) {
        if (req.method !== 'GET') return sendError(res, 404, 'not_found', `No operation ${req.method} ${url.pathname}.`);
        return serveDownload(res, service, url.pathname.slice(DOWNLOAD_PREFIX.length), (status, message) => sendError(res, status, 'not_found', message));
      }
      if (url.pathname.startsWith(VIDEO_PREFIX)) return serveVideoRoute(req, res, service, url, (status, message) => sendError(res, status, 'not_found', message));
      if (url.pathname.startsWith(IMAGE_PREFIX)) {
        if (!tokenMatches(token, req.headers['x-arbiter-token'] as string | undefined))
          return sendError(res, 401, 'unauthorized', 'Missing or wrong API token: images are sent with the x-arbiter-token header, as the API is. Open the URL the host printed.');
        return await serveImageRoute(res, service, url, req.method, (status, message) => sendError(res, status, status === 422 ? 'invalid_file' : 'not_found', message));
      }
      if (url.pathname.startsWith('/api/')) {
        if (!tokenMatches(token, req.headers['x-arbiter-token'] as string | undefined))
          return sendError(res, 401, 'unauthorized', 'Missing or wrong API token. Open the URL the host printed.');
        if (url.pathname === '/api/events' && req.method === 'GET') return openEventStream(res, eventClients);
        const name = url.pathname.slice('/api/'.length) as ApiName;
        if (req.method !== 'POST' || !API_NAMES.includes(name)) return sendError(res, 404, 'not_found', `No operation ${req.method} ${url.pathname}.`);
        const max = bodyLimitFor(name);
        const declared = Number(req.headers['content-length'] ?? Number.NaN);
        if (declared > max.bytes) throw tooLarge(name, max, declared);
        const most = limit('requestsMaxInFlight');
        if (bodiesInFlight >= most) {
          res.setHeader('retry-after', '1');
          res.setHeader('connection', 'close');
          return sendError(res, 503, 'internal', `${bodiesInFlight} requests are being received already (at most ${most} at once); try again in a moment.`);
        }
        bodiesInFlight++;
        let body: string;
        try {
          body = await readBody(req, name, max);
        } finally {
          bodiesInFlight--;
        }
        let input: unknown;
        try {
          input = body.trim() ? JSON.parse(body) : {};
        } catch {
          return sendError(res, 400, 'invalid_input', 'The request body is not valid JSON.');
        }
        const result = await service.dispatch(name, input);
        sendJson(res, 200, { ok: true, result });
        return;
      }
      const path = decodePath(url.pathname);
      if (path === null)
        return sendError(res, 400, 'invalid_input', 'That is not a valid address: it has a malformed % escape. Check the address, or open the URL Arbiter printed.');
      serveStatic(rendererDir, path, res);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        // The rest of the body is not read: close the connection once the answer is out.
        res.setHeader('connection', 'close');
        return sendError(res, 413, 'invalid_input', error.message);
      }
      const status = (error as { status?: number }).status;
      const shape = toErrorShape(error);
      if (shape.code === 'internal') console.error(error);
      sendJson(res, status ?? STATUS_BY_CODE[shape.code] ?? 500, { ok: false, error: shape });
    }
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolveListen());
  });
  const bound = server.address() as AddressInfo;
  accepted = acceptedHosts(host, bound.port);
  const wildcard = bound.address === '0.0.0.0' || bound.address === '::';
  const shownHost = wildcard ? '127.0.0.1' : bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    server,
    token,
    bound,
    url: `http://${shownHost}:${bound.port}/#token=${token}`,
    close: () =>
      new Promise((done) => {
        for (const client of eventClients) client.end();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

function openEventStream(res: ServerResponse, clients: Set<ServerResponse>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write(': connected\n\n');
  clients.add(res);
  res.on('close', () => clients.delete(res));
}

/** A file of the built renderer; `path` is decoded already. */
function serveStatic(root: string, path: string, res: ServerResponse): void {
  const relative = normalize(path).replace(/^([/\\])+/, '');
  let file = join(root, relative);
  if (!file.startsWith(root + sep) && file !== root) {
    res.writeHead(403).end();
    return;
  }
  if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
  const page = { 'content-security-policy': CONTENT_SECURITY_POLICY, 'cache-control': 'no-store' };
  if (!existsSync(file)) {
    res.writeHead(503, { ...page, 'content-type': MIME['.html']! });
    res.end('<!doctype html><title>Arbiter</title><p>The renderer is not built. Run <code>npm run build</code>, then start again.</p>');
    return;
  }
  const type = MIME[extname(file)] ?? 'application/octet-stream';
  res.writeHead(200, { 'content-type': type, ...(type.startsWith('text/html') ? page : {}) });
  createReadStream(file).pipe(res);
}
