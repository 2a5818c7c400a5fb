// What every feature's handlers share: the database, the job registry, the event bus, the options.
import type { EventEmitter } from 'node:events';
import type { ApiName, ApiOutputs, ApiParsed } from '../../../shared/api';
import type { JobRegistry } from '../tasks/jobs';
import type { Db } from '../store/db';

export interface ServiceOptions {
  dbPath: string;
  transport: 'ipc' | 'http';
  version: string;
  defaultAnnotator: string;
  /** A project the window opens on start (the demo made on a first `npm start`). */
  openProject?: string;
}

export interface ServiceContext {
  db: Db;
  options: ServiceOptions;
  events: EventEmitter;
  jobs: JobRegistry;
  /** The image store beside the database (core/images/store.ts: imageStoreOf(db)). */
  imageStore: string;
}

export type Handlers = { [N in ApiName]: (input: ApiParsed<N>) => Promise<ApiOutputs[N]> | ApiOutputs[N] };
/** One feature's slice of the contract. */
export type FeatureHandlers<K extends ApiName> = Pick<Handlers, K>;
