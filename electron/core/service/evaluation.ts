// Evaluation: every person, scoring model and judge of a project measured on its gold (or the people's
// consensus where a measure has none), from stored results; and one subject's per-item results in a
// benchmark's own shape. The figures are a job on a task worker (one read transaction), not cached: a
// project of 100k pairs by three people takes a few seconds.
import type { ApiParsed } from '../../../shared/api';
import { EXPORT_MAX_ROWS, type Evaluation, type EvaluationExport } from '../../../shared/api/evaluation';
import { notFound, invalidInput } from '../base/errors';
import type { EvaluationFigures } from '../review/evaluation/engine';
import { modelRows, processBenchRows } from '../review/evaluation/exports';
import { evaluateFigures, readEvaluationInput } from '../review/evaluation/inputs';
import { modelValues } from '../review/evaluation/modelFigures';
import { byUnit } from '../review/evaluation/reference';
import type { Db } from '../store/db';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireProject } from './guards';

type EvaluationOps = 'evaluate' | 'evaluationExport';

export function evaluationHandlers({ db, jobs, options }: ServiceContext): FeatureHandlers<EvaluationOps> {
  return {
    // A whole-project read: on a task worker (100k pairs by three people take seconds), never on the thread that answers saves.
    evaluate: async (input) => {
      const project = requireProject(db, input.project);
      const figures = await jobs.runTask({ dbPath: options.dbPath, task: { kind: 'evaluate', project: project.name }, inline: async () => evaluateFigures(db, project.id) });
      return withSubjects(project.name, figures, input.subjects);
    },
    evaluationExport: (input) => exportEvaluation(db, input),
  };
}

/** The evaluation with only the subjects asked for; a name with no stored results is refused. */
function withSubjects(project: string, figures: EvaluationFigures, wanted: string[] | undefined): Evaluation {
  if (wanted) {
    const missing = wanted.filter((w) => !figures.subjects.some((s) => s.subject === w));
    if (missing.length) throw notFound(`“${project}” has no person, model or judge named ${missing.map((m) => `“${m}”`).join(', ')} with stored results.`);
  }
  return { project, computedAt: new Date().toISOString(), ...figures, subjects: wanted ? figures.subjects.filter((s) => wanted.includes(s.subject)) : figures.subjects };
}

/** The figures of every subject (or the ones named), computed on this thread: `arbiter evaluate`'s (the CLI has no host thread to keep free). */
export function evaluateProject(db: Db, input: ApiParsed<'evaluate'>): Evaluation {
  const project = requireProject(db, input.project);
  return withSubjects(project.name, evaluateFigures(db, project.id), input.subjects);
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
