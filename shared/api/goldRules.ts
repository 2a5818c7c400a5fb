// Gold for people (issue 23 §1): each person's accuracy against the project's gold per task, with a 95%
// interval (Wilson) and n, flagged under the lead's bar with the gold items they got wrong; and the
// qualification's state (shared/goldRules.ts holds the rules, set in the project's settings `gold`).
// The review report carries every person's figures (ReviewReport.gold); goldStanding is one person's
// own word (what the annotator is shown: their qualification, and why their queue is held).
import { z } from 'zod';
import type { GoldQueueTask, QualificationState } from '../goldRules';
import { annotatorName, projectName } from './common';

/** Fewer gold judgements than this and a person is not flagged (their figure still shows, with its n). */
export const GOLD_FLAG_MIN_N = 3;

export const goldRulesSchemas = {
  /** One person's qualification per task where the lead asks for one, and whether their queue is held. */
  goldStanding: z.object({ project: projectName, annotator: annotatorName }).strict(),
} as const;

/** A gold item a person judged otherwise. */
export interface WrongGoldItem {
  itemId: number;
  seq: number;
  externalId: string | null;
}

export interface QualificationResult {
  state: QualificationState;
  /** Share right of the qualification set, once every item of it is judged. */
  score: number | null;
  /** Items of the set judged (since the lead's last retry for this person), and its size. */
  done: number;
  total: number;
  passMark: number;
}

export interface PersonGoldAccuracy {
  name: string;
  /** Share of the gold items they judged that match gold, with its Wilson interval; n = gold items judged. */
  accuracy: { value: number | null; n: number; reason: string | null; low: number | null; high: number | null };
  correct: number;
  /** Under the lead's bar (with at least GOLD_FLAG_MIN_N gold judgements). */
  flagged: boolean;
  /** The gold items they judged otherwise, in the file's order. */
  wrong: WrongGoldItem[];
  qualification: QualificationResult | null;
}

export interface TaskGoldAccuracy {
  task: GoldQueueTask;
  /** Gold items of the task. */
  goldItems: number;
  /** The lead's bar for this task. */
  bar: number;
  honeypotRate: number;
  /** Size of the qualification set (0: none). */
  qualification: number;
  people: PersonGoldAccuracy[];
}

export interface GoldAccuracyReport {
  tasks: TaskGoldAccuracy[];
}

export interface GoldStanding {
  project: string;
  annotator: string;
  tasks: { task: GoldQueueTask; qualification: QualificationResult }[];
}

export type GoldRulesOutputs = {
  goldStanding: GoldStanding;
};
