// ProcessBench's figures (QwenLM/ProcessBench at commit e8024636bcabdf8bd514440551b531d3f90dd18b,
// code/run_eval.py main): each chain's label is the index of its earliest wrong step, −1 when every step
// is right; a prediction matches when it equals the label exactly (a missing prediction never matches).
// Accuracy on the erroneous chains (label ≠ −1) and on the correct ones (label = −1), in percent, and F1
// = 2·acc1·acc2 / (acc1 + acc2), their harmonic mean.

export interface ChainPrediction {
  /** Gold: the first wrong step, −1 for none. */
  label: number;
  /** The model's or the person's first wrong step (−1 for none), or null when it gave none. */
  prediction: number | null;
}

export interface ProcessBenchFigures {
  /** Percent of erroneous chains whose first error was found exactly; null without any. */
  errorAccuracy: number | null;
  correctAccuracy: number | null;
  f1: number | null;
  errorN: number;
  correctN: number;
}

export function processBenchF1(chains: readonly ChainPrediction[]): ProcessBenchFigures {
  const error = chains.filter((c) => c.label !== -1);
  const correct = chains.filter((c) => c.label === -1);
  const accuracy = (list: readonly ChainPrediction[]) => (list.length ? (list.filter((c) => c.prediction === c.label).length / list.length) * 100 : null);
  const acc1 = accuracy(error);
  const acc2 = accuracy(correct);
  // The script divides by acc1 + acc2: both 0 gives nan there; null here.
  const f1 = acc1 === null || acc2 === null || acc1 + acc2 === 0 ? null : (2 * acc1 * acc2) / (acc1 + acc2);
  return { errorAccuracy: acc1, correctAccuracy: acc2, f1, errorN: error.length, correctN: correct.length };
}
