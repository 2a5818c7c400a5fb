// The demo shows every screen (issue 13, finding 27): pairs, items of three or four responses, chains with
// their steps and single answers, a rubric in force, and two annotators whose labels disagree on a few
// items, so the review queue has something; a first `npm start` (ARBITER_OPEN_DEMO=1) opens it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openApp } from '../../electron/core/service/openApp';
import { hasImage } from '../../electron/core/images/store';
import { imagesOf } from '../../shared/images';
import { videosOf } from '../../shared/videos';
import { DEMO_VIDEO_PROJECT } from '../../electron/core/service/demo';
import { taskLine } from '../../shared/api/projects';
import type { Content } from '../../shared/domain';
import type { ArbiterService } from '../../electron/core/service';
import { tempDir } from '../helpers/tmp';

let service: ArbiterService | undefined;
const saved = { noDemo: process.env.ARBITER_NO_DEMO, open: process.env.ARBITER_OPEN_DEMO, path: process.env.PATH };

afterEach(() => {
  service?.stopBackgroundWork();
  service?.db.close();
  service = undefined;
  for (const [key, value] of [['ARBITER_NO_DEMO', saved.noDemo], ['ARBITER_OPEN_DEMO', saved.open]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('the demo project', () => {
  it('holds every kind of item, a rubric in force and two annotators who disagree', async () => {
    delete process.env.ARBITER_NO_DEMO;
    process.env.ARBITER_OPEN_DEMO = '1';
    service = await openApp(join(tempDir(), 'arbiter.db'), 'http');
    const [demo] = await service.dispatch('listProjects', {});
    expect(demo).toBeDefined();
    const project = demo!.name;
    expect((await service.dispatch('appInfo', {})).openProject).toBe(project);
    expect(demo!.shapes!.pairs).toBeGreaterThan(0);
    expect(demo!.shapes!.ranked).toBeGreaterThanOrEqual(3);
    expect(demo!.shapes!.chains).toBeGreaterThanOrEqual(3);
    expect(demo!.shapes!.single).toBeGreaterThan(demo!.shapes!.chains);
    expect(demo!.opensOn).toBe('compare');
    // Every labeling task has work in it already, from two people.
    for (const task of ['pairwise', 'ranking', 'steps', 'verdict']) expect(demo!.tasks.find((t) => t.task === task)?.labeled, task).toBeGreaterThan(0);
    const rubrics = await service.dispatch('listRubrics', { project });
    expect(rubrics.some((r) => r.inForce)).toBe(true);
    const people = new Set((await service.dispatch('annotators', { project })).filter((a) => a.kind === 'human').map((a) => a.name));
    expect(people.size).toBeGreaterThanOrEqual(2);
    for (const task of ['pairwise', 'ranking', 'steps', 'verdict'] as const) {
      const queue = await service.dispatch('reviewQueue', { project, task });
      expect(queue.total, `review queue of ${task}`).toBeGreaterThan(0);
    }
    // Images (issue 15): a question about a chart, text-to-image pairs and a ranking of four generated
    // images, every image stored beside the database; one label carries a region mark on an image.
    const rows = service.db.prepare("SELECT external_id AS id, prompt FROM item WHERE external_id LIKE 'demo-vl-%' OR external_id LIKE 'demo-t2i-%'").all() as { id: string; prompt: string }[];
    expect(rows.map((r) => r.id).sort()).toEqual(['demo-t2i-1', 'demo-t2i-2', 'demo-t2i-rank', 'demo-vl-1']);
    const responses = service.db.prepare("SELECT r.content FROM response r JOIN item i ON i.id = r.item_id WHERE i.external_id LIKE 'demo-t2i-%'").pluck().all() as string[];
    const images = [...rows.flatMap((r) => imagesOf(JSON.parse(r.prompt) as Content, 'prompt')), ...responses.flatMap((c) => imagesOf(JSON.parse(c) as Content, 0))];
    expect(images.length).toBe(1 + 2 + 2 + 4);
    for (const placed of images) expect(placed.image.image && hasImage(service.imageStore, placed.image.image.sha256), JSON.stringify(placed.image.origin)).toBe(true);
    const marked = service.db.prepare("SELECT COUNT(*) FROM label WHERE body LIKE '%\"regions\"%'").pluck().get() as number;
    expect(marked).toBeGreaterThanOrEqual(1);
    // The demo's image reward model scored the generated images (issue 15, pre-labels), the other items not.
    const imageScores = service.db
      .prepare("SELECT i.external_id FROM score s JOIN model m ON m.id = s.model_id JOIN item i ON i.id = s.item_id WHERE m.name = 'demo-image' AND s.reward IS NOT NULL")
      .pluck()
      .all() as string[];
    expect(new Set(imageScores)).toEqual(new Set(['demo-t2i-1', 'demo-t2i-2', 'demo-t2i-rank']));
  }, 120_000);

  it('holds what the README says it holds (issue 20, item 22)', async () => {
    delete process.env.ARBITER_NO_DEMO;
    service = await openApp(join(tempDir(), 'arbiter.db'), 'http');
    const [demo] = await service.dispatch('listProjects', {});
    const { pairs, ranked, chains, single } = demo!.shapes!;
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(
      `${pairs} pairs (Compare), ${ranked} items of three or four responses (Rank), ${chains} chains of thought with their steps and a reference answer (Steps), ${single - chains} more single answers (Verdict walks all ${single})`,
    );
    // The progress line the README shows is the demo's as it opens.
    expect(readme).toContain(`\`${taskLine(demo!.tasks)}\` (the demo as it opens`);
  }, 120_000);

  it('has a video project ready to label, its clips shipped as files (no ffmpeg on the user’s machine; issue 24)', async () => {
    delete process.env.ARBITER_NO_DEMO;
    process.env.PATH = '/nonexistent';
    try {
      service = await openApp(join(tempDir(), 'arbiter.db'), 'http');
    } finally {
      process.env.PATH = saved.path;
    }
    const videos = (await service.dispatch('listProjects', {})).find((p) => p.name === DEMO_VIDEO_PROJECT);
    expect(videos?.shapes).toMatchObject({ pairs: 4, single: 1 });
    expect(videos!.opensOn).toBe('compare');
    expect((await service.dispatch('listRubrics', { project: DEMO_VIDEO_PROJECT })).find((r) => r.inForce)?.name).toBe('video-generation');
    const contents = service.db.prepare("SELECT r.content FROM response r JOIN item i ON i.id = r.item_id WHERE i.external_id LIKE 'demo-video-%' OR i.external_id = 'demo-episode-0'").pluck().all() as string[];
    const parts = contents.flatMap((c) => videosOf(JSON.parse(c) as Content));
    expect(parts.length).toBe(4 * 2 + 2);
    for (const part of parts) {
      expect(part.video, JSON.stringify(part.origin)).toBeDefined();
      // Probed at import (duration, size, codec) from the committed file, none damaged, each a few KB.
      expect(part.video).toMatchObject({ codec: 'vp9', width: 160, height: 90 });
      expect(part.video!.damaged ?? null).toBeNull();
      expect(part.video!.bytes).toBeLessThan(32 * 1024);
    }
    // The demo's video reward model (resources/models/demo-video) scored every clip at first launch, its
    // frames decoded by the ffmpeg inside the npm package (PATH held nothing): each pair has a vote.
    const pairs = service.db.prepare("SELECT id FROM item WHERE external_id LIKE 'demo-video-%' ORDER BY external_id").pluck().all() as number[];
    expect(pairs.length).toBe(4);
    for (const itemId of pairs) {
      const demoVideo = (await service.dispatch('prelabels', { project: DEMO_VIDEO_PROJECT, itemId })).models.find((m) => m.name === 'demo-video');
      expect(demoVideo?.rewards.every((r) => typeof r === 'number'), `item ${itemId}`).toBe(true);
      expect(demoVideo?.pAB).toEqual(expect.any(Number));
    }
  }, 120_000);

  it('opens on the project list when not started by `npm start`', async () => {
    delete process.env.ARBITER_NO_DEMO;
    delete process.env.ARBITER_OPEN_DEMO;
    service = await openApp(join(tempDir(), 'arbiter.db'), 'http');
    expect((await service.dispatch('appInfo', {})).openProject ?? null).toBeNull();
  }, 120_000);
});
