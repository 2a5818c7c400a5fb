// Reward models: add, inspect, remove, score a project, pre-labels for an item.
//
// In the browser host the page is untrusted, so a model folder it names must lie inside a models folder:
// `models` beside the database, and those the user named with `arbiter serve --models-dir DIR` (carried
// in ARBITER_MODELS_DIRS). A folder outside gets one sentence whether or not it exists. The desktop app
// takes any folder (its path comes from the native dialog in the main process); the CLI runs as the user.
import { existsSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { conflict, invalidInput } from '../base/errors';
import * as scorer from '../scorer/index';
import { removeModel } from '../store/models';
import type { FeatureHandlers, ServiceContext, ServiceOptions } from './context';
import { requireItem, requireProject } from './guards';

type ModelOps = 'listModels' | 'inspectModel' | 'addModel' | 'removeModel' | 'providers' | 'startScoring' | 'prelabels';

/** The environment variable `serve --models-dir` fills: folders separated by the system's path delimiter. */
export const MODELS_DIRS_ENV = 'ARBITER_MODELS_DIRS';

const OUTSIDE =
  'The browser host reads model folders only from its models folders: "models" beside the database, and any named with ' +
  '`arbiter serve --models-dir DIR`. Put the model folder in one (or start the host with --models-dir naming its parent), then give its name.';

/** The folders the browser host may read model folders from, resolved. */
export function modelRoots(options: Pick<ServiceOptions, 'dbPath'>, env: NodeJS.ProcessEnv = process.env): string[] {
  const named = (env[MODELS_DIRS_ENV] ?? '').split(delimiter).filter((dir) => dir.trim() !== '');
  return [join(dirname(resolve(options.dbPath)), 'models'), ...named.map((dir) => resolve(dir))];
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export function modelsHandlers({ db, jobs, options }: ServiceContext): FeatureHandlers<ModelOps> {
  /**
   * The folder to read: as given in the desktop app; in the browser host, a name inside a models folder
   * (the first that has it) or a full path inside one, and nothing else.
   */
  const modelDir = (dir: string): string => {
    if (options.transport !== 'http') return dir;
    const roots = modelRoots(options);
    const candidates = isAbsolute(dir) ? [resolve(dir)] : roots.map((root) => resolve(root, dir));
    const allowed = candidates.filter((path) => roots.some((root) => inside(path, root) && path !== root));
    if (!allowed.length) throw invalidInput(OUTSIDE);
    return allowed.find((path) => existsSync(path)) ?? allowed[0]!;
  };

  return {
    listModels: () => scorer.listModels(db),
    inspectModel: ({ dir }) => scorer.inspectModelFolder(modelDir(dir)),
    addModel: ({ dir, name }) => scorer.addModel(db, modelDir(dir), name),
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
