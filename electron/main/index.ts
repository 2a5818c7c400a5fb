// The Electron shell: one window showing app://arbiter/ (the renderer build, electron/main/protocol.ts),
// the API bound to IPC for that page only (ipc.ts), every permission refused but clipboard writes, no
// navigation, no new windows (security.ts). Everything else is core.
import { app, BrowserWindow, protocol, session } from 'electron';
import { dirname, join } from 'node:path';
import { openApp } from '../core/service/openApp';
import { appRoot, defaultDbPath } from '../core/base/paths';
import type { ArbiterService } from '../core/service';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { keychainHubKeeper } from './hubKeychain';
import { bindApi } from './ipc';
import { serveImage } from '../core/service/images';
import { serveVideo } from '../core/service/videos';
import { serveApp } from './protocol';
import { APP_ENTRY, APP_SCHEME, applyPermissionPolicy, lockDownContents } from './security';

let service: ArbiterService | null = null;

// Before ready: app:// is a standard, secure origin of its own (so 'self' in the CSP means it alone).
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1440,
    height: 920,
    minWidth: 720,
    minHeight: 520,
    title: 'Arbiter',
    backgroundColor: '#111113',
    webPreferences: {
      preload: join(appRoot(), 'out', 'electron', 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  void window.loadURL(APP_ENTRY);
}

async function main(): Promise<void> {
  await app.whenReady();
  const rendererRoot = join(appRoot(), 'out', 'renderer');
  // The page's images are answered from the open database (a request before it opens gets a 503).
  protocol.handle(APP_SCHEME, (request) => {
    const open = service;
    return serveApp(rendererRoot, request, open ? (image) => serveImage(open.db, open.imageStore, image) : null, open ? (ticket, range) => serveVideo(open.db, open.imageStore, ticket, range) : null);
  });
  applyPermissionPolicy(session.defaultSession);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  // better-sqlite3 must be built for Electron's ABI; scripts/start.mjs prepares that build and names it here.
  service = await openApp(defaultDbPath(), 'ipc', { nativeBinding: process.env.ARBITER_SQLITE_BINDING || undefined });
  // Hub passwords live in the OS keychain (safeStorage), never in plain text; connected projects reconnect.
  const keeper = keychainHubKeeper(join(dirname(defaultDbPath()), 'hub-keychain.json'));
  service.team.keepPasswordsWith(keeper);
  service.team.resume(keeper.connected());
  bindApi(service);
  createWindow();
  app.on('activate', () => BrowserWindow.getAllWindows().length === 0 && createWindow());
}

app.on('window-all-closed', () => {
  service?.stopBackgroundWork();
  service?.db.close();
  app.quit();
});
// Model text is untrusted: no contents the app ever creates may navigate, open windows or attach webviews.
app.on('web-contents-created', (_event, contents) => lockDownContents(contents));
main().catch((error: unknown) => {
  console.error('Arbiter could not start:', error);
  app.exit(1);
});
