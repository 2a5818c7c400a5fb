// Rubrics and rubric ratings. A rubric is named per project and versioned: saving changed criteria makes
// the next version, the same criteria keep theirs, and a version never changes (a trigger refuses it).
// A rating revision (task 'rubric') names the version it was made under, so editing a rubric never
// changes what an old label means. "item" names an item's own criteria (a per-prompt rubric), versioned
// the same way.
import { z } from 'zod';
import type { LabelRevision } from '../domain';
import type { SavedRubricBody } from '../labelBodies';
import { checkCriteria, problemText, rubricName, rubricRef, type Criterion, type CriterionInput } from '../rubric';
import { annotatorName, itemId, projectName, ratingValue, responseLetter as letter, revisionId, rubricVersion as version } from './common';
import { regionMarks } from './regions';

export { ITEM_RUBRIC, rubricName, rubricRef } from '../rubric';

const criterionKey = z.string().min(1).max(64);

/**
 * Criteria, checked by shared/rubric.ts: every problem is named where it is and why
 * ("criteria[2].scale.max: must be greater than min (1)"), the same sentences as the CLI prints.
 */
const criteria = z
  .array(z.unknown())
  .transform((list, ctx): Criterion[] => {
    const checked = checkCriteria(list);
    if (checked.ok) return checked.value;
    for (const problem of checked.problems) ctx.addIssue({ code: 'custom', message: problemText(problem), input: undefined });
    return z.NEVER;
  }) as unknown as z.ZodType<Criterion[], CriterionInput[]>;

export const rubricsSchemas = {
  /** The project's rubrics (items' own criteria are not listed), each with its versions and their label counts. */
  listRubrics: z.object({ project: projectName }).strict(),
  /** A rubric version's criteria: the newest when `version` is left out. "item" needs `itemId`. */
  getRubric: z.object({ project: projectName, rubric: rubricRef, version: version.optional(), itemId: itemId.optional() }).strict(),
  /** Saves criteria under a name: the same content keeps its version, changed content makes the next one. */
  saveRubric: z.object({ project: projectName, name: rubricName, criteria }).strict(),
  /** Puts a project rubric in force (the one the compare and verdict screens rate with), or none (null). */
  setRubricInForce: z.object({ project: projectName, name: rubricName.nullable() }).strict(),
  /**
   * What an item is rated under on screen, and this annotator's current ratings of it: the item's own
   * criteria when it has them, else the project's rubric in force (null when there is neither).
   */
  getRatingSheet: z.object({ project: projectName, annotator: annotatorName, itemId }).strict(),
  /** Writes an item's own criteria (a per-prompt rubric), stored as a version of the item's rubric. */
  saveItemCriteria: z.object({ project: projectName, itemId, criteria }).strict(),
  /**
   * One rubric revision for the item: per response letter (source order), criterion key → value, under
   * the version the screen showed. Every value is checked against its criterion's scale, and every
   * response of the item must have a value (null: not applicable) for each required criterion.
   */
  saveRatings: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId,
      id: revisionId.optional(),
      rubric: rubricRef,
      version,
      ratings: z.record(letter, z.record(criterionKey, ratingValue)),
      /** In an item with two responses: the better response per criterion. */
      criterionWinner: z.record(criterionKey, z.enum(['A', 'B', 'tie'])).optional(),
      shownOrder: z.array(z.number().int().min(0)).min(1).optional(),
      rationale: z.string().max(20_000).optional(),
      timeMs: z.number().int().min(0).optional(),
      prelabelVisible: z.boolean().optional(),
      /** Marks on the item's images, kept in this revision (shared/regions.ts). */
      regions: regionMarks.optional(),
    })
    .strict(),
} as const;

export interface RubricVersionSummary {
  version: number;
  createdAt: string;
  /** How many criteria the version has. */
  criteria: number;
  /** Current labels (the latest revision of an item, annotator and task) made under this version. */
  labels: number;
  /** Every revision made under this version, superseded ones included. */
  revisions: number;
}

export interface RubricSummary {
  name: string;
  createdAt: string;
  /** The newest version: the one labeling with this rubric rates under. */
  latest: number;
  versions: RubricVersionSummary[];
  /** Whether this is the project's rubric in force (the one the labeling screens rate with). */
  inForce: boolean;
}

export interface RubricView {
  /** The rubric's name, or "item" for an item's own criteria. */
  rubric: string;
  version: number;
  latest: number;
  criteria: Criterion[];
  /** Null for an item's criteria not rated yet: stored as this version with the first rating. */
  createdAt: string | null;
  stored: boolean;
  labels: number;
  revisions: number;
  /** For "item": the item whose criteria these are. */
  itemId?: number;
}

export interface RubricSaved {
  rubric: string;
  version: number;
  /** False when the same criteria were already the newest version. */
  created: boolean;
}

/** The body of a 'rubric' revision (docs/formats.md "Labels"): its codec's, shared/labelBodies.ts. */
export type RubricLabelBody = SavedRubricBody;

/** An annotator's current ratings of an item, as the rating sheet gives them back. */
export interface MyRatings {
  /** The revision holding them. */
  id: string;
  createdAt: string;
  /** The rubric ("item" for the item's own criteria) and version they were made under. */
  rubric: string;
  version: number;
  ratings: Record<string, Record<string, number | string | null>>;
  criterionWinner: Record<string, 'A' | 'B' | 'tie'>;
}

export interface RatingSheet {
  /** The criteria to rate with (their version is the one a save names); null: the item is not rated here. */
  rubric: RubricView | null;
  /** The name of the project's rubric in force, when there is one (an item's own criteria go before it). */
  inForce: string | null;
  /** This annotator's current ratings of the item, under whichever version they were made; null: none. */
  mine: MyRatings | null;
  /**
   * Where `mine` was made under another version than `rubric`: the keys of the criteria that are the same
   * in both (key, scale, everything), whose values still mean what they meant and may be shown again.
   */
  carried: string[];
}

export interface RubricsOutputs {
  listRubrics: RubricSummary[];
  getRubric: RubricView;
  saveRubric: RubricSaved;
  setRubricInForce: { inForce: string | null };
  getRatingSheet: RatingSheet;
  saveItemCriteria: RubricSaved;
  saveRatings: LabelRevision;
}
