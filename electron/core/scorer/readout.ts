// Reads rewards and step scores out of a batch's output tensor. The output is untrusted numbers:
// non-finite values become null rather than NaN in the database.
import type { PaddedBatch } from './batching';
import type { EncodedExample } from './inputs';
import { logit } from './prelabel';
import type { OutputTensor } from './session';
import type { ModelSpec, StepAggregate } from './types';
import type { NoScore } from './unscorable';

export interface ExampleScore {
  reward: number | null;
  /** Process models: P(step is good) per step, null for a step whose tag was cut by truncation. */
  stepScores: (number | null)[] | null;
  /** Why reward is null. */
  noScore?: NoScore;
}

const finite = (x: number) => (Number.isFinite(x) ? x : null);

function softmaxAt(data: ArrayLike<number>, start: number, classes: number, index: number): number {
  let max = -Infinity;
  for (let c = 0; c < classes; c++) max = Math.max(max, data[start + c]!);
  let sum = 0;
  for (let c = 0; c < classes; c++) sum += Math.exp(data[start + c]! - max);
  return Math.exp(data[start + index]! - max) / sum;
}

export function aggregateSteps(scores: (number | null)[], how: StepAggregate): number | null {
  const known = scores.filter((s): s is number => s !== null);
  if (!known.length) return null;
  switch (how) {
    case 'min':
      return Math.min(...known);
    case 'last':
      return known[known.length - 1]!;
    case 'product':
      return known.reduce((a, b) => a * b, 1);
    case 'mean':
      return known.reduce((a, b) => a + b, 0) / known.length;
  }
}

/** One reward per row of an outcome model's output ([rows] or [rows, classes]: the spec's index). */
export function outcomeScores(spec: ModelSpec, out: OutputTensor, rows: number): ExampleScore[] {
  const { data, dims } = out;
  if (dims[0] !== rows) throw new Error(`The model returned ${dims[0]} rows for a batch of ${rows}`);
  const perRow = dims.length > 1 ? dims[1]! : 1;
  return Array.from({ length: rows }, (_, b) => {
    const reward = finite(data[b * perRow + spec.output.index]!);
    return reward === null ? { reward, stepScores: null, noScore: 'not_a_number' } : { reward, stepScores: null };
  });
}

export function readScores(spec: ModelSpec, out: OutputTensor, batch: PaddedBatch, examples: EncodedExample[]): ExampleScore[] {
  const { data, dims } = out;
  if (dims[0] !== batch.rows) throw new Error(`The model returned ${dims[0]} rows for a batch of ${batch.rows}`);
  const proc = spec.process;
  if (!proc) return outcomeScores(spec, out, examples.length);
  if (dims.length !== 3 || dims[1] !== batch.width) throw new Error(`The model returned shape [${dims.join(', ')}] for a batch of width ${batch.width}`);
  const classes = dims[2]!;
  return examples.map((example, b) => {
    const steps: (number | null)[] = new Array<number | null>(example.stepCount).fill(null);
    example.stepPositions.forEach((position, k) => {
      const start = (b * batch.width + batch.offsets[b]! + position) * classes;
      const p =
        proc.score.type === 'class_probability'
          ? softmaxAt(data, start, classes, proc.score.classIndex)
          : 1 / (1 + Math.exp(data[start + proc.score.negativeId]! - data[start + proc.score.positiveId]!));
      steps[example.stepIndexes[k]!] = finite(p);
    });
    const aggregate = aggregateSteps(steps, proc.aggregate);
    const reward = aggregate === null ? null : finite(logit(aggregate));
    if (reward !== null) return { reward, stepScores: steps };
    const noScore: NoScore = example.stepCount === 0 ? 'no_steps' : example.stepPositions.length === 0 ? 'steps_cut' : 'not_a_number';
    return { reward, stepScores: steps, noScore };
  });
}
