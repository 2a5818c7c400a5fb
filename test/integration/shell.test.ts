// The desktop shell's security (Electron's checklist), run in plain Node with `electron` replaced by a
// typed stand-in (test/helpers/fakeElectron.ts): the real electron/main/index.ts is loaded against it and
// driven as Electron would drive it. What needs the Electron binary itself (fuses in a packaged binary,
// Chromium honouring the handlers) cannot run here; the config that sets it up is checked instead.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { resolveRendererFile, serveRenderer } from '../../electron/main/protocol';
import { isPermissionAllowed, isTrustedSender } from '../../electron/main/security';
import { electronStandIn as electron, FakeWebContents, ipcEvent } from '../helpers/fakeElectron';
import { ROOT } from '../helpers/host';

vi.mock('electron', async () => (await import('../helpers/fakeElectron')).electronStandIn.module);

const APP_PAGE = { url: 'app://arbiter/index.html', parent: null };
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'arbiter-shell-'));
  process.env.ARBITER_DB = join(home, 'arbiter.db');
  process.env.ARBITER_NO_DEMO = '1';
  await import('../../electron/main/index');
  electron.ready();
  await vi.waitFor(() => expect(electron.windows).toHaveLength(1), { timeout: 20_000 });
});

afterAll(() => {
  // As when the last window closes: the shell closes the database.
  for (const listener of electron.appListeners.get('window-all-closed') ?? []) (listener as () => void)();
  rmSync(home, { recursive: true, force: true });
});

type Answer = { ok: boolean; result?: unknown; error?: { code: string; message: string } };
const call = (name: string, frame: { url: string; parent: unknown } | null, input: unknown) =>
  electron.handlers.get(`arbiter:${name}`)!(ipcEvent(frame as never), input) as Promise<Answer>;

describe('the window', () => {
  it('loads the renderer from app://arbiter/, a privileged scheme of its own, not file://', () => {
    expect(electron.windows[0]!.loadedUrl).toBe('app://arbiter/index.html');
    expect(electron.schemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    expect(electron.protocolHandlers.has('app')).toBe(true);
    const prefs = electron.windows[0]!.options.webPreferences;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
  });

  it('refuses navigation, redirects, new windows and webviews in every contents', () => {
    const contents = electron.windows[0]!.webContents;
    expect(contents.emitPreventable('will-navigate', 'https://example.com/')).toBe(true);
    expect(contents.emitPreventable('will-navigate', 'app://arbiter/index.html')).toBe(true);
    expect(contents.emitPreventable('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(contents.emitPreventable('will-attach-webview')).toBe(true);
    expect(contents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
  });
});

describe('permissions', () => {
  it('installs a request handler and a check handler that refuse everything but clipboard writes from the app', async () => {
    const { requestHandler, checkHandler } = electron.session;
    expect(requestHandler).toBeTypeOf('function');
    expect(checkHandler).toBeTypeOf('function');
    const contents = new FakeWebContents() as never;
    const ask = (permission: string, requestingUrl: string) =>
      new Promise<boolean>((resolve) => requestHandler!(contents, permission, resolve, { requestingUrl, isMainFrame: true }));
    for (const permission of ['media', 'geolocation', 'notifications', 'midi', 'openExternal', 'fullscreen', 'pointerLock', 'hid', 'serial', 'usb'])
      expect(await ask(permission, 'app://arbiter/index.html'), permission).toBe(false);
    expect(await ask('clipboard-sanitized-write', 'app://arbiter/index.html')).toBe(true);
    expect(await ask('clipboard-sanitized-write', 'file:///tmp/x.html')).toBe(false);
    expect(await ask('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    expect(checkHandler!(contents, 'media', 'app://arbiter', undefined)).toBe(false);
    expect(checkHandler!(contents, 'clipboard-read', 'app://arbiter', undefined)).toBe(false);
    expect(checkHandler!(null, 'clipboard-sanitized-write', 'app://arbiter', undefined)).toBe(true);
    expect(checkHandler!(null, 'clipboard-sanitized-write', 'app://evil', undefined)).toBe(false);
  });

  it('the policy itself is a pure function', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'app://arbiter/')).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'app://user:pw@arbiter/')).toBe(false);
    expect(isPermissionAllowed('camera', 'app://arbiter/')).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', undefined)).toBe(false);
  });
});

describe('IPC', () => {
  it("answers the app's own top frame", async () => {
    const answer = await call('listProjects', APP_PAGE, {});
    expect(answer).toMatchObject({ ok: true, result: [] });
  });

  it('refuses a call from any other frame, and the call does nothing', async () => {
    const strangers = [
      { url: 'file:///tmp/evil.html', parent: null },
      { url: 'https://example.com/', parent: null },
      { url: 'app://evil/index.html', parent: null },
      { url: 'app://arbiter/index.html', parent: APP_PAGE },
      null,
    ];
    for (const frame of strangers) {
      const answer = await call('createProject', frame, { name: `from-${frame?.url ?? 'gone'}` });
      expect(answer.ok, frame?.url).toBe(false);
      expect(answer.error?.code).toBe('unauthorized');
      expect(answer.error?.message).toMatch(/refused/);
    }
    const projects = (await call('listProjects', APP_PAGE, {})).result as unknown[];
    expect(projects).toEqual([]);
  });

  it('the sender check is a pure predicate', () => {
    expect(isTrustedSender(APP_PAGE)).toBe(true);
    expect(isTrustedSender({ url: 'app://arbiter/', parent: null })).toBe(true);
    expect(isTrustedSender({ url: 'app://arbiter.evil/', parent: null })).toBe(false);
    expect(isTrustedSender({ url: 'not a url', parent: null })).toBe(false);
    expect(isTrustedSender(undefined)).toBe(false);
  });
});

describe('app:// protocol', () => {
  let base: string;
  let root: string;
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'arbiter-protocol-'));
    root = join(base, 'renderer');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Arbiter</title>');
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(root, 'assets', 'font.woff2'), 'x');
    writeFileSync(join(base, 'secret.txt'), 'outside');
    mkdirSync(join(base, 'renderer-evil'));
    writeFileSync(join(base, 'renderer-evil', 'x.js'), 'outside');
    symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'));
    symlinkSync(base, join(root, 'up'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const get = (url: string, method = 'GET') => serveRenderer(root, { url, method });

  it('serves the page and its assets with the right type and the one CSP', async () => {
    for (const [url, type] of [
      ['app://arbiter/', 'text/html; charset=utf-8'],
      ['app://arbiter/index.html', 'text/html; charset=utf-8'],
      ['app://arbiter/assets/app.js', 'text/javascript; charset=utf-8'],
      ['app://arbiter/assets/font.woff2', 'font/woff2'],
      ['app://arbiter/assets/app.js?v=1#x', 'text/javascript; charset=utf-8'],
    ] as const) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe(type);
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(await (await get('app://arbiter/')).text()).toContain('<title>Arbiter</title>');
  });

  it('never serves a file outside the renderer folder', async () => {
    const cases: [string, number][] = [
      ['app://arbiter/../secret.txt', 404], // the URL parser folds the .. away: /secret.txt is not in the folder
      ['app://arbiter/%2e%2e/secret.txt', 404], // %2e%2e is a dot segment to the URL parser too: folded the same way
      ['app://arbiter/assets/%2E%2E%2F%2E%2E%2Fsecret.txt', 403],
      ['app://arbiter/..%2fsecret.txt', 403],
      ['app://arbiter/..%5csecret.txt', 400],
      ['app://arbiter/%2F..%2F..%2Fsecret.txt', 403],
      [`app://arbiter/${encodeURIComponent(join(base, 'secret.txt'))}`, 404], // an absolute path is a path under the folder
      ['app://arbiter/C:%5Cwindows%5Cwin.ini', 400],
      ['app://arbiter/C:/windows/win.ini', 403],
      ['app://arbiter/assets/link.txt', 403], // a symlink out of the folder
      ['app://arbiter/up/secret.txt', 403], // a linked folder out of it
      ['app://arbiter/up/renderer-evil/x.js', 403],
      ['app://arbiter/%E0%A4%A', 400], // a malformed % escape
      ['app://arbiter/index.html%00.js', 400],
      ['app://arbiter/assets', 404], // a folder
      ['app://arbiter/missing.js', 404],
      ['app://evil/index.html', 403],
      ['file:///etc/passwd', 403],
      ['app://arbiter:1/index.html', 403],
    ];
    for (const [url, status] of cases) {
      const response = await get(url);
      expect(response.status, url).toBe(status);
      expect(await response.text(), url).not.toContain('outside');
    }
  });

  it('answers only GET and HEAD', async () => {
    expect((await get('app://arbiter/', 'POST')).status).toBe(405);
    const head = await get('app://arbiter/', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('resolves to the real file path', async () => {
    const found = await resolveRendererFile(root, 'app://arbiter/assets/app.js');
    expect(found).toMatchObject({ status: 200, type: 'text/javascript; charset=utf-8' });
  });

  it("the window's registered handler is this one (a traversal through it is refused)", async () => {
    const handler = electron.protocolHandlers.get('app')!;
    const response = await handler(new Request('app://arbiter/..%2fpackage.json'));
    expect(response.status).toBe(403);
  });
});

describe('electron-builder.yml fuses', () => {
  /** The `electronFuses:` mapping of electron-builder.yml (flat `key: true|false` lines). */
  function fuses(): Record<string, boolean> {
    const yml = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8').split('\n');
    const start = yml.findIndex((line) => /^electronFuses:\s*$/.test(line));
    const out: Record<string, boolean> = {};
    if (start < 0) return out;
    for (const line of yml.slice(start + 1)) {
      const match = /^\s+(\w+):\s*(true|false)\s*(#.*)?$/.exec(line);
      if (!match) break;
      out[match[1]!] = match[2] === 'true';
    }
    return out;
  }

  it('turns off RunAsNode, NODE_OPTIONS, inspect arguments and file:// privileges; on ASAR integrity, asar-only loading, cookie encryption', () => {
    expect(fuses()).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      enableCookieEncryption: true,
    });
  });
});
