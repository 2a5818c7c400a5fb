// Guidelines: a markdown document per project, edited with a live preview and shown with `g` while
// labeling. Each save is a numbered revision; a save names the revision its editor started from, so two
// people editing at once never overwrite each other unseen (the second is told, with the newer text).
import { z } from 'zod';
import { annotatorName, projectName } from './common';

export const GUIDELINES_MAX = 200_000;

export const guidelinesSchemas = {
  getGuidelines: z.object({ project: projectName }).strict(),
  saveGuidelines: z
    .object({
      project: projectName,
      text: z.string().max(GUIDELINES_MAX, `the guidelines are longer than ${GUIDELINES_MAX.toLocaleString('en')} characters`),
      /** The revision the editor opened (0: none yet); a newer one saved meanwhile is a conflict. */
      baseRevision: z.number().int().min(0),
      /** Who saved it (shown with the revision). */
      annotator: annotatorName.optional(),
    })
    .strict(),
} as const;

export interface Guidelines {
  text: string;
  /** 0 while nothing was ever saved. */
  revision: number;
  updatedAt: string | null;
  author: string | null;
}

export interface GuidelinesOutputs {
  getGuidelines: Guidelines;
  saveGuidelines: Guidelines & { created: boolean };
}
