// Process supervision: a response's steps (as segmented, with versions), step ratings, the first error,
// tags, corrections, the outcome kept apart from the process, and splitting or merging steps.
import { z } from 'zod';
import type { LabelRevision } from '../domain';
import type { ResponseSteps, SegmentationMethod } from '../segment';
import type { Attribution } from '../stepJudgement';
import { annotatorName, attribution, firstError, itemId, outcome, projectName, revisionId, severity, stepCorrection, stepKey, stepRating, toolVerdict } from './common';

const responseIndex = z.number().int().min(0).max(25);

/** A chain's final answer (the `o` key on a chain); a trajectory's are TRAJECTORY_OUTCOMES (shared/stepJudgement.ts). */
export const OUTCOMES = ['correct', 'incorrect', 'unsure'] as const;
export const FINISH_REASONS = ['solution', 'found_error', 'give_up', 'bad_problem'] as const;
export const REFERENCE_MATCHES = ['yes', 'no', 'partly'] as const;

export const stepsSchemas = {
  getSteps: z.object({ project: projectName, annotator: annotatorName, itemId }).strict(),
  /** Saves one response's step judgement; the item's other responses keep theirs (one revision for the item). */
  saveSteps: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId,
      id: revisionId.optional(),
      response: responseIndex,
      steps: z
        .object({
          version: z.number().int().min(1),
          ratings: z.array(stepRating.nullable()).max(500),
          firstError: firstError.nullable(),
          tags: z.record(stepKey, z.array(z.string().trim().min(1).max(60)).max(10)).optional(),
          /** Per tagged step: minor / major / critical. */
          severity: z.record(stepKey, severity).optional(),
          /** Per step, per tool call id: correct / wrong / unnecessary. */
          toolVerdicts: z.record(stepKey, z.record(z.string().min(1).max(200), toolVerdict)).optional(),
          /** Per step: the corrected text, or the tool calls the turn should have made. */
          corrections: z.record(stepKey, stepCorrection).optional(),
        })
        .strict(),
      outcome: outcome.nullable().optional(),
      /** Which agent and which step decided the failure (multi-agent trajectories); null removes it. */
      attribution: attribution.nullable().optional(),
      finishReason: z.enum(FINISH_REASONS).nullable().optional(),
      referenceMatch: z.enum(REFERENCE_MATCHES).nullable().optional(),
      timeMs: z.number().int().min(0).optional(),
      prelabelVisible: z.boolean().optional(),
    })
    .strict(),
  /** Splits a step at a character offset, or merges it with the next: a new segmentation version. */
  resegment: z
    .object({
      project: projectName,
      annotator: annotatorName,
      itemId,
      response: responseIndex,
      op: z.enum(['split', 'merge']),
      /** The version the screen showed: a retried or stale split is refused, never applied twice. */
      fromVersion: z.number().int().min(1),
      step: z.number().int().min(0),
      at: z.number().int().min(1).optional(),
    })
    .strict(),
} as const;

export interface ResponseSegmentation {
  index: number;
  /** Null while the steps are Arbiter's own cut, not yet stored (stored with the first rating). */
  id: number | null;
  version: number;
  steps: string[];
  origin: 'file' | 'auto' | 'annotator';
  /** How the steps were found when Arbiter cut them. */
  method: SegmentationMethod | 'whole' | 'file' | 'annotator';
}

export interface StepsView {
  responses: ResponseSegmentation[];
  /** The annotator's current steps revision (its body holds steps, first_error… per response letter). */
  label: LabelRevision | null;
  /** Per response index: the judgement on the newest segmentation (carried over where steps are unchanged). */
  judgements: Record<number, ResponseSteps & { outcome?: string; finishReason?: string; referenceMatch?: string; attribution?: Attribution }>;
  /**
   * Per response index: the outcome the file recorded (the `source` annotator's: a τ-bench reward, a
   * verifier's result, ProcessBench's final_answer_correct), shown as the file's beside the annotator's own.
   */
  fileOutcomes: Record<number, string>;
  /** The project's error tags (its taxonomy). */
  tags: string[];
}

export interface StepsOutputs {
  getSteps: StepsView;
  saveSteps: LabelRevision;
  resegment: { view: StepsView; notices: string[] };
}
