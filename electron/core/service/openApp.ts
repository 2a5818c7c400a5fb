// Opening Arbiter: the database, the demo project on first launch, and the service over them.
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { importFile } from '../formats/index';
import { appRoot } from '../base/paths';
import { scoreProjectInline } from '../scorer/index';
import { DEMO_VIDEO_PROJECT, seedDemoLabels, seedDemoVideos } from './demo';
import { ArbiterService } from './index';
import type { ServiceOptions } from './context';
import { openDb, type Db, type OpenOptions } from '../store/db';
import { deleteProjectRows, deletingProjects, listProjects } from '../store/projects';

export const DEMO_PROJECT = 'Demo';

export function appVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(appRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

export function defaultAnnotatorName(): string {
  try {
    return process.env.ARBITER_ANNOTATOR || userInfo().username || 'annotator';
  } catch {
    return 'annotator';
  }
}

export const DEMO_MODELS = ['demo-outcome', 'demo-process', 'demo-image'];
/** The video demo's reward model (a frame stack, scripts/gen-demo-models.mjs), scored over "Demo videos". */
export const DEMO_VIDEO_MODELS = ['demo-video'];

/**
 * On a database with no projects, adds the demo project shipped in resources/demo (every kind of item, a
 * rubric in force, two annotators' labels: see scripts/gen-demo-data.mjs), with the demo reward models
 * scored over it so pre-labels show from the first item, and the video demo beside it (demo.ts
 * seedDemoVideos: resources/demo/videos, made by scripts/gen-demo-videos.mjs).
 */
export async function seedDemo(db: Db, dbPath: string, service: ArbiterService): Promise<boolean> {
  if (process.env.ARBITER_NO_DEMO === '1' || listProjects(db).length > 0) return false;
  const dir = join(appRoot(), 'resources', 'demo');
  const demo = join(dir, 'items.jsonl');
  if (!existsSync(demo)) return false;
  await importFile(db, { path: demo, project: DEMO_PROJECT, format: 'arbiter', skipInvalid: false, createProject: true });
  try {
    await seedDemoLabels(service, DEMO_PROJECT, join(dir, 'seed.json'));
  } catch (error) {
    // The demo stays usable without its sample labels; say why they are missing.
    console.error(`Arbiter: the demo's sample labels could not be added: ${(error as Error).message}`);
  }
  try {
    await seedDemoVideos(db, service, join(dir, 'videos'));
  } catch (error) {
    // The text and image demo stays usable without the video one; say why it is missing.
    console.error(`Arbiter: the demo's video project could not be added: ${(error as Error).message}`);
  }
  await scoreDemo(dbPath, DEMO_PROJECT, DEMO_MODELS);
  // The video model's frames come from the ffmpeg inside the npm package (scorer/videoFrames.ts), not PATH.
  if (listProjects(db).some((p) => p.name === DEMO_VIDEO_PROJECT)) await scoreDemo(dbPath, DEMO_VIDEO_PROJECT, DEMO_VIDEO_MODELS);
  return true;
}

async function scoreDemo(dbPath: string, project: string, models: string[]): Promise<void> {
  const dirs = models.map((name) => join(appRoot(), 'resources', 'models', name)).filter((dir) => existsSync(dir));
  try {
    if (dirs.length) await scoreProjectInline({ dbPath, project, dirs, provider: 'cpu' });
  } catch (error) {
    // The demo stays usable without pre-labels; say why they are missing.
    console.error(`Arbiter: the demo models could not score the project "${project}": ${(error as Error).message}`);
  }
}

export async function openApp(dbPath: string, transport: 'ipc' | 'http', options: OpenOptions = {}): Promise<ArbiterService> {
  const db = openDb(dbPath, options);
  // A project delete the last run did not finish goes on in the background.
  for (const id of deletingProjects(db)) void deleteProjectRows(db, id).catch(() => undefined);
  const serviceOptions: ServiceOptions = { dbPath, transport, version: appVersion(), defaultAnnotator: defaultAnnotatorName() };
  const service = new ArbiterService(db, serviceOptions);
  // `npm start` asks for the demo it made to open ready to label (ARBITER_OPEN_DEMO=1, set by scripts/start.mjs).
  if ((await seedDemo(db, dbPath, service)) && process.env.ARBITER_OPEN_DEMO === '1') serviceOptions.openProject = DEMO_PROJECT;
  return service;
}
