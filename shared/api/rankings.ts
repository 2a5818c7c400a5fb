// Rankings of three or more responses (groups of tied responses, best first) and verdicts on a single
// response (good / bad, for unpaired data).
import { z } from 'zod';
import type { LabelRevision } from '../domain';
import { annotatorName, itemId, projectName, rankingGroups, revisionId } from './common';
import { regionMarks } from './regions';


export const rankingsSchemas = {
  saveRanking: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId,
      id: revisionId.optional(),
      /** Best first; responses in one group are tied. Every response appears once. */
      ranking: rankingGroups,
      shownOrder: z.array(z.number().int().min(0)).min(2),
      rationale: z.string().max(20_000).optional(),
      timeMs: z.number().int().min(0).optional(),
      prelabelVisible: z.boolean().optional(),
      /** Marks on the item's images, kept in this revision (shared/regions.ts). */
      regions: regionMarks.optional(),
    })
    .strict(),
  saveVerdict: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId,
      id: revisionId.optional(),
      verdict: z.enum(['good', 'bad']),
      rationale: z.string().max(20_000).optional(),
      timeMs: z.number().int().min(0).optional(),
      prelabelVisible: z.boolean().optional(),
      /** Marks on the item's images, kept in this revision (shared/regions.ts). */
      regions: regionMarks.optional(),
    })
    .strict(),
} as const;

export interface RankingsOutputs {
  saveRanking: LabelRevision;
  saveVerdict: LabelRevision;
}
