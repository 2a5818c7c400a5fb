// The demo shows every screen (issue 13, finding 27): pairs, items of three or four responses, chains with
// their steps and single answers, a rubric in force, and two annotators whose labels disagree on a few
// items, so the review queue has something; a first `npm start` (ARBITER_OPEN_DEMO=1) opens it.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openApp } from '../../electron/core/app';
import type { ArbiterService } from '../../electron/core/service';
import { tempDir } from '../helpers/tmp';

let service: ArbiterService | undefined;
const saved = { noDemo: process.env.ARBITER_NO_DEMO, open: process.env.ARBITER_OPEN_DEMO };

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
  }, 120_000);

  it('opens on the project list when not started by `npm start`', async () => {
    delete process.env.ARBITER_NO_DEMO;
    delete process.env.ARBITER_OPEN_DEMO;
    service = await openApp(join(tempDir(), 'arbiter.db'), 'http');
    expect((await service.dispatch('appInfo', {})).openProject ?? null).toBeNull();
  }, 120_000);
});
