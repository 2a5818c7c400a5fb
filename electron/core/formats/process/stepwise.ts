// TRL stepwise supervision (what PRMTrainer reads): {"prompt": str, "completions": [str], "labels": [bool]}.
// Import: one response whose steps are the completions (joined by "\n", PRMConfig's default
// step_separator), every step rated: true → +1, false → −1. Export: the kept chain (./chain.ts), only
// +1 true (0 too with `--neutral true`); see ./stepExport.ts.
import { chainRecord } from './chain';
import { RecordError, type ParsedRecord } from '../types';
import { externalIdOf, extraFields } from '../validate';

const FIELDS = new Set(['prompt', 'completions', 'labels', 'id']);

/** A list of non-empty strings, or why not (field-named). */
export function stepTexts(value: unknown, field: string): string[] {
  if (!Array.isArray(value)) throw new RecordError(`${field}: ${value === undefined ? 'missing' : 'expected a list of steps'}`);
  if (value.length === 0) throw new RecordError(`${field}: empty list`);
  value.forEach((step, i) => {
    if (typeof step !== 'string') throw new RecordError(`${field}[${i}]: expected a string, got ${step === null ? 'null' : typeof step}`);
    if (step.trim() === '') throw new RecordError(`${field}[${i}]: empty text`);
  });
  return value as string[];
}

export function parseTrlStepwise(record: Record<string, unknown>): ParsedRecord {
  const { prompt, completions, labels } = record;
  if (typeof prompt !== 'string') throw new RecordError(`prompt: ${prompt === undefined ? 'missing' : `expected a string, got ${Array.isArray(prompt) ? 'a list' : typeof prompt}`}`);
  if (prompt.length === 0) throw new RecordError('prompt: empty text');
  const steps = stepTexts(completions, 'completions');
  if (!Array.isArray(labels)) throw new RecordError(`labels: ${labels === undefined ? 'missing' : 'expected a list of true/false'}`);
  if (labels.length !== steps.length) throw new RecordError(`labels: ${labels.length} label(s) for ${steps.length} completion(s)`);
  const ratings = labels.map((label, i) => {
    if (typeof label !== 'boolean') throw new RecordError(`labels[${i}]: expected true or false, got ${label === null ? 'null' : typeof label}`);
    return label ? 1 : -1;
  });
  return chainRecord({
    externalId: externalIdOf(record.id),
    prompt,
    steps,
    separator: '\n',
    model: null,
    reference: null,
    metadata: extraFields(record, FIELDS),
    ratings,
  });
}
