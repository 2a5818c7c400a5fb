// The Electron shell: one window, the API bound to IPC, strict web preferences. Everything else is core.
import { app, BrowserWindow, ipcMain, session } from 'electron';
import { join } from 'node:path';
import { API_NAMES } from '../../shared/api';
import { openApp } from '../core/app';
import { toErrorShape } from '../core/errors';
import { appRoot, defaultDbPath } from '../core/paths';
import type { ArbiterService } from '../core/service';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { exportWithSaveDialog } from './exportDialog';

let service: ArbiterService | null = null;

function bindApi(svc: ArbiterService): void {
  for (const name of API_NAMES) {
    ipcMain.handle(`arbiter:${name}`, async (event, input: unknown) => {
      try {
        // An export ends in a save dialog here, so that no path ever passes through the page.
        const result = name === 'exportProject' ? await exportWithSaveDialog(svc, event, input) : await svc.dispatch(name, input);
        return { ok: true, result };
      } catch (error) {
        return { ok: false, error: toErrorShape(error) };
      }
    });
  }
  svc.events.on('event', (event: unknown) => {
    for (const window of BrowserWindow.getAllWindows()) window.webContents.send('arbiter:event', event);
  });
}

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
  // Model text is untrusted: no window it renders may navigate the app or open new windows.
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  void window.loadFile(join(appRoot(), 'out', 'renderer', 'index.html'));
}

async function main(): Promise<void> {
  await app.whenReady();
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  // better-sqlite3 must be built for Electron's ABI; scripts/start.mjs prepares that build and names it here.
  service = await openApp(defaultDbPath(), 'ipc', { nativeBinding: process.env.ARBITER_SQLITE_BINDING || undefined });
  bindApi(service);
  createWindow();
  app.on('activate', () => BrowserWindow.getAllWindows().length === 0 && createWindow());
}

app.on('window-all-closed', () => {
  service?.db.close();
  app.quit();
});
app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});
main().catch((error: unknown) => {
  console.error('Arbiter could not start:', error);
  app.exit(1);
});
