// What a judge is asked about one item, per kind: the filled template and the answer's shape per request,
// and how the answers become a stored result. Pairwise asks twice, in both presentation orders, and maps
// the second verdict back to source order; a judge whose two verdicts differ has flipped.
import type { JudgeParams } from '../../../shared/api/judges';
import { contentText } from '../../../shared/choices';
import type { ItemRecord } from '../../../shared/domain';
import { firstWrongStep, JUDGE_STEPS_MAX, type AnswerShape, type JudgeAnswer, type JudgeKind, type OutcomeAnswer, type PairwiseAnswer, type RubricAnswer, type StepsAnswer } from '../../../shared/judgeAnswers';
import type { Criterion } from '../../../shared/rubric';
import { scaleText } from '../../../shared/rubric';
import { shownSteps, type SegmentationMethod } from '../../../shared/segment';
import { isTrajectory, turnSteps } from '../../../shared/trajectory';
import type { JudgeResultDraft } from '../store/judges';
import { fillTemplate, type PromptTemplate, type TemplateFields } from './prompts';

/** Each field of an item is cut to this many characters before it goes into a prompt. */
export const FIELD_MAX = 24_000;

export interface ItemContext {
  segmentation: SegmentationMethod;
  /** The rubric in force (or the item's own criteria), for rubric judges. */
  rubric: { version: number; criteria: Criterion[] } | null;
}

export interface ItemJob {
  item: ItemRecord;
  /** null: pairwise (both responses); else the response judged. */
  response: number | null;
  requests: { user: string; shape: AnswerShape }[];
  rubricVersion: number | null;
  /** Why the item cannot be judged by this kind (too few responses, no rubric, no steps). */
  skip: string | null;
}

const clip = (text: string) => (text.length > FIELD_MAX ? `${text.slice(0, FIELD_MAX)}\n[…cut]` : text);

function stepsOf(item: ItemRecord, index: number, segmentation: SegmentationMethod): string[] {
  const response = item.responses[index]!;
  if (isTrajectory(response.content)) return turnSteps(response.content);
  return shownSteps(contentText(response.content), response.steps, segmentation);
}

function rubricText(criteria: Criterion[]): string {
  return criteria.map((c) => `- ${c.key} (${scaleText(c.scale)})${c.description ? `: ${c.description}` : ''}`).join('\n');
}

/** The jobs one item makes for a kind: one (pairwise) or one per response. */
export function itemJobs(kind: JudgeKind, item: ItemRecord, template: PromptTemplate, context: ItemContext, params: JudgeParams): ItemJob[] {
  const base: TemplateFields = { prompt: clip(contentText(item.prompt)), reference: clip(item.reference ?? '') };
  const text = (i: number) => clip(contentText(item.responses[i]!.content));
  const textMax = params.textMax;
  if (kind === 'pairwise') {
    if (item.responses.length !== 2) return [{ item, response: null, requests: [], rubricVersion: null, skip: 'a pairwise judge needs exactly two responses' }];
    const shape: AnswerShape = { kind, textMax };
    const ask = (a: number, b: number) => ({ user: fillTemplate(template.prompt, { ...base, response_a: text(a), response_b: text(b) }), shape });
    return [{ item, response: null, requests: [ask(0, 1), ask(1, 0)], rubricVersion: null, skip: null }];
  }
  return item.responses.map((_, i) => {
    const fields: TemplateFields = { ...base, response: text(i) };
    if (kind === 'rubric') {
      if (!context.rubric?.criteria.length) return { item, response: i, requests: [], rubricVersion: null, skip: 'no rubric in force and no criteria of its own' };
      const shape: AnswerShape = { kind, textMax, criteria: context.rubric.criteria };
      return { item, response: i, requests: [{ user: fillTemplate(template.prompt, { ...fields, rubric: rubricText(context.rubric.criteria) }), shape }], rubricVersion: context.rubric.version, skip: null };
    }
    if (kind === 'steps') {
      const steps = stepsOf(item, i, context.segmentation).slice(0, JUDGE_STEPS_MAX);
      if (!steps.length) return { item, response: i, requests: [], rubricVersion: null, skip: 'the response has no steps' };
      const numbered = steps.map((s, k) => `Step ${k + 1}: ${clip(s)}`).join('\n');
      return { item, response: i, requests: [{ user: fillTemplate(template.prompt, { ...fields, steps: numbered }), shape: { kind, textMax, steps: steps.length } }], rubricVersion: null, skip: null };
    }
    return { item, response: i, requests: [{ user: fillTemplate(template.prompt, fields), shape: { kind, textMax } }], rubricVersion: null, skip: null };
  });
}

const swap = (v: PairwiseAnswer['verdict']): PairwiseAnswer['verdict'] => (v === 'A' ? 'B' : v === 'B' ? 'A' : 'tie');

type Outcome = Pick<JudgeResultDraft, 'answer' | 'answerSwapped' | 'verdict' | 'strength' | 'flipped' | 'firstError' | 'outcome' | 'critique'>;

/** The stored fields of a job's checked answers (pairwise: [source order, swapped order]). */
export function resultOf(kind: JudgeKind, answers: JudgeAnswer[]): Outcome {
  const none: Outcome = { answer: null, answerSwapped: null, verdict: null, strength: null, flipped: null, firstError: null, outcome: null, critique: null };
  if (answers.length === 0) return none;
  if (kind === 'pairwise') {
    const [first, second] = answers as PairwiseAnswer[];
    const back = swap(second!.verdict);
    return { ...none, answer: first!, answerSwapped: second!, verdict: first!.verdict, strength: first!.strength, flipped: back !== first!.verdict, critique: first!.critique };
  }
  if (kind === 'steps') {
    const answer = answers[0] as StepsAnswer;
    const firstError = firstWrongStep(answer);
    const kept: StepsAnswer = { steps: firstError === null ? answer.steps : answer.steps.slice(0, firstError + 1) };
    return { ...none, answer: kept, firstError, critique: firstError === null ? null : kept.steps[firstError]!.reason };
  }
  if (kind === 'outcome') {
    const answer = answers[0] as OutcomeAnswer;
    return { ...none, answer, outcome: answer.outcome, critique: answer.reason };
  }
  const answer = answers[0] as RubricAnswer;
  return { ...none, answer, critique: Object.entries(answer.criteria).map(([key, c]) => `${key}: ${c.feedback}`).join('\n') };
}
