// Builds what a model reads from (prompt, response[, steps as the step screen shows them]): the text
// (chat template, text pair or plain), its token ids cut to max length on the configured side, and for
// process models where each step's tag landed. Also the cache key of a scored input.
import { contentText, messageText } from '../../../shared/choices';
import type { ChatMessage, Content, ItemRecord } from '../../../shared/domain';
import { shownSteps, type SegmentationMethod } from '../../../shared/segment';
import { argumentsText, isTrajectory, messageContentText, trajectoryTurns, type TrajectoryMessage } from '../../../shared/trajectory';
import { canonicalJson, sha256Hex } from '../base/uid';
import type { TextTokenizer } from './tokenize';
import type { ModelKind, ModelSpec, Side } from './types';

export interface ScoringInput {
  prompt: Content;
  response: Content;
  /** The response's newest stored segmentation (the file's steps, or an annotator's split or merge); null: none stored. */
  steps: string[] | null;
  /** The project's segmentation method: how a response with no stored steps is cut (as the step screen cuts it). */
  segmentation: SegmentationMethod;
}

/** What a model reads for one of an item's responses (its steps as the step screen shows them). */
export function responseInput(item: ItemRecord, index: number, segmentation: SegmentationMethod): ScoringInput {
  const r = item.responses[index]!;
  return { prompt: item.prompt, response: r.content, steps: r.steps, segmentation };
}

export interface EncodedExample {
  ids: number[];
  typeIds: number[];
  truncated: boolean;
  /** Process models: positions of the step tags in `ids`, and the step each one closes. */
  stepPositions: number[];
  stepIndexes: number[];
  stepCount: number;
}

export function promptText(prompt: Content): string {
  if (typeof prompt === 'string') return prompt;
  const only = prompt.length === 1 ? prompt[0] : undefined;
  if (only && only.role === 'user') return messageText(only.content);
  return prompt.map((m) => `${m.role}: ${messageText(m.content)}`).join('\n\n');
}

export function responseText(response: Content): string {
  return typeof response === 'string' ? response : response.map((m) => m.content).join('\n\n');
}

/** The steps a process model scores: exactly the ones the step screen shows (shared/segment.ts shownSteps). */
export function stepsOf(input: ScoringInput): string[] {
  return shownSteps(contentText(input.response), input.steps, input.segmentation);
}

/** One message of a trajectory as the process model reads it: "tool (read_file): port: 80". */
function messageLine(m: TrajectoryMessage): string {
  const calls = (Array.isArray(m.tool_calls) ? m.tool_calls : []).map((c) => `${c.function.name}(${argumentsText(c.function.arguments)})`);
  const text = [messageContentText(m.content as Parameters<typeof messageContentText>[0]), ...calls].filter((t) => t.trim()).join('\n');
  return `${m.role}${m.role === 'tool' && m.name ? ` (${m.name})` : ''}: ${text}`;
}

/**
 * A trajectory scored turn by turn (AgentPRM style): around each turn's step, what came before its action
 * (a user's words) and what answered it (tool results, observations). The model reads, in one pass, the
 * task, then each turn's context, its action closed by the step tag, then its results; so a causal model's
 * score for turn k sees the task and the history up to turn k (earlier actions and their results) and
 * nothing after turn k's action. Null when the response is not a trajectory, or its steps are not its
 * turns (an annotator split or merged them): those are scored as the steps alone.
 */
export function trajectoryFrames(input: ScoringInput): { before: string; after: string }[] | null {
  if (!isTrajectory(input.response)) return null;
  const messages = input.response;
  const turns = trajectoryTurns(messages);
  const steps = stepsOf(input);
  if (turns.length !== steps.length || turns.some((t, k) => t.text !== steps[k])) return null;
  const lines = (indexes: number[]) => indexes.map((i) => messageLine(messages[i]!)).join('\n\n');
  return turns.map((t) => ({ before: lines(t.context), after: lines(t.results) }));
}

/** What a process model reads as the response: each step closed by its tag; a trajectory's turns with their context and results. */
export function processResponse(input: ScoringInput, proc: { separatorToken: string; stepSuffix: string; stepJoin: string }): { text: string; stepCount: number } {
  // Model text is untrusted: a step tag inside it would add a step that is not there.
  const strip = (s: string) => s.split(proc.separatorToken).join('');
  const steps = stepsOf(input).map(strip);
  const frames = trajectoryFrames(input);
  const text = steps
    .map((step, k) => {
      const frame = frames?.[k];
      const before = frame?.before ? `${strip(frame.before)}\n\n` : '';
      const after = frame?.after ? `\n\n${strip(frame.after)}` : '';
      return `${before}${step}${proc.stepSuffix}${after}`;
    })
    .join(proc.stepJoin);
  return { text, stepCount: steps.length };
}

/**
 * The cache key of a scored input: prompt + response (+ steps for process models). The prompt is in
 * it because a reward model scores a response in context: "Yes." is not the same answer everywhere.
 * A trajectory scored turn by turn says so, so scores of the steps alone are not taken for it.
 */
export function inputHash(kind: ModelKind, input: ScoringInput): string {
  const steps = kind === 'process' ? stepsOf(input) : undefined;
  const turns = kind === 'process' && trajectoryFrames(input) ? 'with-history' : undefined;
  return sha256Hex(canonicalJson({ prompt: input.prompt, response: input.response, steps, turns })).slice(0, 32);
}

/** Cuts `a`+`b` to `budget` tokens: 'left' drops from the front of a, then b; 'right' from the end of b, then a. */
export function cutToBudget(a: readonly string[], b: readonly string[], budget: number, side: Side): [readonly string[], readonly string[]] {
  const excess = a.length + b.length - budget;
  if (excess <= 0) return [a, b];
  if (side === 'left') {
    const fromA = Math.min(excess, a.length);
    return [a.slice(fromA), b.slice(excess - fromA)];
  }
  const fromB = Math.min(excess, b.length);
  return [a.slice(0, a.length - (excess - fromB)), b.slice(0, b.length - fromB)];
}

function chatMessages(spec: ModelSpec, prompt: Content, response: Content | string): ChatMessage[] {
  const messages: ChatMessage[] = typeof prompt === 'string' ? [{ role: 'user', content: prompt }] : [...prompt];
  if (spec.systemPrompt !== null && !messages.some((m) => m.role === 'system')) {
    messages.unshift({ role: 'system', content: spec.systemPrompt });
  }
  if (typeof response === 'string') messages.push({ role: 'assistant', content: response });
  else messages.push(...response);
  return messages;
}

/** Replaces {prompt} and {response} in one pass, so text containing "{prompt}" is never expanded. */
function fillTemplate(template: string, prompt: string, response: string): string {
  return template.replace(/\{(prompt|response)\}/g, (_, key: string) => (key === 'prompt' ? prompt : response));
}

export function encodeExample(spec: ModelSpec, tok: TextTokenizer, input: ScoringInput): EncodedExample {
  const proc = spec.process;
  let prompt = input.prompt;
  let response: Content = input.response;
  let stepCount = 0;
  if (proc) {
    // Model text is untrusted: a step tag inside it would add a step that is not there.
    const strip = (s: string) => s.split(proc.separatorToken).join('');
    const read = processResponse(input, proc);
    stepCount = read.stepCount;
    prompt = typeof prompt === 'string' ? strip(prompt) : prompt.map((m) => ({ ...m, content: strip(messageText(m.content)) }));
    response = read.text;
  }

  let tokens: readonly string[];
  let typeIds: number[];
  let truncated = false;
  if (spec.inputMode === 'chat_template') {
    const all = tok.tokens(tok.renderChat(chatMessages(spec, prompt, response)));
    [tokens] = cutToBudget(all, [], spec.maxLength, spec.truncationSide);
    truncated = tokens.length < all.length;
    typeIds = tokens.map(() => 0);
  } else if (spec.inputMode === 'text_pair') {
    const a = tok.tokens(promptText(prompt));
    const b = tok.tokens(responseText(response));
    const [ca, cb] = cutToBudget(a, b, spec.maxLength - tok.specialsCount(true), spec.truncationSide);
    truncated = ca.length + cb.length < a.length + b.length;
    ({ tokens, typeIds } = tok.withSpecials(ca, cb));
  } else {
    const all = tok.tokens(fillTemplate(spec.plainTemplate, promptText(prompt), responseText(response)));
    const [cut] = cutToBudget(all, [], spec.maxLength - tok.specialsCount(false), spec.truncationSide);
    truncated = cut.length < all.length;
    ({ tokens, typeIds } = tok.withSpecials(cut, null));
  }

  const ids = tok.ids(tokens);
  const example: EncodedExample = { ids, typeIds, truncated, stepPositions: [], stepIndexes: [], stepCount };
  if (proc) locateSteps(example, proc.separatorId, spec.truncationSide);
  return example;
}

/**
 * Finds the step tags. When truncation removed some, the ones left belong to the last steps (start cut)
 * or the first steps (end cut); extra tags (e.g. one written by the chat template) are ignored from the front.
 */
function locateSteps(example: EncodedExample, separatorId: number, side: Side): void {
  let positions: number[] = [];
  example.ids.forEach((id, i) => {
    if (id === separatorId) positions.push(i);
  });
  const n = example.stepCount;
  if (positions.length > n) positions = positions.slice(positions.length - n);
  const first = side === 'left' ? n - positions.length : 0;
  example.stepPositions = positions;
  example.stepIndexes = positions.map((_, k) => first + k);
}
