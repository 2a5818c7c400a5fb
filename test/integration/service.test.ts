// The application service on a real SQLite file: labels as append-only revisions, undo, validation.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

function setup(items = 3) {
  const dbPath = join(tempDir(), 'arbiter.db');
  const { db, service, ids } = pairProject(dbPath, { items, texts: (i) => [`first ${i}`, `second ${i}`], models: ['m1', 'm2'], annotator: 'alice' });
  return { db, dbPath, service, ids };
}

describe('labels', () => {
  it('saves a revision per change and reports progress', async () => {
    const { service, ids } = setup();
    const item = (await service.dispatch('nextItem', { project: 'p', annotator: 'alice' }))!;
    expect(item.id).toBe(ids[0]);
    expect([...item.shownOrder].sort()).toEqual([0, 1]);
    await service.dispatch('saveLabel', { project: 'p', annotator: 'alice', itemId: item.id, choice: 'A', strength: 3, shownOrder: item.shownOrder });
    await service.dispatch('saveLabel', { project: 'p', annotator: 'alice', itemId: item.id, choice: 'B', strength: 1, shownOrder: item.shownOrder, rationale: 'B is exact' });
    const history = await service.dispatch('labelHistory', { project: 'p', itemId: item.id });
    expect(history.map((r) => [r.choice, r.strength])).toEqual([['A', 3], ['B', 1]]);
    const project = await service.dispatch('getProject', { project: 'p' });
    expect(project).toMatchObject({ items: 3, labeled: 1 });
    const next = (await service.dispatch('nextItem', { project: 'p', annotator: 'alice', afterSeq: item.seq }))!;
    expect(next.id).toBe(ids[1]);
    const again = (await service.dispatch('getItem', { project: 'p', annotator: 'alice', itemId: item.id }))!;
    expect(again.label).toMatchObject({ choice: 'B', strength: 1, body: { rationale: 'B is exact' } });
    expect(again.shownOrder).toEqual(item.shownOrder);
  });

  it('undo appends revisions that step back to the previous state, then to none', async () => {
    const { service, ids, db } = setup();
    const base = { project: 'p', annotator: 'alice', itemId: ids[0]! };
    await service.dispatch('saveLabel', { ...base, shownOrder: [1, 0], choice: 'A' });
    await service.dispatch('saveLabel', { ...base, shownOrder: [1, 0], choice: 'tie' });
    const first = await service.dispatch('undoLabel', base);
    expect(first?.choice).toBe('A');
    const second = await service.dispatch('undoLabel', base);
    expect(second?.choice).toBeNull();
    const view = await service.dispatch('getItem', { project: 'p', annotator: 'alice', itemId: ids[0]! });
    expect(view?.label).toBeNull();
    expect((await service.dispatch('getProject', { project: 'p' })).labeled).toBe(0);
    // Nothing was updated in place: four revisions, oldest first.
    const revisions = db.prepare('SELECT choice FROM label ORDER BY seq').pluck().all();
    expect(revisions).toEqual(['A', 'tie', 'A', null]);
  });

  it('stores the source-order choice with the order shown', async () => {
    const { service, ids } = setup();
    const saved = await service.dispatch('saveLabel', { project: 'p', annotator: 'bob', itemId: ids[1]!, choice: 'B', shownOrder: [1, 0] });
    expect(saved).toMatchObject({ choice: 'B', strength: 2, shownOrder: [1, 0], annotator: 'bob', annotatorKind: 'human' });
    expect(saved.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
  });
});

describe('bad input changes nothing', () => {
  it('refuses wrong shapes, unknown projects and items with clear errors', async () => {
    const { service, ids, db } = setup();
    const count = () => db.prepare('SELECT COUNT(*) FROM label').pluck().get();
    await expect(service.dispatch('saveLabel', { project: 'p', annotator: 'a', itemId: ids[0], choice: 'C', shownOrder: [0, 1] })).rejects.toThrow(/choice/);
    await expect(service.dispatch('saveLabel', { project: 'nope', annotator: 'a', itemId: ids[0], choice: 'A', shownOrder: [0, 1] })).rejects.toThrow(/No project named "nope"/);
    await expect(service.dispatch('saveLabel', { project: 'p', annotator: 'a', itemId: 9999, choice: 'A', shownOrder: [0, 1] })).rejects.toThrow(/has no item 9999/);
    await expect(service.dispatch('saveLabel', { project: 'p', annotator: 'a', itemId: ids[0], choice: 'A', shownOrder: [0, 0] })).rejects.toThrow(/shownOrder/);
    await expect(service.dispatch('saveLabel', { project: 'p', annotator: 'source', itemId: ids[0], choice: 'A', shownOrder: [0, 1] })).rejects.toThrow(/reserved/);
    await expect(service.dispatch('createProject', { name: 'a/b' })).rejects.toThrow(/slash/);
    await expect(service.dispatch('createProject', { name: 'p' })).rejects.toThrow(/already exists/);
    await expect(service.dispatch('listProjects', { extra: 1 })).rejects.toThrow();
    expect(count()).toBe(0);
    expect((await service.dispatch('listProjects', {})).map((p) => p.name)).toEqual(['p']);
  });
});
