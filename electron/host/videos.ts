// GET /videos/<ticket>: a stored video for the page's <video> element, with HTTP Range (206). No token
// header (an element cannot send one): the ticket the page got from `videoAddress` is the capability
// (core/service/videos.ts). The bytes are streamed from the store, only the range asked for.
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { ArbiterService } from '../core/service';
import { serveVideo, VIDEO_PREFIX } from '../core/service/videos';

export { VIDEO_PREFIX };

export function serveVideoRoute(req: IncomingMessage, res: ServerResponse, service: ArbiterService, url: URL, fail: (status: number, message: string) => void): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return fail(404, `No operation ${req.method} ${url.pathname}.`);
  const answer = serveVideo(service.db, service.imageStore, url.pathname.slice(VIDEO_PREFIX.length), req.headers.range);
  if ('message' in answer) {
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    return fail(answer.status, answer.message);
  }
  res.writeHead(answer.status, answer.headers);
  if (req.method === 'HEAD' || answer.end < answer.start) {
    res.end();
    return;
  }
  // pipeline closes the file when the element stops reading early (it often does, to seek).
  pipeline(createReadStream(answer.file, { start: answer.start, end: answer.end }), res, () => undefined);
}
