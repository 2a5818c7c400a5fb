// The image route, one function for both transports: the browser host answers GET /images/<project>/<sha256>
// (with the token header, electron/host/images.ts) and Electron's app:// protocol answers the same path
// (electron/main/protocol.ts). Both ask `serveImage`, which checks that the project exists and holds the
// image (project_image, filled by the import), then says what to send (core/images/display.ts).
import { SHA256_HEX } from '../../../shared/images';
import { displayImage, originalImage } from '../images/display';
import type { Db } from '../store/db';
import { projectHoldsImage } from '../store/images';
import { findProject } from '../store/projects';

export const IMAGE_PREFIX = '/images/';

export interface ImageRequest {
  project: string;
  sha256: string;
  /** The bytes as stored, for a download (`?original=1`), rather than what a page shows. */
  original: boolean;
}

export type ImageAnswer =
  | { status: 200; file: string; type: string; size: number; headers: Record<string, string> }
  | { status: 404 | 422; message: string };

/**
 * The image request a path names (`/images/<project, %-encoded>/<sha256>`, shared/images.ts imagePath),
 * or null when the path is not one. `search` is the query string (`?original=1`).
 */
export function parseImagePath(pathname: string, search = ''): ImageRequest | null {
  if (!pathname.startsWith(IMAGE_PREFIX)) return null;
  const parts = pathname.slice(IMAGE_PREFIX.length).split('/');
  if (parts.length !== 2) return null;
  let project: string;
  try {
    project = decodeURIComponent(parts[0]!);
  } catch {
    return null;
  }
  if (project === '' || project.includes('\0')) return null;
  return { project, sha256: parts[1]!, original: new URLSearchParams(search).get('original') === '1' };
}

/**
 * Headers of an image answer: no sniffing, never a document (a sandbox with nothing allowed, should it
 * ever be opened as a page), cached for good (the address names the bytes).
 */
export function imageHeaders(type: string, size: number, download?: string): Record<string, string> {
  return {
    'content-type': type,
    'content-length': String(size),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, max-age=31536000, immutable',
    ...(download ? { 'content-disposition': `attachment; filename="${download}"` } : {}),
  };
}

/** What to answer a request for an image of a project: a file with its headers, or a status and a sentence. */
export async function serveImage(db: Db, store: string, request: ImageRequest): Promise<ImageAnswer> {
  const project = findProject(db, request.project);
  if (!project) return { status: 404, message: `No project named "${request.project}".` };
  if (!SHA256_HEX.test(request.sha256)) return { status: 404, message: 'That is not an image address: an image is named by its sha256 (64 lower-case hex digits).' };
  if (!projectHoldsImage(db, project.id, request.sha256)) return { status: 404, message: `Project "${request.project}" holds no image ${request.sha256}.` };
  const found = request.original ? await originalImage(store, request.sha256) : await displayImage(store, request.sha256);
  if (!found.ok) return { status: found.status, message: found.message };
  return { status: 200, file: found.file, type: found.type, size: found.size, headers: imageHeaders(found.type, found.size, found.name) };
}
