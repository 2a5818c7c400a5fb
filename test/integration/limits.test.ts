// What a page can make the host hold is bounded (issue 13, findings 1, 3 and 16): uploads by size, count,
// free disk and idle time; request bodies per operation, checked from Content-Length before reading and
// while streaming; request bodies read at once; and a malformed URL is a 400, not a stack trace.
import { existsSync, readdirSync, statfsSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { startHost, type RunningHost } from '../../electron/host/server';
import { tempDir } from '../helpers/tmp';

const MiB = 1024 * 1024;

let home: string;
let service: ArbiterService;

beforeEach(() => {
  home = tempDir('arbiter-limits-');
  const dbPath = join(home, 'arbiter.db');
  service = new ArbiterService(openDb(dbPath), { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  service.stopBackgroundWork();
  service.db.close();
});

const uploadsFolder = () => join(home, 'uploads');
const uploadFiles = () => (existsSync(uploadsFolder()) ? readdirSync(uploadsFolder()) : []);

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = (await promise.then(
    () => null,
    (e: unknown) => e,
  )) as { code: string; message: string } | null;
  if (!error) throw new Error('expected the call to be refused');
  return error;
}

describe('uploads are bounded', () => {
  it('refuses a file larger than the upload limit, with a sentence', async () => {
    vi.stubEnv('ARBITER_UPLOAD_MAX_BYTES', '1MiB');
    const refused = await refusal(service.dispatch('startUpload', { fileName: 'big.jsonl', size: 2 * MiB }));
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toMatch(/big\.jsonl is 2 MiB; an upload may be at most 1 MiB/);
    expect(refused.message).toMatch(/arbiter import/);
    expect(uploadFiles()).toEqual([]);
    await expect(service.dispatch('startUpload', { fileName: 'small.jsonl', size: MiB })).resolves.toHaveProperty('uploadId');
  });

  it('refuses one upload more than may be open at once, and counts a finished one out', async () => {
    vi.stubEnv('ARBITER_UPLOADS_MAX_OPEN', '2');
    const first = await service.dispatch('startUpload', { fileName: 'a.jsonl', size: 10 });
    await service.dispatch('startUpload', { fileName: 'b.jsonl', size: 10 });
    const refused = await refusal(service.dispatch('startUpload', { fileName: 'c.jsonl', size: 10 }));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toMatch(/2 uploads are open already \(at most 2\)/);
    expect(uploadFiles()).toHaveLength(2);
    await service.dispatch('discardUpload', first);
    await expect(service.dispatch('startUpload', { fileName: 'c.jsonl', size: 10 })).resolves.toHaveProperty('uploadId');
  });

  it('refuses what the disk cannot hold, counting the reserve and the uploads still arriving', async () => {
    const stats = statfsSync(home);
    const free = stats.bavail * stats.bsize;
    vi.stubEnv('ARBITER_UPLOAD_MAX_BYTES', String(free * 4));
    vi.stubEnv('ARBITER_DISK_RESERVE_BYTES', '1GiB');
    const tooBig = await refusal(service.dispatch('startUpload', { fileName: 'huge.jsonl', size: free + 1024 * MiB }));
    expect(tooBig.message).toMatch(/The disk that holds Arbiter's data has [\d.]+ [KMGT]?i?B free; huge\.jsonl needs [\d.]+ [KMGT]?i?B, and 1 GiB is kept free/);
    expect(tooBig.message).not.toContain(home);
    // Most of what is free, announced by one upload, leaves no room for a second.
    const most = free - 1024 * MiB - 512 * MiB;
    await service.dispatch('startUpload', { fileName: 'first.jsonl', size: most });
    const second = await refusal(service.dispatch('startUpload', { fileName: 'second.jsonl', size: 1024 * MiB }));
    expect(second.message).toMatch(/still arriving/);
    expect(uploadFiles()).toHaveLength(1);
  });

  it('removes an upload left idle when a new one starts, and says why the old id is gone', async () => {
    vi.stubEnv('ARBITER_UPLOAD_IDLE_MS', '60s');
    const { uploadId } = await service.dispatch('startUpload', { fileName: 'left.jsonl', size: 8 });
    await service.dispatch('uploadChunk', { uploadId, offset: 0, data: Buffer.from('{"a":1}').toString('base64') });
    expect(uploadFiles()).toHaveLength(1);
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    const fresh = await service.dispatch('startUpload', { fileName: 'new.jsonl', size: 8 });
    expect(uploadFiles()).toEqual([`${fresh.uploadId}.jsonl`]);
    const gone = await refusal(service.dispatch('uploadChunk', { uploadId, offset: 7, data: Buffer.from('\n').toString('base64') }));
    expect(gone.code).toBe('not_found');
    expect(gone.message).toMatch(/idle for more than 1 min/);
  });

  it('sweeps idle uploads on a timer, with nothing else happening', async () => {
    vi.stubEnv('ARBITER_UPLOAD_IDLE_MS', '1s');
    // The sweeper runs from the service's start: this one must see the 1 s expiry.
    service.stopBackgroundWork();
    service.db.close();
    const dbPath = join(home, 'arbiter.db');
    service = new ArbiterService(openDb(dbPath), { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
    await service.dispatch('startUpload', { fileName: 'abandoned.jsonl', size: 100 });
    expect(uploadFiles()).toHaveLength(1);
    await vi.waitFor(() => expect(uploadFiles()).toEqual([]), { timeout: 10_000, interval: 100 });
  });
});

// ---- the browser host, in this process (so the environment and console can be watched) ----

let running: RunningHost | null = null;

afterEach(async () => {
  await running?.close();
  running = null;
});

async function host(): Promise<RunningHost> {
  running = await startHost({ service, rendererDir: join(home, 'no-renderer'), port: 0 });
  return running;
}

interface Sent {
  status: number;
  text: string;
}

/**
 * One request whose body is written by `write` (headers go at once); resolves with the answer, or with
 * status 0 when none came within `waitMs`.
 */
function send(
  running: RunningHost,
  options: { method?: string; path: string; headers?: Record<string, string>; write?: (req: ReturnType<typeof request>) => void; waitMs?: number },
): Promise<Sent> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port: running.bound.port,
      method: options.method ?? 'POST',
      path: options.path,
      headers: { 'x-arbiter-token': running.token, 'content-type': 'application/json', ...options.headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ status: 0, text: '' });
    }, options.waitMs ?? 5000);
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text });
      });
    });
    // A host that answers before the whole body is sent may close the connection under the writer.
    req.on('error', () => undefined);
    req.flushHeaders();
    if (options.write) options.write(req);
    else req.end();
  });
}

const message = (sent: Sent) => (JSON.parse(sent.text) as { error: { message: string } }).error.message;

describe('request bodies are bounded per operation', () => {
  it('answers 413 from Content-Length, before reading a byte of the body', async () => {
    const running = await host();
    const sent = await send(running, { path: '/api/listProjects', headers: { 'content-length': String(600 * MiB) }, write: () => undefined });
    expect(sent.status).toBe(413);
    expect(message(sent)).toMatch(/listProjects takes a request body of at most 1 MiB; this one is 600 MiB/);
  });

  it('answers 413 while streaming a body that announces no length', async () => {
    const running = await host();
    const sent = await send(running, {
      path: '/api/listProjects',
      headers: { 'transfer-encoding': 'chunked' },
      write: (req) => {
        const piece = 'x'.repeat(256 * 1024);
        req.write('{"pad":"');
        for (let i = 0; i < 8; i++) req.write(piece);
        req.end('"}');
      },
    });
    expect(sent.status).toBe(413);
    expect(message(sent)).toMatch(/at most 1 MiB/);
  });

  it('takes a full 4 MiB upload piece, and 2 MiB of guidelines, over HTTP', async () => {
    const running = await host();
    const start = await send(running, {
      path: '/api/startUpload',
      write: (req) => req.end(JSON.stringify({ fileName: 'f.jsonl', size: 4 * MiB })),
    });
    expect(start.status, start.text).toBe(200);
    const { uploadId } = (JSON.parse(start.text) as { result: { uploadId: string } }).result;
    const data = Buffer.alloc(4 * MiB, 'a').toString('base64');
    const chunk = await send(running, { path: '/api/uploadChunk', write: (req) => req.end(JSON.stringify({ uploadId, offset: 0, data })) });
    expect(chunk.status, chunk.text.slice(0, 300)).toBe(200);
    await service.dispatch('createProject', { name: 'g' });
    const text = 'é'.repeat(190_000);
    const saved = await send(running, {
      path: '/api/saveGuidelines',
      write: (req) => req.end(JSON.stringify({ project: 'g', text, baseRevision: 0, annotator: 'alice' })),
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);
  });

  it('reads at most the configured number of bodies at once: one more gets 503 and a sentence', async () => {
    vi.stubEnv('ARBITER_REQUESTS_MAX_IN_FLIGHT', '2');
    const running = await host();
    const body = JSON.stringify({});
    const held: (() => void)[] = [];
    const slow = [0, 1].map(() =>
      send(running, {
        path: '/api/listProjects',
        headers: { 'content-length': String(body.length) },
        waitMs: 15_000,
        write: (req) => held.push(() => req.end(body)),
      }),
    );
    await vi.waitFor(() => expect(held).toHaveLength(2));
    // The two held requests' headers reach the host before this one's.
    const busy = await vi.waitFor(
      async () => {
        const sent = await send(running, { path: '/api/listProjects', write: (req) => req.end(body) });
        expect(sent.status).toBe(503);
        return sent;
      },
      { timeout: 5000 },
    );
    expect(message(busy)).toMatch(/2 requests are being received already/);
    for (const finish of held) finish();
    for (const sent of await Promise.all(slow)) expect(sent.status).toBe(200);
    expect((await send(running, { path: '/api/listProjects', write: (req) => req.end(body) })).status).toBe(200);
  });
});

describe('URLs', () => {
  it('answers a malformed % escape with 400 and logs no stack trace', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const running = await host();
    for (const path of ['/%E0%A4%A', '/%', '/assets/%zz.js']) {
      const sent = await send(running, { method: 'GET', path });
      expect(sent.status, path).toBe(400);
      expect(message(sent)).toMatch(/not a valid address/);
    }
    expect(errors).not.toHaveBeenCalled();
  });
});
