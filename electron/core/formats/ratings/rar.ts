// Rubrics as Rewards (ScaleAI/RaR-Medicine, RaR-Science): a prompt with its own weighted rubric.
//   {"question", "reference_answer", "question_source", "rubric": [{"title", "description", "weight"}], "rubric_list", "rubric_count"}
// Import: question → prompt, reference_answer → the item's reference, rubric → the item's own criteria
// (rated as the rubric "item"): each binary (met / not met), keyed by its title as a slug, with its
// description and weight (negative: a pitfall, as RaR marks them). RaR has no responses (a policy writes
// them in training): a line may carry its own (`responses`: texts or {text, model}, or one `response`);
// without any, the reference answer is the one response (model "reference_answer"), so that the rubric
// can be checked against it. rubric_list and rubric_count repeat the rubric and are not kept; any other
// field is item metadata. There is no rar export: the criteria go out with the ratings made under them.
import { checkCriteria, problemText, type CriterionInput } from '../../../../shared/rubric';
import { RecordError, type ParsedRecord } from '../types';
import { extraFields, isPlainObject } from '../validate';

type Json = Record<string, unknown>;

const KNOWN = new Set(['question', 'reference_answer', 'rubric', 'rubric_list', 'rubric_count', 'responses', 'response', 'id']);
export const REFERENCE_MODEL = 'reference_answer';

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

/** A criterion key from a title: lowercase letters, digits and "_", at most 64 characters. */
export function slug(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60)
    .replace(/_+$/, '');
}

function responsesOf(record: Json, reference: string | null): ParsedRecord['draft']['responses'] {
  const given = record.responses ?? (record.response === undefined ? undefined : [record.response]);
  if (given === undefined || given === null) {
    if (reference === null) throw new RecordError('reference_answer: missing, and the line has no responses: there is nothing to rate');
    return [{ content: reference, model: REFERENCE_MODEL, steps: null }];
  }
  if (!Array.isArray(given) || given.length === 0) throw new RecordError(`responses: expected a non-empty list, got ${describe(given)}`);
  return given.map((r, i) => {
    const text = isPlainObject(r) ? r.text : r;
    const model = isPlainObject(r) && typeof r.model === 'string' ? r.model : null;
    if (typeof text !== 'string' || text.length === 0) throw new RecordError(`responses[${i}]: expected text or {text, model}, got ${describe(text)}`);
    return { content: text, model, steps: null };
  });
}

export function parseRar(record: Json): ParsedRecord {
  const { question, reference_answer: reference, rubric } = record;
  if (typeof question !== 'string' || question.length === 0)
    throw new RecordError(`question: ${question === undefined ? 'missing' : typeof question === 'string' ? 'empty text' : `expected a string, got ${describe(question)}`}`);
  if (!(reference === undefined || reference === null || typeof reference === 'string')) throw new RecordError(`reference_answer: expected a string, got ${describe(reference)}`);
  if (!Array.isArray(rubric) || rubric.length === 0) throw new RecordError(`rubric: ${rubric === undefined ? 'missing' : Array.isArray(rubric) ? 'empty list' : `expected a list, got ${describe(rubric)}`}`);
  const used = new Set<string>();
  const input: CriterionInput[] = rubric.map((c, i) => {
    const where = `rubric[${i}]`;
    if (!isPlainObject(c)) throw new RecordError(`${where}: expected an object, got ${describe(c)}`);
    if (typeof c.description !== 'string') throw new RecordError(`${where}.description: ${c.description === undefined ? 'missing' : `expected a string, got ${describe(c.description)}`}`);
    if (typeof c.weight !== 'number' || !Number.isFinite(c.weight)) throw new RecordError(`${where}.weight: expected a number, got ${JSON.stringify(c.weight) ?? 'nothing'}`);
    const base = (typeof c.title === 'string' && slug(c.title)) || `criterion_${i + 1}`;
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}_${n}`;
    used.add(key);
    return { key, description: c.description, scale: { type: 'binary' }, weight: c.weight };
  });
  const checked = checkCriteria(input);
  if (!checked.ok) throw new RecordError(`rubric: ${checked.problems.slice(0, 3).map(problemText).join('; ')}`);
  const ref = typeof reference === 'string' && reference.length > 0 ? reference : null;
  return {
    draft: {
      externalId: typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : null,
      prompt: question,
      responses: responsesOf(record, ref),
      reference: ref,
      metadata: extraFields(record, KNOWN),
    },
    preference: null,
    criteria: checked.value,
  };
}
