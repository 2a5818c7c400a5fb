// Gold on a real SQLite file: a file's own labels become gold when a lead marks them (per import, per
// selection, per task or all), an unmark takes them back, an adjudication is gold without a mark and
// outranks the file; goldOf answers every task in the shared label-body types; `arbiter gold` marks by
// import and lists the imports.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile } from '../../electron/core/formats';
import { goldOf } from '../../electron/core/review/gold';
import { ensureAnnotator, SOURCE_ANNOTATOR } from '../../electron/core/store/annotators';
import { labelAppender } from '../../electron/core/store/labels';
import { requireProject } from '../../electron/core/store/projects';
import { writeNow } from '../../electron/core/store/write';
import { useCliDir } from '../helpers/cliDir';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const fixture = (name: string) => join(__dirname, '../fixtures/formats', name);

function setup() {
  const { db, project, service, ids } = pairProject(join(tempDir(), 'arbiter.db'), { items: 4, texts: (i) => [`a${i}`, `b${i}`], annotator: 'lead', visibleSeq: 'all' });
  const source = ensureAnnotator(db, SOURCE_ANNOTATOR, 'source');
  const append = labelAppender(db);
  const item = ids[0]!;
  const regions = [{ image: 'a'.repeat(64), shape: { kind: 'box', x: 0.1, y: 0.1, w: 0.2, h: 0.2 }, tag: 'cat' }];
  writeNow(db, () => {
    append({ projectId: project.id, itemId: item, annotatorId: source.id, task: 'pairwise', choice: 'B', strength: 2 });
    append({ projectId: project.id, itemId: item, annotatorId: source.id, task: 'ranking', choice: null, ranking: [[1], [0]] });
    append({ projectId: project.id, itemId: item, annotatorId: source.id, task: 'steps', choice: null, body: { first_error: { A: 2, B: -1 }, outcome: { A: 'incorrect', B: 'correct' } }, done: true });
    append({ projectId: project.id, itemId: item, annotatorId: source.id, task: 'rubric', choice: null, body: { ratings: { A: { helpful: 4 }, B: { helpful: 2 } } }, done: true });
    append({ projectId: project.id, itemId: item, annotatorId: source.id, task: 'verdict', choice: 'good' });
    append({ projectId: project.id, itemId: item, annotatorId: source.id, task: 'critique', choice: null, body: { critique: { A: 'too short' }, regions: regions as never }, done: true });
    append({ projectId: project.id, itemId: ids[1]!, annotatorId: source.id, task: 'pairwise', choice: 'A' });
  });
  return { db, project, service, ids };
}

describe('gold', () => {
  it('is nothing until a lead marks the file’s labels; then every task of the marked items, in the label-body types', async () => {
    const s = setup();
    expect(goldOf(s.db, s.project.id).size).toBe(0);
    const marked = await s.service.dispatch('markGold', { project: 'p', itemIds: [s.ids[0]!] });
    expect(marked).toEqual({ items: 1, withFileLabels: 1 });
    const gold = goldOf(s.db, s.project.id);
    const of = (task: string) => gold.get(task as never)?.get(s.ids[0]!);
    expect(of('pairwise')).toMatchObject({ origin: 'file', choice: 'B', strength: 2 });
    expect(of('ranking')).toMatchObject({ origin: 'file', ranking: [[1], [0]] });
    expect(of('steps')?.body).toMatchObject({ first_error: { A: 2, B: -1 }, outcome: { A: 'incorrect', B: 'correct' } });
    expect(of('rubric')?.body).toMatchObject({ ratings: { A: { helpful: 4 }, B: { helpful: 2 } } });
    expect(of('verdict')).toMatchObject({ choice: 'good' });
    expect(of('critique')?.body).toMatchObject({ critique: { A: 'too short' }, regions: [{ tag: 'cat' }] });
    // The unmarked item's file label is not gold.
    expect(gold.get('pairwise')?.has(s.ids[1]!)).toBe(false);
    const summary = await s.service.dispatch('goldSummary', { project: 'p' });
    expect(summary.tasks.find((t) => t.task === 'pairwise')).toEqual({ task: 'pairwise', adjudicated: 0, marked: 1, total: 1 });
  });

  it('marks one task, unmarks it, and the newer of an every-task mark and a task mark decides', async () => {
    const s = setup();
    await s.service.dispatch('markGold', { project: 'p', itemIds: [s.ids[0]!], task: 'verdict' });
    let gold = goldOf(s.db, s.project.id);
    expect([...gold.keys()]).toEqual(['verdict']);
    await s.service.dispatch('markGold', { project: 'p', itemIds: [s.ids[0]!, s.ids[1]!] });
    await s.service.dispatch('unmarkGold', { project: 'p', itemIds: [s.ids[0]!], task: 'pairwise' });
    gold = goldOf(s.db, s.project.id);
    expect(gold.get('pairwise')?.has(s.ids[0]!)).toBe(false);
    expect(gold.get('pairwise')?.get(s.ids[1]!)?.choice).toBe('A');
    expect(gold.get('ranking')?.has(s.ids[0]!)).toBe(true);
    await s.service.dispatch('unmarkGold', { project: 'p', itemIds: [s.ids[0]!, s.ids[1]!] });
    expect(goldOf(s.db, s.project.id).size).toBe(0);
  });

  it('takes an adjudication as gold without a mark, before the file’s label', async () => {
    const s = setup();
    await s.service.dispatch('markGold', { project: 'p', itemIds: [s.ids[0]!] });
    await s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: s.ids[0]!, task: 'pairwise', choice: 'A', strength: 3 });
    await s.service.dispatch('adjudicate', { project: 'p', annotator: 'lead', itemId: s.ids[2]!, task: 'verdict', verdict: 'bad' });
    const gold = goldOf(s.db, s.project.id);
    expect(gold.get('pairwise')?.get(s.ids[0]!)).toMatchObject({ origin: 'adjudication', choice: 'A', strength: 3 });
    expect(gold.get('verdict')?.get(s.ids[2]!)).toMatchObject({ origin: 'adjudication', choice: 'bad' });
    expect(goldOf(s.db, s.project.id, 'verdict').has('pairwise')).toBe(false);
  });

  it('refuses items of another project and a mark that names both an import and items', async () => {
    const s = setup();
    await expect(s.service.dispatch('markGold', { project: 'p', itemIds: [99999] })).rejects.toThrow(/no item 99999/);
    await expect(s.service.dispatch('markGold', { project: 'p', itemIds: [s.ids[0]!], importId: 1 } as never)).rejects.toThrow(/either an import/);
  });

  it('marks the items of one import and not another’s', async () => {
    const s = setup();
    const first = await importFile(s.db, { path: fixture('hh-rlhf.jsonl'), project: 'p', createProject: false });
    const second = await importFile(s.db, { path: fixture('rewardbench.jsonl'), project: 'p', createProject: false });
    expect(first.items).toBe(3);
    const summary = await s.service.dispatch('goldSummary', { project: 'p' });
    expect(summary.imports.map((i) => i.items)).toEqual([3, second.items]);
    const marked = await s.service.dispatch('markGold', { project: 'p', importId: summary.imports[1]!.id });
    expect(marked).toEqual({ items: second.items, withFileLabels: second.items });
    const pairwise = goldOf(s.db, requireProject(s.db, 'p').id).get('pairwise')!;
    expect(pairwise.size).toBe(second.items);
    expect([...pairwise.values()].every((g) => g.origin === 'file' && g.choice === 'A')).toBe(true);
    await expect(s.service.dispatch('markGold', { project: 'p', importId: 999 })).rejects.toThrow(/no import 999/);
  });
});

describe('arbiter gold', () => {
  const cli = useCliDir('arbiter-gold-');
  it('lists the imports, marks one by --import, and unmarks items by id', async () => {
    await cli.cli(['import', fixture('hh-rlhf.jsonl'), '--project', 'g']);
    await cli.cli(['import', fixture('rewardbench.jsonl'), '--project', 'g']);
    const listed = JSON.parse((await cli.cli(['gold', '--project', 'g']))[0]!) as { imports: { id: number; items: number }[]; tasks: { task: string; total: number }[] };
    expect(listed.imports.length).toBe(2);
    expect(listed.tasks.find((t) => t.task === 'pairwise')?.total).toBe(0);
    const marked = JSON.parse((await cli.cli(['gold', '--project', 'g', '--import', String(listed.imports[0]!.id), '--task', 'pairwise', '--lead', 'lea']))[0]!);
    expect(marked).toMatchObject({ gold: true, by: 'lea', task: 'pairwise', items: 3, withFileLabels: 3 });
    const after = JSON.parse((await cli.cli(['gold', '--project', 'g']))[0]!) as typeof listed;
    expect(after.tasks.find((t) => t.task === 'pairwise')?.total).toBe(3);
    const unmarked = JSON.parse((await cli.cli(['gold', '--project', 'g', '--items', '#1', '--unmark']))[0]!);
    expect(unmarked).toMatchObject({ gold: false, items: 1 });
    const last = JSON.parse((await cli.cli(['gold', '--project', 'g']))[0]!) as typeof listed;
    expect(last.tasks.find((t) => t.task === 'pairwise')?.total).toBe(2);
  });
});
