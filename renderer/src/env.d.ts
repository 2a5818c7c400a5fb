// What the Electron preload exposes on window (contextBridge). The browser host has no such object.
import type { ApiErrorShape, ApiName } from '../../shared/api';

declare global {
  interface ArbiterBridge {
    /** Calls one API operation; resolves with an envelope so errors keep their code. */
    invoke(name: ApiName, input: unknown): Promise<{ ok: true; result: unknown } | { ok: false; error: ApiErrorShape }>;
    /** Job progress events; returns an unsubscribe function. */
    onEvent?(listener: (event: unknown) => void): () => void;
  }
  interface Window {
    arbiter?: ArbiterBridge;
  }
}

export {};
