// Items and their labels: the labeling loop's reads and writes (compare today; steps, rankings,
// rubrics and verdicts build on the same revisions).
import { z } from 'zod';
import { TASKS, type Choice, type ItemRecord, type LabelRevision } from '../domain';

/** A pairwise revision: its choice is a source-order letter, a tie or both bad. */
export type PairwiseRevision = LabelRevision & { choice: Choice | null };
import { annotatorName, itemId, projectName, revisionId, strength } from './common';
import { regionMarks } from './regions';

const choice = z.enum(['A', 'B', 'tie', 'both_bad']);

export const labelsSchemas = {
  getItem: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId: itemId.optional(),
      seq: z.number().int().min(0).optional(),
      /** The screen asking, where the item's shape does not say it (a single response on Steps): its place and total are that screen's. */
      task: z.enum(TASKS).optional(),
    })
    .strict(),
  nextItem: z
    .object({
      project: projectName,
      annotator: annotatorName,
      /** Start looking after this item's position; omitted means from the start. */
      afterSeq: z.number().int().min(-1).optional(),
      direction: z.enum(['next', 'previous']).default('next'),
      unlabeledOnly: z.boolean().default(true),
      /** The kind of judgement the screen makes: "unlabeled" means without a current one of this task. */
      task: z.enum(TASKS).default('pairwise'),
      /** Walk only this saved view's items (its id, shared/api/items.ts), in the view's sort order. */
      viewId: z.string().regex(/^[0-9a-f-]{36}$/, 'expected a view id').optional(),
    })
    .strict(),
  saveLabel: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId,
      id: revisionId.optional(),
      choice,
      strength: strength.nullable().default(null),
      shownOrder: z.array(z.number().int().min(0)).min(2),
      rationale: z.string().max(20_000).optional(),
      timeMs: z.number().int().min(0).optional(),
      prelabelVisible: z.boolean().optional(),
      /** Marks on the item's images, kept in this revision (shared/regions.ts). */
      regions: regionMarks.optional(),
    })
    .strict(),
  saveRationale: z.object({ project: projectName, annotator: annotatorName, itemId, rationale: z.string().max(20_000) }).strict(),
  /**
   * Region marks changed after the judgement was saved: a new revision of the annotator's current
   * judgement of this task, the same decision with these marks (as a rationale edit is). Null when there
   * is no judgement of the task yet (the screen then keeps the marks for the judgement's save).
   */
  saveRegions: z.object({ project: projectName, annotator: annotatorName, itemId, task: z.enum(['pairwise', 'ranking', 'verdict', 'rubric']), regions: regionMarks }).strict(),
  /** Appends a revision restoring the one the current label replaced (or clearing it), for one task. */
  undoLabel: z.object({ project: projectName, annotator: annotatorName, itemId, task: z.enum(TASKS).default('pairwise') }).strict(),
  labelHistory: z.object({ project: projectName, itemId }).strict(),
  /** Cheap progress for the header: one annotator's labeled count and the project's size. */
  progress: z.object({ project: projectName, annotator: annotatorName, task: z.enum(TASKS).default('pairwise') }).strict(),
} as const;

export interface ItemView extends ItemRecord {
  /** The items the screen of this item's shape walks (pairs on Compare, …), as its header counts them. */
  total: number;
  /** 1-based: the item's place among those items, in file order ("Item 3 of 53" on Compare). */
  position: number;
  shownOrder: number[];
  label: PairwiseRevision | null;
  /** Labels by other annotators of kind source (the file's own preference), shown as such. */
  sourceLabel: PairwiseRevision | null;
}

export interface LabelsOutputs {
  getItem: ItemView | null;
  nextItem: ItemView | null;
  saveLabel: PairwiseRevision;
  saveRationale: PairwiseRevision | null;
  saveRegions: LabelRevision | null;
  undoLabel: LabelRevision | null;
  labelHistory: LabelRevision[];
  progress: { total: number; labeledByMe: number; labeled: number };
}
