// The Electron package is not installed here: its APIs are typed by the shell's offline declaration, which
// is a script (an ambient `declare module`), so it can only be referenced, not imported.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../types/electron-offline.d.ts" />
// A stand-in for the few Electron APIs the shell uses, typed against types/electron-offline.d.ts, so the
// shell's handlers run in plain Node (the Electron binary cannot be downloaded here). Tests install it with
// `vi.mock('electron', () => fakeElectron())` and drive what Electron would: IPC calls from a frame,
// permission requests, navigations, app:// requests.
import type * as Electron from 'electron';

type Listener = (...args: never[]) => unknown;

export class FakeWebContents {
  readonly listeners = new Map<string, Listener[]>();
  openHandler: ((details: { url: string }) => { action: 'deny' | 'allow' }) | null = null;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  constructor(public mainFrame: Electron.WebFrameMain = { url: 'app://arbiter/index.html', parent: null }) {}
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }): void {
    this.openHandler = handler;
  }
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  /** Emits an event that can be prevented; says whether a listener prevented it. */
  emitPreventable(event: string, ...args: unknown[]): boolean {
    let prevented = false;
    const e = { preventDefault: () => (prevented = true) };
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(e, ...args);
    return prevented;
  }
}

export function fakeElectron() {
  const handlers = new Map<string, (event: Electron.IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
  const windows: FakeWindow[] = [];
  const appListeners = new Map<string, Listener[]>();
  const schemes: Electron.CustomScheme[] = [];
  const protocolHandlers = new Map<string, (request: Request) => Response | Promise<Response>>();
  let ready: () => void = () => undefined;
  const whenReady = new Promise<void>((resolve) => (ready = resolve));
  const session = {
    requestHandler: null as Parameters<Electron.Session['setPermissionRequestHandler']>[0],
    checkHandler: null as Parameters<Electron.Session['setPermissionCheckHandler']>[0],
    webRequest: { onHeadersReceived: () => undefined },
    setPermissionRequestHandler(handler: Parameters<Electron.Session['setPermissionRequestHandler']>[0]) {
      this.requestHandler = handler;
    },
    setPermissionCheckHandler(handler: Parameters<Electron.Session['setPermissionCheckHandler']>[0]) {
      this.checkHandler = handler;
    },
  };
  const ipcMain: typeof Electron.ipcMain = {
    handle: (channel, listener) => void handlers.set(channel, listener),
  };
  const protocol: typeof Electron.protocol = {
    registerSchemesAsPrivileged: (list) => void schemes.push(...list),
    handle: (scheme, handler) => void protocolHandlers.set(scheme, handler),
  };
  class FakeWindow {
    readonly webContents = new FakeWebContents();
    loadedUrl: string | null = null;
    constructor(readonly options: Electron.BrowserWindowConstructorOptions = {}) {
      windows.push(this);
      // As Electron does: every new contents is announced before anything loads in it.
      for (const listener of appListeners.get('web-contents-created') ?? []) (listener as (...a: unknown[]) => void)({}, this.webContents);
    }
    static getAllWindows = () => windows;
    static fromWebContents = () => null;
    loadURL(url: string): Promise<void> {
      this.loadedUrl = url;
      return Promise.resolve();
    }
  }
  const app = {
    whenReady: () => whenReady,
    on: (event: string, listener: Listener) => void appListeners.set(event, [...(appListeners.get(event) ?? []), listener]),
    quit: () => undefined,
    exit: (code?: number) => {
      throw new Error(`app.exit(${code})`);
    },
    getPath: () => '/nonexistent',
  };
  const dialog = { showSaveDialog: () => Promise.resolve({ canceled: true, filePath: '' }) };
  // A keychain stand-in: reversible, and never the plain text (each byte flipped, behind a marker).
  const safeStorage = {
    available: true,
    backend: 'gnome_libsecret',
    isEncryptionAvailable() {
      return this.available;
    },
    getSelectedStorageBackend() {
      return this.backend;
    },
    encryptString: (text: string) => Buffer.concat([Buffer.from('v10'), Buffer.from(text, 'utf8').map((b) => b ^ 0xa5)]),
    decryptString: (data: Buffer) => Buffer.from(data.subarray(3).map((b) => b ^ 0xa5)).toString('utf8'),
  };
  return {
    handlers,
    windows,
    appListeners,
    session,
    schemes,
    protocolHandlers,
    ready: () => ready(),
    safeStorage,
    module: { app, ipcMain, protocol, dialog, safeStorage, BrowserWindow: FakeWindow, session: { defaultSession: session } },
  };
}

/** An IPC event as Electron builds it for a call from `frame` (null: the frame is gone). */
export function ipcEvent(frame: Electron.WebFrameMain | null): Electron.IpcMainInvokeEvent {
  return { sender: new FakeWebContents() as unknown as Electron.WebContents, senderFrame: frame };
}

/** The one stand-in a test file shares with its `vi.mock('electron', …)` factory. */
export const electronStandIn = fakeElectron();
