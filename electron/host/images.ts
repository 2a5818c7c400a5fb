// GET /images/<project>/<sha256>: a stored image for the page, with the token header (as /api; the page
// fetches it and shows a blob: URL). What is sent and why: core/service/images.ts and core/images/display.ts.
// The file is streamed; decoding and display copies run off the event loop, so other requests go on.
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { ArbiterService } from '../core/service';
import { IMAGE_PREFIX, parseImagePath, serveImage } from '../core/service/images';

export { IMAGE_PREFIX };

export async function serveImageRoute(
  res: ServerResponse,
  service: ArbiterService,
  url: URL,
  method: string | undefined,
  fail: (status: number, message: string) => void,
): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') return fail(404, `No operation ${method} ${url.pathname}.`);
  const request = parseImagePath(url.pathname, url.search);
  if (!request) return fail(404, 'That is not an image address: it is /images/<project>/<sha256>.');
  const answer = await serveImage(service.db, service.imageStore, request);
  if (answer.status !== 200) return fail(answer.status, answer.message);
  res.writeHead(200, answer.headers);
  if (method === 'HEAD') {
    res.end();
    return;
  }
  // pipeline closes the file when the page stops reading early.
  pipeline(createReadStream(answer.file), res, () => undefined);
}
