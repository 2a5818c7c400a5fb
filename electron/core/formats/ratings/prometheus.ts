// Critiques as training targets for generative judges.
//   prometheus  the Feedback-Collection shape (prometheus-eval/Feedback-Collection; the direct-assessment
//               training format of github.com/prometheus-eval/prometheus-eval): "instruction", "output",
//               "orig_instruction", "orig_response", "orig_reference_answer", "orig_criteria",
//               "orig_score1_description" … "orig_score5_description", "orig_feedback", "orig_score".
//               orig_feedback is the response's critique, orig_score a 1–5 score (text, as the dataset has
//               it) from its rubric ratings: 1 + 4 × the normalized weighted total, rounded, so a single
//               Likert 1–5 criterion keeps its own value. A line needs both: a critique with no rating, or
//               a rating with no critique, is left out and counted. orig_criteria and the five score
//               descriptions say what the score measures: the one rated criterion, or the rubric's
//               criteria with the weighted-total band each score stands for. "instruction" is the judge's
//               input (Arbiter's wording of the same parts), "output" is "<feedback> [RESULT] <score>".
//   critique    {"prompt", "response", "critique", "verdict"}: one line per critiqued response. verdict is
//               the critique's own ("good" / "bad") where it has one, else the item's deciding verdict,
//               else "chosen" / "rejected" / "tie" from the deciding preference of a pair, else null.
import type { Criterion, RatingValue } from '../../../../shared/rubric';
import { normalizedTotal, normalizedValue, weightedTotal } from '../base/rubricTotals';

type Json = Record<string, unknown>;

export const PROMETHEUS_FIELDS = [
  'instruction',
  'output',
  'orig_instruction',
  'orig_response',
  'orig_reference_answer',
  'orig_criteria',
  'orig_score1_description',
  'orig_score2_description',
  'orig_score3_description',
  'orig_score4_description',
  'orig_score5_description',
  'orig_feedback',
  'orig_score',
] as const;

/** The 1–5 score of ratings under their criteria; null when nothing rated adds to a total. */
export function prometheusScore(criteria: readonly Criterion[], values: Readonly<Record<string, RatingValue>>): number | null {
  const t = normalizedTotal(weightedTotal(criteria, values));
  return t === null ? null : 1 + Math.round(4 * t);
}

/** What the score measures: the criteria text and one description per score, 1 to 5. */
export function scoreRubric(rubric: string, version: number, criteria: readonly Criterion[], values: Readonly<Record<string, RatingValue>>): { criteria: string; scores: string[] } {
  const rated = criteria.filter((c) => normalizedValue(c, values[c.key]) !== null);
  const only = rated.length === 1 ? rated[0]! : null;
  if (only && only.scale.type === 'likert' && only.scale.max - only.scale.min === 4) {
    const { min, max } = only.scale;
    return { criteria: only.description || only.key, scores: [0, 1, 2, 3, 4].map((k) => `Rated ${min + k} on "${only.key}" (${min}–${max}).`) };
  }
  const list = rated.map((c) => `${c.key}${c.weight === 1 ? '' : ` (weight ${c.weight})`}${c.description ? `: ${c.description}` : ''}`).join('; ');
  const bands = ['under 12.5%', '12.5% to 37.5%', '37.5% to 62.5%', '62.5% to 87.5%', '87.5% or more'];
  return {
    criteria: `How well does the response meet the rubric "${rubric}" (version ${version})? ${list}`,
    scores: bands.map((band) => `The response earns ${band} of the rubric's weighted total (criteria met count by their weight; a pitfall met subtracts).`),
  };
}

export interface PrometheusInput {
  prompt: string;
  response: string;
  reference: string | null;
  criteria: string;
  scores: string[];
  feedback: string;
  score: number;
}

/** The judge's input: the same parts, in the same order, as the Feedback Collection's instructions. */
function judgeInput(p: PrometheusInput): string {
  const reference = p.reference === null ? '' : `###Reference Answer (Score 5):\n${p.reference}\n\n`;
  return (
    '###Task Description:\n' +
    `Below are an instruction, a response to it, ${p.reference === null ? '' : 'a reference answer that would score 5, '}and a score rubric.\n` +
    '1. Write feedback that judges the response strictly by the score rubric, not in general.\n' +
    '2. Then give a score, a whole number from 1 to 5, as the rubric describes it.\n' +
    '3. Answer in the form "Feedback: (the feedback) [RESULT] (the score)", and nothing else.\n\n' +
    `###The instruction to evaluate:\n${p.prompt}\n\n` +
    `###Response to evaluate:\n${p.response}\n\n` +
    reference +
    `###Score Rubrics:\n[${p.criteria}]\n${p.scores.map((s, i) => `Score ${i + 1}: ${s}`).join('\n')}\n\n` +
    '###Feedback: '
  );
}

export function encodePrometheus(p: PrometheusInput): Json {
  const [s1, s2, s3, s4, s5] = p.scores;
  return {
    instruction: judgeInput(p),
    output: `${p.feedback} [RESULT] ${p.score}`,
    orig_instruction: p.prompt,
    orig_response: p.response,
    orig_reference_answer: p.reference ?? '',
    orig_criteria: p.criteria,
    orig_score1_description: s1,
    orig_score2_description: s2,
    orig_score3_description: s3,
    orig_score4_description: s4,
    orig_score5_description: s5,
    orig_feedback: p.feedback,
    orig_score: String(p.score),
  };
}

export type CritiqueVerdict = 'good' | 'bad' | 'chosen' | 'rejected' | 'tie' | null;

export function encodeCritique(prompt: string, response: string, critique: string, verdict: CritiqueVerdict): Json {
  return { prompt, response, critique, verdict };
}
