// Picks the API transport at start-up: Electron's preload bridge when present, otherwise HTTP to the
// browser host with the per-launch token it printed in the URL fragment (#token=…).
import { ApiError, createClient, httpInvoke, unwrapEnvelope } from '../../shared/client';
import type { ArbiterApi } from '../../shared/api';
import { imagePath } from '../../shared/images';
import { BlobCache } from './blobCache';

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

/**
 * Hands an export file to the browser as a download: asks the host for a one-time ticket, then follows
 * a hidden <a download> to /download/<ticket>, so the token never appears in a URL. In Electron the
 * main process has already offered a save dialog; there is nothing to do.
 */
export async function downloadExport(project: string, file: string): Promise<void> {
  if (transport.kind !== 'http') return;
  const { ticket } = await api.downloadTicket({ project, file });
  const link = document.createElement('a');
  link.href = `${transport.origin}/download/${encodeURIComponent(ticket)}`;
  link.download = file;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
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
  if (typeof fetch === 'undefined' || typeof AbortController === 'undefined') return () => undefined;
  const controller = new AbortController();
  void followEventStream(transport, controller.signal);
  return () => controller.abort();
}

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 15_000;

/**
 * Reads the host's server-sent events with fetch rather than EventSource, which cannot send the token
 * header (and a token in the URL would end up in history and logs). Reconnects with backoff when the
 * stream drops, until the signal aborts.
 */
async function followEventStream(http: Extract<Transport, { kind: 'http' }>, signal: AbortSignal): Promise<void> {
  let delay = RETRY_FIRST_MS;
  while (!signal.aborted) {
    try {
      const response = await fetch(`${http.origin}/api/events`, { headers: { 'x-arbiter-token': http.token }, signal, cache: 'no-store' });
      if (response.ok && response.body) {
        delay = RETRY_FIRST_MS;
        await readEvents(response.body, signal);
      }
    } catch {
      /* the host is down or restarting: try again below */
    }
    if (signal.aborted) return;
    await new Promise((resume) => setTimeout(resume, delay));
    delay = Math.min(delay * 2, RETRY_MAX_MS);
  }
}

/** Dispatches each `data:` event of a text/event-stream body until it ends. */
async function readEvents(body: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    // Events end with a blank line; a partial one waits for the next chunk.
    const events = buffered.split(/\r?\n\r?\n/);
    buffered = events.pop() ?? '';
    for (const event of events) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (!data) continue;
      try {
        dispatch(JSON.parse(data) as HostEvent);
      } catch {
        /* not an event we know */
      }
    }
  }
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

// Images. The browser host answers /images/<project>/<sha256> only with the token header, which an <img>
// cannot send: the page fetches the bytes and shows them from a blob: URL, kept in a small cache (the
// least recently used are revoked; one on screen is held). Electron's app:// protocol answers the same
// path itself (same origin, no token): the path is the source.

const imageCache = new BlobCache<string>({ maxEntries: 48, maxBytes: 192 * 1024 * 1024, dispose: (url) => URL.revokeObjectURL(url) });
const imageLoads = new Map<string, Promise<string>>();

function imageKey(project: string, sha256: string): string {
  return `${project}\n${sha256}`;
}

/** The host's sentence from a refused image answer (422 damaged, 404 not in the project…). */
async function imageRefusal(response: Response): Promise<Error> {
  let message = '';
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    if (typeof body?.error?.message === 'string') message = body.error.message;
  } catch {
    /* not JSON: say the status below */
  }
  return new Error(message || `The image could not be loaded (the host answered HTTP ${response.status}).`);
}

async function fetchImageBlob(http: Extract<Transport, { kind: 'http' }>, project: string, sha256: string): Promise<Blob> {
  const response = await fetch(`${http.origin}${imagePath(project, sha256)}`, { headers: { 'x-arbiter-token': http.token } });
  if (!response.ok) throw await imageRefusal(response);
  return response.blob();
}

/**
 * A source for an <img> showing a stored image: a blob: URL (browser host) or the same-origin path
 * (Electron). Rejects with the host's sentence when the image cannot be served (damaged, not in the
 * project). Hold it with holdImage while it is on screen, so the cache does not revoke it.
 */
export function imageSrc(project: string, sha256: string): Promise<string> {
  if (transport.kind !== 'http') return Promise.resolve(imagePath(project, sha256));
  const key = imageKey(project, sha256);
  const cached = imageCache.get(key);
  if (cached !== undefined) return Promise.resolve(cached);
  let loading = imageLoads.get(key);
  if (!loading) {
    loading = fetchImageBlob(transport, project, sha256).then((blob) => {
      const url = URL.createObjectURL(blob);
      imageCache.set(key, url, blob.size);
      return url;
    });
    imageLoads.set(key, loading);
    const settle = () => void imageLoads.delete(key);
    loading.then(settle, settle);
  }
  return loading;
}

/** Keeps an image's source alive (not revoked) until the returned release is called. */
export function holdImage(project: string, sha256: string): () => void {
  if (transport.kind !== 'http') return () => undefined;
  return imageCache.pin(imageKey(project, sha256));
}

/**
 * Why an image that was fetched did not paint: the host's sentence where it refuses the image (Electron
 * loads the path directly, so the <img> only sees an error), else that the page could not decode it.
 */
export async function imageFailure(project: string, sha256: string): Promise<string> {
  const undecodable = 'The page could not decode this image: its bytes are damaged or in a format the page cannot show.';
  if (transport.kind === 'http') return undecodable;
  try {
    const response = await fetch(imagePath(project, sha256));
    if (!response.ok) return (await imageRefusal(response)).message;
  } catch {
    /* the protocol did not answer: say what the page saw */
  }
  return undecodable;
}

// Images kept alive after a prefetch, so the next item paints from memory: the next item's (four
// generated images to rank, two to compare) and a few more; Chromium bounds the decoded pixels itself.
const warm: HTMLImageElement[] = [];
const WARM_KEPT = 8;

/** Loads (and decodes) images ahead, for the next item; failures are left for when they are shown. */
export function prefetchImages(project: string, shas: readonly string[]): void {
  if (typeof Image === 'undefined') return;
  for (const sha256 of [...new Set(shas)].slice(0, WARM_KEPT)) {
    void imageSrc(project, sha256)
      .then((src) => {
        const img = new Image();
        img.decoding = 'async';
        img.src = src;
        warm.push(img);
        if (warm.length > WARM_KEPT) warm.shift();
        return img.decode();
      })
      .catch(() => undefined);
  }
}
