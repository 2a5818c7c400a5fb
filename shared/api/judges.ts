// Local generative judges: GGUF models run in the app through llama.cpp (node-llama-cpp), or an
// OpenAI-compatible server the user names per project. Templates per project and kind, versioned like
// rubrics; a run is a job; every result names the model's sha256, template version, params and seed.
import { z } from 'zod';
import { JUDGE_KINDS, JUDGE_TEXT_MAX, type JudgeAnswer, type JudgeKind } from '../judgeAnswers';
import { annotatorName, itemId, projectName, responseLetter, revisionId } from './common';
import type { JobInfo } from './jobs';

export { JUDGE_KINDS, type JudgeKind };

export const JUDGE_TEMPLATE_MAX = 20_000;
const kind = z.enum(JUDGE_KINDS);

/** Sampling and bounds of one run; the same params and seed give the same answers on the same model. */
export const judgeParams = z
  .object({
    temperature: z.number().min(0).max(2).default(0.7),
    topK: z.number().int().min(0).max(1000).default(40),
    topP: z.number().min(0).max(1).default(0.95),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(1),
    /** The longest critique, feedback or reason, in characters (the grammar enforces it). */
    textMax: z.number().int().min(8).max(JUDGE_TEXT_MAX).default(1200),
    /** Per answer: the most tokens, and the most time, after which the answer is recorded as failed. */
    maxTokens: z.number().int().min(16).max(32_768).optional(),
    timeoutMs: z.number().int().min(1000).max(600_000).default(120_000),
  })
  .strict();
export type JudgeParams = z.output<typeof judgeParams>;

export const judgesSchemas = {
  /** The project's templates, per kind: the newest saved version (or the built-in one) and how many versions. */
  listJudgeTemplates: z.object({ project: projectName }).strict(),
  /** Saves a template: changed text makes the next version, the same text keeps its own. */
  saveJudgeTemplate: z
    .object({ project: projectName, kind, system: z.string().max(JUDGE_TEMPLATE_MAX), prompt: z.string().min(1).max(JUDGE_TEMPLATE_MAX) })
    .strict(),
  /** GGUF files in the models folders (the ones ONNX model folders live in). */
  listJudgeModels: z.object({}).strict(),
  /** The project's OpenAI-compatible server, if the user set one (the key is never sent back). */
  getJudgeEngine: z.object({ project: projectName }).strict(),
  /** Sets (or with null, forgets) the project's server: nothing is sent to it before this. */
  setJudgeEngine: z
    .object({
      project: projectName,
      engine: z
        .object({
          baseUrl: z.string().url().max(500).refine((u) => /^https?:\/\//.test(u), 'an http(s) address'),
          apiKey: z.string().max(500).default(''),
          model: z.string().min(1).max(200),
        })
        .strict()
        .nullable(),
    })
    .strict(),
  /** Runs a judge over the project's items as a job. `model`: a GGUF file's name in a models folder; 'server': the project's server. */
  startJudging: z
    .object({
      project: projectName,
      kind,
      model: z.string().min(1).max(4000),
      template: z.number().int().min(1).optional(),
      params: judgeParams.default(judgeParams.parse({})),
      /** Parallel context sequences (llama) or requests in flight (server). */
      parallel: z.number().int().min(1).max(16).default(2),
      limit: z.number().int().min(1).optional(),
    })
    .strict(),
  /** The judges' newest results on an item, per kind and response (the screens apply blind / assist). */
  judgePrelabels: z.object({ project: projectName, itemId }).strict(),
  /**
   * The annotator took a judge's critique as the start of theirs and saved it: record the edit distance of
   * revision `revisionId` (left out: their current critique of the item) from the judge's text.
   */
  noteJudgeCritique: z.object({ project: projectName, annotator: annotatorName, itemId, resultId: z.number().int().positive(), revisionId: revisionId.optional(), letter: responseLetter }).strict(),
} as const;

export interface JudgeTemplateView {
  kind: JudgeKind;
  /** 0: the built-in template (nothing saved yet). */
  version: number;
  versions: number;
  system: string;
  prompt: string;
}

export interface JudgeModelFile {
  name: string;
  size: number;
}

export interface JudgeResultView {
  id: number;
  kind: JudgeKind;
  /** rubric, steps, outcome: the response judged (source order); pairwise: null. */
  response: number | null;
  modelName: string;
  modelHash: string;
  templateVersion: number;
  seed: number;
  params: Record<string, unknown>;
  /** Pairwise, in source order ('A' is the first response) whichever order the judge saw. */
  verdict: 'A' | 'B' | 'tie' | null;
  strength: number | null;
  /** Pairwise: the two presentation orders disagreed; the pre-label is uncertain. */
  flipped: boolean | null;
  firstError: number | null;
  outcome: string | null;
  critique: string | null;
  answer: JudgeAnswer | null;
  error: string | null;
  createdAt: string;
}

export interface JudgesOutputs {
  listJudgeTemplates: JudgeTemplateView[];
  saveJudgeTemplate: { version: number; created: boolean };
  listJudgeModels: JudgeModelFile[];
  getJudgeEngine: { baseUrl: string; model: string; hasKey: boolean } | null;
  setJudgeEngine: { set: boolean };
  startJudging: JobInfo;
  judgePrelabels: JudgeResultView[];
  noteJudgeCritique: { distance: number };
}
