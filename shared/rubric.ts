// Rubrics: named lists of criteria an annotator rates each response against (docs/data.md "Where the data
// lives and how it is kept", docs/formats.md "Ratings, rubrics and critiques"). Pure and isomorphic, so
// the rubric editor in the renderer checks a criterion with the same rules, and the same sentences, as
// the core and `arbiter rubric import`.
//
// A criterion: key (a slug), description (markdown), scale (binary yes / no, Likert min–max, or named
// categories), weight (a negative weight marks a pitfall, as Rubrics-as-Rewards does), required, and an
// optional one-character hotkey. Every scale also takes null: "not applicable".
import { z } from 'zod';

export type Scale = { type: 'binary' } | { type: 'likert'; min: number; max: number } | { type: 'categories'; values: string[] };

/** A criterion as stored: defaults filled in, the description's line ends normalized, no null hotkey. */
export interface Criterion {
  key: string;
  description: string;
  scale: Scale;
  weight: number;
  required: boolean;
  hotkey?: string;
}

/** A criterion as written in a file or the editor: only key and scale must be there. */
export interface CriterionInput {
  key: string;
  description?: string;
  scale: Scale;
  weight?: number;
  required?: boolean;
  hotkey?: string | null;
}

/** A rating: a binary criterion's 1 (yes) or 0 (no), a Likert whole number, a category's name; null: not applicable. */
export type RatingValue = number | string | null;

/** The rubric name that means "this item's own criteria" (a per-prompt rubric); no project rubric may take it. */
export const ITEM_RUBRIC = 'item';

export const RUBRIC_LIMITS = { criteria: 100, key: 64, description: 20_000, categories: 50, category: 80, name: 80 } as const;

/** A rubric name as saveRatings and getRubric take it: a project rubric's name, or "item". */
export const rubricRef = z
  .string()
  .trim()
  .min(1, 'rubric name is empty')
  .max(RUBRIC_LIMITS.name, `rubric name is longer than ${RUBRIC_LIMITS.name} characters`)
  .regex(/^[^/\\\u0000-\u001f]+$/, 'rubric name has a slash or a control character');

/** A project rubric's name: as rubricRef, but never "item". */
export const rubricName = rubricRef.refine((name) => name !== ITEM_RUBRIC, `rubric name "${ITEM_RUBRIC}" is kept for an item's own criteria; choose another`);

const KEY = /^[a-z0-9][a-z0-9_-]*$/;
const SCALE_TYPES = ['binary', 'likert', 'categories'] as const;
const CRITERION_FIELDS = ['key', 'description', 'scale', 'weight', 'required', 'hotkey'];

/** A value as a message quotes it: short, JSON-like. */
function quoted(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  const text = typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

const likert = z
  .object({
    type: z.literal('likert'),
    min: z.number().int(),
    max: z.number().int(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.max <= s.min) ctx.addIssue({ code: 'custom', path: ['max'], message: `must be greater than min (${s.min})`, input: s.max });
  });

const categories = z
  .object({
    type: z.literal('categories'),
    values: z
      .array(z.string().trim().min(1).max(RUBRIC_LIMITS.category))
      .min(2, 'needs at least 2 categories')
      .max(RUBRIC_LIMITS.categories, `has more than ${RUBRIC_LIMITS.categories} categories`),
  })
  .strict()
  .superRefine((s, ctx) => {
    const seen = new Map<string, number>();
    s.values.forEach((value, i) => {
      const first = seen.get(value);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['values', i], message: `${quoted(value)} is already values[${first}]`, input: value });
      else seen.set(value, i);
    });
  });

export const scaleSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('binary') }).strict(), likert, categories]);

export const criterionSchema = z
  .object({
    key: z
      .string()
      .max(RUBRIC_LIMITS.key, `is longer than ${RUBRIC_LIMITS.key} characters`)
      .regex(KEY, { error: (issue) => `must be a slug: lowercase letters, digits, "_" and "-", starting with a letter or digit (it was ${quoted(issue.input)})` }),
    description: z
      .string()
      .max(RUBRIC_LIMITS.description, `is longer than ${RUBRIC_LIMITS.description.toLocaleString('en')} characters`)
      .default('')
      .transform((text) => text.replace(/\r\n?/g, '\n').trim()),
    scale: scaleSchema,
    weight: z.number().default(1),
    required: z.boolean().default(false),
    hotkey: z
      .string()
      .refine((k) => [...k].length === 1, { error: (issue) => `must be one character (it was ${quoted(issue.input)})` })
      .refine((k) => !/^\s$/u.test(k), 'must be a visible character, not a space')
      .refine((k) => !/^[0-9]$/.test(k), { error: (issue) => `must not be a digit: digits rate (it was ${quoted(issue.input)})` })
      .nullable()
      .optional(),
  })
  .strict()
  .transform((c): Criterion => {
    const criterion: Criterion = { key: c.key, description: c.description, scale: normalizeScale(c.scale), weight: c.weight, required: c.required };
    if (c.hotkey) criterion.hotkey = c.hotkey;
    return criterion;
  });

/** A scale with its fields in a fixed order (how it is stored and exported). */
function normalizeScale(scale: Scale): Scale {
  if (scale.type === 'likert') return { type: 'likert', min: scale.min, max: scale.max };
  if (scale.type === 'categories') return { type: 'categories', values: [...scale.values] };
  return { type: 'binary' };
}

export const criteriaSchema = z
  .array(criterionSchema)
  .min(1, 'needs at least one criterion')
  .max(RUBRIC_LIMITS.criteria, `has more than ${RUBRIC_LIMITS.criteria} criteria`)
  .superRefine((list, ctx) => {
    const keys = new Map<string, number>();
    const hotkeys = new Map<string, number>();
    list.forEach((c, i) => {
      const sameKey = keys.get(c.key);
      if (sameKey !== undefined) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `${quoted(c.key)} is already the key of criteria[${sameKey}]`, input: c.key });
      else keys.set(c.key, i);
      if (c.hotkey === undefined) return;
      // Case apart, a and A are one key to a person: they may not name two criteria.
      const folded = c.hotkey.toLowerCase();
      const sameHotkey = hotkeys.get(folded);
      if (sameHotkey !== undefined)
        ctx.addIssue({ code: 'custom', path: [i, 'hotkey'], message: `${quoted(c.hotkey)} is already the hotkey of criteria[${sameHotkey}] (${list[sameHotkey]!.key})`, input: c.hotkey });
      else hotkeys.set(folded, i);
    });
  });

/** A rubric file (`arbiter rubric import`, docs/formats.md): its name and criteria; `version` (as exported) is informational. */
export const rubricFileSchema = z
  .object({
    name: rubricName,
    version: z.number().int().min(1).optional(),
    criteria: criteriaSchema,
  })
  .strict();

/** One problem, where it is ("criteria[2].scale.max") and why ("must be greater than min (1)"). */
export interface RubricProblem {
  where: string;
  reason: string;
}

const KINDS: Record<string, string> = { string: 'text', number: 'a number', int: 'a whole number', boolean: 'true or false', array: 'a list', object: 'an object' };

/** zod's base issues in words; a schema's own messages (every rule above) are used as they are. */
function reasonOf(issue: z.core.$ZodRawIssue): string {
  const input = issue.input;
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return 'is missing';
      const expected = String(issue.expected);
      return `must be ${KINDS[expected] ?? expected} (it was ${quoted(input)})`;
    }
    case 'too_small':
      if (issue.origin === 'string') return 'is empty';
      if (issue.origin === 'array') return `needs at least ${Number(issue.minimum)} entries`;
      return `must be ${Number(issue.minimum)} or more (it was ${quoted(input)})`;
    case 'too_big':
      if (issue.origin === 'string') return `is longer than ${Number(issue.maximum)} characters`;
      if (issue.origin === 'array') return `has more than ${Number(issue.maximum)} entries`;
      return `must be ${Number(issue.maximum)} or less (it was ${quoted(input)})`;
    case 'invalid_union': {
      // A scale whose type is none of the three.
      if ((issue as { discriminator?: string }).discriminator === 'type') {
        const type = input && typeof input === 'object' ? (input as { type?: unknown }).type : undefined;
        return `must be one of ${SCALE_TYPES.map((t) => `"${t}"`).join(', ')} (it was ${quoted(type)})`;
      }
      return `is not valid (it was ${quoted(input)})`;
    }
    case 'invalid_value':
      return `must be ${(issue.values ?? []).map((v) => quoted(v)).join(' or ')} (it was ${quoted(input)})`;
    default:
      return `is not valid (it was ${quoted(input)})`;
  }
}

/** `criteria[2].scale.max` from a zod path under a prefix. */
export function pathText(prefix: string, path: readonly PropertyKey[]): string {
  let text = prefix;
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : text ? `.${String(part)}` : String(part);
  return text || '(the file)';
}

const FILE_FIELDS = ['name', 'version', 'criteria'];

function problemsOf(issues: readonly z.core.$ZodIssue[], prefix: string): RubricProblem[] {
  const problems: RubricProblem[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      // Name the fields that are known where that is short to say: in a criterion, and at the top of a file.
      const last = issue.path[issue.path.length - 1];
      const known = typeof last === 'number' ? CRITERION_FIELDS : issue.path.length === 0 && !prefix ? FILE_FIELDS : null;
      const fields = known ? ` (${known.join(', ')})` : '';
      for (const key of issue.keys) problems.push({ where: pathText(prefix, [...issue.path, key]), reason: `is not a field Arbiter knows here${fields}` });
    } else problems.push({ where: pathText(prefix, issue.path), reason: issue.message });
  }
  return problems;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problems: RubricProblem[] };

/** Checks a criteria list (the editor's, an item's own); problems are named `criteria[i].field`. */
export function checkCriteria(input: unknown): Checked<Criterion[]> {
  const parsed = criteriaSchema.safeParse(input, { error: reasonOf });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problems: problemsOf(parsed.error.issues, 'criteria') };
}

/** Checks a rubric file's parsed JSON: `{name, criteria}` (and the `version` an export writes). */
export function checkRubricFile(input: unknown): Checked<{ name: string; criteria: Criterion[] }> {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    return { ok: false, problems: [{ where: '(the file)', reason: `must be a JSON object {"name", "criteria"} (it was ${Array.isArray(input) ? 'a list' : quoted(input)})` }] };
  const parsed = rubricFileSchema.safeParse(input, { error: reasonOf });
  if (parsed.success) return { ok: true, value: { name: parsed.data.name, criteria: parsed.data.criteria } };
  return { ok: false, problems: problemsOf(parsed.error.issues, '') };
}

export const problemText = (p: RubricProblem) => `${p.where}: ${p.reason}`;

/**
 * JSON with every object's keys sorted, at every depth: two criteria lists that differ only in the order
 * of their fields give the same text (and so the same hash, and the same version). Arrays keep their
 * order: the criteria's order is part of the rubric, as are a scale's categories.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Why a value is not on a criterion's scale, or null when it is. null (not applicable) is on every scale. */
export function offScale(scale: Scale, value: unknown): string | null {
  if (value === null) return null;
  switch (scale.type) {
    case 'binary':
      return value === 0 || value === 1 || typeof value === 'boolean' ? null : `expected yes/no (true/false, 1/0) or null (not applicable), got ${quoted(value)}`;
    case 'likert':
      return typeof value === 'number' && Number.isInteger(value) && value >= scale.min && value <= scale.max
        ? null
        : `must be a whole number from ${scale.min} to ${scale.max}, or null (not applicable) (it was ${quoted(value)})`;
    case 'categories':
      return typeof value === 'string' && scale.values.includes(value)
        ? null
        : `must be one of ${scale.values.map((v) => quoted(v)).join(', ')}, or null (not applicable) (it was ${quoted(value)})`;
  }
}

/** A value as stored: a binary criterion's true / false become 1 / 0; every other value stays as it is. */
export function storedRating(scale: Scale, value: unknown): unknown {
  return scale.type === 'binary' && typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

/** A scale in a few words, for lists and messages: "binary", "likert 1–5", "categories a / b / c". */
export function scaleText(scale: Scale): string {
  if (scale.type === 'likert') return `likert ${scale.min}–${scale.max}`;
  if (scale.type === 'categories') return `categories ${scale.values.join(' / ')}`;
  return 'binary';
}
