// Seeded hostile values at every place of a videofeedback row and of a LeRobot episode record (as
// ../../../electron/core/formats/sources/lerobot.ts hands one over, from meta/info.json and meta/episodes.jsonl,
// whose values are the dataset's): each parse either returns an item or refuses with a RecordError (a
// sentence), never a TypeError. FUZZ_SEED=<seed> adds that seed to the fixed ones; a failure names its seed.
import { describe, expect, it } from 'vitest';
import { RecordError } from '../../../electron/core/formats/types';
import { parseLeRobot } from '../../../electron/core/formats/video/lerobot';
import { parseVideoFeedback } from '../../../electron/core/formats/video/videoFeedback';
import { hostileValue, paths, setAt, toJsonText } from '../../helpers/hostile';
import { seededRng } from '../../helpers/seeded';

const SEEDS = [1, 20261128, 777, ...(process.env.FUZZ_SEED ? [Number(process.env.FUZZ_SEED)] : [])];
const CASES = 400;

const TEMPLATES: Record<string, { parse: (r: Record<string, unknown>) => unknown; record: Record<string, unknown> }> = {
  videofeedback: {
    parse: parseVideoFeedback,
    record: { id: '7000001', images: ['a_00.jpg'], 'text prompt': 'A corgi runs.', 'video link': 'videos/a.mp4', 'visual quality': 3, 'temporal consistency': 2, 'dynamic degree': 3, 'text-to-video alignment': 4, 'factual consistency': 2, conversations: [{ from: 'human', value: 'Rate it.' }] },
  },
  lerobot: {
    parse: parseLeRobot,
    record: { lerobot_episode: 3, tasks: ['Pick up the cube.'], length: 24, fps: 24, robot_type: 'so101', cameras: { 'observation.images.top': 'videos/chunk-000/observation.images.top/episode_000003.mp4' }, success: true, first_failure: 0.5 },
  },
};

describe.each(Object.keys(TEMPLATES))('%s records with hostile values', (format) => {
  it.each(SEEDS)('seed %i: every case parses or is refused with a sentence', (seed) => {
    const rng = seededRng(seed);
    const { parse, record } = TEMPLATES[format]!;
    const places = paths(record).filter((p) => p.length > 0);
    const failures: string[] = [];
    for (let n = 0; n < CASES; n++) {
      const place = rng.pick(places);
      const hostile = hostileValue(rng, 2000);
      const remove = rng.chance(0.1);
      const text = toJsonText(setAt(record, place, hostile, remove));
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue; // the importer refuses a line that is not JSON before any parser sees it
      }
      try {
        parse(value);
      } catch (error) {
        if (!(error instanceof RecordError)) failures.push(`FUZZ_SEED=${seed} case ${n}: ${remove ? 'without' : hostile.name + ' at'} ${place.join('.')}: ${(error as Error).name}: ${(error as Error).message}`);
      }
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });
});
