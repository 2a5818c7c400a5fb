// Local reward models: add, inspect, remove, score a project, pre-labels for an item.
import { z } from 'zod';
import type { ItemPrelabels, ModelDescription, ModelInfo, ProviderStatus } from '../scoring';
import { itemId, projectName } from './common';
import type { JobInfo } from './jobs';

export const modelsSchemas = {
  listModels: z.object({}).strict(),
  /** Reads a model folder and says what it found, without adding anything. */
  inspectModel: z.object({ dir: z.string().min(1).max(4000) }).strict(),
  addModel: z.object({ dir: z.string().min(1).max(4000), name: z.string().trim().min(1).max(120).optional() }).strict(),
  removeModel: z.object({ modelId: z.number().int().positive() }).strict(),
  providers: z.object({}).strict(),
  startScoring: z
    .object({
      project: projectName,
      /** Omitted: every added model. */
      modelIds: z.array(z.number().int().positive()).min(1).optional(),
      provider: z.enum(['auto', 'cpu', 'cuda', 'dml', 'coreml']).default('auto'),
      batchSize: z.number().int().min(1).max(1024).default(16),
    })
    .strict(),
  prelabels: z.object({ project: projectName, itemId }).strict(),
} as const;

export interface ModelsOutputs {
  listModels: ModelInfo[];
  inspectModel: ModelDescription;
  addModel: ModelInfo;
  removeModel: { removed: boolean };
  providers: ProviderStatus[];
  startScoring: JobInfo;
  prelabels: ItemPrelabels;
}
