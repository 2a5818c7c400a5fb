// Generative judges (shared/api/judges.ts): templates, the project's server, runs as jobs, pre-labels.
//
// GGUF files are found in the models folders ("models" beside the database, and those named with
// `arbiter serve --models-dir`), as ONNX model folders are. In the browser host a page names a file by
// its name there and nothing else; the desktop app and the CLI may give a full path. The server engine
// is used only when the user set it for the project: there is no default address and nothing is sent
// anywhere before it is set.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { cpus } from 'node:os';
import type { JudgeParams, JudgeResultView, JudgesOutputs } from '../../../shared/api/judges';
import { JUDGE_KINDS, type JudgeKind } from '../../../shared/judgeAnswers';
import { editDistance } from '../../../shared/editDistance';
import { readBody } from '../../../shared/labelBodies';
import { invalidInput, notFound } from '../base/errors';
import type { JudgeEngine } from '../judge/engine';
import { openLlamaEngine } from '../judge/llama';
import { openServerEngine } from '../judge/openai';
import { DEFAULT_TEMPLATES } from '../judge/prompts';
import { runJudge, type JudgeRunProgress, type JudgeRunSummary } from '../judge/run';
import type { Db } from '../store/db';
import { judgeEngine, judgeResultById, judgeResults, judgeTemplate, judgeTemplateVersions, recordCritiqueEdit, saveJudgeTemplate, setJudgeEngine } from '../store/judges';
import { findAnnotator } from '../store/annotators';
import { currentLabel, getRevision } from '../store/labels';
import { projectSegmentation } from '../store/projects';
import { findRubric, rubricInForce, rubricVersion } from '../store/rubrics';
import { writeNow } from '../store/write';
import type { FeatureHandlers, ServiceContext, ServiceOptions } from './context';
import { requireItem, requireProject } from './guards';
import { modelRoots } from './models';

type JudgeOps = 'listJudgeTemplates' | 'saveJudgeTemplate' | 'listJudgeModels' | 'getJudgeEngine' | 'setJudgeEngine' | 'startJudging' | 'judgePrelabels' | 'noteJudgeCritique';

/** The name `startJudging` takes for the project's OpenAI-compatible server instead of a GGUF file. */
export const SERVER_MODEL = 'server';

function ggufFiles(roots: string[]): { name: string; path: string; size: number }[] {
  const found = new Map<string, { name: string; path: string; size: number }>();
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root, { withFileTypes: true })) {
      const candidates = entry.isDirectory() ? readdirSync(join(root, entry.name)).map((n) => join(entry.name, n)) : [entry.name];
      for (const name of candidates)
        if (name.toLowerCase().endsWith('.gguf') && !found.has(name)) {
          const path = join(root, name);
          found.set(name, { name, path, size: statSync(path).size });
        }
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The GGUF file a name means: in a models folder (the browser host takes nothing else), or a path the app or CLI gave. */
export function judgeModelPath(options: Pick<ServiceOptions, 'dbPath' | 'transport'>, name: string): string {
  const inRoots = ggufFiles(modelRoots(options)).find((f) => f.name === name || f.name === basename(name));
  if (inRoots && (options.transport === 'http' || !isAbsolute(name))) return inRoots.path;
  if (options.transport !== 'http' && existsSync(name) && name.toLowerCase().endsWith('.gguf')) return resolve(name);
  throw invalidInput(
    options.transport === 'http'
      ? `No GGUF file named "${basename(name)}" in the models folders ("models" beside the database, and any named with \`arbiter serve --models-dir DIR\`).`
      : `No GGUF file at "${name}", nor one of that name in the models folders.`,
  );
}

/** Threads for llama.cpp: all cores but one (the one the app answers on); ARBITER_JUDGE_THREADS overrides. */
export function judgeThreads(env: NodeJS.ProcessEnv = process.env): number {
  const asked = Number(env.ARBITER_JUDGE_THREADS);
  return Number.isInteger(asked) && asked > 0 ? asked : Math.max(1, cpus().length - 1);
}

export interface JudgeJobInput {
  project: string;
  kind: JudgeKind;
  model: string;
  template?: number;
  params: JudgeParams;
  parallel: number;
  limit?: number;
}

/** Opens the engine, runs the judge, closes the engine: what a job (or the CLI, awaited) does. */
export async function judgeProject(db: Db, options: Pick<ServiceOptions, 'dbPath' | 'transport'>, input: JudgeJobInput, signal?: AbortSignal, onProgress?: (p: JudgeRunProgress) => void): Promise<JudgeRunSummary> {
  const project = requireProject(db, input.project);
  const saved = judgeTemplate(db, project.id, input.kind, input.template);
  if (input.template !== undefined && !saved) throw notFound(`No ${input.kind} template version ${input.template} in project "${input.project}".`);
  const template = saved ? { system: saved.system, prompt: saved.prompt, version: saved.version } : { ...DEFAULT_TEMPLATES[input.kind], version: 0 };
  const rubricName = rubricInForce(db, project.id);
  const rubricRow = rubricName ? findRubric(db, project.id, rubricName) : undefined;
  const version = rubricRow ? rubricVersion(db, rubricRow.id) : null;
  if (input.kind === 'rubric' && !version) throw invalidInput(`Project "${input.project}" has no rubric in force: a rubric judge grades by it (put one in force on the Rubrics screen).`);
  let engine: JudgeEngine;
  if (input.model === SERVER_MODEL) {
    const server = judgeEngine(db, project.id);
    if (!server) throw invalidInput(`Project "${input.project}" has no server set: set its address first (nothing is sent anywhere before).`);
    engine = openServerEngine({ ...server, parallel: input.parallel });
  } else {
    engine = await openLlamaEngine({ modelPath: judgeModelPath(options, input.model), parallel: input.parallel, threads: judgeThreads() });
  }
  try {
    return await runJudge(
      db,
      { projectId: project.id, kind: input.kind, engine, template, params: input.params, limit: input.limit, context: { segmentation: projectSegmentation(db, project.id), rubric: version ? { version: version.version, criteria: version.criteria } : null } },
      { signal, onProgress },
    );
  } finally {
    await engine.close();
  }
}

const view = ({ itemId: _i, runId: _r, engine: _e, rubricVersion: _v, answerSwapped: _s, tokens: _t, ms: _m, ...rest }: ReturnType<typeof judgeResults>[number]): JudgeResultView => rest;

export function judgesHandlers({ db, jobs, options }: ServiceContext): FeatureHandlers<JudgeOps> {
  return {
    listJudgeTemplates: ({ project }) => {
      const row = requireProject(db, project);
      return JUDGE_KINDS.map((kind) => {
        const saved = judgeTemplate(db, row.id, kind);
        return { kind, version: saved?.version ?? 0, versions: judgeTemplateVersions(db, row.id, kind), system: saved?.system ?? DEFAULT_TEMPLATES[kind].system, prompt: saved?.prompt ?? DEFAULT_TEMPLATES[kind].prompt };
      });
    },
    saveJudgeTemplate: ({ project, kind, system, prompt }) => {
      const row = requireProject(db, project);
      return writeNow(db, () => saveJudgeTemplate(db, row.id, kind, system.replace(/\r\n?/g, '\n'), prompt.replace(/\r\n?/g, '\n')));
    },
    listJudgeModels: () => ggufFiles(modelRoots(options)).map(({ name, size }) => ({ name, size })),
    getJudgeEngine: ({ project }) => {
      const server = judgeEngine(db, requireProject(db, project).id);
      return server ? { baseUrl: server.baseUrl, model: server.model, hasKey: server.apiKey !== '' } : null;
    },
    setJudgeEngine: ({ project, engine }) => {
      const row = requireProject(db, project);
      writeNow(db, () => setJudgeEngine(db, row.id, engine));
      return { set: engine !== null };
    },
    startJudging: (input) => {
      // What would fail the job at its start fails the call instead.
      const row = requireProject(db, input.project);
      if (input.model !== SERVER_MODEL) judgeModelPath(options, input.model);
      else if (!judgeEngine(db, row.id)) throw invalidInput(`Project "${input.project}" has no server set: set its address first (nothing is sent anywhere before).`);
      if (input.template !== undefined && !judgeTemplate(db, row.id, input.kind, input.template)) throw notFound(`No ${input.kind} template version ${input.template} in project "${input.project}".`);
      return jobs.startJudging(input.project, (signal, onProgress) => judgeProject(db, options, input, signal, onProgress));
    },
    judgePrelabels: ({ project, itemId }): JudgesOutputs['judgePrelabels'] => {
      const row = requireProject(db, project);
      requireItem(db, row, itemId);
      // The newest result per kind and response, whichever judge made it.
      const newest = new Map<string, JudgeResultView>();
      for (const r of judgeResults(db, row.id, { itemId })) newest.set(`${r.kind}:${r.response ?? ''}`, view(r));
      return [...newest.values()];
    },
    noteJudgeCritique: ({ project, annotator, itemId, resultId, revisionId, letter }) => {
      const row = requireProject(db, project);
      requireItem(db, row, itemId);
      const result = judgeResultById(db, row.id, resultId);
      if (!result || result.itemId !== itemId || !result.critique) throw notFound(`No judge critique ${resultId} on item ${itemId}.`);
      const who = findAnnotator(db, annotator);
      const revision = revisionId ? getRevision(db, revisionId) : who ? currentLabel(db, itemId, who.id, 'critique') : null;
      if (!revision || revision.itemId !== itemId || revision.task !== 'critique' || revision.annotator !== annotator) throw notFound(`No critique revision ${revisionId ?? ''} of ${annotator} on item ${itemId}.`);
      const body = readBody('critique', revision.body) as { critique?: Record<string, unknown> };
      const text = typeof body.critique?.[letter] === 'string' ? (body.critique[letter] as string) : '';
      const distance = editDistance(result.critique, text);
      writeNow(db, () => recordCritiqueEdit(db, { resultId, itemId, annotator, revisionId: revision.id, distance, judgeLength: [...result.critique!].length, finalLength: [...text].length }));
      return { distance };
    },
  };
}
