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
import { contentText } from '../../../../shared/choices';
import { responseLetter } from '../../../../shared/letters';
import { segment, type SegmentationMethod } from '../../../../shared/segment';
import type { Db } from '../../store/db';
import { headLoader, type HeadLabel } from '../../store/labels';
import { segmentationKey, segmentationsBetween } from '../../store/segmentations';
import { SOURCE_ANNOTATOR } from '../../store/annotators';
import type { ChainEncoder, Tally } from './chainEncoders';
import { promptText } from '../content';
import { forEachPage, itemPass, type ItemPass } from '../base/itemPass';
import type { FormatWriter } from '../descriptor';
import { projectSettings } from '../../store/projects';
import { decideChain, type ChainJudgement } from '../base/resolve';

/** The step formats (their descriptors: ./*.format.ts); the pass words its notes by them. */
export type StepFormat = 'trl-stepwise' | 'prm800k' | 'math-shepherd' | 'processbench';

const NO_LABELS: HeadLabel[] = [];

export interface StepPass extends ItemPass {
  format: StepFormat;
  /** Neutral (0) steps are true in trl-stepwise and "+" in math-shepherd. */
  neutral: boolean;
  /** How the project cuts a response that has no stored steps (a label that does not name its version). */
  segmentation: SegmentationMethod;
  /** The format's line for a judged chain. */
  encode: ChainEncoder;
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
        const line = pass.encode(pass, { item, index: response.index, letter, prompt: prompt.text, steps, judgement, source }, tally);
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

/** A step format's writer: the step pass with the format's chain encoder. */
export function stepWriter(encode: ChainEncoder): FormatWriter {
  return {
    async write(run) {
      const segmentation = projectSettings(run.project).segmentation;
      await writeChains(run.db, { ...itemPass(run), format: run.format as StepFormat, neutral: run.opts.neutral ?? false, segmentation, encode });
    },
  };
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
