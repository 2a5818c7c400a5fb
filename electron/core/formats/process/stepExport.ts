// The step pass of an export: one line per judged chain (a response with step labels), a page of items at
// a time. Which judgement decides a chain: decideChain (../base/resolve.ts). What is kept of it: keptChain
// (./chain.ts). The steps are those of the segmentation version the judgement rated.
//   trl-stepwise   {"prompt", "completions", "labels": [bool]}: only +1 is true (0 too with --neutral true)
//   math-shepherd  {"input", "label", "task"}: the kept steps tagged "ки" / "+" or "-" (the same neutral rule)
//   processbench   {"id", "generator", "problem", "steps", "final_answer_correct", "label"}: every step, and the
//                  first wrong step's index (−1: no error); a chain whose first error is not decided is left out
//   prm800k        a labeling session (./prm800k.ts)
// Prompts are text (PRMTrainer tokenizes `prompt` as a string): a conversation is written as an HH-style
// transcript, and the summary counts them.
import type { ItemRecord } from '../../../../shared/domain';
import { contentText } from '../../../../shared/choices';
import { responseLetter } from '../../../../shared/letters';
import { segment, type SegmentationMethod } from '../../../../shared/segment';
import type { Db } from '../../store/db';
import { headLoader, type HeadLabel } from '../../store/labels';
import { segmentationKey, segmentationsBetween } from '../../store/segmentations';
import { SOURCE_ANNOTATOR } from '../../store/annotators';
import { firstWrongStep, keptChain } from './chain';
import { promptText } from '../content';
import { forEachPage, type ItemPass } from '../base/itemPass';
import { canonicalLayout, layOut, STEP_TAG } from './mathShepherd';
import { encodePrm800k } from './prm800k';
import { decideChain, type ChainJudgement } from '../base/resolve';

export const STEP_FORMATS = ['trl-stepwise', 'prm800k', 'math-shepherd', 'processbench'] as const;
export type StepFormat = (typeof STEP_FORMATS)[number];
export const isStepFormat = (format: string): format is StepFormat => (STEP_FORMATS as readonly string[]).includes(format);

const STEP_MARKER = /^\s*Step\s*\d+/;
const NO_LABELS: HeadLabel[] = [];

export interface StepPass extends ItemPass {
  format: StepFormat;
  /** Neutral (0) steps are true in trl-stepwise and "+" in math-shepherd. */
  neutral: boolean;
  /** How the project cuts a response that has no stored steps (a label that does not name its version). */
  segmentation: SegmentationMethod;
}

interface Tally {
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

interface Chain {
  item: ItemRecord;
  index: number;
  letter: string;
  prompt: string;
  steps: string[];
  judgement: ChainJudgement;
  /** The file's own judgement of this chain (for ProcessBench's outcome when the deciding one has none). */
  source: ChainJudgement | null;
}

export async function writeChains(db: Db, pass: StepPass): Promise<void> {
  const loadHeads = headLoader(db, pass.projectId, pass.annotator, 'steps', true);
  // With an annotator named, the file's own judgement is still read for what only it may know (an outcome).
  const loadSource = pass.annotator !== undefined && pass.format === 'processbench' ? headLoader(db, pass.projectId, SOURCE_ANNOTATOR, 'steps', true) : null;
  const tally: Tally = { cut: 0, neutralSteps: 0, unratedInside: 0, mismatched: 0, transcripts: 0, noOutcome: 0, restored: 0, anew: 0, undecided: 0, markers: 0 };
  await forEachPage(db, pass, ['steps'], async (items, from, to) => {
    if (!items.length) return;
    const heads = loadHeads(from, to);
    const sources = loadSource?.(from, to);
    let low = items[0]!.id;
    let high = low;
    for (const item of items) {
      low = Math.min(low, item.id);
      high = Math.max(high, item.id);
    }
    const segmentations = segmentationsBetween(db, low, high);
    for (const item of items) {
      const labels = heads.get(item.id) ?? NO_LABELS;
      for (const response of item.responses) {
        const letter = responseLetter(response.index);
        const decision = decideChain(labels, letter, pass.annotator);
        if (decision.skip) {
          pass.skipped[decision.skip]++;
          continue;
        }
        const judgement = decision.chain;
        const version = judgement.version;
        const steps =
          version !== null
            ? (segmentations.steps.get(segmentationKey(item.id, response.index, version)) ?? null)
            : (response.steps ?? segment(contentText(response.content), pass.segmentation).steps);
        if (!steps || steps.length !== judgement.ratings.length) {
          pass.skipped.conflict++;
          tally.mismatched++;
          continue;
        }
        const prompt = promptText(item.prompt);
        if (prompt.mode !== 'text') tally.transcripts++;
        let source: ChainJudgement | null = null;
        if (pass.format === 'processbench') {
          const own = decideChain([...labels, ...(sources?.get(item.id) ?? [])].filter((l) => l.kind === 'source'), letter);
          source = own.skip ? null : own.chain;
        }
        const line = encodeChain(pass, { item, index: response.index, letter, prompt: prompt.text, steps, judgement, source }, tally);
        if (line === null) {
          pass.skipped.unlabeled++;
          continue;
        }
        const pending = pass.writer.write(line);
        if (pending) await pending;
      }
    }
  });
  pass.notes.extra.push(...stepNotes(pass, tally));
}

function encodeChain(pass: StepPass, chain: Chain, tally: Tally): unknown {
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
  switch (pass.format) {
    case 'trl-stepwise': {
      if (!kept) return null;
      count();
      return { prompt: chain.prompt, completions: kept.steps, labels: kept.ratings.map(good) };
    }
    case 'math-shepherd': {
      if (!kept) return null;
      count();
      const stored = chain.item.metadata.math_shepherd_layout;
      const whole = kept.steps.length === steps.length;
      const gaps =
        whole && Array.isArray(stored) && stored.length === 1 + 2 * kept.steps.length && stored.every((g) => typeof g === 'string') ? (stored as string[]) : canonicalLayout(kept.steps.length);
      const task = chain.item.metadata.task;
      // Math-Shepherd's steps begin "Step N:" (and a reader finds where the problem ends by "Step 1"):
      // a step without its marker gets one.
      const marked = kept.steps.map((step, i) => (STEP_MARKER.test(step) ? step : `Step ${i + 1}: ${step}`));
      if (marked.some((step, i) => step !== kept.steps[i])) tally.markers++;
      return {
        input: layOut(chain.prompt, marked, marked.map(() => STEP_TAG), gaps),
        label: layOut(chain.prompt, marked, kept.ratings.map((r) => (good(r) ? '+' : '-')), gaps),
        task: typeof task === 'string' ? task : null,
      };
    }
    case 'processbench': {
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
    }
    case 'prm800k': {
      const { line, restored } = encodePrm800k({ item: chain.item, prompt: chain.item.prompt, steps, judgement, kept: kept ?? { steps: [], ratings: [] } });
      if (restored) tally.restored++;
      else {
        tally.anew++;
        count();
      }
      return line;
    }
  }
}

function stepNotes(pass: StepPass, t: Tally): string[] {
  const notes: string[] = [];
  if (pass.format === 'trl-stepwise' || pass.format === 'math-shepherd') {
    const [yes, no] = pass.format === 'trl-stepwise' ? ['true', 'false'] : ['"+"', '"-"'];
    notes.push(
      pass.neutral
        ? `Step labels: +1 and neutral (0) steps are ${yes}, −1 steps ${no} (--neutral true)${t.neutralSteps ? `; ${t.neutralSteps} neutral step(s) were written ${yes}` : ''}`
        : `Step labels: only +1 steps are ${yes}; neutral (0) and −1 steps are ${no} (--neutral false, the default, as TRL's own PRM800K converter does)${t.neutralSteps ? `; ${t.neutralSteps} neutral step(s) were written ${no}` : ''}`,
    );
  }
  if (t.cut) notes.push(`${t.cut} chain(s) stop at their first error, that step included as ${pass.format === 'math-shepherd' ? '"-"' : 'false'}: the steps after it carry no label`);
  if (t.unratedInside) notes.push(`${t.unratedInside} unrated step(s) before a chain's last rated step were written as ${pass.format === 'prm800k' ? 'rating null' : pass.format === 'math-shepherd' ? '"-"' : 'false'}`);
  if (t.undecided) notes.push(`${t.undecided} chain(s) have ratings but no decided first error (some steps unrated, none wrong), so ProcessBench has no label for them; they are counted as unlabeled`);
  if (t.noOutcome) notes.push(`${t.noOutcome} line(s) have "final_answer_correct": null: no outcome (correct / incorrect) was recorded for them`);
  if (t.anew) notes.push(`${t.anew} session(s) are a person's judgement (or the humans' consensus), written as a session of their own: one completion per step, the chain's, up to its first error${t.restored ? `; ${t.restored} session(s) are the file's own, written back as they were` : ''}`);
  if (t.markers) notes.push(`${t.markers} chain(s) had steps without a "Step N:" marker; Math-Shepherd's steps begin with one, so it was added`);
  if (t.mismatched) notes.push(`${t.mismatched} chain(s) were left out (counted as conflicts) because their ratings do not match the steps they refer to`);
  if (t.transcripts) notes.push(`${t.transcripts} conversation prompt(s) were written as HH-style transcripts ("\\n\\nHuman: …\\n\\nAssistant:"), since these formats have a text prompt`);
  notes.push('Chains nobody rated are counted as unlabeled');
  return notes;
}
