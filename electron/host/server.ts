// The browser host: serves the built renderer and the same API over HTTP on 127.0.0.1, guarded by a
// per-launch random token. It is what `npm start` falls back to where Electron cannot start.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, extname, join, normalize, resolve, sep } from 'node:path';
import { API_NAMES, type ApiName } from '../../shared/api';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { toErrorShape } from '../core/errors';
import { exportsDir } from '../core/paths';
import type { ArbiterService } from '../core/service';

const MAX_BODY_BYTES = 1024 * 1024 * 1024;
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
  url: string;
  token: string;
  close(): Promise<void>;
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

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw Object.assign(new Error('Request body is larger than 1 GiB.'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
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

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      if (url.pathname.startsWith('/api/')) {
        const given = req.headers['x-arbiter-token'] as string | undefined ?? url.searchParams.get('token');
        if (!tokenMatches(token, given)) {
          sendJson(res, 401, { ok: false, error: { code: 'unauthorized', message: 'Missing or wrong API token. Open the URL the host printed.' } });
          return;
        }
        if (url.pathname === '/api/events' && req.method === 'GET') return openEventStream(res, eventClients);
        if (url.pathname.startsWith('/api/exports/') && req.method === 'GET') return sendExport(res, url.pathname.slice('/api/exports/'.length));
        const name = url.pathname.slice('/api/'.length) as ApiName;
        if (req.method !== 'POST' || !API_NAMES.includes(name)) {
          sendJson(res, 404, { ok: false, error: { code: 'not_found', message: `No operation ${req.method} ${url.pathname}.` } });
          return;
        }
        const body = await readBody(req);
        let input: unknown;
        try {
          input = body.trim() ? JSON.parse(body) : {};
        } catch {
          sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: 'The request body is not valid JSON.' } });
          return;
        }
        const result = await service.dispatch(name, input);
        sendJson(res, 200, { ok: true, result });
        return;
      }
      serveStatic(rendererDir, url.pathname, res);
    } catch (error) {
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
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    token,
    url: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}/#token=${token}`,
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

function sendExport(res: ServerResponse, name: string): void {
  const file = join(exportsDir(), basename(decodeURIComponent(name)));
  if (!existsSync(file)) {
    sendJson(res, 404, { ok: false, error: { code: 'not_found', message: `No export named ${basename(name)}.` } });
    return;
  }
  res.writeHead(200, {
    'content-type': MIME['.jsonl']!,
    'content-disposition': `attachment; filename="${basename(file).replace(/"/g, '')}"`,
  });
  createReadStream(file).pipe(res);
}

function serveStatic(root: string, pathname: string, res: ServerResponse): void {
  const relative = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
  let file = join(root, relative);
  if (!file.startsWith(root + sep) && file !== root) {
    res.writeHead(403).end();
    return;
  }
  if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
  if (!existsSync(file)) {
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The renderer is not built. Run `npm run build`, then start again.');
    return;
  }
  const type = MIME[extname(file)] ?? 'application/octet-stream';
  const headers: Record<string, string> = { 'content-type': type, 'x-content-type-options': 'nosniff' };
  if (type.startsWith('text/html')) {
    headers['content-security-policy'] = CONTENT_SECURITY_POLICY;
    headers['cache-control'] = 'no-store';
  }
  res.writeHead(200, headers);
  createReadStream(file).pipe(res);
}
