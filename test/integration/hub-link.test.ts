// A project's link to a hub in the SQLite file (store/hub.ts linkProject): linking again to the same hub
// project keeps every mark (a join again, a publish again); linking to another hub or another project on
// it starts a new link, every mark at its start, and what was deferred or held for the old one goes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDb, type Db } from '../../electron/core/store/db';
import { agreeTeamSettings, hubLink, linkProject, setPulledItemSeq, setPulledSeq, setSegmentationWatermarks } from '../../electron/core/store/hub';
import { createProject } from '../../electron/core/store/projects';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbiter-hub-link-'));
  db = openDb(join(dir, 'arbiter.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;

it('keeps the marks when linked again to the same hub project, and starts over for another', () => {
  const project = createProject(db, 'team', '').id;
  const url = 'postgres://arbiter_ana@hub.example.org:5432/arbiter';
  linkProject(db, project, url, 7, '2026-01-01T00:00:00.000Z');
  setPulledSeq(db, project, 40, [{ hubSeq: 12, reason: 'item q5, which this project lacks' }]);
  setSegmentationWatermarks(db, project, { pulledSeq: 3, pushedId: 2 });
  setPulledItemSeq(db, project, 9);
  agreeTeamSettings(db, project, 'f'.repeat(64));
  db.prepare('INSERT INTO hub_held (project_id, seq) VALUES (?, ?)').run(project, 5);
  db.prepare("UPDATE hub_link SET last_error = 'the hub refused' WHERE project_id = ?").run(project);

  const again = linkProject(db, project, url, 7, '2026-02-01T00:00:00.000Z');
  expect(again).toMatchObject({ pulledSeq: 40, pulledSegmentationSeq: 3, pushedSegmentationId: 2, pulledItemSeq: 9, settingsHash: 'f'.repeat(64), joinedAt: '2026-02-01T00:00:00.000Z', lastError: null });
  expect([count('hub_deferred'), count('hub_held')]).toEqual([1, 1]);

  const other = linkProject(db, project, url, 8, '2026-03-01T00:00:00.000Z');
  expect(other).toMatchObject({ hubProjectId: 8, pulledSeq: 0, pushedLabelSeq: 0, pulledSegmentationSeq: 0, pushedSegmentationId: 0, pulledItemSeq: null, settingsHash: null, lastSyncAt: null });
  expect([count('hub_deferred'), count('hub_held')]).toEqual([0, 0]);
  expect(hubLink(db, project)).toEqual(other);
  const elsewhere = linkProject(db, project, 'postgres://arbiter_ana@other.example.org:5432/arbiter', 8);
  expect(elsewhere).toMatchObject({ url: 'postgres://arbiter_ana@other.example.org:5432/arbiter', pulledSeq: 0 });
});
