// The demo project's labels and rubric (resources/demo/seed.json, written by scripts/gen-demo-data.mjs):
// put in through the service, as the app would save them, so every screen has something to show on a
// first launch: a rubric in force, and two annotators whose labels agree on most items and disagree on a few.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RegionMark } from '../../../shared/regions';
import type { Criterion } from '../../../shared/rubric';
import { VIDEO_GENERATION_RUBRIC } from '../../../shared/rubricTemplates';
import { importFile } from '../formats/index';
import type { Db } from '../store/db';
import type { ArbiterService } from './';

/** The demo's second project: generated-video pairs and a robot episode (resources/demo/videos). */
export const DEMO_VIDEO_PROJECT = 'Demo videos';

/**
 * Adds the video demo: its clips are committed files (scripts/gen-demo-videos.mjs made them once), so
 * nothing here needs ffmpeg; the pairs are rated with the video-generation rubric (VideoAlign's axes).
 */
export async function seedDemoVideos(db: Db, service: ArbiterService, dir: string): Promise<void> {
  const items = join(dir, 'items.jsonl');
  if (!existsSync(items)) return;
  await importFile(db, { path: items, project: DEMO_VIDEO_PROJECT, format: 'arbiter', skipInvalid: false, createProject: true });
  await service.dispatch('saveRubric', { project: DEMO_VIDEO_PROJECT, name: VIDEO_GENERATION_RUBRIC.name, criteria: VIDEO_GENERATION_RUBRIC.criteria });
  await service.dispatch('setRubricInForce', { project: DEMO_VIDEO_PROJECT, name: VIDEO_GENERATION_RUBRIC.name });
}

type SeedLabel = { annotator: string; item: string } & (
  | { task: 'pairwise'; choice: 'A' | 'B' | 'tie' | 'both_bad'; strength: 1 | 2 | 3 | null; regions?: RegionMark[] }
  | { task: 'ranking'; ranking: number[][] }
  | { task: 'steps'; ratings: (1 | 0 | -1 | null)[]; firstError: number | null }
  | { task: 'verdict'; verdict: 'good' | 'bad' }
);

interface Seed {
  rubric: { name: string; criteria: Criterion[] };
  labels: SeedLabel[];
}

export async function seedDemoLabels(service: ArbiterService, project: string, file: string): Promise<void> {
  const seed = JSON.parse(readFileSync(file, 'utf8')) as Seed;
  await service.dispatch('saveRubric', { project, name: seed.rubric.name, criteria: seed.rubric.criteria });
  await service.dispatch('setRubricInForce', { project, name: seed.rubric.name });
  const { rows } = await service.dispatch('listItems', { project, limit: 1000 });
  const ids = new Map(rows.map((r) => [r.externalId, { id: r.id, responses: r.responses }]));
  for (const label of seed.labels) {
    const item = ids.get(label.item);
    if (!item) throw new Error(`resources/demo/seed.json: no demo item "${label.item}"`);
    const base = { project, annotator: label.annotator, itemId: item.id };
    const shownOrder = Array.from({ length: item.responses }, (_, i) => i);
    if (label.task === 'pairwise') await service.dispatch('saveLabel', { ...base, choice: label.choice, strength: label.strength, shownOrder, ...(label.regions ? { regions: label.regions } : {}) });
    else if (label.task === 'ranking') await service.dispatch('saveRanking', { ...base, ranking: label.ranking, shownOrder });
    else if (label.task === 'verdict') await service.dispatch('saveVerdict', { ...base, verdict: label.verdict });
    else {
      const { responses } = await service.dispatch('getSteps', base);
      await service.dispatch('saveSteps', { ...base, response: 0, steps: { version: responses[0]!.version, ratings: label.ratings, firstError: label.firstError } });
    }
  }
}
