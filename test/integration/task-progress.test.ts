// Progress per task, true everywhere (issue 13, finding 20): after rankings, verdicts and step chains the
// project summary, `arbiter projects` and `arbiter stats` count each task's work over that task's own items,
// and each screen's header total covers what its count counts. Also where a project opens (finding 18).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importLines } from '../../electron/core/formats/index';
import { ArbiterService } from '../../electron/core/service/index';
import { openDb } from '../../electron/core/store/db';
import { runCli } from '../../electron/cli/main';
import { tempDir } from '../helpers/tmp';

const chain = (n: number) => ({ id: `chain${n}`, prompt: `chain ${n}`, responses: [{ text: `s1 ${n}\ns2 ${n}`, steps: [`one ${n}`, `two ${n}`] }] });

async function setup(items: object[]) {
  const dbPath = join(tempDir(), 'a.db');
  const db = openDb(dbPath);
  await importLines(db, { project: 'p', fileName: 'p.jsonl', lines: items.map((i) => JSON.stringify(i)), sha256: 's', format: 'arbiter', skipInvalid: false, createProject: true });
  const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
  const id = (external: string) => db.prepare('SELECT id FROM item WHERE external_id = ?').pluck().get(external) as number;
  return { db, dbPath, service, id };
}

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('progress per task', () => {
  it('counts rankings, verdicts and step chains in the summary, `projects` and `stats`', async () => {
    const items = [
      { id: 'pair1', prompt: 'x', responses: [{ text: 'a' }, { text: 'b' }] },
      { id: 'rank1', prompt: 'y', responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] },
      { id: 'one', prompt: 'z', responses: [{ text: 'just one' }] },
      chain(1),
      chain(2),
    ];
    const { db, dbPath, service, id } = await setup(items);
    await service.dispatch('saveRanking', { project: 'p', annotator: 'ann', itemId: id('rank1'), ranking: [[2], [0], [1]], shownOrder: [0, 1, 2] });
    await service.dispatch('saveVerdict', { project: 'p', annotator: 'ann', itemId: id('one'), verdict: 'good' });
    for (const c of ['chain1', 'chain2'])
      await service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: id(c), response: 0, steps: { version: 1, ratings: [1, 1], firstError: -1 } });

    const summary = await service.dispatch('getProject', { project: 'p' });
    const byTask = Object.fromEntries(summary.tasks.map((t) => [t.task, [t.labeled, t.total]]));
    expect(byTask).toEqual({ pairwise: [0, 1], ranking: [1, 1], steps: [2, 3], verdict: [1, 3] });
    expect(summary.shapes).toEqual({ pairs: 1, ranked: 1, single: 3, chains: 2 });
    // Three single responses of five items: the project opens on the step screen (most singles have steps).
    expect(summary.opensOn).toBe('steps');

    db.close();
    const listed = await cli(['projects', '--db', dbPath]);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain('pairs 0/1 · ranks 1/1 · steps 2/3 · verdicts 1/3');
    const json = JSON.parse((await cli(['projects', '--json', '--db', dbPath])).out) as { tasks: { task: string; labeled: number }[] }[];
    expect(json[0]!.tasks.find((t) => t.task === 'steps')?.labeled).toBe(2);

    const stats = await cli(['stats', '--project', 'p', '--db', dbPath]);
    expect(stats.code, stats.err).toBe(0);
    expect(stats.out).not.toMatch(/0 of 5 items labeled/);
    expect(stats.out).toContain('pairs 0/1 · ranks 1/1 · steps 2/3 · verdicts 1/3');
    const statsJson = JSON.parse((await cli(['stats', '--project', 'p', '--json', '--db', dbPath])).out) as { tasks: { task: string; labeled: number; total: number }[]; annotators: { name: string; task: string; labeled: number }[] };
    expect(statsJson.tasks.find((t) => t.task === 'ranking')).toMatchObject({ labeled: 1, total: 1 });
    expect(statsJson.annotators).toContainEqual(expect.objectContaining({ name: 'ann', task: 'steps', labeled: 2 }));
  });

  it("the step screen's header total covers a pair's responses rated step by step (never 1 / 0)", async () => {
    const { service, id } = await setup([
      { id: 'pair1', prompt: 'x', responses: [{ text: 'a', steps: ['a1', 'a2'] }, { text: 'b' }] },
      { id: 'pair2', prompt: 'y', responses: [{ text: 'c' }, { text: 'd' }] },
    ]);
    await service.dispatch('saveSteps', { project: 'p', annotator: 'ann', itemId: id('pair1'), response: 0, steps: { version: 1, ratings: [1, -1], firstError: 1 } });
    const progress = await service.dispatch('progress', { project: 'p', annotator: 'ann', task: 'steps' });
    expect(progress.labeledByMe).toBe(1);
    expect(progress.total).toBeGreaterThanOrEqual(1);
    const summary = await service.dispatch('getProject', { project: 'p' });
    expect(summary.opensOn).toBe('compare');
    expect(summary.tasks.find((t) => t.task === 'steps')).toMatchObject({ labeled: 1, total: 1 });
  });

  it('opens each shape on its own screen, a mixed project on the shape most items have, an empty one on Datasets', async () => {
    const open = async (items: object[]) => (await (await setup(items)).service.dispatch('getProject', { project: 'p' })).opensOn;
    expect(await open([chain(1), chain(2)])).toBe('steps');
    expect(await open([{ id: 'a', prompt: 'x', responses: [{ text: 'one' }] }])).toBe('verdict');
    expect(await open([{ id: 'r', prompt: 'x', responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] }, { id: 'p', prompt: 'y', responses: [{ text: 'a' }, { text: 'b' }] }])).toBe('compare');
    expect(
      await open([
        { id: 'r', prompt: 'x', responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] },
        { id: 's', prompt: 'z', responses: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }] },
        { id: 'p', prompt: 'y', responses: [{ text: 'a' }, { text: 'b' }] },
      ]),
    ).toBe('rank');
    const dbPath = join(tempDir(), 'e.db');
    const db = openDb(dbPath);
    const service = new ArbiterService(db, { dbPath, transport: 'http', version: 't', defaultAnnotator: 'ann' });
    await service.dispatch('createProject', { name: 'empty' });
    expect((await service.dispatch('getProject', { project: 'empty' })).opensOn).toBe('datasets');
  });
});
