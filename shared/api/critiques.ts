// Critiques: an annotator's written critique of each response (task 'critique'), a training target for
// generative judges, with a per-response flag for "right verdict, wrong reasoning". A critique a file
// carried (a model-written one, imported as a `source` revision) is shown prefilled; the annotator's edit
// is a revision of their own that names the original (`based_on`), and the original stays as it was.
import { z } from 'zod';
import type { LabelRevision } from '../domain';
import { CRITIQUE_MAX } from '../labelBodies';
import { annotatorName, itemId, projectName, responseLetter as letter, revisionId } from './common';

export { CRITIQUE_MAX };

export const critiquesSchemas = {
  /** This annotator's current critique of an item, and the original it may edit (a file's or a model's). */
  getCritiques: z.object({ project: projectName, annotator: annotatorName, itemId }).strict(),
  /**
   * One critique revision: per response letter (source order), its text; an empty text means no critique
   * of that response. `wrongReasoning`: the response reaches the right verdict by wrong reasoning.
   */
  saveCritique: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId,
      id: revisionId.optional(),
      critiques: z.record(letter, z.string().max(CRITIQUE_MAX, `a critique is longer than ${CRITIQUE_MAX.toLocaleString('en')} characters`)),
      wrongReasoning: z.record(letter, z.boolean()).optional(),
      timeMs: z.number().int().min(0).optional(),
    })
    .strict(),
} as const;

export interface CritiqueView {
  id: string;
  annotator: string;
  annotatorKind: 'human' | 'model' | 'source';
  createdAt: string;
  critique: Record<string, string>;
  wrongReasoning: Record<string, boolean>;
  /** For an edit: the original's revision id. */
  basedOn: string | null;
}

export interface CritiquesOutputs {
  getCritiques: {
    /** This annotator's current critique, or null. */
    mine: CritiqueView | null;
    /** The critique the item came with (a `source` annotator's, else a model's), or null. */
    original: CritiqueView | null;
  };
  saveCritique: LabelRevision;
}
