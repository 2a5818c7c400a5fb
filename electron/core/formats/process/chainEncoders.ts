// Each step format's line for a judged chain (the step pass, ./stepExport.ts, hands them over): store-free,
// so that the formats' descriptors can name them without the import worker loading the store.
import type { ItemRecord } from '../../../../shared/domain';
import type { ChainJudgement } from '../base/resolve';
import { firstWrongStep, keptChain } from './chain';
import { canonicalLayout, layOut, STEP_TAG } from './mathShepherd';
import { encodePrm800k } from './prm800k';

const STEP_MARKER = /^\s*Step\s*\d+/;

export interface Tally {
  cut: number;
  neutralSteps: number;
  unratedInside: number;
  mismatched: number;
  transcripts: number;
  noOutcome: number;
  restored: number;
  anew: number;
  undecided: number;
  markers: number;
}

export interface Chain {
  item: ItemRecord;
  index: number;
  letter: string;
  prompt: string;
  steps: string[];
  judgement: ChainJudgement;
  /** The file's own judgement of this chain (for ProcessBench's outcome when the deciding one has none). */
  source: ChainJudgement | null;
}

/** One judged chain as the format's line, or null to leave it out (counted as unlabeled). */
export type ChainEncoder = (pass: { neutral: boolean }, chain: Chain, tally: Tally) => unknown;

/** The kept chain (up to its first error), and what counts it adds to the notes. */
function kept(pass: { neutral: boolean }, chain: Chain, tally: Tally) {
  const { judgement, steps } = chain;
  const kept = keptChain(steps, judgement.ratings, judgement.firstError);
  const good = (r: number | null) => r === 1 || (r === 0 && pass.neutral);
  const count = () => {
    if (!kept) return;
    if (kept.cut) tally.cut++;
    for (const r of kept.ratings) {
      if (r === 0) tally.neutralSteps++;
      if (r === null) tally.unratedInside++;
    }
  };
  return { kept, good, count };
}

export const encodeStepwiseChain: ChainEncoder = (pass, chain, tally) => {
  const { kept: k, good, count } = kept(pass, chain, tally);
  if (!k) return null;
  count();
  return { prompt: chain.prompt, completions: k.steps, labels: k.ratings.map(good) };
};

export const encodeMathShepherdChain: ChainEncoder = (pass, chain, tally) => {
  const { kept: k, good, count } = kept(pass, chain, tally);
  if (!k) return null;
  count();
  const stored = chain.item.metadata.math_shepherd_layout;
  const whole = k.steps.length === chain.steps.length;
  const gaps =
    whole && Array.isArray(stored) && stored.length === 1 + 2 * k.steps.length && stored.every((g) => typeof g === 'string') ? (stored as string[]) : canonicalLayout(k.steps.length);
  const task = chain.item.metadata.task;
  // Math-Shepherd's steps begin "Step N:" (and a reader finds where the problem ends by "Step 1"):
  // a step without its marker gets one.
  const marked = k.steps.map((step, i) => (STEP_MARKER.test(step) ? step : `Step ${i + 1}: ${step}`));
  if (marked.some((step, i) => step !== k.steps[i])) tally.markers++;
  return {
    input: layOut(chain.prompt, marked, marked.map(() => STEP_TAG), gaps),
    label: layOut(chain.prompt, marked, k.ratings.map((r) => (good(r) ? '+' : '-')), gaps),
    task: typeof task === 'string' ? task : null,
  };
};

export const encodeProcessbenchChain: ChainEncoder = (_pass, chain, tally) => {
  const { judgement, steps } = chain;
  const wrong = firstWrongStep(judgement.ratings, judgement.firstError);
  const noError = judgement.firstError === -1 || judgement.ratings.every((r) => r !== null);
  if (wrong === null && !noError) {
    tally.undecided++;
    return null;
  }
  const outcome = judgement.outcome ?? chain.source?.outcome;
  const correct = outcome === 'correct' ? true : outcome === 'incorrect' ? false : null;
  if (correct === null) tally.noOutcome++;
  const id = chain.item.externalId ?? chain.item.uid;
  return {
    id: chain.item.responses.length > 1 ? `${id}/${chain.letter}` : id,
    generator: chain.item.responses[chain.index]!.model,
    problem: chain.prompt,
    steps,
    final_answer_correct: correct,
    label: wrong ?? -1,
  };
};

export const encodePrm800kChain: ChainEncoder = (pass, chain, tally) => {
  const { kept: k, count } = kept(pass, chain, tally);
  const { line, restored } = encodePrm800k({ item: chain.item, prompt: chain.item.prompt, steps: chain.steps, judgement: chain.judgement, kept: k ?? { steps: [], ratings: [] } });
  if (restored) tally.restored++;
  else {
    tally.anew++;
    count();
  }
  return line;
};

