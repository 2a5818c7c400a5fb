// The preload bridge: exposes window.arbiter.invoke(name, input) and event subscription, nothing more.
import { contextBridge, ipcRenderer } from 'electron';
import { API_NAMES, type ApiName } from '../../shared/api';

contextBridge.exposeInMainWorld('arbiter', {
  invoke: (name: ApiName, input: unknown) => {
    if (!API_NAMES.includes(name)) return Promise.resolve({ ok: false, error: { code: 'not_found', message: `Unknown operation ${String(name)}` } });
    return ipcRenderer.invoke(`arbiter:${name}`, input);
  },
  onEvent: (listener: (event: unknown) => void) => {
    const handler = (_: unknown, event: unknown) => listener(event);
    ipcRenderer.on('arbiter:event', handler);
    return () => ipcRenderer.removeListener('arbiter:event', handler);
  },
});
