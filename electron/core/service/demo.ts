// The demo project's labels and rubric (resources/demo/seed.json, written by scripts/gen-demo-data.mjs):
// put in through the service, as the app would save them, so every screen has something to show on a
// first launch: a rubric in force, and two annotators whose labels agree on most items and disagree on a few.
import { readFileSync } from 'node:fs';
import type { RegionMark } from '../../../shared/regions';
import type { Criterion } from '../../../shared/rubric';
import type { ArbiterService } from './';

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
