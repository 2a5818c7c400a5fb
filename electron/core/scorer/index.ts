// The scorer's public surface, called by the application service, the CLI and the browser host.
import { notFound } from '../base/errors';
import type { Db } from '../store/db';
import { getItem } from '../store/items';
import { projectSegmentation } from '../store/projects';
import { stepsKey } from '../../../shared/segment';
import { inputHash, responseInput, stepsOf } from './inputs';
import { loadModel } from './loadModel';
import { ensemble, firstError, pairProbability, voteOf } from './prelabel';
import { registerModel, runScoreJob, type JobHooks } from './scoreJob';
import { getScore, listModelRows, listModels } from '../store/models';
import type { ItemPrelabels, ModelInfo, ModelPrelabel, ScoreJobOptions, ScoreJobResult } from './types';

export type * from './types';
export { inspectModelFolder } from './loadModel';
export { availableProviders } from './providers';
export { startScoreJob, type ScoreJobHandle } from './jobClient';
export { workerEntryPath } from './modulePath';
export { listModels };

/** Inspects, checks and adds a model folder (or finds it, if the same files were added before). */
export async function addModel(db: Db, dir: string, name?: string): Promise<ModelInfo> {
  const loaded = await loadModel(dir, 'cpu');
  try {
    const row = await registerModel(db, loaded, name);
    return listModels(db).find((m) => m.id === row.id)!;
  } finally {
    await loaded.session.release();
  }
}

/** Runs a score job on this thread (for the CLI, which has nothing else to do meanwhile). */
export function scoreProjectInline(options: ScoreJobOptions, hooks: JobHooks = {}): Promise<ScoreJobResult> {
  return runScoreJob(options, hooks);
}

/** Every model's pre-label for an item, from cached scores (nothing is computed here). */
export function prelabelsForItem(db: Db, projectId: number, itemId: number): ItemPrelabels {
  const item = getItem(db, projectId, itemId);
  if (!item) throw notFound(`No item ${itemId} in this project`);
  // The same inputs the score job hashed: for process models, the steps the step screen shows now, so
  // scores made for another cut (before a split or merge) are not found.
  const segmentation = projectSegmentation(db, projectId);
  const inputs = item.responses.map((_, index) => responseInput(item, index, segmentation));
  const models: ModelPrelabel[] = [];
  for (const model of listModelRows(db)) {
    const scores = inputs.map((input) => getScore(db, model.id, inputHash(model.kind, input)));
    if (scores.every((s) => s === null)) continue;
    const rewards = scores.map((s) => s?.reward ?? null);
    const [a, b] = rewards;
    const pAB = a !== null && a !== undefined && b !== null && b !== undefined ? pairProbability(a, b) : null;
    const prelabel: ModelPrelabel = {
      modelId: model.id,
      name: model.name,
      kind: model.kind,
      rewards,
      pAB,
      vote: pAB === null ? null : voteOf(pAB),
      provider: scores.find((s) => s !== null)?.provider ?? null,
    };
    if (model.kind === 'process') {
      prelabel.steps = scores.map((s) => s?.stepScores ?? null);
      prelabel.stepKeys = scores.map((s, i) => (s?.stepScores ? stepsKey(stepsOf(inputs[i]!)) : null));
      prelabel.firstError = prelabel.steps.map((steps) => (steps ? firstError(steps) : null));
    }
    models.push(prelabel);
  }
  const pABs = models.map((m) => m.pAB).filter((p): p is number => p !== null);
  return { models, ensemble: ensemble(pABs) };
}
