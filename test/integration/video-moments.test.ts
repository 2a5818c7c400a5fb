// Temporal marks (issue 24, item 4): an instant or a range with a tag and a note, per response, and an
// episode's first failure, saved on a judgement as a new revision of it (saveMoments, as saveRegions adds
// region marks), refused where they name a response the item lacks; carried by a labels file to another
// machine, checked there as a save is; agreement on them by temporal IoU and instants within a tolerance.
// Real SQLite files; the item's videos are ffmpeg clips stored by the import.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failuresAgree, momentAgreement, temporalIoU, type Moment } from '../../shared/moments';
import { exportProject, importFile, importLabelsFile } from '../../electron/core/formats';
import { ArbiterService } from '../../electron/core/service';
import { openDb } from '../../electron/core/store/db';
import { iterateItems } from '../../electron/core/store/items';
import { currentLabel } from '../../electron/core/store/labels';
import { findAnnotator } from '../../electron/core/store/annotators';
import { requireProject } from '../../electron/core/store/projects';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing, makeClip } from '../helpers/videoClips';

const skip = skipOrFail('video-moments', ffmpegMissing());
let dir: string;
const machines: ArbiterService[] = [];

function machine(name: string): ArbiterService {
  const dbPath = join(dir, `${name}.db`);
  const service = new ArbiterService(openDb(dbPath), { dbPath, transport: 'http', version: 'test', defaultAnnotator: 'alice' });
  machines.push(service);
  return service;
}

beforeAll(() => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'arbiter-moments-'));
  mkdirSync(join(dir, 'clips'));
  makeClip(join(dir, 'clips'), 'top.webm', { codec: 'vp9', seconds: 2 });
  makeClip(join(dir, 'clips'), 'wrist.webm', { codec: 'vp9', seconds: 2, source: 'testsrc' });
  const episode = { role: 'assistant', content: [{ type: 'video', video: 'clips/top.webm' }, { type: 'video', video: 'clips/wrist.webm' }] };
  writeFileSync(join(dir, 'episodes.jsonl'), JSON.stringify({ id: 'ep0', prompt: 'Put the cube in the bowl.', responses: [{ text: [episode] }] }) + '\n');
});

afterAll(() => {
  for (const m of machines) m.db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const MARKS: Moment[] = [
  { at: 0, from: 0.5, tag: 'slip', note: 'the gripper slips' },
  { at: 0, from: 1.0, to: 1.75, tag: 'collision' },
];

describe.skipIf(skip)('temporal marks on a judgement', () => {
  it('adds marks and the first failure to the current verdict as a new revision, and carries them in a labels file', async () => {
    const a = machine('a');
    await importFile(a.db, { path: join(dir, 'episodes.jsonl'), project: 'robot', createProject: true });
    const itemId = [...iterateItems(a.db, requireProject(a.db, 'robot').id)][0]!.id;
    // Not judged yet: nothing to add them to.
    expect(await a.dispatch('saveMoments', { project: 'robot', annotator: 'alice', itemId, task: 'verdict', moments: MARKS, firstFailure: { A: 1.25 } })).toBeNull();
    await a.dispatch('saveVerdict', { project: 'robot', annotator: 'alice', itemId, verdict: 'bad' });
    const saved = await a.dispatch('saveMoments', { project: 'robot', annotator: 'alice', itemId, task: 'verdict', moments: MARKS, firstFailure: { A: 1.25 } });
    expect(saved).toMatchObject({ choice: 'bad', body: { moments: MARKS, first_failure: { A: 1.25 } } });
    // The same marks again write nothing new.
    expect((await a.dispatch('saveMoments', { project: 'robot', annotator: 'alice', itemId, task: 'verdict', moments: MARKS, firstFailure: { A: 1.25 } }))!.id).toBe(saved!.id);
    await expect(a.dispatch('saveMoments', { project: 'robot', annotator: 'alice', itemId, task: 'verdict', moments: [{ at: 1, from: 0, tag: 'x' }] })).rejects.toThrow(/moments\[0\]\.at: item \d+ has 1 response \(0 to 0\), not 1/);
    await expect(a.dispatch('saveMoments', { project: 'robot', annotator: 'alice', itemId, task: 'verdict', moments: [{ at: 0, from: 2, to: 1, tag: 'x' }] })).rejects.toThrow(/to > from/);
    await expect(a.dispatch('saveMoments', { project: 'robot', annotator: 'alice', itemId, task: 'verdict', moments: [], firstFailure: { B: 1 } })).rejects.toThrow(/no response B/);

    const out = join(dir, 'alice-labels.jsonl');
    await exportProject(a.db, { project: 'robot', format: 'labels', out, annotator: 'alice' });
    const b = machine('b');
    await importFile(b.db, { path: join(dir, 'episodes.jsonl'), project: 'robot', createProject: true });
    await importLabelsFile(b.db, { path: out, project: 'robot' });
    const itemB = [...iterateItems(b.db, requireProject(b.db, 'robot').id)][0]!.id;
    const there = currentLabel(b.db, itemB, findAnnotator(b.db, 'alice')!.id, 'verdict')!;
    expect(there.choice).toBe('bad');
    expect(there.body.moments).toEqual(MARKS);
    expect(there.body.first_failure).toEqual({ A: 1.25 });
  });

  it('a changed judgement keeps its marks in time and first failure (a new choice is a new revision of the same judgement)', async () => {
    const a = machines[0]!;
    const itemId = [...iterateItems(a.db, requireProject(a.db, 'robot').id)][0]!.id;
    const changed = await a.dispatch('saveVerdict', { project: 'robot', annotator: 'alice', itemId, verdict: 'good' });
    expect(changed).toMatchObject({ choice: 'good', body: { moments: MARKS, first_failure: { A: 1.25 } } });
    // Removing every mark on purpose still removes them.
    const cleared = await a.dispatch('saveMoments', { project: 'robot', annotator: 'alice', itemId, task: 'verdict', moments: [], firstFailure: { A: null } });
    expect(cleared!.body.moments).toBeUndefined();
    const again = await a.dispatch('saveVerdict', { project: 'robot', annotator: 'alice', itemId, verdict: 'bad' });
    expect(again.body.moments).toBeUndefined();
    expect(again.body.first_failure).toEqual({ A: null });
    // Put back for the tests after.
    await a.dispatch('saveMoments', { project: 'robot', annotator: 'alice', itemId, task: 'verdict', moments: MARKS, firstFailure: { A: 1.25 } });
  });

  it('a labels line whose marks name a response the item lacks is refused, naming the field', async () => {
    const a = machines[0]!;
    const { readFileSync } = await import('node:fs');
    const line = JSON.parse(readFileSync(join(dir, 'alice-labels.jsonl'), 'utf8').trim().split('\n').at(-1)!);
    const c = machine('c');
    await importFile(c.db, { path: join(dir, 'episodes.jsonl'), project: 'robot', createProject: true });
    writeFileSync(join(dir, 'bad-labels.jsonl'), JSON.stringify({ ...line, moments: [{ at: 3, from: 0, tag: 'x' }] }) + '\n');
    await expect(importLabelsFile(c.db, { path: join(dir, 'bad-labels.jsonl'), project: 'robot' })).rejects.toThrow();
    const error = (await importLabelsFile(c.db, { path: join(dir, 'bad-labels.jsonl'), project: 'robot' }).catch((e: { errors?: { reason: string }[]; message: string }) => e)) as { errors?: { reason: string }[] };
    expect(JSON.stringify(error.errors ?? error)).toContain('moments[0].at: the item has 1 response (0 to 0), not 3');
    expect(a).toBeDefined();
  });
});

describe.skipIf(skip)('hostile marks in a labels file', () => {
  it('a negative time, a range ending before it starts, 10 000 marks, a 1 MB note: each line refused by the save’s rule, naming it', async () => {
    const { readFileSync } = await import('node:fs');
    const line = JSON.parse(readFileSync(join(dir, 'alice-labels.jsonl'), 'utf8').trim().split('\n').at(-1)!);
    const d = machine('d');
    await importFile(d.db, { path: join(dir, 'episodes.jsonl'), project: 'robot', createProject: true });
    const cases: [unknown, RegExp][] = [
      [[{ at: 0, from: -1, tag: 'slip' }], /0 or more seconds/],
      [[{ at: 0, from: 2, to: 1, tag: 'slip' }], /to > from/],
      [Array.from({ length: 10_000 }, (_, i) => ({ at: 0, from: i / 100, tag: 'slip' })), /more than 200 marks/],
      [[{ at: 0, from: 1, tag: 'slip', note: 'x'.repeat(1_000_000) }], /a note longer than 2000 characters/],
    ];
    for (const [i, [moments, words]] of cases.entries()) {
      const file = join(dir, `hostile-${i}.jsonl`);
      writeFileSync(file, JSON.stringify({ ...line, id: `0190bbbb-0000-7000-8000-00000000000${i}`, moments }) + '\n');
      const error = (await importLabelsFile(d.db, { path: file, project: 'robot' }).then(
        () => null,
        (e: { errors?: { reason: string }[]; message: string }) => e,
      )) as { errors?: { reason: string }[]; message: string } | null;
      expect(error, `case ${i}`).not.toBeNull();
      expect(JSON.stringify(error!.errors ?? error!.message)).toMatch(words);
    }
    const itemD = [...iterateItems(d.db, requireProject(d.db, 'robot').id)][0]!.id;
    expect(findAnnotator(d.db, 'alice') && currentLabel(d.db, itemD, findAnnotator(d.db, 'alice')!.id, 'verdict')).toBeFalsy();
  });
});

describe('agreement on temporal marks', () => {
  it('temporal IoU of ranges; instants within a tolerance; one-to-one pairing as an F1', () => {
    expect(temporalIoU({ from: 1, to: 3 }, { from: 2, to: 4 })).toBeCloseTo(1 / 3, 6);
    expect(temporalIoU({ from: 1, to: 2 }, { from: 3, to: 4 })).toBe(0);
    expect(temporalIoU({ from: 1 }, { from: 1 })).toBe(1);
    const alice: Moment[] = [
      { at: 0, from: 1.0, to: 2.0, tag: 'collision' },
      { at: 0, from: 3.0, tag: 'slip' },
    ];
    expect(momentAgreement(alice, [{ at: 0, from: 1.2, to: 2.1, tag: 'Collision' }, { at: 0, from: 3.4, tag: 'slip' }])).toBe(1);
    // The instant is 0.6 s off (beyond 0.5 s); the range overlaps too little (IoU 0.2).
    expect(momentAgreement(alice, [{ at: 0, from: 1.8, to: 2.8, tag: 'collision' }, { at: 0, from: 3.6, tag: 'slip' }])).toBe(0);
    expect(momentAgreement(alice, [{ at: 0, from: 3.6, tag: 'slip' }], 1)).toBeCloseTo(2 / 3, 6);
    expect(momentAgreement(alice, [{ at: 1, from: 3.0, tag: 'slip' }])).toBe(0);
    expect(momentAgreement([], [])).toBe(1);
    expect(failuresAgree(1.25, 1.6)).toBe(true);
    expect(failuresAgree(1.25, 1.9)).toBe(false);
    expect(failuresAgree(null, null)).toBe(true);
    expect(failuresAgree(null, 2)).toBe(false);
  });
});
