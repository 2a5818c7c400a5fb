// Where the Electron package is not installed (offline build machines), the shell is type-checked
// against this declaration of the few Electron APIs it uses. With Electron installed, the real types
// are used instead (tsconfig.shell.json); keep this file a strict subset of them.
declare module 'electron' {
  interface WebFrameMain {
    readonly url: string;
    readonly parent: WebFrameMain | null;
  }
  interface IpcMainInvokeEvent {
    sender: WebContents;
    /** null when the frame has navigated away or been destroyed. */
    readonly senderFrame: WebFrameMain | null;
  }
  interface WebContents {
    readonly mainFrame: WebFrameMain;
    send(channel: string, ...args: unknown[]): void;
    setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }): void;
    on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): this;
    on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): this;
  }
  interface BrowserWindowConstructorOptions {
    width?: number;
    height?: number;
    minWidth?: number;
    minHeight?: number;
    title?: string;
    backgroundColor?: string;
    webPreferences?: { preload?: string; contextIsolation?: boolean; sandbox?: boolean; nodeIntegration?: boolean; webSecurity?: boolean };
  }
  export class BrowserWindow {
    constructor(options?: BrowserWindowConstructorOptions);
    static getAllWindows(): BrowserWindow[];
    static fromWebContents(webContents: WebContents): BrowserWindow | null;
    webContents: WebContents;
    loadURL(url: string): Promise<void>;
  }
  export const app: {
    whenReady(): Promise<void>;
    on(event: 'activate' | 'window-all-closed', listener: () => void): void;
    on(event: 'web-contents-created', listener: (event: unknown, contents: WebContents) => void): void;
    quit(): void;
    exit(code?: number): void;
    getPath(name: 'downloads' | 'documents' | 'home'): string;
  };
  interface FileFilter {
    name: string;
    extensions: string[];
  }
  interface SaveDialogOptions {
    title?: string;
    defaultPath?: string;
    filters?: FileFilter[];
  }
  interface SaveDialogReturnValue {
    canceled: boolean;
    filePath: string;
  }
  export const dialog: {
    showSaveDialog(window: BrowserWindow, options: SaveDialogOptions): Promise<SaveDialogReturnValue>;
    showSaveDialog(options: SaveDialogOptions): Promise<SaveDialogReturnValue>;
  };
  /** Encrypts with the OS keychain (Keychain, DPAPI, libsecret / kwallet). */
  export const safeStorage: {
    isEncryptionAvailable(): boolean;
    encryptString(plainText: string): Buffer;
    decryptString(encrypted: Buffer): string;
    /** Linux only: 'basic_text' means no keychain, and the "encryption" a fixed key. */
    getSelectedStorageBackend(): string;
  };
  export const ipcMain: {
    handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown> | unknown): void;
  };
  export const ipcRenderer: {
    invoke(channel: string, ...args: unknown[]): Promise<unknown>;
    on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void;
    removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void;
  };
  export const contextBridge: { exposeInMainWorld(key: string, api: unknown): void };
  interface HeadersReceivedDetails {
    responseHeaders?: Record<string, string[]>;
  }
  interface PermissionRequest {
    requestingUrl: string;
    isMainFrame: boolean;
  }
  interface Session {
    webRequest: {
      onHeadersReceived(listener: (details: HeadersReceivedDetails, callback: (response: { responseHeaders?: Record<string, string[]> }) => void) => void): void;
    };
    setPermissionRequestHandler(
      handler: ((webContents: WebContents, permission: string, callback: (permissionGranted: boolean) => void, details: PermissionRequest) => void) | null,
    ): void;
    setPermissionCheckHandler(handler: ((webContents: WebContents | null, permission: string, requestingOrigin: string, details: unknown) => boolean) | null): void;
  }
  export const session: {
    defaultSession: Session;
  };
  interface Privileges {
    standard?: boolean;
    secure?: boolean;
    supportFetchAPI?: boolean;
    /** Media elements may read the scheme in ranges (videos). */
    stream?: boolean;
  }
  interface CustomScheme {
    scheme: string;
    privileges?: Privileges;
  }
  export const protocol: {
    registerSchemesAsPrivileged(customSchemes: CustomScheme[]): void;
    handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
  };
}
