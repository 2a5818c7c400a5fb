// A dataset that is a folder, imported through the API the page uses (importFolder, issue 24): a LeRobot
// dataset named by its full path is read where it is (nothing written into it); a relative path, a folder
// that is no dataset, a file, and a missing project are refused with a sentence, nothing imported.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { makeLeRobotFolder } from '../helpers/leRobotFolder';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing } from '../helpers/videoClips';

const skip = skipOrFail('import-folder', ffmpegMissing());
let dir: string;
let service: ArbiterService;

beforeAll(() => {
  if (skip) return;
  // One folder for both tests (test/helpers/tmp.ts's folders go after each test).
  dir = mkdtempSync(join(tmpdir(), 'arbiter-import-folder-'));
  makeLeRobotFolder(join(dir, 'so101'), [true, false]);
  mkdirSync(join(dir, 'plain'));
  writeFileSync(join(dir, 'plain', 'notes.txt'), 'not a dataset\n');
  service = new ArbiterService(openDb(join(dir, 'arbiter.db')), { dbPath: join(dir, 'arbiter.db'), transport: 'http', version: 'test', defaultAnnotator: 'a' });
});

afterAll(() => {
  service?.stopBackgroundWork();
  service?.db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('importFolder', () => {
  it('imports a LeRobot dataset folder where it is, writing nothing into it', async () => {
    const before = readdirSync(join(dir, 'so101'), { recursive: true }).length;
    const summary = await service.dispatch('importFolder', { project: 'robot', path: join(dir, 'so101'), createProject: true });
    expect(summary).toMatchObject({ format: 'lerobot', items: 2, file: 'so101' });
    expect(readdirSync(join(dir, 'so101'), { recursive: true }).length).toBe(before);
    expect((await service.dispatch('listItems', { project: 'robot', limit: 10 })).rows.map((r) => r.externalId).sort()).toEqual(['episode_000000', 'episode_000001']);
  });

  it('refuses what is not a dataset folder by its full path, in a sentence', async () => {
    const refused = (path: string, extra: object = {}) => service.dispatch('importFolder', { project: 'other', path, createProject: true, ...extra }).then(() => 'imported', (e: Error) => e.message);
    expect(await refused('so101')).toMatch(/full path on this computer/);
    expect(await refused(join(dir, 'plain'))).toMatch(/is not a dataset folder Arbiter reads: a LeRobot dataset has meta\/info.json/);
    expect(await refused(join(dir, 'plain', 'notes.txt'))).toMatch(/is not a dataset folder/);
    expect(await refused(join(dir, 'nowhere'))).toMatch(/is not a dataset folder/);
    expect(await refused(join(dir, 'so101'), { createProject: false, project: 'missing' })).toMatch(/missing/);
    expect((await service.dispatch('listProjects', {})).map((p) => p.name)).toEqual(['robot']);
  });
});
