// PRM800K (OpenAI), one labeling session per line:
//   {"labeler", "timestamp", "generation", "is_quality_control_question", "is_initial_screening_question",
//    "question": {"problem", "ground_truth_answer", "ground_truth_solution", "pre_generated_steps", …},
//    "label": {"steps": [{"completions": [{"text", "rating", "flagged"}], "human_completion", "chosen_completion"}],
//              "total_time", "finish_reason"}}
//
// Import: the problem is the prompt, the ground-truth answer the reference, and the chain is one response
// with explicit steps (joined by "\n"):
//  - the question's pre_generated_steps (phase 2), when the labeled steps are a prefix of them: the steps
//    after the labeled ones stay unrated, as PRM800K left them;
//  - otherwise the labeled steps, each the completion the labeler continued from (chosen_completion), or the
//    step they wrote (human_completion), or, for the last step, the completion they rated −1 (else the first).
// The chain's ratings, its first error, the finish reason, flagged steps (as the tag "flagged") and the
// labeler become the `source` annotator's steps label. Everything else of the session (labeler,
// timestamp, generation, the quality-control flags, the other completions of each step with their
// ratings, total_time…) is kept in the item's metadata as `prm800k`, without the texts and ratings that
// are stored elsewhere, so that the export writes the same session back.
import type { Content, ItemRecord } from '../../../../shared/domain';
import { promptText } from '../content';
import { chainRecord } from './chain';
import type { ChainJudgement } from '../base/resolve';
import { RecordError, type ParsedRecord } from '../types';
import { isPlainObject, setOwn } from '../validate';

export const FINISH_REASONS = ['solution', 'found_error', 'give_up', 'bad_problem'] as const;

type Json = Record<string, unknown>;
/** Which completion of a labeled step is the chain's: its index, the human-written step, or none (the chain ended before it). */
export type ChainRef = number | 'human' | null;

/** What metadata.prm800k holds: the session without what the item and the source label store. */
export interface Prm800kMetadata {
  session: Json;
  chain: ChainRef[];
  /** The chain is question.pre_generated_steps (stored as null in the session). */
  pre_generated?: true;
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

function rating(value: unknown, where: string): number | null {
  if (value === null || value === undefined) return null;
  if (value === -1 || value === 0 || value === 1) return value;
  throw new RecordError(`${where}.rating: expected -1, 0, 1 or null, got ${JSON.stringify(value)}`);
}

function completion(value: unknown, where: string): Json {
  if (!isPlainObject(value)) throw new RecordError(`${where}: expected an object, got ${describe(value)}`);
  if (typeof value.text !== 'string') throw new RecordError(`${where}.text: ${value.text === undefined ? 'missing' : `expected a string, got ${describe(value.text)}`}`);
  rating(value.rating, where);
  return value;
}

export function parsePrm800k(record: Json): ParsedRecord {
  const { question, label } = record;
  if (!isPlainObject(question)) throw new RecordError(`question: ${question === undefined ? 'missing' : `expected an object, got ${describe(question)}`}`);
  if (!isPlainObject(label)) throw new RecordError(`label: ${label === undefined ? 'missing' : `expected an object, got ${describe(label)}`}`);
  const { problem, ground_truth_answer: answer, pre_generated_steps: pre } = question;
  if (typeof problem !== 'string' || problem.length === 0) throw new RecordError(`question.problem: ${problem === undefined ? 'missing' : typeof problem === 'string' ? 'empty text' : `expected a string, got ${describe(problem)}`}`);
  if (!(answer === undefined || answer === null || typeof answer === 'string')) throw new RecordError(`question.ground_truth_answer: expected a string, got ${describe(answer)}`);
  const finish = label.finish_reason;
  if (!(finish === undefined || finish === null || (FINISH_REASONS as readonly unknown[]).includes(finish)))
    throw new RecordError(`label.finish_reason: ${JSON.stringify(finish)} is not one of ${FINISH_REASONS.join(', ')}`);
  const steps = label.steps;
  if (!Array.isArray(steps)) throw new RecordError(`label.steps: ${steps === undefined ? 'missing' : `expected a list, got ${describe(steps)}`}`);

  // The labeled chain.
  const chain: ChainRef[] = [];
  const texts: string[] = [];
  const ratings: (number | null)[] = [];
  const flagged: number[] = [];
  let ended = false;
  steps.forEach((step, j) => {
    const where = `label.steps[${j}]`;
    if (!isPlainObject(step)) throw new RecordError(`${where}: expected an object, got ${describe(step)}`);
    const { completions, human_completion: human, chosen_completion: chosen } = step;
    if (!(completions === null || completions === undefined || Array.isArray(completions))) throw new RecordError(`${where}.completions: expected a list or null, got ${describe(completions)}`);
    const list = ((completions as unknown[] | null | undefined) ?? []).map((c, k) => completion(c, `${where}.completions[${k}]`));
    if (!(human === null || human === undefined)) completion(human, `${where}.human_completion`);
    if (!(chosen === null || chosen === undefined || (Number.isInteger(chosen) && (chosen as number) >= 0 && (chosen as number) < list.length)))
      throw new RecordError(`${where}.chosen_completion: ${JSON.stringify(chosen)} but the step has ${list.length} completion(s)`);
    let ref: ChainRef = null;
    if (!ended) {
      if (typeof chosen === 'number') ref = chosen;
      else if (isPlainObject(human)) ref = 'human';
      else if (list.length) {
        const wrong = list.findIndex((c) => c.rating === -1);
        ref = wrong >= 0 ? wrong : 0;
      }
    }
    if (ref === null) {
      ended = true;
      chain.push(null);
      return;
    }
    const chosenOne = ref === 'human' ? (human as Json) : list[ref]!;
    chain.push(ref);
    texts.push(chosenOne.text as string);
    // A step the labeler wrote themselves is a good one (PRM800K leaves it unrated; TRL's converter counts it true).
    const r = rating(chosenOne.rating, where);
    ratings.push(ref === 'human' && r === null ? 1 : r);
    if (chosenOne.flagged === true) flagged.push(texts.length - 1);
  });

  // The chain is the pre-generated solution when the labeled steps are the start of it.
  const preSteps = Array.isArray(pre) && pre.length > 0 && pre.every((s) => typeof s === 'string') ? (pre as string[]) : null;
  const fromPre = preSteps !== null && preSteps.length >= texts.length && texts.every((t, i) => t === preSteps[i]);
  const chainTexts = fromPre ? preSteps : texts;
  const chainRatings = fromPre ? preSteps.map((_, i) => ratings[i] ?? null) : ratings;
  if (chainTexts.length === 0) throw new RecordError('label.steps: no step to rate, and no question.pre_generated_steps (a session that judged nothing)');

  // The session without what the item and the source label hold.
  const session: Json = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'question') {
      const rest: Json = {};
      for (const [k, v] of Object.entries(question)) if (k !== 'problem' && k !== 'ground_truth_answer') rest[k] = k === 'pre_generated_steps' && fromPre ? null : v;
      session.question = rest;
    } else if (key === 'label') {
      const rest: Json = {};
      for (const [k, v] of Object.entries(label)) {
        if (k === 'finish_reason') continue;
        rest[k] = k === 'steps' ? steps.map((step: Json, j) => strippedStep(step, chain[j] ?? null)) : v;
      }
      session.label = rest;
    } else setOwn(session, key, value);
  }
  const meta: Prm800kMetadata = { session, chain, ...(fromPre ? { pre_generated: true as const } : {}) };
  const tags: Record<string, string[]> = {};
  for (const i of flagged) tags[i] = ['flagged'];
  // A session has no id of its own: who labeled it and when name it (a labels file finds its item by that).
  const sessionId = typeof record.labeler === 'string' && typeof record.timestamp === 'string' ? `${record.labeler} ${record.timestamp}` : null;
  const parsed = chainRecord({
    externalId: sessionId,
    prompt: problem,
    steps: chainTexts,
    separator: '\n',
    model: null,
    reference: typeof answer === 'string' ? answer : null,
    metadata: { prm800k: meta },
    ratings: chainRatings,
    extra: { finish_reason: typeof finish === 'string' ? finish : null, step_tags: flagged.length ? tags : null },
    body: typeof record.labeler === 'string' ? { labeler: record.labeler } : {},
  });
  // The same chain is labeled in several sessions (quality-control questions): each session is an item.
  parsed.identity = JSON.stringify([record.labeler ?? null, record.timestamp ?? null]);
  return parsed;
}

/** A labeled step without the chain completion's text and rating (the item's steps and the source label hold them). */
function strippedStep(step: Json, ref: ChainRef): Json {
  if (ref === null) return step;
  const out: Json = {};
  for (const [key, value] of Object.entries(step)) {
    if (key === 'completions' && typeof ref === 'number') {
      out.completions = (value as Json[]).map((c, k) => (k === ref ? without(c, ['text', 'rating']) : c));
    } else if (key === 'human_completion' && ref === 'human') out.human_completion = without(value as Json, ['text']);
    else out[key] = value;
  }
  return out;
}

function without(object: Json, keys: string[]): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(object)) if (!keys.includes(k)) out[k] = v;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// export

/** metadata.prm800k of an item imported from PRM800K, or null. */
export function prm800kMetadata(item: ItemRecord): Prm800kMetadata | null {
  const meta = item.metadata.prm800k;
  if (!isPlainObject(meta) || !isPlainObject(meta.session) || !Array.isArray(meta.chain)) return null;
  return meta as unknown as Prm800kMetadata;
}

export interface SessionInput {
  item: ItemRecord;
  prompt: Content;
  /** Every step of the chain the judgement rated (the segmentation it refers to). */
  steps: string[];
  judgement: ChainJudgement;
  /** The kept part of the chain (./chain.ts), for a session written anew. */
  kept: { steps: string[]; ratings: (number | null)[] };
}

/**
 * The session of one judged chain. The file's own judgement of a chain imported from PRM800K gives the
 * session back as it was; anyone else's is a session of its own: one completion per step (the chain's),
 * the kept steps (up to the first error, or up to the last rated step), its annotator's uuid and time, and
 * the question as the file had it. `restored` says which.
 */
export function encodePrm800k(input: SessionInput): { line: Json; restored: boolean } {
  const { item, judgement, steps } = input;
  const meta = prm800kMetadata(item);
  const problem = promptText(input.prompt).text;
  const finish = judgement.finishReason ?? null;
  const rated = meta ? meta.chain.filter((ref) => ref !== null).length : 0;
  if (meta && judgement.by.kind === 'source' && (judgement.version ?? 1) === 1 && steps.length >= rated) {
    return { line: restore(meta, problem, item.reference, steps, judgement.ratings, finish), restored: true };
  }
  const { kept } = input;
  const wrong = kept.ratings.indexOf(-1);
  const session: Json = {
    labeler: judgement.by.annotatorUuid,
    timestamp: judgement.by.createdAt,
    generation: meta?.session.generation ?? null,
    is_quality_control_question: meta?.session.is_quality_control_question ?? false,
    is_initial_screening_question: meta?.session.is_initial_screening_question ?? false,
  };
  const question: Json = { problem, ground_truth_answer: item.reference };
  if (meta && isPlainObject(meta.session.question)) {
    for (const [k, v] of Object.entries(meta.session.question)) question[k] = k === 'pre_generated_steps' && meta.pre_generated ? steps : v;
  } else question.pre_generated_steps = steps;
  session.question = question;
  const tags = judgement.tags ?? {};
  session.label = {
    steps: kept.steps.map((text, j) => ({
      completions: [{ text, rating: kept.ratings[j] ?? null, flagged: tags[j]?.includes('flagged') ? true : null }],
      human_completion: null,
      chosen_completion: j + 1 < kept.steps.length ? 0 : null,
    })),
    total_time: judgement.timeMs ?? null,
    finish_reason: finish ?? (wrong >= 0 ? 'found_error' : kept.steps.length === steps.length && kept.ratings.every((r) => r !== null) ? 'solution' : 'give_up'),
  };
  return { line: session, restored: false };
}

function restore(meta: Prm800kMetadata, problem: string, reference: string | null, steps: string[], ratings: (number | null)[], finish: string | null): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(meta.session)) {
    if (key === 'question' && isPlainObject(value)) {
      const question: Json = { problem, ground_truth_answer: reference };
      for (const [k, v] of Object.entries(value)) question[k] = k === 'pre_generated_steps' && meta.pre_generated ? steps : v;
      out.question = question;
    } else if (key === 'label' && isPlainObject(value)) {
      const label: Json = {};
      for (const [k, v] of Object.entries(value)) label[k] = k === 'steps' && Array.isArray(v) ? v.map((step: Json, j) => restoredStep(step, meta.chain[j] ?? null, steps[j]!, ratings[j] ?? null)) : v;
      label.finish_reason = finish;
      out.label = label;
    } else setOwn(out, key, value);
  }
  return out;
}

function restoredStep(step: Json, ref: ChainRef, text: string, rating: number | null): Json {
  if (ref === null) return step;
  const out: Json = {};
  for (const [key, value] of Object.entries(step)) {
    if (key === 'completions' && typeof ref === 'number' && Array.isArray(value)) out.completions = value.map((c: Json, k) => (k === ref ? { text, rating, ...c } : c));
    else if (key === 'human_completion' && ref === 'human' && isPlainObject(value)) out.human_completion = { text, ...value };
    else out[key] = value;
  }
  return out;
}
