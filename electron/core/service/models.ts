// Reward models: add, inspect, remove, score a project, pre-labels for an item.
import { conflict, invalidInput } from '../errors';
import * as scorer from '../scorer/index';
import { removeModel } from '../store/models';
import type { FeatureHandlers, ServiceContext } from './context';
import { requireItem, requireProject } from './guards';

type ModelOps = 'listModels' | 'inspectModel' | 'addModel' | 'removeModel' | 'providers' | 'startScoring' | 'prelabels';

export function modelsHandlers({ db, jobs, options }: ServiceContext): FeatureHandlers<ModelOps> {
  return {
    listModels: () => scorer.listModels(db),
    inspectModel: ({ dir }) => scorer.inspectModelFolder(dir),
    addModel: ({ dir, name }) => scorer.addModel(db, dir, name),
    removeModel: ({ modelId }) => {
      // A running job reads the model's row and writes its scores: removing it underneath would fail the job.
      if (jobs.list().some((j) => j.kind === 'score' && j.state === 'running')) throw conflict('A scoring job is running; cancel it or let it finish, then remove the model.');
      return { removed: removeModel(db, modelId) };
    },
    providers: () => scorer.availableProviders(),
    startScoring: ({ project, modelIds, provider, batchSize }) => {
      requireProject(db, project);
      const known = scorer.listModels(db).map((m) => m.id);
      const ids = modelIds ?? known;
      if (ids.length === 0) throw invalidInput('No models to score with: add a model folder first.');
      const unknown = ids.filter((id) => !known.includes(id));
      if (unknown.length) throw invalidInput(`No model with id ${unknown.join(', ')}; the models are listed on the Models screen.`);
      return jobs.startScoring({ dbPath: options.dbPath, project, modelIds: ids, provider, batchSize });
    },
    prelabels: ({ project, itemId }) => {
      const row = requireProject(db, project);
      requireItem(db, row, itemId);
      return scorer.prelabelsForItem(db, row.id, itemId);
    },
  };
}
