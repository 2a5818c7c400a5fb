// The API contract: every operation once, with a zod schema for its input and its output type, one
// module per feature (the same rooms as electron/core/service/ and renderer/src/features/). Electron IPC
// (electron/main), the browser host (electron/host) and the renderer's client are all built from this
// one table, so a transport can never accept a shape the other refuses.
import type { z } from 'zod';
import { appSchemas, type AppOutputs } from './app';
import { critiquesSchemas, type CritiquesOutputs } from './critiques';
import { datasetsSchemas, type DatasetsOutputs } from './datasets';
import { evaluationSchemas, type EvaluationOutputs } from './evaluation';
import { goldSchemas, type GoldOutputs } from './gold';
import { goldRulesSchemas, type GoldRulesOutputs } from './goldRules';
import { itemsSchemas, type ItemsOutputs } from './items';
import { guidelinesSchemas, type GuidelinesOutputs } from './guidelines';
import { jobsSchemas, type JobsOutputs } from './jobs';
import { judgesSchemas, type JudgesOutputs } from './judges';
import { labelsSchemas, type LabelsOutputs } from './labels';
import { modelsSchemas, type ModelsOutputs } from './models';
import { projectsSchemas, type ProjectsOutputs } from './projects';
import { rankingsSchemas, type RankingsOutputs } from './rankings';
import { reviewSchemas, type ReviewOutputs } from './review';
import { rubricsSchemas, type RubricsOutputs } from './rubrics';
import { stepsSchemas, type StepsOutputs } from './steps';
import { teamSchemas, type TeamOutputs } from './team';
import { uploadsSchemas, type UploadsOutputs } from './uploads';
import { videosSchemas, type VideosOutputs } from './videos';

export * from './app';
export * from './common';
export * from './critiques';
export * from './datasets';
export * from './evaluation';
export * from './gold';
export * from './goldRules';
export * from './items';
export * from './guidelines';
export * from './jobs';
export * from './judges';
export * from './labels';
export * from './models';
export * from './projects';
export * from './rankings';
export * from './review';
export * from './rubrics';
export * from './steps';
export * from './team';
export * from './uploads';
export * from './videos';

export const schemas = {
  ...projectsSchemas,
  ...datasetsSchemas,
  ...uploadsSchemas,
  ...labelsSchemas,
  ...stepsSchemas,
  ...rankingsSchemas,
  ...rubricsSchemas,
  ...critiquesSchemas,
  ...guidelinesSchemas,
  ...reviewSchemas,
  ...modelsSchemas,
  ...jobsSchemas,
  ...judgesSchemas,
  ...appSchemas,
  ...teamSchemas,
  ...goldSchemas,
  ...evaluationSchemas,
  ...goldRulesSchemas,
  ...itemsSchemas,
  ...videosSchemas,
} as const;

export type ApiName = keyof typeof schemas;
export type ApiInput<N extends ApiName> = z.input<(typeof schemas)[N]>;
export type ApiParsed<N extends ApiName> = z.output<(typeof schemas)[N]>;

export type ApiOutputs = ProjectsOutputs & DatasetsOutputs & UploadsOutputs & StepsOutputs & RankingsOutputs & RubricsOutputs & CritiquesOutputs & GuidelinesOutputs & ReviewOutputs & LabelsOutputs & ModelsOutputs & JobsOutputs & JudgesOutputs & AppOutputs & TeamOutputs & GoldOutputs & EvaluationOutputs & GoldRulesOutputs & ItemsOutputs & VideosOutputs;
export type ApiOutput<N extends ApiName> = ApiOutputs[N];

/** What a transport returns for an error: a sentence for people, a code for programs. */
export interface ApiErrorShape {
  code: 'invalid_input' | 'not_found' | 'conflict' | 'invalid_file' | 'internal' | 'unauthorized';
  message: string;
  details?: unknown;
}

export type ArbiterApi = { [N in ApiName]: (input: ApiInput<N>) => Promise<ApiOutput<N>> };

export const API_NAMES = Object.keys(schemas) as ApiName[];
