// The common labels line (a pairwise or verdict revision: ids, who, task, choice, strength, shown order,
// rationale, time, created_at and nothing else) checked without zod: a labels merge checks every line of
// its file, and zod's object parse is most of that time. Each field here is held to the rule of
// labelSchema (its body fields are the body codecs', shared/labelBodies.ts) or a stricter one; a line with
// any other field, or any value this check is unsure of, goes to labelSchema, which decides (and words
// the error). test/unit/label-line-quick.test.ts holds the two
// side by side.
import { z } from 'zod';
import { TASKS } from '../../../../shared/domain';
import { RATIONALE_MAX } from '../../../../shared/labelBodies';
import { check as checkSchema } from '../validate';
import { labelSchema, type LabelLine } from './labelLine';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UUID = z.uuid();
const TASK_NAMES = new Set<unknown>(TASKS);
const KINDS = new Set<unknown>(['human', 'model', 'source']);
const WORD_CHOICES = new Set<unknown>(['tie', 'both_bad', 'good', 'bad']);
const LETTER = /^[A-Z]$/;

const text = (v: unknown, min: number, max: number) => typeof v === 'string' && v.length >= min && v.length <= max;
const count = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Each field this check knows, with its test; a line with a field not listed here goes to labelSchema. */
const FIELDS: Record<string, (v: unknown) => boolean> = {
  id: (v) => text(v, 1, 200) && !LONE_SURROGATE.test(v as string),
  item: (v) => text(v, 1, Infinity) || (typeof v === 'number' && Number.isFinite(v)),
  item_uid: (v) => text(v, 1, Infinity),
  annotator: (v) => text(v, 1, 80),
  annotator_uuid: (v) => typeof v === 'string' && UUID.safeParse(v).success,
  annotator_kind: (v) => KINDS.has(v),
  task: (v) => TASK_NAMES.has(v),
  choice: (v) => v === null || WORD_CHOICES.has(v) || (typeof v === 'string' && LETTER.test(v)),
  strength: (v) => v === null || v === 1 || v === 2 || v === 3,
  shown_order: (v) => v === null || (Array.isArray(v) && v.every(count)),
  rationale: (v) => text(v, 0, RATIONALE_MAX),
  time_ms: count,
  prelabel_visible: (v) => typeof v === 'boolean',
  created_at: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
};
const REQUIRED = ['id', 'item', 'annotator', 'created_at'] as const;

/** A labels line checked as labelSchema checks it: at once where it is a common line, else by the schema. */
export function checkLabelLine(value: Record<string, unknown>): LabelLine {
  return isCommonLine(value) ? (value as LabelLine) : checkSchema(labelSchema, value);
}

function isCommonLine(value: Record<string, unknown>): boolean {
  for (const key of REQUIRED) if (!Object.hasOwn(value, key)) return false;
  for (const key of Object.keys(value)) {
    const test = Object.hasOwn(FIELDS, key) ? FIELDS[key] : undefined;
    if (!test || !test(value[key])) return false;
  }
  return true;
}
