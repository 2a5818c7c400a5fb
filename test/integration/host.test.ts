// The browser host as a user's browser meets it: loopback only, token required, errors that say what
// is wrong — and a label acknowledged by the host survives the host being killed.
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { openDb } from '../../electron/core/store/db';
import { itemInserter } from '../../electron/core/store/itemInsert';
import { createProject } from '../../electron/core/store/projects';
import { tempDir } from '../helpers/tmp';
import { buildNodeSide, call, listeningAddresses, startHostProcess } from '../helpers/host';

function seed(dbPath: string, n = 5): void {
  const db = openDb(dbPath);
  const project = createProject(db, 'kill-test');
  const insert = itemInserter(db, project.id);
  db.transaction(() => {
    for (let i = 0; i < n; i++)
      insert.insert({
        externalId: `k${i}`,
        prompt: `p${i}`,
        responses: [
          { content: `a${i}`, model: null, steps: null },
          { content: `b${i}`, model: null, steps: null },
        ],
        reference: null,
        metadata: {},
      });
  })();
  db.close();
}

/** Whether a TCP connection to address:port is refused (nothing listens there for that address). */
function refused(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === 'IPv4')?.address;

beforeAll(() => buildNodeSide(), 120_000);

describe('browser host', () => {
  it('binds 127.0.0.1 and refuses calls without the launch token', async () => {
    const dbPath = join(tempDir(), 'a.db');
    seed(dbPath);
    const host = await startHostProcess(dbPath);
    try {
      expect(host.baseUrl).toBe(`http://127.0.0.1:${host.port}`);
      // The kernel's view of the socket, not the URL the host chose to print.
      expect(listeningAddresses(host.port)).toEqual(['127.0.0.1']);
      if (outsideAddress) expect(await refused(outsideAddress, host.port)).toBe(true);
      expect((await call(host, 'listProjects', {}, '')).status).toBe(401);
      expect((await call(host, 'listProjects', {}, 'wrong-token-wrong-token-wrong-tok')).status).toBe(401);
      const ok = await call(host, 'listProjects', {});
      expect(ok.status).toBe(200);
      expect(ok.body.result.map((p: { name: string }) => p.name)).toEqual(['kill-test']);
      const bad = await call(host, 'saveLabel', { project: 'kill-test', choice: 'Z' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/choice/);
      const unknown = await call(host, 'getProject', { project: 'nope' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.message).toMatch(/No project named "nope"/);
      const notJson = await call(host, 'listProjects', '{not json');
      expect(notJson.status).toBe(400);
      const noSuchOp = await call(host, 'dropEverything', {});
      expect(noSuchOp.status).toBe(404);
      const page = await fetch(`${host.baseUrl}/`);
      // The page itself needs no token; the API does. (The renderer may not be built in unit runs.)
      expect([200, 503]).toContain(page.status);
    } finally {
      host.child.kill('SIGKILL');
    }
  });

  it('serves the page with the strict Content-Security-Policy', async () => {
    const dbPath = join(tempDir(), 'c.db');
    seed(dbPath);
    const host = await startHostProcess(dbPath);
    try {
      const page = await fetch(`${host.baseUrl}/`);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = page.headers.get('content-security-policy');
      expect(csp).toBe(CONTENT_SECURITY_POLICY);
      expect(csp).not.toContain("'unsafe-eval'");
      const scriptSrc = csp!.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src '));
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(scriptSrc).toBe("script-src 'self'");
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      host.child.kill('SIGKILL');
    }
  });

  it('keeps a label acknowledged just before the host is killed', async () => {
    const dbPath = join(tempDir(), 'k.db');
    seed(dbPath);
    const host = await startHostProcess(dbPath);
    const item = (await call(host, 'nextItem', { project: 'kill-test', annotator: 'ann' })).body.result;
    const saved = await call(host, 'saveLabel', { project: 'kill-test', annotator: 'ann', itemId: item.id, choice: 'B', strength: 3, shownOrder: item.shownOrder });
    expect(saved.status).toBe(200);
    host.child.kill('SIGKILL');
    await new Promise((r) => host.child.once('exit', r));
    const db = openDb(dbPath);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const row = db.prepare('SELECT id, choice, strength FROM label WHERE id = ?').get(saved.body.result.id);
      expect(row).toMatchObject({ choice: 'B', strength: 3 });
    } finally {
      db.close();
    }
  });
});
