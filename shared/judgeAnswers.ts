// What a generative judge may answer, per kind: the JSON schema its output is constrained by (a grammar
// for llama.cpp, `response_format` for an OpenAI-compatible server) and the zod rules every answer is
// checked by before it is stored, as a save is. The two are built from the same limits, so an answer the
// grammar lets through is one zod accepts (tests/integration/judges-llama.test.ts holds them to it).
import { z } from 'zod';
import type { Criterion } from './rubric';

export const JUDGE_KINDS = ['pairwise', 'rubric', 'steps', 'outcome'] as const;
export type JudgeKind = (typeof JUDGE_KINDS)[number];

/** The longest critique, feedback or reason a judge may write, in characters (the grammar enforces it). */
export const JUDGE_TEXT_MAX = 4000;
/** The most steps (or agent turns) one step-verification answer covers. */
export const JUDGE_STEPS_MAX = 64;

export type JsonSchema = Record<string, unknown>;

const text = (max: number): JsonSchema => ({ type: 'string', maxLength: max });

export interface PairwiseAnswer {
  verdict: 'A' | 'B' | 'tie';
  strength: 1 | 2 | 3;
  critique: string;
}
export interface RubricAnswer {
  /** Per criterion key: its value on the criterion's scale, and the judge's feedback. */
  criteria: Record<string, { score: number | string; feedback: string }>;
}
export interface StepsAnswer {
  /** One per step in order; the record keeps those up to and including the first wrong one. */
  steps: { correct: boolean; reason: string }[];
}
export interface OutcomeAnswer {
  outcome: 'success' | 'partial' | 'failure';
  reason: string;
}
export type JudgeAnswer = PairwiseAnswer | RubricAnswer | StepsAnswer | OutcomeAnswer;

/** What one answer must hold, beyond its kind: the rubric's criteria, the number of steps, the text limit. */
export interface AnswerShape {
  kind: JudgeKind;
  textMax: number;
  criteria?: Criterion[];
  steps?: number;
}

function scaleSchema(criterion: Criterion): JsonSchema {
  const { scale } = criterion;
  if (scale.type === 'binary') return { enum: [0, 1] };
  if (scale.type === 'categories') return { enum: [...scale.values] };
  const values: number[] = [];
  for (let v = scale.min; v <= scale.max && values.length < 101; v++) values.push(v);
  return { enum: values };
}

/** The JSON schema of one answer (property order is the order the judge writes them in). */
export function answerJsonSchema(shape: AnswerShape): JsonSchema {
  const t = text(shape.textMax);
  if (shape.kind === 'pairwise')
    return { type: 'object', properties: { critique: t, verdict: { enum: ['A', 'B', 'tie'] }, strength: { enum: [1, 2, 3] } }, required: ['critique', 'verdict', 'strength'], additionalProperties: false };
  if (shape.kind === 'outcome') return { type: 'object', properties: { reason: t, outcome: { enum: ['success', 'partial', 'failure'] } }, required: ['reason', 'outcome'], additionalProperties: false };
  if (shape.kind === 'steps') {
    const n = Math.max(1, Math.min(shape.steps ?? 1, JUDGE_STEPS_MAX));
    const step = { type: 'object', properties: { reason: t, correct: { type: 'boolean' } }, required: ['reason', 'correct'], additionalProperties: false };
    return { type: 'object', properties: { steps: { type: 'array', items: step, minItems: n, maxItems: n } }, required: ['steps'], additionalProperties: false };
  }
  const criteria = shape.criteria ?? [];
  const properties: Record<string, JsonSchema> = {};
  for (const c of criteria) properties[c.key] = { type: 'object', properties: { feedback: t, score: scaleSchema(c) }, required: ['feedback', 'score'], additionalProperties: false };
  return { type: 'object', properties: { criteria: { type: 'object', properties, required: criteria.map((c) => c.key), additionalProperties: false } }, required: ['criteria'], additionalProperties: false };
}

/**
 * A text the grammar let through at `max` characters: the grammar counts characters as llama.cpp decodes
 * the bytes, and a model (random weights, or a small one) may write bytes that are not valid UTF-8, each
 * of which becomes one U+FFFD here: at most four per character the grammar counted.
 */
const boundedText = (max: number) => z.string().max(max * 4, `longer than ${max} characters`);

function criterionValue(criterion: Criterion): z.ZodType<number | string> {
  const { scale } = criterion;
  if (scale.type === 'binary') return z.union([z.literal(0), z.literal(1)]);
  if (scale.type === 'categories') return z.enum(scale.values as [string, ...string[]]);
  return z.number().int().min(scale.min).max(scale.max);
}

/** The zod rules an answer is checked by (the same limits as its JSON schema). */
export function answerZod(shape: AnswerShape): z.ZodType<JudgeAnswer> {
  const t = boundedText(shape.textMax);
  if (shape.kind === 'pairwise') return z.object({ critique: t, verdict: z.enum(['A', 'B', 'tie']), strength: z.union([z.literal(1), z.literal(2), z.literal(3)]) }).strict();
  if (shape.kind === 'outcome') return z.object({ reason: t, outcome: z.enum(['success', 'partial', 'failure']) }).strict();
  if (shape.kind === 'steps') {
    const n = Math.max(1, Math.min(shape.steps ?? 1, JUDGE_STEPS_MAX));
    return z.object({ steps: z.array(z.object({ reason: t, correct: z.boolean() }).strict()).length(n) }).strict();
  }
  const entries = Object.fromEntries((shape.criteria ?? []).map((c) => [c.key, z.object({ feedback: t, score: criterionValue(c) }).strict()]));
  return z.object({ criteria: z.object(entries).strict() }).strict() as z.ZodType<JudgeAnswer>;
}

/** Parses and checks a judge's raw text: the answer, or why it is refused (never the text itself). */
export function readAnswer(shape: AnswerShape, raw: string): { ok: true; answer: JudgeAnswer } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, error: `the answer is not JSON (${raw.length} characters)` };
  }
  const checked = answerZod(shape).safeParse(value);
  if (!checked.success) return { ok: false, error: checked.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ') };
  return { ok: true, answer: checked.data };
}

/** The index of the first step judged wrong, or null when every step passed. */
export function firstWrongStep(answer: StepsAnswer): number | null {
  const index = answer.steps.findIndex((s) => !s.correct);
  return index < 0 ? null : index;
}

/**
 * A token budget that lets the grammar finish any answer of this shape: each character of a string may
 * be an escape of six bytes, each a token in a byte-level vocabulary, plus the JSON around them.
 */
export function answerTokenBudget(shape: AnswerShape): number {
  const strings = shape.kind === 'steps' ? Math.min(shape.steps ?? 1, JUDGE_STEPS_MAX) : shape.kind === 'rubric' ? (shape.criteria ?? []).length : 1;
  return strings * (shape.textMax * 6 + 64) + 64;
}
