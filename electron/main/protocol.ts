// app://arbiter/ — how the desktop window gets the renderer. Under file:// the CSP's 'self' would cover
// every file on the disk; here it covers the renderer build folder only. Pure Node (tested without the
// Electron binary): resolveRendererFile confines a URL to the folder, serveRenderer answers a request,
// serveApp answers the image route (/images/<project>/<sha256>, core/service/images.ts) and the video route
// (/videos/<ticket>, with HTTP Range: core/service/videos.ts) as well.
import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { IMAGE_PREFIX, parseImagePath, type ImageAnswer, type ImageRequest } from '../core/service/images';
import { VIDEO_PREFIX, type VideoAnswer } from '../core/service/videos';
import { APP_HOST, APP_SCHEME } from './security';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export function mimeType(file: string): string {
  return MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export type Resolved = { status: 200; file: string; type: string } | { status: 400 | 403 | 404; reason: string };

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The file under `root` that an app:// URL names, or why there is none. Refused: another scheme or host,
 * a malformed % escape, NUL, backslashes, `.` or `..` segments (encoded or not), anything that resolves
 * or links outside the folder (symlinks are followed and the real path must stay inside), folders.
 * `/` is index.html (the page routes by #hash, so there is no fallback for unknown paths).
 */
export async function resolveRendererFile(root: string, url: string): Promise<Resolved> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { status: 400, reason: 'not a URL' };
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return { status: 403, reason: 'not the app origin' };
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return { status: 400, reason: 'malformed % escape' };
  }
  if (path.includes('\0') || path.includes('\\')) return { status: 400, reason: 'NUL or backslash in the path' };
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..')) return { status: 403, reason: 'dot segment' };
  if (segments.length === 0) segments.push('index.html');
  // A drive letter or a UNC name would make the join absolute on Windows.
  if (segments.some((s) => /^[a-zA-Z]:/.test(s))) return { status: 403, reason: 'drive letter' };
  const base = resolve(root);
  const candidate = resolve(base, ...segments);
  if (!within(base, candidate)) return { status: 403, reason: 'outside the renderer folder' };
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([realpath(candidate), realpath(base)]);
  } catch {
    return { status: 404, reason: 'no such file' };
  }
  if (!within(realRoot, real)) return { status: 403, reason: 'links outside the renderer folder' };
  const info = await stat(real).catch(() => null);
  if (!info?.isFile()) return { status: 404, reason: 'not a file' };
  return { status: 200, file: real, type: mimeType(real) };
}

/** Headers every app:// answer carries: the one CSP (shared/csp.ts), no sniffing, no caching. */
export function appHeaders(type: string): Record<string, string> {
  return {
    'content-type': type,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
}

/** The answer to one app:// request (Electron's protocol.handle passes a Fetch API Request). */
export async function serveRenderer(root: string, request: { url: string; method: string }): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(null, { status: 405, headers: { ...appHeaders('text/plain; charset=utf-8'), allow: 'GET, HEAD' } });
  }
  const found = await resolveRendererFile(root, request.url);
  if (found.status !== 200) return new Response(null, { status: found.status, headers: appHeaders('text/plain; charset=utf-8') });
  const body = request.method === 'HEAD' ? null : await readFile(found.file);
  return new Response(body, { status: 200, headers: appHeaders(found.type) });
}


/** Answers an image request of the page (core/service/images.ts serveImage, bound to the open database). */
export type ImageSource = (request: ImageRequest) => Promise<ImageAnswer>;

function imageRefusal(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ ok: false, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' },
  });
}

async function serveImageRequest(url: URL, method: string, images: ImageSource | null): Promise<Response> {
  if (method !== 'GET' && method !== 'HEAD') return imageRefusal(405, 'not_found', `No operation ${method} ${url.pathname}.`);
  const request = parseImagePath(url.pathname, url.search);
  if (!request) return imageRefusal(404, 'not_found', 'That is not an image address: it is /images/<project>/<sha256>.');
  if (!images) return imageRefusal(503, 'internal', 'The database is still opening; try again in a moment.');
  const answer = await images(request);
  if (answer.status !== 200) return imageRefusal(answer.status, answer.status === 422 ? 'invalid_file' : 'not_found', answer.message);
  const body = method === 'HEAD' ? null : await readFile(answer.file);
  return new Response(body, { status: 200, headers: answer.headers });
}

/** Answers a video request of the page: its ticket and Range header (core/service/videos.ts serveVideo, bound to the open database). */
export type VideoSource = (ticket: string, range: string | undefined) => VideoAnswer;

function serveVideoRequest(url: URL, request: { method: string; headers?: Headers }, videos: VideoSource | null): Response {
  if (request.method !== 'GET' && request.method !== 'HEAD') return imageRefusal(405, 'not_found', `No operation ${request.method} ${url.pathname}.`);
  if (!videos) return imageRefusal(503, 'internal', 'The database is still opening; try again in a moment.');
  const answer = videos(url.pathname.slice(VIDEO_PREFIX.length), request.headers?.get('range') ?? undefined);
  if ('message' in answer) {
    const refused = imageRefusal(answer.status, 'not_found', answer.message);
    for (const [name, value] of Object.entries(answer.headers)) if (name !== 'content-type') refused.headers.set(name, value);
    return refused;
  }
  const body = request.method === 'HEAD' || answer.end < answer.start ? null : (Readable.toWeb(createReadStream(answer.file, { start: answer.start, end: answer.end })) as ReadableStream);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/**
 * The answer to one app:// request: an image or a video of a project (same origin, so no token: only the
 * app's own window loads app:// at all), else a file of the renderer build.
 */
export async function serveApp(
  root: string,
  request: { url: string; method: string; headers?: Headers },
  images: ImageSource | null,
  videos: VideoSource | null = null,
): Promise<Response> {
  let url: URL | null = null;
  try {
    url = new URL(request.url);
  } catch {
    /* serveRenderer says so */
  }
  if (url && url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && url.pathname.startsWith(IMAGE_PREFIX))
    return serveImageRequest(url, request.method, images);
  if (url && url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && url.pathname.startsWith(VIDEO_PREFIX)) return serveVideoRequest(url, request, videos);
  return serveRenderer(root, request);
}
