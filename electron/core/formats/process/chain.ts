// What a step export keeps of a rated chain (docs/formats.md, "Step exports"). Under
// PRM800K's protocol (how Arbiter's step screen works) the steps after the first error carry no label, so
// a chain stops at its first error, that step included (as wrong); a chain with no error keeps every
// step up to its last rated one (every step, once all are rated); and a chain whose every step is rated
// (Math-Shepherd's own labels) keeps every step with its label, errors after the first included.
// A chain with no rating at all is not kept: the export leaves it out and counts it.
import type { Content } from '../../../../shared/domain';
import type { ParsedRecord } from '../types';

export interface KeptChain {
  steps: string[];
  /** One per kept step; the step that is the first error is −1. null: a step inside the chain nobody rated. */
  ratings: (number | null)[];
  /** The chain was cut after its first error (steps after it were left out). */
  cut: boolean;
}

/** The index of the first wrong step: the first −1, else the label's own first error when it names a step. */
export function firstWrongStep(ratings: readonly (number | null)[], firstError: number | null): number | null {
  const at = ratings.indexOf(-1);
  if (at >= 0) return at;
  return firstError !== null && firstError >= 0 && firstError < ratings.length ? firstError : null;
}

export function keptChain(steps: readonly string[], ratings: readonly (number | null)[], firstError: number | null): KeptChain | null {
  const error = firstWrongStep(ratings, firstError);
  let lastRated = -1;
  ratings.forEach((r, i) => {
    if (r !== null) lastRated = i;
  });
  if (lastRated < 0 && error === null) return null;
  if (ratings.every((r) => r !== null)) return { steps: [...steps], ratings: [...ratings], cut: false };
  const end = error !== null ? error : lastRated;
  const kept = ratings.slice(0, end + 1);
  if (error !== null) kept[error] = -1;
  return { steps: steps.slice(0, end + 1), ratings: kept, cut: error !== null && end + 1 < steps.length };
}

// ---------------------------------------------------------------------------------------------------
// import: one response whose steps the file gave, and the file's own ratings as a `source` judgement

export interface ChainRecordInput {
  externalId: string | null;
  prompt: Content;
  steps: string[];
  /** How the steps are joined into the response's text. */
  separator: string;
  model: string | null;
  reference: string | null;
  metadata: Record<string, unknown>;
  ratings: (number | null)[];
  /** Other per-response judgement fields (outcome, finish_reason, step_tags…), keyed as the body keys them. */
  extra?: Record<string, unknown>;
  /** Fields of the whole revision (labeler…). */
  body?: Record<string, unknown>;
}

/** A one-response item with explicit steps, and the file's ratings of them as the `source` annotator's steps label. */
export function chainRecord(input: ChainRecordInput): ParsedRecord {
  const error = input.ratings.indexOf(-1);
  const firstError = error >= 0 ? error : input.ratings.every((r) => r !== null) ? -1 : null;
  const body: Record<string, unknown> = { steps: { A: input.ratings }, first_error: { A: firstError }, segmentation: { A: 1 } };
  for (const [key, value] of Object.entries(input.extra ?? {})) if (value !== undefined && value !== null) body[key] = { A: value };
  Object.assign(body, input.body ?? {});
  return {
    draft: {
      externalId: input.externalId,
      prompt: input.prompt,
      responses: [{ content: input.steps.join(input.separator), model: input.model, steps: input.steps }],
      reference: input.reference,
      metadata: input.metadata,
    },
    preference: null,
    judgement: { task: 'steps', body },
  };
}
