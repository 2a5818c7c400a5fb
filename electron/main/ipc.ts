// The API bound to IPC: one `arbiter:<name>` handler per operation. Each call is checked first: only the
// app's own page (app://arbiter, top frame) may make it; anything else gets `unauthorized` and the
// service never sees the call.
import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { API_NAMES, type ApiErrorShape } from '../../shared/api';
import { toErrorShape } from '../core/base/errors';
import type { ArbiterService } from '../core/service';
import { exportWithSaveDialog } from './exportDialog';
import { isTrustedSender } from './security';

export type IpcAnswer = { ok: true; result: unknown } | { ok: false; error: ApiErrorShape };

const REFUSED: IpcAnswer = {
  ok: false,
  error: { code: 'unauthorized', message: "Only Arbiter's own window may use its API; this call came from another page and was refused." },
};

export function bindApi(svc: ArbiterService): void {
  for (const name of API_NAMES) {
    ipcMain.handle(`arbiter:${name}`, async (event: IpcMainInvokeEvent, input: unknown): Promise<IpcAnswer> => {
      if (!isTrustedSender(event.senderFrame)) return REFUSED;
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
    for (const window of BrowserWindow.getAllWindows()) {
      // Events go to the app's own page only, never to a page that got into a window some other way.
      if (isTrustedSender(window.webContents.mainFrame)) window.webContents.send('arbiter:event', event);
    }
  });
}
