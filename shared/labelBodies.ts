// A label revision's body, one codec per task kind: the zod schema of each field (the rules a save and a
// labels file's line are held to), the body each task keeps (its TypeScript type inferred from the
// schema, so the type and the check cannot drift apart), and reading a stored body (JSON) back. Every
// reader and writer of a body takes its type from here: the save paths (electron/core/service), the
// labels file (formats/exchange/labelLine.ts and its quick path), export, review, the hub's pull (it
// merges through the labels file's checks) and the screens. docs/formats.md, "Labels", names the fields.
import { z } from 'zod';
import { attribution, firstError, outcome, ratingValue, responseLetter, rubricVersion, severity, stepCorrection, stepKey, stepRating, toolVerdict } from './api/common';
import { regionMarks } from './api/regions';
import { momentsSchema } from './moments';

/** The longest rationale a body keeps. */
export const RATIONALE_MAX = 20_000;
/** The most steps one response's ratings hold. */
export const STEPS_MAX = 500;
/** The longest critique of one response. */
export const CRITIQUE_MAX = 50_000;

const perResponse = <T extends z.ZodType>(value: T) => z.record(responseLetter, value);

/** Fields every task's body may hold: why, how long it took, whether a pre-label was shown, marks on images. */
const commonFields = {
  rationale: z.string().max(RATIONALE_MAX, 'longer than 20,000 characters').optional(),
  time_ms: z.number().int('expected whole milliseconds').min(0, 'expected 0 or more milliseconds').optional(),
  prelabel_visible: z.boolean().optional(),
  // Marks on the item's images (shared/regions.ts): a box, a point or "not present", with a tag and a note.
  regions: regionMarks.optional(),
  // Marks in time on the item's videos (shared/moments.ts): an instant or a range, a tag and a note.
  moments: momentsSchema.optional(),
  // An episode's first failure per response, in seconds into its video; null: it never fails.
  first_failure: perResponse(z.number().finite().min(0).nullable()).optional(),
};

/** A rubric judgement: per response, criterion key → a number, yes / no, a category's name, or null (not applicable). */
const rubricFields = {
  ratings: perResponse(z.record(z.string().min(1).max(64), ratingValue)).optional(),
  rubric: z.string().min(1, 'empty').optional(),
  rubric_version: rubricVersion.optional(),
};

/** A critique per response, and "right verdict, wrong reasoning". */
const critiqueFields = {
  critique: perResponse(z.string().max(CRITIQUE_MAX, `a critique is longer than ${CRITIQUE_MAX.toLocaleString('en')} characters`)).optional(),
  wrong_reasoning: perResponse(z.boolean()).optional(),
};

/** A step judgement per response letter (PRM800K's, with an agent trajectory's extras). */
const stepsFields = {
  // One per step: −1 / 0 / +1, or null (not rated, as after the first error).
  steps: perResponse(z.array(stepRating.nullable()).max(STEPS_MAX, `more than ${STEPS_MAX} steps`)).optional(),
  first_error: perResponse(firstError.nullable()).optional(),
  // The segmentation version the ratings were made on.
  segmentation: perResponse(z.number().int().min(1)).optional(),
  step_tags: perResponse(z.record(stepKey, z.array(z.string().min(1, 'an empty tag').max(200, 'a tag longer than 200 characters')).max(50, 'more than 50 tags'))).optional(),
  // Per tagged step: minor / major / critical (shared/stepJudgement.ts).
  step_severity: perResponse(z.record(stepKey, severity)).optional(),
  // Per step, per tool call (its id, else its position in the turn): correct / wrong / unnecessary.
  tool_verdicts: perResponse(z.record(stepKey, z.record(z.string().min(1).max(200), toolVerdict))).optional(),
  // Per step: the corrected text, or {"tool_calls": [{"id"?, "name", "arguments": {…}}]}.
  corrections: perResponse(z.record(stepKey, stepCorrection)).optional(),
  // Which agent, at which step, decided the failure (multi-agent trajectories).
  attribution: perResponse(attribution).optional(),
  outcome: perResponse(outcome).optional(),
  // A file's own words (PRM800K's finish_reason, a reference answer's match), kept as they came.
  finish_reason: perResponse(z.unknown()).optional(),
  reference_match: perResponse(z.unknown()).optional(),
};

/**
 * Every body field, in the order a labels file's line checks them (its schema spreads these between the
 * revision's own fields and created_at). Keys not named here are kept as they came (other tools' fields,
 * `adjudicated`, `undo_of`, `based_on`, `resegmented`).
 */
export const LABEL_BODY_FIELDS = {
  ratings: rubricFields.ratings,
  ...critiqueFields,
  steps: stepsFields.steps,
  first_error: stepsFields.first_error,
  segmentation: stepsFields.segmentation,
  step_tags: stepsFields.step_tags,
  step_severity: stepsFields.step_severity,
  tool_verdicts: stepsFields.tool_verdicts,
  corrections: stepsFields.corrections,
  attribution: stepsFields.attribution,
  outcome: stepsFields.outcome,
  finish_reason: stepsFields.finish_reason,
  reference_match: stepsFields.reference_match,
  rationale: commonFields.rationale,
  rubric: rubricFields.rubric,
  rubric_version: rubricFields.rubric_version,
  time_ms: commonFields.time_ms,
  prelabel_visible: commonFields.prelabel_visible,
  regions: commonFields.regions,
  moments: commonFields.moments,
  first_failure: commonFields.first_failure,
};

/** The body fields keyed by response letter, in the order a line's letters are checked. */
export const PER_RESPONSE_FIELDS = ['ratings', 'critique', 'wrong_reasoning', 'first_failure', ...(Object.keys(stepsFields) as StepsField[])] as const;

/** Any task's body: every field, each checked, and the rest kept. */
export const labelBody = z.looseObject(LABEL_BODY_FIELDS);
export const pairwiseBody = z.looseObject(commonFields);
export const rankingBody = z.looseObject(commonFields);
export const verdictBody = z.looseObject(commonFields);
export const rubricBody = z.looseObject({ ...commonFields, ...rubricFields });
export const critiqueBody = z.looseObject({ ...commonFields, ...critiqueFields });
export const stepsBody = z.looseObject({ ...commonFields, ...stepsFields });

/** The codec of each task's body, by the task's name (shared/domain.ts TASKS; test/unit/label-bodies.test.ts holds the two alike). */
export const TASK_BODIES = { pairwise: pairwiseBody, ranking: rankingBody, steps: stepsBody, rubric: rubricBody, verdict: verdictBody, critique: critiqueBody } as const;
/** A task kind, as shared/domain.ts Task names it (this file imports nothing of domain's, which takes LabelBody from here). */
type Task = keyof typeof TASK_BODIES;

export type LabelBody = z.infer<typeof labelBody>;
export type PairwiseBody = z.infer<typeof pairwiseBody>;
export type RankingBody = z.infer<typeof rankingBody>;
export type VerdictBody = z.infer<typeof verdictBody>;
export type RubricBody = z.infer<typeof rubricBody>;
export type CritiqueBody = z.infer<typeof critiqueBody>;
export type StepsBody = z.infer<typeof stepsBody>;
export type TaskBody<T extends Task> = z.infer<(typeof TASK_BODIES)[T]>;
/**
 * A rubric revision as the app saves it (service/rubrics.ts): the ratings as stored (a binary criterion's
 * yes / no as 1 / 0), the rubric and version they were made under, and which response won each criterion
 * on a pair (`criterion_winner`, a field a labels file carries as it came, as it does others it does not name).
 */
export type SavedRubricBody = RubricBody & {
  ratings: Record<string, Record<string, number | string | null>>;
  rubric: string;
  rubric_version: number;
  criterion_winner?: Record<string, 'A' | 'B' | 'tie'>;
};
/** The names of the per-response step fields (the keys of a steps body's records are response letters). */
export type StepsField = keyof typeof stepsFields;

/** A body checked by its task's codec: the body, or the first few problems ("steps.C.2: …"). */
export function parseBody<T extends Task>(task: T, value: unknown): { ok: true; body: TaskBody<T> } | { ok: false; problems: string[] } {
  const parsed = TASK_BODIES[task].safeParse(value);
  if (parsed.success) return { ok: true, body: parsed.data as TaskBody<T> };
  return { ok: false, problems: parsed.error.issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`) };
}

/**
 * A stored body read back (the store's JSON text, or a value already parsed): an object, else an empty
 * body. Not checked again: what is stored passed its codec on the way in (a save, a labels file, a pull).
 */
export function readBody<T extends Task>(_task: T, stored: unknown): TaskBody<T> {
  return readLabelBody(stored) as TaskBody<T>;
}

/** A stored body of any task read back, as readBody reads one (review reads several tasks' rows alike). */
export function readLabelBody(stored: unknown): LabelBody {
  let value = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return {};
    }
  }
  return (value && typeof value === 'object' ? value : {}) as LabelBody;
}

/** A body as the store keeps it: JSON text. */
export function serializeBody(body: LabelBody): string {
  return JSON.stringify(body);
}

/**
 * A body as the store hands it out (electron/core/store): its JSON text, written by serializeBody, parsed
 * as it is; text that is not JSON throws, as a damaged row should. readBody is the forgiving reader.
 */
export function hydrateBody(text: string): LabelBody {
  return JSON.parse(text) as LabelBody;
}
