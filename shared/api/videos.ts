// Videos: the page plays a stored video from an address the service hands out (a <video> element cannot
// send the token header, so the address carries a ticket instead: random, bound to one video of one
// project, good for hours and for every range request the element makes). Both transports answer it: the
// browser host's /videos/<ticket> and Electron's app://arbiter/videos/<ticket> (electron/core/service/videos.ts).
import { z } from 'zod';
import type { LabelRevision } from '../domain';
import { momentsSchema } from '../moments';
import { annotatorName, itemId, projectName } from './common';

export const videosSchemas = {
  /** Where the page plays video `sha256` of the project from (same origin). */
  videoAddress: z.object({ project: projectName, sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a video is named by its sha256: 64 lower-case hex digits') }).strict(),
  /**
   * Marks in time on the item's videos (shared/moments.ts) and each response's first failure (seconds;
   * null: none), added to the annotator's current judgement of `task` as a new revision of it, as region
   * marks are (saveRegions). `moments` replaces the judgement's marks (left out: they stay); `firstFailure`
   * sets the responses it names (the others keep theirs). Null when they have not judged the item yet.
   */
  saveMoments: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId,
      task: z.enum(['pairwise', 'ranking', 'verdict', 'rubric']),
      moments: momentsSchema.optional(),
      firstFailure: z.record(z.string().regex(/^[A-Z]$/, 'a response letter'), z.number().finite().min(0).nullable()).optional(),
    })
    .strict(),
} as const;

export interface VideosOutputs {
  videoAddress: { path: string };
  saveMoments: LabelRevision | null;
}
