// The application service: the one object that implements shared/api, composed of one module per
// feature (the same rooms as shared/api/ and renderer/src/features/). Transports (IPC, HTTP, the CLI)
// validate input against the contract's schemas and call `dispatch`; nothing else touches the store.
import { EventEmitter } from 'node:events';
import { API_NAMES, schemas, type ApiName, type ApiOutput, type ApiParsed } from '../../../shared/api';
import { startCheckpointer } from '../tasks/checkpointer';
import { invalidInput, notFound } from '../base/errors';
import { describeInvalidInput, issueDetails } from '../base/inputErrors';
import { imageStoreOf } from '../images/store';
import { JobRegistry } from '../tasks/jobs';
import { deferCheckpoints, type Db } from '../store/db';
import { appHandlers } from './app';
import { critiquesHandlers } from './critiques';
import type { Handlers, ServiceContext, ServiceOptions } from './context';
import { datasetsHandlers } from './datasets';
import { evaluationHandlers } from './evaluation';
import { goldHandlers } from './gold';
import { goldRulesHandlers } from './goldRules';
import { guidelinesHandlers } from './guidelines';
import { itemsHandlers } from './items';
import { reviewHandlers } from './review';
import { jobsHandlers } from './jobs';
import { judgesHandlers } from './judges';
import { labelsHandlers } from './labels';
import { modelsHandlers } from './models';
import { projectsHandlers } from './projects';
import { rankingsHandlers } from './rankings';
import { rubricsHandlers } from './rubrics';
import { startSearchBuild } from './searchBuild';
import { stepsHandlers } from './steps';
import { TeamHub } from './team';
import { hubBackend } from './teamBackend';
import { uploadsHandlers } from './uploads';
import { videosHandlers } from './videos';

export type { ServiceOptions };

/**
 * How deeply an operation's input may nest (the contract's deepest input, a rubric's criteria, is a few
 * levels). A deeper one is refused before anything recursive sees it: zod and the wording of its errors
 * (JSON.stringify) overflowed the stack on a body nested a few thousand levels, a 500 with "Maximum
 * call stack size exceeded" (found by test/integration/fuzz-api.test.ts).
 */
export const INPUT_MAX_DEPTH = 64;

/** Whether a JSON value holds a list or object at depth `max` or below; without recursion. */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

export class ArbiterService {
  readonly events = new EventEmitter();
  readonly jobs = new JobRegistry(this.events);
  private readonly handlers: Handlers;
  /** Stops the background checkpointer (the connection's owner closes the database after). */
  readonly stopBackgroundWork: () => void;
  /** The image store beside the database (core/images/store.ts), for the image route of each host. */
  readonly imageStore: string;
  /** The team hub: background sync of connected projects (service/team.ts). */
  readonly team: TeamHub;
  /** The search index's build after an upgrade (service/searchBuild.ts): settled when done or stopped. */
  readonly searchBuilt: Promise<void>;

  constructor(
    readonly db: Db,
    readonly options: ServiceOptions,
  ) {
    this.imageStore = imageStoreOf(db);
    const context: ServiceContext = { db, options, events: this.events, jobs: this.jobs, imageStore: this.imageStore };
    deferCheckpoints(db);
    const stopCheckpointer = startCheckpointer(options.dbPath);
    this.team = new TeamHub(context, hubBackend(options.dbPath));
    const searchBuild = startSearchBuild(context);
    this.searchBuilt = searchBuild.finished;
    this.stopBackgroundWork = () => {
      stopCheckpointer();
      searchBuild.stop();
      void this.team.stop();
    };
    this.handlers = {
      ...projectsHandlers(context),
      ...datasetsHandlers(context),
      ...uploadsHandlers(context),
      ...labelsHandlers(context),
      ...stepsHandlers(context),
      ...rankingsHandlers(context),
      ...rubricsHandlers(context),
      ...critiquesHandlers(context),
      ...guidelinesHandlers(context),
      ...reviewHandlers(context),
      ...modelsHandlers(context),
      ...jobsHandlers(context),
      ...judgesHandlers(context),
      ...appHandlers(context),
      ...this.team.handlers(),
      ...goldHandlers(context),
      ...evaluationHandlers(context),
      ...goldRulesHandlers(context),
      ...itemsHandlers(context),
      ...videosHandlers(context),
    };
  }

  /** Validates raw input against the contract, then runs the operation. */
  async dispatch<N extends ApiName>(name: N, rawInput: unknown): Promise<ApiOutput<N>> {
    if (!API_NAMES.includes(name)) throw notFound(`Unknown operation "${String(name)}".`);
    if (nestedDeeperThan(rawInput, INPUT_MAX_DEPTH))
      throw invalidInput(`The input to ${name} nests lists or objects more than ${INPUT_MAX_DEPTH} levels deep; no operation takes input that deep. Nothing was changed.`);
    const parsed = schemas[name].safeParse(rawInput ?? {}, { reportInput: true });
    if (!parsed.success) throw invalidInput(describeInvalidInput(parsed.error.issues, name), issueDetails(parsed.error.issues));
    const input = parsed.data as ApiParsed<N>;
    const handler = this.handlers[name] as (input: ApiParsed<N>) => Promise<ApiOutput<N>> | ApiOutput<N>;
    return handler(input);
  }
}
