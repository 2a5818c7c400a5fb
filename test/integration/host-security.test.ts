// The browser host treats the page as untrusted and the network as hostile: a request must name the
// host's own Host and Origin, the token never rides in a URL, the API cannot be pointed at the file
// system, and an export leaves only through a one-time download ticket of its own project.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { startHost } from '../../electron/host/server';
import { buildNodeSide, rawCall, rawRequest, ROOT, startHostProcess, type HostProcess } from '../helpers/host';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'formats', 'trl.jsonl');

let home: string;
let outside: string;
let host: HostProcess;

/** Imports the fixture into a project with the CLI (the user's own tool, not the API under test). */
function importWithCli(dbPath: string, project: string): void {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin/arbiter.mjs'), 'import', FIXTURE, '--project', project, '--db', dbPath], {
    env: { ...process.env, ARBITER_HOME: home, ARBITER_NO_DEMO: '1' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`import failed:\n${result.stderr}`);
}

function json(text: string): { ok: boolean; result?: Record<string, unknown>; error?: { code: string; message: string } } {
  return JSON.parse(text) as ReturnType<typeof json>;
}

function filesUnder(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort() : [];
}

async function exportAs(project: string): Promise<string> {
  const response = await rawCall(host, 'exportProject', { project, format: 'arbiter' });
  expect(response.status, response.text).toBe(200);
  return String(json(response.text).result!.out);
}

async function ticketFor(project: string, file: string) {
  const response = await rawCall(host, 'downloadTicket', { project, file });
  return { status: response.status, body: json(response.text) };
}

beforeAll(async () => {
  buildNodeSide();
  home = mkdtempSync(join(tmpdir(), 'arbiter-sec-home-'));
  outside = mkdtempSync(join(tmpdir(), 'arbiter-sec-outside-'));
  const dbPath = join(home, 'arbiter.db');
  importWithCli(dbPath, 'alpha');
  importWithCli(dbPath, 'beta');
  host = await startHostProcess(dbPath, { ARBITER_HOME: home });
}, 120_000);

afterAll(() => {
  host?.child.kill('SIGKILL');
  for (const dir of [home, outside]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('browser host: who may ask', () => {
  it('refuses a request whose Host is not its own (DNS rebinding), page and API alike', async () => {
    for (const foreign of ['evil.example', `evil.example:${host.port}`, `127.0.0.1:${host.port + 1}`, `localhost.evil.example:${host.port}`]) {
      const api = await rawCall(host, 'listProjects', {}, { host: foreign });
      expect(api.status, foreign).toBe(403);
      expect(json(api.text).error!.message).toMatch(/Host/);
      expect((await rawRequest(host, { path: '/', headers: { host: foreign } })).status, foreign).toBe(403);
    }
    for (const own of [`127.0.0.1:${host.port}`, `localhost:${host.port}`, `[::1]:${host.port}`, `LocalHost:${host.port}`])
      expect((await rawCall(host, 'listProjects', {}, { host: own })).status, own).toBe(200);
  });

  const outsideAddress = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && !a.internal && a.family === 'IPv4')?.address;

  it.skipIf(!outsideAddress)('with an explicit --host, answers to that address and port too, and still to nothing else', async () => {
    const other = await startHostProcess(join(home, 'arbiter.db'), { ARBITER_HOME: home }, ['--host', outsideAddress!]);
    try {
      expect(other.baseUrl).toBe(`http://${outsideAddress}:${other.port}`);
      const own = await rawCall(other, 'listProjects', {}, { host: `${outsideAddress}:${other.port}`, origin: other.baseUrl });
      expect(own.status, own.text).toBe(200);
      expect((await rawRequest(other, { path: '/', headers: { host: `evil.example:${other.port}` } })).status).toBe(403);
    } finally {
      other.child.kill('SIGKILL');
    }
  });

  it('refuses a foreign Origin on the API, the event stream and downloads', async () => {
    for (const origin of ['http://evil.example', 'null', `http://localhost:${host.port + 1}`, `https://127.0.0.1:${host.port}`]) {
      const api = await rawCall(host, 'listProjects', {}, { origin });
      expect(api.status, origin).toBe(403);
      expect(json(api.text).error!.message).toMatch(/Origin/);
      const events = await rawRequest(host, { path: '/api/events', headers: { origin, 'x-arbiter-token': host.token }, maxBytes: 1 });
      expect(events.status, origin).toBe(403);
      expect((await rawRequest(host, { path: '/download/nothing-here', headers: { origin } })).status, origin).toBe(403);
    }
    expect((await rawCall(host, 'listProjects', {}, { origin: `http://127.0.0.1:${host.port}` })).status).toBe(200);
  });

  it('refuses the token in a query string, for operations, the event stream and the page', async () => {
    const query = `?token=${encodeURIComponent(host.token)}`;
    const api = await rawRequest(host, { method: 'POST', path: `/api/listProjects${query}`, headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(api.status).toBe(401);
    expect(json(api.text).error!.message).toMatch(/x-arbiter-token header/);
    // Even alongside the right header: a URL that carries the token has already leaked it.
    expect((await rawCall(host, 'listProjects', {}, {}, query)).status).toBe(401);
    expect((await rawRequest(host, { path: `/api/events${query}`, maxBytes: 1 })).status).toBe(401);
    expect((await rawRequest(host, { path: `/${query}` })).status).toBe(401);
  });
});

describe('browser host: what the API may touch', () => {
  it('exportProject takes no output path and writes only into the exports folder', async () => {
    const before = filesUnder(home);
    for (const out of [join(outside, 'stolen.jsonl'), join(outside, 'sub', '..', 'escaped.jsonl')]) {
      const refused = await rawCall(host, 'exportProject', { project: 'alpha', format: 'trl', out });
      expect(refused.status, out).toBe(400);
      expect(json(refused.text).error!.message).toMatch(/out/);
    }
    expect(existsSync(join(outside, 'stolen.jsonl'))).toBe(false);
    expect(readdirSync(outside)).toEqual([]);
    expect(filesUnder(home)).toEqual(before);

    const response = await rawCall(host, 'exportProject', { project: 'alpha', format: 'trl' });
    expect(response.status, response.text).toBe(200);
    expect(response.text).not.toContain(home);
    const file = String(json(response.text).result!.out);
    expect(file).toMatch(/^[\w.-]+\.jsonl$/);
    expect(filesUnder(join(home, 'exports'))).toEqual([file]);
  });

  it('a download ticket serves its own project’s export once, without the token', async () => {
    const file = await exportAs('alpha');
    const issued = await ticketFor('alpha', file);
    expect(issued.status).toBe(200);
    const ticket = String(issued.body.result!.ticket);
    expect(ticket).toMatch(/^[\w-]{40,}$/);
    const written = readFileSync(join(home, 'exports', file), 'utf8');

    const first = await rawRequest(host, { path: `/download/${ticket}` });
    expect(first.status).toBe(200);
    expect(first.headers['content-disposition']).toBe(`attachment; filename="${file}"`);
    expect(first.text).toBe(written);
    expect(first.text.split('\n').filter(Boolean).length).toBeGreaterThan(0);

    const second = await rawRequest(host, { path: `/download/${ticket}` });
    expect(second.status).toBe(404);
    expect(json(second.text).error!.message).toMatch(/expired or was already used/);
    expect((await rawRequest(host, { path: '/download/not-a-ticket-at-all' })).status).toBe(404);
  });

  it('a download ticket is refused for another project’s export, a planted file or a path', async () => {
    const alphaFile = await exportAs('alpha');
    const wrongProject = await ticketFor('beta', alphaFile);
    expect(wrongProject.status).toBe(404);
    expect(wrongProject.body.error!.message).toMatch(/beta/);

    // In the exports folder, but not written by an export of this project.
    mkdirSync(join(home, 'exports'), { recursive: true });
    writeFileSync(join(home, 'exports', 'alpha-planted.jsonl'), '{"secret":true}\n');
    expect((await ticketFor('alpha', 'alpha-planted.jsonl')).status).toBe(404);

    for (const file of ['../arbiter.db', 'arbiter.db', join(home, 'arbiter.db'), '..\\arbiter.db.jsonl', 'exports/x.jsonl']) {
      const refused = await ticketFor('alpha', file);
      expect(refused.status, file).toBe(400);
    }
    expect((await ticketFor('no-such-project', alphaFile)).status).toBe(404);
  });

  it('no longer serves exports at /api/exports/<name>', async () => {
    const file = await exportAs('alpha');
    const old = await rawRequest(host, { path: `/api/exports/${encodeURIComponent(file)}`, headers: { 'x-arbiter-token': host.token } });
    expect(old.status).toBe(404);
    expect(old.text).not.toContain('"prompt"');
  });

  it('an error about a folder that is not a model folder names none of its other files', async () => {
    const bare = mkdtempSync(join(outside, 'folder-'));
    const halfModel = mkdtempSync(join(outside, 'folder-'));
    for (const dir of [bare, halfModel]) {
      writeFileSync(join(dir, 'secret-a.txt'), 'a');
      writeFileSync(join(dir, 'secret-b.txt'), 'b');
    }
    writeFileSync(join(halfModel, 'model.onnx'), 'not an onnx graph');
    writeFileSync(join(halfModel, 'tokenizer.json'), '{}');
    for (const dir of [bare, halfModel]) {
      for (const op of ['inspectModel', 'addModel']) {
        const response = await rawCall(host, op, { dir });
        expect(response.status, `${op} ${dir}`).toBeGreaterThanOrEqual(400);
        expect(json(response.text).error!.message.length).toBeGreaterThan(10);
        expect(response.text).not.toMatch(/secret-[ab]/);
      }
    }
  });
});

describe('download tickets (host in this process, to move the clock)', () => {
  it('expire 60 seconds after they are issued', async () => {
    const dbPath = join(home, 'arbiter.db');
    vi.stubEnv('ARBITER_HOME', home);
    const service = new ArbiterService(openDb(dbPath), { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
    const running = await startHost({ service, rendererDir: join(ROOT, 'out', 'renderer'), port: 0 });
    const download = (ticket: string) => fetch(new URL(`/download/${ticket}`, running.url));
    try {
      const { out } = await service.dispatch('exportProject', { project: 'beta', format: 'arbiter' });
      const fresh = await service.dispatch('downloadTicket', { project: 'beta', file: out });
      const stale = await service.dispatch('downloadTicket', { project: 'beta', file: out });
      expect((await download(fresh.ticket)).status).toBe(200);
      const issuedAt = Date.now();
      vi.spyOn(Date, 'now').mockReturnValue(issuedAt + 61_000);
      const late = await download(stale.ticket);
      expect(late.status).toBe(404);
      expect(((await late.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
      await running.close();
      service.db.close();
    }
  });
});
