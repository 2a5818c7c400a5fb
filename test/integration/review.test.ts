// Team review through the service on a real SQLite file: two people label the same five pairs and
// disagree on two; the queue holds exactly those two, most disputed first; the figures rest on the right
// counts; a lead's adjudication is recorded without becoming one more vote, and is the gold label.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApp } from '../../electron/core/service/openApp';
import { exportProject, importLabelsFile } from '../../electron/core/formats';
import { readFileSync } from 'node:fs';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

function setup(items = 5) {
  const dir = tempDir();
  const { db, service, ids } = pairProject(join(dir, 'arbiter.db'), {
    items,
    texts: (i) => [`a short answer ${i}`, `a much longer answer to question ${i}, with more words`],
    models: ['m1', 'm2'],
    annotator: 'lead',
    visibleSeq: 1000000,
  });
  return { db, dir, service, ids };
}

type Setup = ReturnType<typeof setup>;

async function label(s: Setup, annotator: string, choices: ('A' | 'B' | 'tie')[]) {
  for (const [i, choice] of choices.entries()) {
    await s.service.dispatch('saveLabel', { project: 'p', annotator, itemId: s.ids[i]!, choice, strength: 2, shownOrder: [0, 1], timeMs: 4000 });
  }
}

describe('team review', () => {
  it('queues exactly the items people disagree on, and figures each field and person on the right counts', async () => {
    // Ten pairs (a figure needs ten items: electron/core/review/minimums.ts), the same five choices twice.
    const s = setup(10);
    await label(s, 'alice', ['A', 'A', 'B', 'A', 'B', 'A', 'A', 'B', 'A', 'B']);
    await label(s, 'bob', ['A', 'B', 'B', 'A', 'A', 'A', 'B', 'B', 'A', 'A']);
    const queue = await s.service.dispatch('reviewQueue', { project: 'p' });
    expect(queue.total).toBe(4);
    expect(queue.rows.map((r) => r.externalId).sort()).toEqual(['q1', 'q4', 'q6', 'q9']);
    expect(queue.rows[0]).toMatchObject({ reasons: ['annotators'], votes: { A: 1, B: 1 }, labels: 2, dispute: 0.5, adjudicated: false });

    const report = await s.service.dispatch('reviewReport', { project: 'p' });
    expect(report).toMatchObject({ labels: 20, items: 10, annotators: 2 });
    const choice = report.fields.find((f) => f.field === 'choice')!;
    expect(choice.percent).toEqual({ value: 6 / 10, n: 10, reason: null });
    expect(choice.cohen?.between.sort()).toEqual(['alice', 'bob']);
    // 2×2 table: both A on 4, both B on 2, A/B and B/A twice each. p_o = 0.6, p_e = 0.6·0.6 + 0.4·0.4 = 0.52.
    expect(choice.cohen?.value).toBeCloseTo((0.6 - 0.52) / (1 - 0.52), 10);
    expect(choice.alpha.n).toBe(10);
    const alice = report.people.find((p) => p.name === 'alice')!;
    expect(alice.labels).toBe(10);
    expect(alice.withOthers).toMatchObject({ value: 0.6, n: 10 });
    // Left is response A (shown order [0, 1]): alice picked A six times out of ten.
    expect(alice.leftPicks).toMatchObject({ value: 0.6, n: 10 });
    // The longer response is B: alice picked it four times.
    expect(alice.longerPicks).toMatchObject({ value: 0.4, n: 10 });
    // Per hour of time spent: 4 s a label.
    expect(alice.labelsPerHour).toMatchObject({ value: 900, n: 10 });
    expect(report.queue).toMatchObject({ total: 4, byReason: { annotators: 4, model: 0, uncertain: 0 }, adjudicated: 0 });

    // Five items are too few for a figure: each says so, with its n.
    const five = setup();
    await label(five, 'alice', ['A', 'A', 'B', 'A', 'B']);
    await label(five, 'bob', ['A', 'B', 'B', 'A', 'A']);
    const few = await five.service.dispatch('reviewReport', { project: 'p' });
    expect(few.fields.find((f) => f.field === 'choice')!.cohen).toMatchObject({ value: null, n: 5, reason: 'not enough data: 5 items (10 needed)' });
    expect(few.people.find((p) => p.name === 'alice')!.withOthers).toMatchObject({ value: null, n: 5, reason: 'not enough data: 5 labels (10 needed)' });
  });

  it('a lead adjudicates one item: it is marked, it decides the export, and it is not one more vote', async () => {
    const s = setup();
    await label(s, 'alice', ['A', 'A', 'B', 'A', 'B']);
    await label(s, 'bob', ['A', 'B', 'B', 'A', 'A']);
    const q1 = s.ids[1]!;
    const view = await s.service.dispatch('adjudicationView', { project: 'p', itemId: q1 });
    expect(view.labels.map((l) => [l.annotator, l.choice])).toEqual([
      ['alice', 'A'],
      ['bob', 'B'],
    ]);
    expect(view.adjudication).toBeNull();
    await s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: q1, choice: 'B', strength: 3, note: 'B cites the source' });

    const after = await s.service.dispatch('adjudicationView', { project: 'p', itemId: q1 });
    expect(after.adjudication).toMatchObject({ by: 'lead', note: 'B cites the source', choice: 'B', strength: 3 });
    expect(after.labels).toHaveLength(2);
    const queue = await s.service.dispatch('reviewQueue', { project: 'p' });
    expect(queue.rows.find((r) => r.itemId === q1)?.adjudicated).toBe(true);
    expect((await s.service.dispatch('reviewQueue', { project: 'p', includeAdjudicated: false })).total).toBe(1);
    const report = await s.service.dispatch('reviewReport', { project: 'p' });
    expect(report.labels).toBe(10);
    expect(report.annotators).toBe(2);
    expect(report.queue.adjudicated).toBe(1);

    // The export decides q1 by the adjudication (B), whatever the split.
    const out = join(s.dir, 'trl.jsonl');
    await exportProject(s.db, { project: 'p', format: 'trl', out });
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { prompt: string; chosen: string });
    expect(lines.find((l) => l.prompt === 'prompt 1')?.chosen).toMatch(/much longer answer to question 1/);
  });

  it('exports only adjudicated items, or only items people agree on, and counts what it left out', async () => {
    const s = setup();
    await label(s, 'alice', ['A', 'A', 'B', 'A', 'B']);
    await label(s, 'bob', ['A', 'B', 'B', 'A', 'A']);
    await label(s, 'carol', ['A', 'B']);
    await s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: s.ids[4]!, choice: 'A', note: '' });
    const lines = (out: string) => readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { prompt: string });
    const adjudicated = join(s.dir, 'adjudicated.jsonl');
    const onlyAdjudicated = await exportProject(s.db, { project: 'p', format: 'trl', out: adjudicated, adjudicatedOnly: true });
    expect(lines(adjudicated).map((l) => l.prompt)).toEqual(['prompt 4']);
    expect(onlyAdjudicated.skipped).toMatchObject({ not_adjudicated: 4 });
    // q0 3/3 agree, q1 2/3, q2 and q3 2/2, q4 1/2 but adjudicated.
    const agreed = join(s.dir, 'agreed.jsonl');
    const summary = await exportProject(s.db, { project: 'p', format: 'trl', out: agreed, minAgreement: 0.8 });
    expect(lines(agreed).map((l) => l.prompt)).toEqual(['prompt 0', 'prompt 2', 'prompt 3', 'prompt 4']);
    expect(summary.skipped).toMatchObject({ low_agreement: 1 });
    await expect(exportProject(s.db, { project: 'p', format: 'labels', out: join(s.dir, 'l.jsonl'), adjudicatedOnly: true })).rejects.toThrow(/writes every revision/);
  });

  it('an adjudication travels in a labels file and is an adjudication on the machine that merges it', async () => {
    const s = setup();
    await label(s, 'alice', ['A', 'A']);
    await label(s, 'bob', ['A', 'B']);
    await s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: s.ids[1]!, choice: 'B', note: 'B is exact' });
    const file = join(s.dir, 'labels.jsonl');
    await exportProject(s.db, { project: 'p', format: 'labels', out: file });
    const other = setup();
    await importLabelsFile(other.db, { path: file, project: 'p' });
    const view = await other.service.dispatch('adjudicationView', { project: 'p', itemId: other.ids[1]! });
    expect(view.adjudication).toMatchObject({ by: 'lead', note: 'B is exact', choice: 'B' });
    expect(view.labels.map((l) => l.annotator)).toEqual(['alice', 'bob']);
    const report = await other.service.dispatch('reviewReport', { project: 'p' });
    expect(report).toMatchObject({ labels: 4, annotators: 2, queue: { total: 1, adjudicated: 1 } });
    // Merging the file again adds nothing, not even a second adjudication.
    expect(await importLabelsFile(other.db, { path: file, project: 'p' })).toMatchObject({ added: 0 });
    expect(other.db.prepare('SELECT COUNT(*) FROM adjudication').pluck().get()).toBe(1);
  });

  it('exports every annotator’s label, soft labels, Dawid–Skene and the hard label (the adjudication where there is one)', async () => {
    const s = setup();
    await label(s, 'alice', ['A', 'A', 'B', 'A', 'B']);
    await label(s, 'bob', ['A', 'B', 'B', 'A', 'A']);
    await label(s, 'carol', ['A', 'B', 'B']);
    await s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: s.ids[4]!, choice: 'B', note: '' });
    const out = join(s.dir, 'consensus.jsonl');
    const summary = await exportProject(s.db, { project: 'p', format: 'consensus', out });
    expect(summary.written).toBe(5);
    type Line = { id: string; labels: { annotator: string; annotator_uuid: string; choice: string }[]; soft: Record<string, number>; majority: string; dawid_skene: Record<string, number>; adjudicated: string | null; label: string };
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
    const q1 = lines.find((l) => l.id === 'q1')!;
    expect(q1.labels.map((l) => [l.annotator, l.choice]).sort()).toEqual([['alice', 'A'], ['bob', 'B'], ['carol', 'B']]);
    expect(q1.labels.every((l) => /^[0-9a-f-]{36}$/.test(l.annotator_uuid))).toBe(true);
    expect(q1.soft).toEqual({ A: 0.3333, B: 0.6667, tie: 0, both_bad: 0 });
    expect(q1).toMatchObject({ majority: 'B', label: 'B', adjudicated: null });
    expect(Object.values(q1.dawid_skene).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
    // q4: alice B, bob A — an even split, which the lead settled as B.
    const q4 = lines.find((l) => l.id === 'q4')!;
    expect(q4).toMatchObject({ soft: { A: 0.5, B: 0.5 }, majority: 'split', adjudicated: 'B', label: 'B' });
    // The export filters apply: only the adjudicated item.
    const gold = await exportProject(s.db, { project: 'p', format: 'consensus', out: join(s.dir, 'gold.jsonl'), adjudicatedOnly: true });
    expect(gold.written).toBe(1);
  });

  // Issue 20, item 12: on the demo, "A vs tie" was exported as "both bad" and "tie vs B" as B (Dawid–Skene
  // with two people). A consensus is one of the labels given on the item, or `split` on an even split.
  it('the demo’s consensus is only ever a label given on the item, or split, in the export and the queue', async () => {
    const dir = tempDir();
    const saved = process.env.ARBITER_NO_DEMO;
    delete process.env.ARBITER_NO_DEMO;
    const service = await openApp(join(dir, 'arbiter.db'), 'http');
    if (saved !== undefined) process.env.ARBITER_NO_DEMO = saved;
    try {
      const [demo] = await service.dispatch('listProjects', {});
      const out = join(dir, 'consensus.jsonl');
      await exportProject(service.db, { project: demo!.name, format: 'consensus', out });
      type Line = { id: string; labels: { choice: string }[]; majority: string; adjudicated: string | null; label: string };
      const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
      const splits = lines.filter((l) => new Set(l.labels.map((x) => x.choice)).size === l.labels.length && l.labels.length === 2);
      expect(splits.length, 'the demo has pairs two people split on').toBeGreaterThanOrEqual(2);
      for (const line of lines) {
        const given = line.labels.map((l) => l.choice);
        const counts = given.map((c) => given.filter((x) => x === c).length);
        const even = counts.filter((n) => n === Math.max(...counts)).length > Math.max(...counts);
        expect(line.label, `${line.id}: ${given.join(' vs ')}`).toBe(even ? 'split' : line.label);
        expect([...given, 'split'], `${line.id}: ${given.join(' vs ')} gave ${line.label}`).toContain(line.label);
        if (even) expect(line.majority).toBe('split');
      }
      for (const task of ['pairwise', 'ranking', 'verdict', 'steps'] as const) {
        const queue = await service.dispatch('reviewQueue', { project: demo!.name, task });
        for (const row of queue.rows) {
          const top = Math.max(...Object.values(row.votes));
          const even = Object.values(row.votes).filter((n) => n === top).length > 1;
          if (task !== 'steps' || !row.trajectory) {
            if (even) expect(row.consensus, `${task} ${row.externalId}`).toBeNull();
            else expect(Object.keys(row.votes), `${task} ${row.externalId}`).toContain(row.consensus);
          }
        }
      }
    } finally {
      service.stopBackgroundWork();
      service.db.close();
    }
  });

  it('two leads’ adjudications of one item, merged in either order, agree on the gold label: the later one', async () => {
    const x = setup(2);
    const y = setup(2);
    await x.service.dispatch('adjudicate', { project: 'p', annotator: 'lead-x', itemId: x.ids[1]!, choice: 'A', note: 'first look' });
    await new Promise((r) => setTimeout(r, 5));
    await y.service.dispatch('adjudicate', { project: 'p', annotator: 'lead-y', itemId: y.ids[1]!, choice: 'B', note: 'second look' });
    const fromX = join(x.dir, 'x.jsonl');
    const fromY = join(y.dir, 'y.jsonl');
    await exportProject(x.db, { project: 'p', format: 'labels', out: fromX });
    await exportProject(y.db, { project: 'p', format: 'labels', out: fromY });
    const gold = async (files: string[]) => {
      const m = setup(2);
      for (const file of files) await importLabelsFile(m.db, { path: file, project: 'p' });
      return (await m.service.dispatch('adjudicationView', { project: 'p', itemId: m.ids[1]! })).adjudication;
    };
    expect(await gold([fromX, fromY])).toMatchObject({ by: 'lead-y', choice: 'B' });
    expect(await gold([fromY, fromX])).toMatchObject({ by: 'lead-y', choice: 'B' });
  });

  it('refuses a resolution that does not fit the task or the item, and names why', async () => {
    const s = setup(1);
    await expect(s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: s.ids[0]!, note: '' })).rejects.toThrow(/needs a choice/);
    await expect(s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: s.ids[0]!, task: 'ranking', ranking: [[0], [2]] })).rejects.toThrow(/each of the item's 2 responses once/);
    await expect(s.service.dispatch('adjudicate', { project: 'p', annotator: 'source', itemId: s.ids[0]!, choice: 'A' })).rejects.toThrow(/reserved/);
  });

  it('an empty project has a report with reasons, not NaN', async () => {
    const s = setup(2);
    const report = await s.service.dispatch('reviewReport', { project: 'p' });
    expect(report.labels).toBe(0);
    const choice = report.fields.find((f) => f.field === 'choice')!;
    expect(choice.percent.value).toBeNull();
    expect(choice.percent.reason).toBeTruthy();
    expect(JSON.stringify(report)).not.toMatch(/NaN|null,"n":0,"reason":null/);
  });
});
