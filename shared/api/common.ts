// Names every feature's contract validates the same way: the API, the CLI and the host share them.
import { z } from 'zod';

export const projectName = z
  .string()
  .trim()
  .min(1, 'project name is empty')
  .max(120, 'project name is longer than 120 characters')
  .regex(/^[^/\\\u0000-\u001f]+$/, 'project name has a slash or a control character');
export const annotatorName = z.string().trim().min(1, 'annotator name is empty').max(80);
export const itemId = z.number().int().positive();

/**
 * The parts of a label revision, one schema each, shared by every save operation and by the labels file
 * (electron/core/formats/labels.ts): a revision a file brings passes the same checks as one the app saves.
 */
/** A revision id the client made (UUIDv7): a retried save with the same id stores nothing new. */
export const revisionId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'expected a revision id (a lowercase UUID)');
/** A response named by its letter in source order: A, B, C… */
export const responseLetter = z.string().regex(/^[A-Z]$/, 'expected a response letter, A to Z');
export const strength = z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'expected a strength of 1, 2 or 3' });
/** A step's rating: −1 (wrong), 0 (neutral), +1 (right). */
export const stepRating = z.union([z.literal(-1), z.literal(0), z.literal(1)], { error: (issue) => `expected a step rating of -1, 0 or 1 (or null: not rated), got ${shownValue(issue.input)}` });
/** The first wrong step's index; −1: every step is right. */
export const firstError = z.number({ error: (issue) => `expected a step index (-1: no error), got ${shownValue(issue.input)}` }).int('expected a whole step index').min(-1, 'expected a step index of -1 (no error) or more');
/** Ratings per response of a version of a rubric. */
export const rubricVersion = z.number({ error: (issue) => `expected a rubric version (1, 2, …), got ${shownValue(issue.input)}` }).int('expected a whole version number').min(1, 'expected a rubric version of 1 or more');
/**
 * A criterion's value: a number (a Likert point; a binary criterion's 1 yes / 0 no), true / false (a
 * binary criterion's yes / no), a category's name, or null (not applicable). Its criterion's scale
 * decides which of these fits (shared/rubric.ts offScale).
 */
export const ratingValue = z.union([z.number(), z.boolean(), z.string().max(200, 'a category name is longer than 200 characters'), z.null()], {
  error: (issue) => `expected a rating (a number, yes/no as true/false, a category name, or null), got ${shownValue(issue.input)}`,
});
/** The order the responses were shown in (indexes in source order, left to right). */
export const shownOrderList = z.array(z.number().int().min(0));
/** Best first: groups of tied response indexes. */
export const rankingGroups = z
  .array(z.array(z.number().int().min(0)).min(1, 'expected a group of one or more response indexes, not an empty one'))
  .min(1, 'expected at least one group of response indexes');

/** A value as a message shows it: short, and its kind when it is not a plain value. */
export function shownValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value.length > 40 ? `"${value.slice(0, 40)}…"` : JSON.stringify(value);
  return String(value);
}
