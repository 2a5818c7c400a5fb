// The judgements rating datasets carry, as the `source` annotator's revisions (../types.ts SourceJudgement):
// ratings under a rubric the file's aspects make, and written critiques. Shared by the UltraFeedback,
// HelpSteer2 and HelpSteer3 parsers, and by their encoders for the way back.
import type { Criterion, RatingValue } from '../../../../shared/rubric';
import type { SourceJudgement } from '../types';

/** A Likert criterion as a file's aspect: equal weight, not required (a file may leave one out). */
export function likertCriterion(key: string, description: string, min: number, max: number): Criterion {
  return { key, description, scale: { type: 'likert', min, max }, weight: 1, required: false };
}

/** Ratings per response letter under a rubric; null when no response was rated. */
export function ratingsJudgement(
  rubric: { name: string; criteria: Criterion[] },
  ratings: Record<string, Record<string, RatingValue>>,
  annotator?: string,
): SourceJudgement | null {
  if (!Object.values(ratings).some((values) => Object.keys(values).length > 0)) return null;
  const judgement: SourceJudgement = { task: 'rubric', body: { ratings } as never, rubric };
  if (annotator !== undefined) judgement.annotator = annotator;
  return judgement;
}

/** Critiques per response letter (`critique: {A: "…"}`, docs/formats.md "Labels"); null when there are none. */
export function critiqueJudgement(critiques: Record<string, string>, annotator?: string): SourceJudgement | null {
  if (Object.keys(critiques).length === 0) return null;
  const judgement: SourceJudgement = { task: 'critique', body: { critique: critiques } };
  if (annotator !== undefined) judgement.annotator = annotator;
  return judgement;
}

/** A pairwise score of −3…+3 (negative: response 1 is better) as a choice and a strength. */
export function signedPreference(score: number): { choice: 'A' | 'B' | 'tie'; strength: 1 | 2 | 3 | null } {
  if (score === 0) return { choice: 'tie', strength: null };
  return { choice: score < 0 ? 'A' : 'B', strength: Math.abs(score) as 1 | 2 | 3 };
}

/**
 * The way back: a choice and a (mean) strength as −3…+3. A choice saved without a strength counts as
 * 1 (slightly better), and `unknown` is told so that the summary can say how many.
 */
export function signedScore(choice: 'A' | 'B' | 'tie', strength: number | null, unknown: () => void): number {
  if (choice === 'tie') return 0;
  let size = strength === null ? null : Math.min(3, Math.max(1, Math.round(strength)));
  if (size === null) {
    unknown();
    size = 1;
  }
  return choice === 'A' ? -size : size;
}

/** A whole number within [min, max] as a file gives it (a number, or its text), or why not. */
export function wholeNumber(value: unknown, min: number, max: number): number | string {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max) return n;
  return `expected a whole number from ${min} to ${max}, got ${JSON.stringify(value) ?? 'nothing'}`;
}
