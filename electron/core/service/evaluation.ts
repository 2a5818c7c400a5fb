// Evaluation: every person, scoring model and judge of a project measured on its gold (or the people's
// consensus where a measure has none), from stored results; and one subject's per-item results in a
// benchmark's own shape. Computed on the caller's thread inside one read (a project of tens of thousands
// of labels takes well under a second; the figures are not cached).
import type { ApiParsed } from '../../../shared/api';
import { EXPORT_MAX_ROWS, type Evaluation, type EvaluationExport } from '../../../shared/api/evaluation';
import { notFound, invalidInput } from '../base/errors';
import { buildEvaluation } from '../review/evaluation/engine';
import { modelRows, processBenchRows } from '../review/evaluation/exports';
import { readEvaluationInput } from '../review/evaluation/inputs';
import { modelValues } from '../review/evaluation/modelFigures';
import { byUnit } from '../review/evaluation/reference';
import type { Db } from '../store/db';
import { withReadCache } from '../store/review';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireProject } from './guards';

type EvaluationOps = 'evaluate' | 'evaluationExport';

export function evaluationHandlers({ db }: ServiceContext): FeatureHandlers<EvaluationOps> {
  return {
    evaluate: (input) => evaluateProject(db, input),
    evaluationExport: (input) => exportEvaluation(db, input),
  };
}

/** The figures of every subject (or the ones named): the handler's work, and `arbiter evaluate`'s. */
export function evaluateProject(db: Db, input: ApiParsed<'evaluate'>): Evaluation {
  const project = requireProject(db, input.project);
  const built = withReadCache(db, () => db.transaction(() => buildEvaluation(readEvaluationInput(db, project.id)))());
  const wanted = input.subjects;
  if (wanted) {
    const missing = wanted.filter((w) => !built.subjects.some((s) => s.subject === w));
    if (missing.length) throw notFound(`“${project.name}” has no person, model or judge named ${missing.map((m) => `“${m}”`).join(', ')} with stored results.`);
  }
  return { project: project.name, computedAt: new Date().toISOString(), ...built, subjects: wanted ? built.subjects.filter((s) => wanted.includes(s.subject)) : built.subjects };
}

/** One subject's per-item results in a benchmark's shape. */
export function exportEvaluation(db: Db, input: ApiParsed<'evaluationExport'>): EvaluationExport {
  const project = requireProject(db, input.project);
  const data = db.transaction(() => readEvaluationInput(db, project.id))();
  const sources = { facts: data.facts, pairGold: byUnit(data.gold, 'pairwise'), rankGold: byUnit(data.gold, 'ranking'), firstErrorGold: byUnit(data.gold, 'first_error') };
  const model = data.models.find((m) => m.name === input.subject);
  let rows: Iterable<Record<string, unknown>>;
  if (input.shape === 'processbench') {
    const person = data.people.get(input.subject);
    const judge = data.judges.find((j) => j.name === input.subject);
    const values = model ? modelValues(model, data.facts) : (person ?? judge?.values);
    if (!values) throw notFound(`“${project.name}” has no person, model or judge named “${input.subject}” with stored results.`);
    rows = processBenchRows(byUnit(values, 'first_error'), sources);
  } else {
    if (!model) throw invalidInput(`The ${input.shape} shape holds a scoring model's rewards; “${input.subject}” is not a model of “${project.name}” with stored scores.`);
    rows = modelRows(input.shape, model, sources);
  }
  const lines: string[] = [];
  let truncated = false;
  for (const row of rows) {
    if (lines.length >= EXPORT_MAX_ROWS) {
      truncated = true;
      break;
    }
    lines.push(JSON.stringify(row));
  }
  const safe = input.subject.replace(/[^\w.-]+/g, '_').slice(0, 80);
  return { fileName: `${safe}.${input.shape}.jsonl`, rows: lines.length, text: lines.length ? `${lines.join('\n')}\n` : '', truncated };
}
