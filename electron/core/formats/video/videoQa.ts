// Video question answering with a reasoning chain, in the shape Video-R1's chain-of-thought data has
// (tulerfeng/Video-R1: Video-R1-COT-165k / Video-R1-260k JSON: `problem`, `path` of the video, `data_type`
// "video", `problem_type`, `options`, `process` the reasoning in <think>…</think>, `solution` the answer in
// <answer>…</answer>), one record per line. Read: the video then the question (with its options) are the
// prompt, the reasoning the one response cut into steps at its blank lines (else its lines) with the answer
// last, so the Steps screen rates each step; a `step_labels` list (−1 / 0 / +1 / null, one per step, as this
// format writes it) is the `source` annotator's step ratings. Written: the same fields, `process` from the
// steps, `step_labels` and `first_wrong_step` from the deciding judgement, the video beside the file.
import type { ChatMessage, Content } from '../../../../shared/domain';
import { isVideoPart } from '../../../../shared/videos';
import { chainRecord } from '../process/chain';
import type { Chain } from '../process/chainEncoders';
import { RecordError, type ParsedRecord } from '../types';

const READ = new Set(['problem', 'path', 'process', 'solution', 'step_labels', 'first_wrong_step', 'problem_id']);
const THINK = /^\s*<think>([\s\S]*)<\/think>\s*$/;

/** The reasoning's steps: its paragraphs, else its lines (a chain written on one line is one step). */
export function reasoningSteps(process: string): string[] {
  const inner = THINK.exec(process)?.[1] ?? process;
  const paragraphs = inner.split(/\n\s*\n/).map((s) => s.trim()).filter(Boolean);
  return paragraphs.length > 1 ? paragraphs : inner.split('\n').map((s) => s.trim()).filter(Boolean);
}

function questionText(record: Record<string, unknown>): string {
  const options = Array.isArray(record.options) ? record.options.filter((o): o is string => typeof o === 'string') : [];
  return options.length ? `${record.problem as string}\n\n${options.join('\n')}` : (record.problem as string);
}

export function parseVideoQa(record: Record<string, unknown>): ParsedRecord {
  if (typeof record.problem !== 'string' || !record.problem.trim()) throw new RecordError('problem: expected the question as text');
  if (typeof record.path !== 'string' || !record.path.trim()) throw new RecordError('path: expected the video’s path, relative to the file');
  if (typeof record.process !== 'string' || !record.process.trim()) throw new RecordError('process: expected the reasoning as text (<think>…</think>)');
  const id = record.problem_id;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') throw new RecordError('problem_id: expected text or a number');
  const steps = reasoningSteps(record.process);
  if (typeof record.solution === 'string' && record.solution.trim()) steps.push(record.solution.trim());
  const labels = record.step_labels;
  if (labels !== undefined && !(Array.isArray(labels) && labels.length === steps.length && labels.every((l) => l === null || l === -1 || l === 0 || l === 1)))
    throw new RecordError(`step_labels: expected ${steps.length} labels (−1, 0, 1 or null), one per step (the reasoning's ${steps.length - (typeof record.solution === 'string' ? 1 : 0)} and the answer)`);
  const metadata: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!READ.has(key)) metadata[key] = value;
  const prompt: Content = [{ role: 'user', content: [{ type: 'video', video: record.path }, { type: 'text', text: questionText(record) }] }];
  const parsed = chainRecord({
    externalId: id === undefined || id === null ? null : String(id),
    prompt,
    steps,
    separator: '\n\n',
    model: null,
    reference: typeof record.solution === 'string' ? record.solution : null,
    metadata,
    ratings: (labels as (number | null)[] | undefined) ?? steps.map(() => null),
  });
  // A file without step labels carries no judgement of its steps.
  if (labels === undefined) parsed.judgement = null;
  return parsed;
}

/** One judged chain as a Video-R1 line; its video part goes where `path` is (VideosBesideWriter writes its path). */
export function encodeVideoQa(_pass: { neutral: boolean }, chain: Chain): unknown {
  const prompt = chain.item.prompt as ChatMessage[];
  const video = Array.isArray(prompt) ? prompt.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find(isVideoPart) : undefined;
  if (!video) return null;
  const steps = chain.steps;
  const hasAnswer = chain.item.reference !== null && steps.at(-1) === chain.item.reference?.trim();
  const reasoning = hasAnswer ? steps.slice(0, -1) : steps;
  const wrong = chain.judgement.firstError;
  return {
    ...chain.item.metadata,
    ...(chain.item.externalId !== null ? { problem_id: chain.item.externalId } : {}),
    problem: typeof prompt[0]?.content === 'string' ? prompt[0].content : ((prompt[0]?.content as { type: string; text?: string }[]).find((p) => p.type === 'text')?.text ?? '').split('\n\n')[0],
    path: video,
    process: `<think>${reasoning.join('\n\n')}</think>`,
    ...(hasAnswer ? { solution: chain.item.reference } : {}),
    step_labels: chain.judgement.ratings,
    first_wrong_step: wrong,
  };
}
