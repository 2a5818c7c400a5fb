// `arbiter evaluate --project NAME [--model NAME …] [--json] [--export SHAPE --out FILE]`: people, reward
// models, process models and judges measured on the project's gold (or the people's consensus where a
// measure has none), from stored results; with --export, one subject's per-item results in a benchmark's
// own shape (rewardbench, rewardbench2, rm-bench, processbench, videoalign). docs/cli.md, "Evaluate".
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BENCHMARK_SHAPES, evaluationSchemas, type BenchmarkShape, type Evaluation, type SubjectEvaluation } from '../../shared/api/evaluation';
import type { ProportionFigure } from '../../shared/api/review';
import { invalidInput } from '../core/base/errors';
import { evaluateProject, exportEvaluation } from '../core/service/evaluation';
import { parse, UsageError, withDb, type CliIo } from './io';
import { requireProjectName } from './options';

const share = (p: ProportionFigure) => (p.value === null ? `— (${p.reason})` : `${(p.value * 100).toFixed(1)}% [${((p.low ?? 0) * 100).toFixed(1)}–${((p.high ?? 0) * 100).toFixed(1)}] n ${p.n}`);
const num = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? '—' : v.toFixed(digits));

function subjectLines(s: SubjectEvaluation): string[] {
  const lines = [`${s.subject} (${s.kind})`];
  for (const m of s.measures) lines.push(`  ${m.measure} vs ${m.reference}: ${share(m.accuracy)}`);
  const b = s.benchmarks;
  if (b.rewardBench) lines.push(`  RewardBench: ${num(b.rewardBench.accuracy.value)} n ${b.rewardBench.accuracy.n}${Object.keys(b.rewardBench.sections).length ? `; ${Object.entries(b.rewardBench.sections).map(([k, v]) => `${k} ${num(v)}`).join(', ')}` : ''}`);
  if (b.bestOfN) lines.push(`  RewardBench 2 best-of-N: ${num(b.bestOfN.value)} n ${b.bestOfN.n}`);
  if (b.rmBench) lines.push(`  RM-Bench: hard ${num(b.rmBench.hard)}, normal ${num(b.rmBench.normal)}, easy ${num(b.rmBench.easy)}, total ${num(b.rmBench.total)}; n ${b.rmBench.n}`);
  if (b.processBench) lines.push(`  ProcessBench: error ${num(b.processBench.errorAccuracy, 1)} (n ${b.processBench.errorN}), correct ${num(b.processBench.correctAccuracy, 1)} (n ${b.processBench.correctN}), F1 ${num(b.processBench.f1, 1)}`);
  if (b.accuracyWithTies) lines.push(`  accuracy with ties: ${num(b.accuracyWithTies.accuracy)} at ε ${num(b.accuracyWithTies.epsilon, 4)}; without ties ${num(b.accuracyWithTies.withoutTies)}; n ${b.accuracyWithTies.n}`);
  if (s.calibration) lines.push(`  calibration: ECE ${num(s.calibration.ece.value)}, Brier ${num(s.calibration.brier.value)}; n ${s.calibration.ece.n}`);
  if (s.positionConsistency) lines.push(`  position consistency: ${share(s.positionConsistency)}`);
  if (s.kappaWithPeople) lines.push(`  κ with people: ${num(s.kappaWithPeople.value)} n ${s.kappaWithPeople.n}`);
  return lines;
}

/** The evaluation as readable lines. */
export function evaluationLines(e: Evaluation): string[] {
  const lines = [`${e.project}: ${e.references.filter((r) => r.items > 0).map((r) => `${r.measure} gold ${r.items}`).join(', ') || 'no gold: measured against the people’s consensus'}`];
  lines.push(`people's κ with each other (pairwise): ${num(e.humanKappa.value)} n ${e.humanKappa.n}`);
  for (const s of e.subjects) lines.push(...subjectLines(s));
  for (const n of e.notes) lines.push(`note: ${n}`);
  return lines;
}

export async function evaluateCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, {
    project: { type: 'string' },
    model: { type: 'string', multiple: true },
    json: { type: 'boolean', default: false },
    export: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean', default: false },
  });
  const project = requireProjectName(values);
  const models = (values.model as string[] | undefined) ?? [];
  return withDb(values, (db) => {
    if (values.export !== undefined) {
      const shape = String(values.export);
      if (!(BENCHMARK_SHAPES as readonly string[]).includes(shape)) throw new UsageError(`--export takes one of ${BENCHMARK_SHAPES.join(', ')}`);
      if (models.length !== 1) throw new UsageError('--export writes one subject: name it with one --model NAME (a person or a judge for processbench)');
      if (typeof values.out !== 'string') throw new UsageError('--export needs --out FILE');
      const out = resolve(values.out);
      if (existsSync(out) && values.force !== true) throw invalidInput(`${out} exists; pass --force to overwrite it.`);
      const written = exportEvaluation(db, { project, subject: models[0]!, shape: shape as BenchmarkShape });
      writeFileSync(out, written.text);
      io.out(JSON.stringify({ out, shape, rows: written.rows, truncated: written.truncated }));
      return 0;
    }
    const input = evaluationSchemas.evaluate.safeParse({ project, ...(models.length ? { subjects: models } : {}) });
    if (!input.success) throw new UsageError(input.error.issues.map((i) => `--${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
    const evaluation = evaluateProject(db, input.data);
    if (values.json === true) io.out(JSON.stringify(evaluation));
    else for (const line of evaluationLines(evaluation)) io.out(line);
    return 0;
  });
}
