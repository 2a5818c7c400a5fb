// Picks the API transport at start-up: Electron's preload bridge when present, otherwise HTTP to the
// browser host with the per-launch token it printed in the URL fragment (#token=…).
import { ApiError, createClient, httpInvoke, unwrapEnvelope } from '../../shared/client';
import type { ArbiterApi } from '../../shared/api';

const TOKEN_KEY = 'arbiter.token';

function readToken(): string {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromHash = hash.get('token');
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    // Keep the token out of the address bar, history and screenshots.
    history.replaceState(null, '', location.pathname + location.search);
    return fromHash;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

export type Transport = { kind: 'ipc' } | { kind: 'http'; origin: string; token: string };

function pickTransport(): Transport {
  if (typeof window !== 'undefined' && window.arbiter) return { kind: 'ipc' };
  return { kind: 'http', origin: location.origin, token: readToken() };
}

export const transport: Transport = pickTransport();

export const api: ArbiterApi =
  transport.kind === 'ipc'
    ? createClient((name, input) => window.arbiter!.invoke(name, input).then(unwrapEnvelope))
    : createClient(httpInvoke(transport.origin, transport.token));

/** The URL the browser host serves an export file at (null in Electron, where the file is on disk). */
export function exportDownloadUrl(outPath: string): string | null {
  if (transport.kind !== 'http') return null;
  const base = outPath.split(/[\\/]/).pop() ?? outPath;
  return `${transport.origin}/api/exports/${encodeURIComponent(base)}?token=${encodeURIComponent(transport.token)}`;
}

/** A sentence for people from any error: never a stack trace. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return 'Could not reach the Arbiter host. Is it still running?';
  if (error instanceof Error && error.message) return error.message.split('\n')[0]!;
  return 'Something went wrong.';
}

/** Whether trying again may help: the host was unreachable or failed internally. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === 'internal';
  return true;
}

export { ApiError };

export type HostEvent = { type?: string; [key: string]: unknown };
type Listener = (event: HostEvent) => void;

const listeners = new Set<Listener>();
let closeSource: (() => void) | null = null;

function dispatch(event: HostEvent): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch {
      /* one screen's bad listener must not starve the others */
    }
  }
}

/** One connection to the host's event stream, shared by every subscriber, opened while anyone listens. */
function openSource(): () => void {
  if (transport.kind === 'ipc') return window.arbiter?.onEvent?.((e) => dispatch(e as HostEvent)) ?? (() => undefined);
  if (typeof EventSource === 'undefined') return () => undefined;
  const source = new EventSource(`${transport.origin}/api/events?token=${encodeURIComponent(transport.token)}`);
  source.onmessage = (message) => {
    try {
      dispatch(JSON.parse(message.data as string) as HostEvent);
    } catch {
      /* not an event we know */
    }
  };
  return () => source.close();
}

/** Progress events from the host (import lines read, job progress…); returns an unsubscribe function. */
export function subscribeEvents(listener: Listener): () => void {
  listeners.add(listener);
  if (!closeSource) closeSource = openSource();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && closeSource) {
      closeSource();
      closeSource = null;
    }
  };
}
