// Agreement on marks in time in review (issue 24, item 4), on a real SQLite file with ffmpeg clips: two
// people judge three robot episodes. On ep0 their marks match (same tag, ranges overlapping by IoU ≥ 0.5,
// instants 0.3 s apart) and their first failures are 0.2 s apart; on ep1 one marked a collision the other
// did not, and their first failures are 1.5 s apart; on ep2 only one person judged. The report gives the
// marks' and first failures' agreement with the items they rest on; ep1 alone is in the verdict queue with
// the reason "moments"; the adjudication view hands each person's marks and first failure.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../electron/core/formats';
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import type { Moment } from '../../shared/moments';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing, makeClip } from '../helpers/videoClips';

const skip = skipOrFail('review-moments', ffmpegMissing());
let dir: string;
let service: ArbiterService;
const ids = new Map<string, number>();

beforeAll(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'arbiter-review-moments-'));
  mkdirSync(join(dir, 'clips'));
  makeClip(join(dir, 'clips'), 'top.webm', { codec: 'vp9', seconds: 4 });
  const episode = (id: string) => JSON.stringify({ id, prompt: `Put the cube in the bowl (${id}).`, responses: [{ text: [{ role: 'assistant', content: [{ type: 'video', video: 'clips/top.webm' }] }] }] });
  writeFileSync(join(dir, 'episodes.jsonl'), ['ep0', 'ep1', 'ep2'].map(episode).join('\n') + '\n');
  const dbPath = join(dir, 'review.db');
  service = new ArbiterService(openDb(dbPath), { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
  await importFile(service.db, { path: join(dir, 'episodes.jsonl'), project: 'robot', createProject: true });
  const { rows } = await service.dispatch('listItems', { project: 'robot', limit: 10 });
  for (const row of rows) ids.set(row.externalId!, row.id);
  const judge = async (annotator: string, external: string, moments: Moment[], failure: number | null) => {
    const itemId = ids.get(external)!;
    await service.dispatch('saveVerdict', { project: 'robot', annotator, itemId, verdict: 'bad' });
    await service.dispatch('saveMoments', { project: 'robot', annotator, itemId, task: 'verdict', moments, firstFailure: { A: failure } });
  };
  await judge('alice', 'ep0', [{ at: 0, from: 1, to: 2, tag: 'collision' }, { at: 0, from: 3, tag: 'slip' }], 1.0);
  await judge('bob', 'ep0', [{ at: 0, from: 1.1, to: 2.2, tag: 'Collision', note: 'into the bowl' }, { at: 0, from: 3.3, tag: 'slip' }], 1.2);
  await judge('alice', 'ep1', [{ at: 0, from: 0.5, to: 1.5, tag: 'collision' }], 0.5);
  await judge('bob', 'ep1', [], 2.0);
  await judge('alice', 'ep2', [{ at: 0, from: 2, tag: 'slip' }], 2);
}, 120_000);

afterAll(() => {
  service?.db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('marks in time in review', () => {
  it('the report gives the agreement on marks and on first failures, with the items they rest on', async () => {
    const report = await service.dispatch('reviewReport', { project: 'robot', refresh: true });
    // ep0: 1 (both marks paired); ep1: 0 (alice's mark unpaired against none). ep2 has one person.
    expect(report.moments.marks).toEqual({ value: 0.5, n: 2, reason: null });
    // ep0: 0.2 s apart (agree); ep1: 1.5 s apart (not).
    expect(report.moments.failures).toEqual({ value: 0.5, n: 2, reason: null });
    expect(report.queue.byReason.moments).toBe(1);
  });

  it('puts the item people marked differently in the verdict queue with the reason "moments"', async () => {
    const queue = await service.dispatch('reviewQueue', { project: 'robot', task: 'verdict', reason: 'moments' });
    expect(queue.rows.map((r) => [r.itemId, r.reasons])).toEqual([[ids.get('ep1'), ['moments']]]);
    expect(queue.rows[0]!.votes).toEqual({ bad: 2 });
    expect(queue.rows[0]!.dispute).toBe(1);
  });

  it('the adjudication view hands each person’s marks in time and first failure', async () => {
    const view = await service.dispatch('adjudicationView', { project: 'robot', itemId: ids.get('ep1')!, task: 'verdict' });
    expect(view.labels.map((l) => [l.annotator, l.moments, l.firstFailure])).toEqual([
      ['alice', [{ at: 0, from: 0.5, to: 1.5, tag: 'collision' }], { A: 0.5 }],
      ['bob', null, { A: 2 }],
    ]);
  });
});
