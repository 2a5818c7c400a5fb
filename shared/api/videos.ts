// Videos: the page plays a stored video from an address the service hands out (a <video> element cannot
// send the token header, so the address carries a ticket instead: random, bound to one video of one
// project, good for hours and for every range request the element makes). Both transports answer it: the
// browser host's /videos/<ticket> and Electron's app://arbiter/videos/<ticket> (electron/core/service/videos.ts).
import { z } from 'zod';
import { projectName } from './common';

export const videosSchemas = {
  /** Where the page plays video `sha256` of the project from (same origin). */
  videoAddress: z.object({ project: projectName, sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a video is named by its sha256: 64 lower-case hex digits') }).strict(),
} as const;

export interface VideosOutputs {
  videoAddress: { path: string };
}
