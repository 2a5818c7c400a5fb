// One line of a labels file, checked as the app checks a save: the revision's fields pass the same zod
// schemas as the save operations (shared/api/common.ts), and the item-aware rules (electron/core/
// labelRules.ts): response letters the item has, a complete ranking and shown order, step ratings as many
// as the response's steps, a first error among them, a rubric version this project has with every value
// on its criterion's scale. A line that fails says which field and why ("steps.C: the item has 2
// responses (A, B), not "C"").
import { z } from 'zod';
import { shownOrderList, strength } from '../../../../shared/api/common';
import { LABEL_BODY_FIELDS, PER_RESPONSE_FIELDS } from '../../../../shared/labelBodies';
import { ITEM_RUBRIC } from '../../../../shared/rubric';
import { TASKS, type ItemRecord } from '../../../../shared/domain';
import { ArbiterError } from '../../base/errors';
import { checkRatings, letterProblem, rankingProblem, regionProblems, responseShape, shownOrderProblem, stepExtrasProblems, stepsProblem } from '../../base/labelRules';
import type { Db } from '../../store/db';
import { getItem } from '../../store/items';
import { findRubric, itemRubricName, rubricVersion as storedRubricVersion } from '../../store/rubrics';
import { currentSegmentations, segmentationVersion } from '../../store/segmentations';
import { RecordError } from '../types';

const index = z.number().int().min(0);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const labelSchema = z.looseObject({
  // Any id of 1–200 characters (other tools' files keep theirs), but text as it was: a lone surrogate escape
  // would be stored as U+FFFD, a silent change, so it is refused.
  id: z
    .string()
    .min(1, 'empty')
    .max(200, 'longer than 200 characters')
    .refine((id) => !LONE_SURROGATE.test(id), 'holds a lone surrogate escape (\\ud800–\\udfff without its other half)'),
  item: z.union([z.string().min(1, 'empty'), z.number()], { error: 'expected the item’s external id or uid' }),
  item_uid: z.string().min(1, 'empty').optional(),
  annotator: z.string().min(1, 'empty').max(80, 'longer than 80 characters'),
  annotator_uuid: z.uuid('not a UUID').optional(),
  annotator_kind: z.enum(['human', 'model', 'source']).optional(),
  task: z.enum(TASKS).optional(),
  choice: z
    .union([z.string().regex(/^[A-Z]$/, 'not a response letter'), z.enum(['tie', 'both_bad', 'good', 'bad'])], {
      error: 'expected a response letter, "tie", "both_bad", "good" or "bad"',
    })
    .nullable()
    .optional(),
  // Best first: response indexes, or groups of tied ones ([[3], [0, 2], [1]]).
  ranking: z
    .union([z.array(index).min(2, 'fewer than 2 entries'), z.array(z.array(index).min(1, 'an empty group')).min(1, 'empty')], {
      error: 'expected a list of response indexes, best first, or of groups of tied ones',
    })
    .nullable()
    .optional(),
  strength: strength.nullable().optional(),
  shown_order: shownOrderList.nullable().optional(),
  // The body's fields, each by its task's codec (shared/labelBodies.ts).
  ...LABEL_BODY_FIELDS,
  created_at: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a timestamp'),
});
export type LabelLine = z.infer<typeof labelSchema>;

/** Step label fields checked against the response's steps and, for a trajectory, its turns. */
const EXTRAS = ['step_tags', 'step_severity', 'tool_verdicts', 'corrections', 'attribution', 'outcome'] as const;
const EXTRA_FIELD = { tags: 'step_tags', severity: 'step_severity', toolVerdicts: 'tool_verdicts', corrections: 'corrections', attribution: 'attribution', outcome: 'outcome' } as const;

/**
 * The item-aware checks of one line (its schema passed), against the item it names. Returns the rubric
 * version the ratings were made under (its row id), the ratings as stored (a binary criterion's true /
 * false as 1 / 0), or throws a RecordError naming the field.
 */
export function itemRules(db: Db, projectId: number, line: LabelLine, itemId: number, count: number, ranking: number[][] | null): { rubricVersionId: number | null; ratings?: LabelLine['ratings'] } {
  const problems: string[] = [];
  for (const field of PER_RESPONSE_FIELDS) {
    const perLetter = line[field];
    if (perLetter === undefined) continue;
    for (const letter of Object.keys(perLetter)) {
      const why = letterProblem(letter, count);
      if (why) problems.push(`${field}.${letter}: ${why}`);
    }
  }
  const choice = line.choice ?? null;
  if (choice && /^[A-Z]$/.test(choice)) {
    const why = letterProblem(choice, count);
    if (why) problems.push(`choice: ${why}`);
  }
  if (ranking) {
    const why = rankingProblem(ranking, count);
    if (why) problems.push(`ranking: ${why}`);
  }
  if (line.shown_order) {
    const why = shownOrderProblem(line.shown_order, count);
    if (why) problems.push(`shown_order: ${why}`);
  }
  if (line.regions?.length) problems.push(...regionProblems(getItem(db, projectId, itemId)!, line.regions));
  // Marks in time name a response by its index (shared/moments.ts).
  line.moments?.forEach((m, i) => m.at >= count && problems.push(`moments[${i}].at: the item has ${count} response${count === 1 ? '' : 's'} (0 to ${count - 1}), not ${m.at}`));
  if (problems.length) throw new RecordError(problems.slice(0, 5).join('; '));
  checkSteps(db, projectId, line, itemId);
  return checkRubric(db, projectId, line, itemId);
}

/**
 * Step ratings as many as the steps of the version they were made on, where this machine has that cut;
 * tags, severities, tool call verdicts, corrections, attribution and outcome checked as a save's are
 * (labelRules.ts stepExtrasProblems), against those steps and a trajectory's turns.
 */
function checkSteps(db: Db, projectId: number, line: LabelLine, itemId: number): void {
  // Most lines (a pairwise choice) have no step field: nothing to check, nothing to gather.
  if (line.steps === undefined && line.first_error === undefined && EXTRAS.every((field) => line[field] === undefined)) return;
  const letters = new Set([...Object.keys(line.steps ?? {}), ...Object.keys(line.first_error ?? {})]);
  const extraLetters = new Set(EXTRAS.flatMap((field) => Object.keys(line[field] ?? {})));
  if (!letters.size && !extraLetters.size) return;
  let current: ReturnType<typeof currentSegmentations> | null = null;
  const countOf = (letter: string): number | null => {
    const responseIdx = letter.charCodeAt(0) - 65;
    const version = line.segmentation?.[letter];
    let stored = version !== undefined ? segmentationVersion(db, itemId, responseIdx, version) : null;
    if (version === undefined) stored = (current ??= currentSegmentations(db, itemId)).get(responseIdx) ?? null;
    // A cut from the file or Arbiter's own rule is the same on every machine; an annotator's split or merge
    // is numbered per machine, so the same version here may be another cut: its count is not compared.
    return stored && stored.origin !== 'annotator' ? stored.steps.length : null;
  };
  for (const letter of letters) {
    const why = stepsProblem(line.steps?.[letter], line.first_error?.[letter], countOf(letter));
    if (why) throw new RecordError(`steps.${letter}: ${why}`);
  }
  if (!extraLetters.size) return;
  const item = getItem(db, projectId, itemId)!;
  const problems: string[] = [];
  for (const letter of extraLetters) {
    const content = item.responses[letter.charCodeAt(0) - 65]!.content;
    const extras = {
      tags: line.step_tags?.[letter],
      severity: line.step_severity?.[letter],
      toolVerdicts: line.tool_verdicts?.[letter],
      corrections: line.corrections?.[letter],
      attribution: line.attribution?.[letter],
      outcome: line.outcome?.[letter],
    };
    problems.push(...stepExtrasProblems(extras, responseShape(content, countOf(letter)), (name) => `${EXTRA_FIELD[name]}.${letter}`));
  }
  if (problems.length) throw new RecordError(problems.slice(0, 5).join('; '));
}

/** Ratings under a rubric version this project has, every value on its criterion's scale. */
function checkRubric(db: Db, projectId: number, line: LabelLine, itemId: number): { rubricVersionId: number | null; ratings?: LabelLine['ratings'] } {
  if (line.rubric_version === undefined) {
    if (line.rubric !== undefined) throw new RecordError(`rubric_version: missing (the ratings name the rubric “${line.rubric}” but not its version)`);
    return { rubricVersionId: null };
  }
  if (line.rubric === undefined) throw new RecordError('rubric: missing (rubric_version names a version of no rubric)');
  let item: ItemRecord | null = null;
  const name = line.rubric === ITEM_RUBRIC ? itemRubricName((item = getItem(db, projectId, itemId))!.uid) : line.rubric;
  const rubric = findRubric(db, projectId, name);
  const version = rubric ? storedRubricVersion(db, rubric.id, line.rubric_version) : null;
  if (!version) {
    const what = line.rubric === ITEM_RUBRIC ? 'the item’s own criteria have' : `this project’s rubric “${line.rubric}” has`;
    throw new RecordError(`rubric_version: ${rubric ? `${what} no version ${line.rubric_version}` : `this project has no rubric “${line.rubric}”`}; import the rubric first (arbiter rubric import)`);
  }
  if (!line.ratings) return { rubricVersionId: version.id };
  item ??= getItem(db, projectId, itemId)!;
  try {
    const checked = checkRatings(item, `the rubric “${line.rubric}” version ${version.version}`, version.criteria, { ratings: line.ratings });
    return { rubricVersionId: version.id, ratings: checked.ratings };
  } catch (error) {
    if (!(error instanceof ArbiterError)) throw error;
    const problems = (error.details as { problems?: string[] } | undefined)?.problems;
    throw new RecordError(problems ? problems.slice(0, 5).join('; ') : error.message.replace(/^Could not save the ratings: /, '').replace(/\.$/, ''));
  }
}
