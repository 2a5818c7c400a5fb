// ProcessBench: {"id", "generator", "problem", "steps": [str], "final_answer_correct": bool, "label": int},
// `label` the index of the earliest wrong step, or −1 when every step is right.
// Import: one response (the steps joined by a blank line; `generator` is its model) and the file's label as
// the `source` annotator's step ratings: +1 before the wrong step, −1 at it, unrated after it (PRM800K's
// protocol); every step +1 for −1. `final_answer_correct` is the response's outcome (correct / incorrect),
// kept apart from the steps. Export: see ./stepExport.ts.
import { chainRecord } from './chain';
import { stepTexts } from './stepwise';
import { RecordError, type ParsedRecord } from '../types';
import { externalIdOf, extraFields } from '../validate';

const FIELDS = new Set(['id', 'generator', 'problem', 'steps', 'final_answer_correct', 'label']);
export const PROCESSBENCH_SEPARATOR = '\n\n';

export function parseProcessbench(record: Record<string, unknown>): ParsedRecord {
  const { problem, generator, label, final_answer_correct: correct } = record;
  if (typeof problem !== 'string') throw new RecordError(`problem: ${problem === undefined ? 'missing' : `expected a string, got ${typeof problem}`}`);
  if (problem.length === 0) throw new RecordError('problem: empty text');
  const steps = stepTexts(record.steps, 'steps');
  if (typeof label !== 'number' || !Number.isInteger(label)) throw new RecordError(`label: ${label === undefined ? 'missing' : 'expected the index of the earliest wrong step, or -1'}`);
  if (label < -1 || label >= steps.length) throw new RecordError(`label: ${label}, but there are ${steps.length} steps (the earliest wrong step's index, 0 to ${steps.length - 1}, or -1)`);
  if (!(correct === undefined || correct === null || typeof correct === 'boolean')) throw new RecordError(`final_answer_correct: expected true or false, got ${typeof correct}`);
  if (!(generator === undefined || generator === null || typeof generator === 'string')) throw new RecordError(`generator: expected a string, got ${typeof generator}`);
  const ratings = steps.map((_, i) => (label === -1 || i < label ? 1 : i === label ? -1 : null));
  return chainRecord({
    externalId: externalIdOf(record.id),
    prompt: problem,
    steps,
    separator: PROCESSBENCH_SEPARATOR,
    model: typeof generator === 'string' && generator ? generator : null,
    reference: null,
    metadata: extraFields(record, FIELDS),
    ratings,
    extra: { outcome: typeof correct === 'boolean' ? (correct ? 'correct' : 'incorrect') : null },
  });
}
