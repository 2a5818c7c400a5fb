// Names every feature's contract validates the same way: the API, the CLI and the host share them.
import { z } from 'zod';
import { ALL_OUTCOMES, SEVERITIES, TOOL_VERDICTS, type StepCorrection } from '../stepJudgement';

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
 * (electron/core/formats/exchange/labels.ts): a revision a file brings passes the same checks as one the app saves.
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
/** A step index as a record key ("0", "1", …), as JSON keys are. */
export const stepKey = z.string().regex(/^\d+$/, 'expected a step index (0, 1, …) as the key');
/** How bad a tagged step's error is (shared/stepJudgement.ts). */
export const severity = z.enum(SEVERITIES, { error: (issue) => `expected a severity: minor, major or critical, got ${shownValue(issue.input)}` });
/** A verdict on one tool call (shared/stepJudgement.ts). */
export const toolVerdict = z.enum(TOOL_VERDICTS, { error: (issue) => `expected a tool call verdict: correct, wrong or unnecessary, got ${shownValue(issue.input)}` });
/**
 * A step's correction: its corrected text, or the tool calls the turn should have made, each
 * `{id?, name, arguments}` with the arguments a JSON object (as TRL writes them), and optionally the
 * corrected text (the thought) before them as `content`. Checked by hand so
 * that every refusal names the call and says what fits there, in the API and in a labels file alike.
 */
export const stepCorrection = z.custom<StepCorrection>(() => true).superRefine((value, ctx) => {
  const say = (message: string, path: PropertyKey[] = []) => ctx.addIssue({ code: 'custom', message, path, input: value });
  if (typeof value === 'string') {
    if (value.length > 20_000) say('expected a correction of at most 20,000 characters');
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return say(`expected a correction: text, or {"tool_calls": [{"name", "arguments"}]}, got ${shownValue(value)}`);
  const extra = Object.keys(value).filter((k) => k !== 'tool_calls' && k !== 'content');
  if (extra.length) return say(`expected only "tool_calls" and "content" in a corrected call, not ${extra.map((k) => `"${k}"`).join(', ')}`);
  const content = (value as { content?: unknown }).content;
  if (content !== undefined && (typeof content !== 'string' || content.length > 20_000)) return say(`expected "content" (the corrected text before the calls) as text of at most 20,000 characters, got ${shownValue(content)}`, ['content']);
  const calls = (value as { tool_calls?: unknown }).tool_calls;
  if (!Array.isArray(calls) || calls.length === 0 || calls.length > 20) return say(`expected "tool_calls" to be a list of 1 to 20 calls, got ${shownValue(calls)}`, ['tool_calls']);
  calls.forEach((call: unknown, i) => {
    const at = (key?: string) => (key ? ['tool_calls', i, key] : ['tool_calls', i]);
    if (call === null || typeof call !== 'object' || Array.isArray(call)) return say(`expected a call {"name", "arguments"}, got ${shownValue(call)}`, at());
    const c = call as Record<string, unknown>;
    const unknown = Object.keys(c).filter((k) => k !== 'id' && k !== 'name' && k !== 'arguments');
    if (unknown.length) say(`expected only "id", "name" and "arguments" in a call, not ${unknown.map((k) => `"${k}"`).join(', ')}`, at());
    if (c.id !== undefined && (typeof c.id !== 'string' || c.id.length === 0 || c.id.length > 200)) say(`expected the call's id as text of 1 to 200 characters, got ${shownValue(c.id)}`, at('id'));
    if (typeof c.name !== 'string' || c.name.trim() === '') say(`expected the tool’s name, got ${c.name === '' ? 'an empty name' : shownValue(c.name)}`, at('name'));
    else if (c.name.length > 200) say('expected a tool name of at most 200 characters', at('name'));
    const args = c.arguments;
    if (args === null || typeof args !== 'object' || Array.isArray(args)) say(`expected the arguments as a JSON object, got ${shownValue(args)}`, at('arguments'));
  });
});
/** Who and when: the agent whose turn decided the failure, and that turn. */
export const attribution = z
  .object({
    agent: z.string().trim().min(1, 'an empty agent name').max(120, 'an agent name longer than 120 characters').optional(),
    step: z.number({ error: (issue) => `expected the deciding step's index, got ${shownValue(issue.input)}` }).int('expected a whole step index').min(0, 'expected a step index of 0 or more'),
  })
  .strict();
/** A response's outcome: a chain's final answer (correct / incorrect / unsure) or a trajectory's task (success / partial / failure). */
export const outcome = z.enum(ALL_OUTCOMES, { error: (issue) => `expected an outcome: correct, incorrect or unsure (a chain), success, partial or failure (a trajectory), got ${shownValue(issue.input)}` });
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
