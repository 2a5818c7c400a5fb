// Gold: the project's ground truth, which people and models are measured against (electron/core/review/
// gold.ts goldOf). Adjudicated judgements are gold by themselves; a file's own labels (the `source`
// annotator's) are gold once a lead marks them, per import or per selection of items, for one task or all.
// Marking is a lead's action: on a project linked to a team hub only a lead's marks go up, and the hub
// carries them to every desktop (checked again on pull).
import { z } from 'zod';
import { TASKS, type Task } from '../domain';
import type { LabelBody } from '../labelBodies';
import { annotatorName, itemId, projectName } from './common';

/** The most items one mark names. */
export const GOLD_MARK_MAX_ITEMS = 100_000;

const markInput = z
  .object({
    project: projectName,
    /** Who marks (the lead); the service's default annotator when omitted. */
    annotator: annotatorName.optional(),
    /** One task, or every task when omitted. */
    task: z.enum(TASKS).optional(),
    /** Every item an import added (its record's id, as `arbiter imports` and the datasets screen list them). */
    importId: z.number().int().positive().optional(),
    /** A selection of items. */
    itemIds: z.array(itemId).min(1).max(GOLD_MARK_MAX_ITEMS).optional(),
  })
  .strict()
  .refine((v) => (v.importId === undefined) !== (v.itemIds === undefined), { message: 'name either an import (importId) or items (itemIds), not both and not neither' });

export const goldSchemas = {
  /** Marks the file's own labels on these items as gold. */
  markGold: markInput,
  /** Takes the mark back: the file's own labels on these items are no longer gold (adjudications stay gold). */
  unmarkGold: markInput,
  /** How much gold the project has, per task and where it comes from. */
  goldSummary: z.object({ project: projectName }).strict(),
} as const;

/** Where a gold judgement comes from. */
export type GoldOrigin = 'adjudication' | 'file';

/** One item's gold judgement of one task, in the shared label-body types. */
export interface GoldJudgement {
  itemId: number;
  seq: number;
  externalId: string | null;
  task: Task;
  origin: GoldOrigin;
  /** Pairwise: a response letter, 'tie' or 'both_bad'; verdict: 'good' / 'bad'. */
  choice: string | null;
  strength: number | null;
  /** Ranking: groups of tied response indexes, best first. */
  ranking: number[][] | null;
  /** Steps (first_error, steps, outcome), rubric ratings, critiques, region marks: the task's body. */
  body: LabelBody;
}

export interface GoldMarkResult {
  /** Items the mark named. */
  items: number;
  /** Of them, items with a file's own label of the task (or of any task) now gold / no longer gold. */
  withFileLabels: number;
}

export interface GoldSummary {
  project: string;
  tasks: { task: Task; adjudicated: number; marked: number; total: number }[];
  /** The project's imports, oldest first: the id markGold's importId (and `arbiter gold --import`) takes. */
  imports: { id: number; file: string; items: number }[];
}

export type GoldOutputs = {
  markGold: GoldMarkResult;
  unmarkGold: GoldMarkResult;
  goldSummary: GoldSummary;
};
