// The shell's security policy as small pure functions (tested without the Electron binary): which frame
// may call the API, which permission a page may have, where a page may go. electron/main/index.ts wires
// them into Electron; nothing here imports it at run time.
import type { Session, WebContents } from 'electron';

/** The renderer is served from app://arbiter/ (electron/main/protocol.ts), never from file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'arbiter';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

/** Whether a URL (or an origin) is the app's own: scheme app:, host arbiter. */
export function isAppUrl(url: string | undefined | null): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && !parsed.username && !parsed.password;
  } catch {
    return false;
  }
}

/** What an IPC event says about the frame that sent it (Electron's WebFrameMain, or null when it is gone). */
export interface SenderFrame {
  url: string;
  parent: unknown;
}

/**
 * Only the app's own top-level page may call the API: a frame inside it (there should be none), a page
 * from anywhere else, or a frame that has navigated away or been destroyed is refused.
 */
export function isTrustedSender(frame: SenderFrame | null | undefined): boolean {
  return !!frame && (frame.parent === null || frame.parent === undefined) && isAppUrl(frame.url);
}

/**
 * The one permission the app uses: writing text to the clipboard (the guidelines editor's copy button),
 * and only from its own page. Everything else (camera, microphone, geolocation, notifications, MIDI,
 * USB, HID, serial, fullscreen, opening external links…) is refused. Electron grants every permission
 * unless a handler says otherwise.
 */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

export function isPermissionAllowed(permission: string, requestingUrl: string | undefined | null): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && isAppUrl(requestingUrl);
}

/** Installs the permission policy on a session: both the request handler and the synchronous check. */
export function applyPermissionPolicy(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionAllowed(permission, details?.requestingUrl));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isPermissionAllowed(permission, requestingOrigin));
}

/**
 * Model text is untrusted: no page may navigate the window elsewhere (a link, a form, a script), open a
 * new window, or attach a webview. In-page (#hash) moves are not navigations and go on as before.
 */
export function lockDownContents(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
