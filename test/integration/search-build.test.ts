// The search index of an upgraded database (issue 22 §1-2): a database written before the index existed
// (release 0.1.0's, schema 2) has its items indexed after the upgrade by a background job with progress,
// in short steps the app answers between (a save lands mid-build and is found), resumable after a kill,
// with the labels' text included and no item twice.
import { EventEmitter } from 'node:events';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobInfo } from '../../shared/api';
import { startSearchBuild } from '../../electron/core/service/searchBuild';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb } from '../../electron/core/store/db';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { searchPage } from '../../electron/core/store/search';
import { buildSearchIndex, searchBuildState } from '../../electron/core/store/searchIndex';
import { JobRegistry } from '../../electron/core/tasks/jobs';
import { tempDir } from '../helpers/tmp';

const FIXTURE = join(__dirname, '..', 'fixtures', 'db', 'release-0.1.0-v2.sqlite');

describe('the search index of an upgraded database', () => {
  it('is built in the background with progress, resumes after a kill, and takes saves meanwhile', async () => {
    const path = join(tempDir(), 'arbiter.db');
    copyFileSync(FIXTURE, path);
    let db = openDb(path);
    const project = requireProject(db, 'fixture').id;
    const found = (q: string) => searchPage(db, project, q).rows.map((r) => r.itemId);
    expect(searchBuildState(db)).toEqual({ done: 0, total: 5 });
    expect(found('Paris')).toEqual([]);
    expect(searchPage(db, project, 'Paris').building).toEqual({ done: 0, total: 5 });

    // Two items, then a kill: the next open resumes after them.
    expect(buildSearchIndex(db, { maxItems: 2 })).toEqual({ done: 2, total: 5 });
    db.close();
    db = openDb(path);
    expect(searchBuildState(db)).toEqual({ done: 2, total: 5 });

    const events = new EventEmitter();
    const jobs = new JobRegistry(events);
    const seen: JobInfo[] = [];
    events.on('event', (e: { type: string; job: JobInfo }) => e.type === 'job' && seen.push(e.job));
    const build = startSearchBuild({ db, jobs }, { maxItems: 1 });
    // A save while the build runs: the event loop is free between steps.
    await new Promise<void>((resolve) => {
      const check = () => ((searchBuildState(db)?.done ?? 5) >= 3 ? resolve() : setTimeout(check, 1));
      check();
    });
    expect(searchBuildState(db)).toEqual({ done: 3, total: 5 });
    const last = db.prepare('SELECT MAX(id) FROM item').pluck().get() as number;
    labelAppender(db)({ projectId: project, itemId: last, annotatorId: ensureAnnotator(db, 'ann', 'human').id, choice: 'A', body: { rationale: 'a tapir would know' } });
    await build.finished;

    const job = jobs.list()[0]!;
    expect(job).toMatchObject({ kind: 'index', state: 'done', done: 5, total: 5 });
    expect(seen[0]).toMatchObject({ kind: 'index', state: 'running', done: 2, total: 5 });
    expect(searchBuildState(db)).toBeNull();
    expect(searchPage(db, project, 'Paris').building).toBeNull();
    expect(found('Paris')).toHaveLength(1);
    expect(found('"9.11 is larger"')).toHaveLength(1);
    // The labels' text of the old revisions (the current one's rationale), and the save made mid-build.
    expect(found('rationale:"second thought"')).toHaveLength(1);
    expect(found('tapir')).toEqual([last]);
    expect(db.prepare('SELECT COUNT(*) FROM item_search').pluck().get()).toBe(5);
    db.close();
  });
});
